// The CPU one webhook delivery costs the dispatcher's HTTP client (issue 28):
// `tsx bench/webhook-client-cpu.ts [requests per round] [chains] [rounds]`.
// A receiver on its own thread answers 204; `chains` sequential chains (one per endpoint path,
// as the dispatcher sends each endpoint's deliveries one at a time) post a webhook-sized body
// with the dispatcher's headers. Each client runs once per round, in a rotating order; its CPU
// is the process's (process.cpuUsage) less the receiver thread's own, per request, and the
// receiver counts the connections each client opened (keep-alive reuse). Ratios are against
// a bare node:http request measured in the same run (Nerve's client used node:http before
// issue 28: 108–127 µs a request then, docs/BENCHMARKS.md 4c).
import http from 'node:http'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import { Agent, request as undiciRequest, type Dispatcher } from 'undici'
import { createAgents, postWebhook } from '../src/webhooks/http-client.js'
import { median, round } from './lib/stats.js'

interface ReceiverStats {
  requests: number
  connections: number
  cpuMicros: number
}

interface Client {
  name: string
  /** Sends one delivery; resolves when its answer is read. */
  send(url: string, headers: Record<string, string>, body: string): Promise<unknown>
  close(): Promise<void>
}

const PORT = Number(process.env.BENCH_RECEIVER_PORT ?? 41268)

/** Roughly a stress check's event as a webhook body (~1.1 kB). */
const BODY = JSON.stringify({
  type: 'stress-check',
  timestamp: new Date().toISOString(),
  data: {
    id: '0193a0c4-7a1e-7c3b-9f52-3e1d2b4c5a6f',
    campaignId: '0193a0c4-6f00-7000-8000-000000000001',
    characterId: '0193a0c4-6f00-7000-8000-000000000002',
    seq: 1234,
    visibility: 'public',
    outcome: {
      meter: 'violence',
      rank: 4,
      dice: [{ face: 37, purpose: 'stress-check', source: 'server' }],
      success: false,
      consequences: ['gains a failed notch in violence', 'chooses a response: panic'],
      sheet: { violence: { hardened: 2, failed: 3 }, unnatural: { hardened: 0, failed: 1 } },
    },
    note: 'Shot the cultist on the stairs, then ran. '.repeat(12),
  },
})

function headers(n: number): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Nerve-Webhooks/0.1.0',
    'webhook-id': `msg_0193a0c4-7a1e-7c3b-9f52-${String(n).padStart(12, '0')}`,
    'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    'webhook-signature': 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  }
}

function clients(): Client[] {
  const agents = createAgents()
  const keepAlive = new http.Agent({ keepAlive: true })
  const undiciAgent = new Agent()
  const undiciDispatchAgent = new Agent()
  const asWebhook = (url: string, headers: Record<string, string>, body: string) => ({
    url,
    headers,
    body,
    timeoutMs: 10_000,
    allowPrivate: true,
  })
  return [
    {
      name: 'bare http.request, keep-alive agent',
      send: (url, headers, body) =>
        new Promise<void>((resolve, reject) => {
          const req = http.request(
            url,
            {
              method: 'POST',
              agent: keepAlive,
              headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
            },
            (res) => {
              res.resume()
              res.on('end', resolve)
            },
          )
          req.on('error', reject)
          req.end(body)
        }),
      close: async () => keepAlive.destroy(),
    },
    {
      name: 'postWebhook (src/webhooks/http-client.ts)',
      send: (url, headers, body) => postWebhook(asWebhook(url, headers, body), agents),
      close: () => agents.close(),
    },
    {
      name: 'undici request() + body.dump()',
      send: async (url, headers, body) => {
        const response = await undiciRequest(url, { method: 'POST', headers, body, dispatcher: undiciAgent })
        await response.body.dump()
      },
      close: () => undiciAgent.destroy(),
    },
    {
      name: 'undici dispatch() with a handler',
      send: (url, headers, body) =>
        new Promise<void>((resolve, reject) => {
          const { origin, pathname } = new URL(url)
          const handler: Dispatcher.DispatchHandler = {
            onRequestStart: () => undefined,
            onResponseEnd: () => resolve(),
            onResponseError: (_controller, error) => reject(error),
          }
          undiciDispatchAgent.dispatch({ origin, path: pathname, method: 'POST', headers, body }, handler)
        }),
      close: () => undiciDispatchAgent.destroy(),
    },
  ]
}

/** This thread's CPU time in µs, 10 ms resolution. */
function mainThreadCpuMicros(): number {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

async function startReceiver() {
  const thread = new Worker(new URL('./lib/counting-receiver-thread.mjs', import.meta.url), {
    workerData: { port: PORT },
  })
  await once(thread, 'message')
  return {
    url: `http://127.0.0.1:${PORT}`,
    async stats(): Promise<ReceiverStats> {
      thread.postMessage('stats')
      const [stats] = (await once(thread, 'message')) as [ReceiverStats]
      return stats
    },
    async close() {
      thread.postMessage('close')
      await once(thread, 'message')
      await thread.terminate()
    },
  }
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>

let sent = 0

async function run(client: Client, receiver: Receiver, requests: number, chains: number) {
  const before = await receiver.stats()
  const cpu = process.cpuUsage()
  const mainBefore = mainThreadCpuMicros()
  await Promise.all(
    Array.from({ length: chains }, async (_, chain) => {
      const url = `${receiver.url}/endpoint-${chain}`
      for (let i = chain; i < requests; i += chains) await client.send(url, headers(sent++), BODY)
    }),
  )
  const used = process.cpuUsage(cpu)
  const main = mainThreadCpuMicros() - mainBefore
  const after = await receiver.stats()
  const receiverCpu = after.cpuMicros - before.cpuMicros
  const handled = after.requests - before.requests
  if (handled !== requests) throw new Error(`${client.name}: the receiver got ${handled} of ${requests} requests`)
  return {
    /** The process's CPU less the receiver thread's, per request. */
    perRequest: (used.user + used.system - receiverCpu) / requests,
    mainPerRequest: main / requests,
    connections: after.connections - before.connections,
  }
}

const [requests = 5_000, chains = 10, rounds = 5] = process.argv.slice(2).map(Number)
const receiver = await startReceiver()
const all = clients()
try {
  // Warm-up: JIT, and the keep-alive pools filled.
  for (const client of all) await run(client, receiver, 1_000, chains)
  const results = new Map(all.map((client) => [client.name, [] as Awaited<ReturnType<typeof run>>[]]))
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < all.length; i++) {
      const client = all[(i + round) % all.length]!
      results.get(client.name)!.push(await run(client, receiver, requests, chains))
    }
  }
  const baseline = median(results.get(all[0]!.name)!.map((r) => r.perRequest))
  console.log(
    `${requests} requests per round, ${chains} chains, ${rounds} rounds; medians over the rounds (load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]})`,
  )
  console.log(
    'client | CPU µs/request (process − receiver) | main thread only | ratio to bare http.request | connections opened per round',
  )
  for (const client of all) {
    const runs = results.get(client.name)!
    const perRequest = median(runs.map((r) => r.perRequest))
    console.log(
      [
        client.name,
        round(perRequest, 0),
        round(median(runs.map((r) => r.mainPerRequest)), 0),
        round(perRequest / baseline, 2),
        runs.map((r) => r.connections).join('/'),
      ].join(' | '),
    )
  }
} finally {
  for (const client of all) await client.close()
  await receiver.close()
}
