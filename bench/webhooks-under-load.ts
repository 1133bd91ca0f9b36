import { readFileSync } from 'node:fs'
import pg from 'pg'
import { createParties, targetsOf } from './lib/fixtures.js'
import type { Receiver } from './lib/receiver.js'
import type { BenchServer } from './lib/server.js'
import { postgresCpuMicros, processCpuMicros } from './lib/postgres.js'
import { percentile, round, sleep } from './lib/stats.js'
import { rollLoad } from './stateful.js'

/** Issue 28's two ways to run delivery: `npm run worker` beside an API that only queues, or inside the API. */
export type Layout = 'worker' | 'in-process'

export interface UnderLoadResult {
  layout: Layout
  endpoints: number
  loadSeconds: number
  /** Rolls committed during the load (each an event fanned out to every endpoint). */
  events: number
  eventsPerSecond: number
  rollP99: number
  /** Deliveries that reached the receiver before the load ended, over events × endpoints. */
  deliveredDuringLoad: number
  deliveriesPerSecondDuringLoad: number
  shareDuringLoad: number
  /** The same share for the endpoint that received the fewest. */
  worstEndpointShareDuringLoad: number
  lagP50: number
  lagP99: number
  lagMax: number
  /** From the end of the load to the last expected delivery; null if not all arrived within a minute. */
  drainSeconds: number | null
  delivered: number
  expected: number
  duplicates: number
  /** Peak RSS of the process that delivers (the worker, or the API with its dispatcher), MB. */
  dispatcherRssPeakMb: number
  /** Share of samples in which an endpoint row could not be locked FOR UPDATE / FOR NO KEY UPDATE (SKIP LOCKED). */
  lockedForUpdate: number
  lockedForNoKeyUpdate: number
  /** Share of one core each used during the load: the delivering process, the API (when separate), PostgreSQL. */
  cpuDuringLoad: { dispatcher: number; api: number; postgres: number; loadGenerator: number }
}

/** One campaign, its characters, and `endpoints` webhook endpoints on it, each under its own path of the receiver. */
export async function setUpFanOut(server: BenchServer, receiver: Receiver, endpoints: number) {
  const [party] = await createParties(server.url, { campaigns: 1, characters: 10, webhookUrl: `${receiver.url}/e1` })
  const endpointIds = [party!.endpointId!]
  for (let n = 2; n <= endpoints; n++) {
    const res = await fetch(`${server.url}/v1/campaigns/${party!.campaignId}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${party!.key}` },
      body: JSON.stringify({ url: `${receiver.url}/e${n}` }),
    })
    if (res.status !== 201) throw new Error(`webhook ${n}: ${res.status} ${await res.text()}`)
    endpointIds.push(((await res.json()) as { id: string }).id)
  }
  return { party: party!, endpointIds }
}

function rssMb(pid: number): number {
  try {
    const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return line ? Number(line[1]) / 1024 : 0
  } catch {
    return 0
  }
}

/**
 * Samples, 10 times a second, whether each endpoint row could be locked right now the way the
 * claim did (FOR UPDATE) and the way it does (FOR NO KEY UPDATE), both SKIP LOCKED as the claim
 * asks: what the claim would have skipped. Each probe holds its lock for one round trip.
 */
function probeEndpointLocks(databaseUrl: string, endpointIds: string[]) {
  const client = new pg.Client({ connectionString: databaseUrl })
  const skipped = { 'FOR UPDATE': 0, 'FOR NO KEY UPDATE': 0 }
  let samples = 0
  let running = true
  const probe = async (strength: keyof typeof skipped) => {
    await client.query('BEGIN')
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM webhook_endpoints WHERE id = ANY($1::uuid[]) ${strength} SKIP LOCKED) locked`,
      [endpointIds],
    )
    await client.query('ROLLBACK')
    skipped[strength] += endpointIds.length - rows[0]!.n
  }
  const done = (async () => {
    await client.connect()
    while (running) {
      await probe('FOR UPDATE')
      await probe('FOR NO KEY UPDATE')
      samples += endpointIds.length
      await sleep(100)
    }
    await client.end()
  })()
  return async () => {
    running = false
    await done
    return {
      forUpdate: samples ? skipped['FOR UPDATE'] / samples : 0,
      forNoKeyUpdate: samples ? skipped['FOR NO KEY UPDATE'] / samples : 0,
    }
  }
}

async function lastSeq(databaseUrl: string, campaignId: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ seq: string }>('SELECT last_seq AS seq FROM campaigns WHERE id = $1', [
      campaignId,
    ])
    return Number(rows[0]!.seq)
  } finally {
    await client.end()
  }
}

/**
 * Rolls at full speed on one campaign with `endpoints` endpoints for `seconds`, while the
 * dispatcher (in `dispatcherPid`) delivers them; what reached the receiver during the load,
 * how late, and how long the rest took after it.
 */
export async function deliverUnderLoad(
  layout: Layout,
  server: BenchServer,
  databaseUrl: string,
  receiver: Receiver,
  fanOut: Awaited<ReturnType<typeof setUpFanOut>>,
  options: { seconds: number; connections: number; dispatcherPid: number },
): Promise<UnderLoadResult> {
  const { party, endpointIds } = fanOut
  const endpoints = endpointIds.length
  receiver.reset()
  let rssPeak = rssMb(options.dispatcherPid)
  const rssTimer = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(options.dispatcherPid))), 200)
  const stopProbe = probeEndpointLocks(databaseUrl, endpointIds)
  try {
    const seqBefore = await lastSeq(databaseUrl, party.campaignId)
    const loadCpu = process.cpuUsage()
    const cpuBefore = [
      processCpuMicros(options.dispatcherPid),
      processCpuMicros(server.pid),
      await postgresCpuMicros(databaseUrl),
    ]
    const loadStart = Date.now()
    const rolls = await rollLoad(server, targetsOf([party]), options.connections, options.seconds)
    const loadEnd = Date.now()
    const { user, system } = process.cpuUsage(loadCpu)
    const cpuAfter = [
      processCpuMicros(options.dispatcherPid),
      processCpuMicros(server.pid),
      await postgresCpuMicros(databaseUrl),
    ]
    const [dispatcher = 0, api = 0, postgres = 0] = cpuAfter.map((after, i) =>
      round((after - cpuBefore[i]!) / 1000 / (loadEnd - loadStart), 2),
    )
    const locks = await stopProbe()
    const events = (await lastSeq(databaseUrl, party.campaignId)) - seqBefore
    const expected = events * endpoints
    // Only the load's events: deliveries of the set-up's may still arrive at its start.
    const ofLoad = () => receiver.arrivals().filter((arrival) => arrival.occurredAt >= loadStart)
    const distinct = () => new Set(ofLoad().map((arrival) => arrival.id)).size
    const deadline = Date.now() + 60_000
    while (distinct() < expected && Date.now() < deadline) await sleep(50)
    const arrivals = ofLoad()
    const during = arrivals.filter((arrival) => arrival.at <= loadEnd)
    const perEndpoint = endpointIds.map(
      (_, i) => during.filter((arrival) => arrival.path.endsWith(`/e${i + 1}`)).length,
    )
    const lags = arrivals.map((arrival) => arrival.lag)
    const loadSeconds = (loadEnd - loadStart) / 1000
    const delivered = distinct()
    const drained = delivered >= expected
    const lastAt = Math.max(...arrivals.map((arrival) => arrival.at))
    return {
      layout,
      endpoints,
      loadSeconds: round(loadSeconds, 1),
      events,
      eventsPerSecond: round(events / loadSeconds, 0),
      rollP99: rolls.p99,
      deliveredDuringLoad: during.length,
      deliveriesPerSecondDuringLoad: round(during.length / loadSeconds, 0),
      shareDuringLoad: round(during.length / expected, 3),
      worstEndpointShareDuringLoad: round(Math.min(...perEndpoint) / events, 3),
      lagP50: percentile(lags, 50),
      lagP99: percentile(lags, 99),
      lagMax: percentile(lags, 100),
      drainSeconds: drained ? round(Math.max(0, lastAt - loadEnd) / 1000, 2) : null,
      delivered,
      expected,
      duplicates: arrivals.length - delivered,
      dispatcherRssPeakMb: round(rssPeak, 0),
      lockedForUpdate: round(locks.forUpdate, 3),
      lockedForNoKeyUpdate: round(locks.forNoKeyUpdate, 3),
      cpuDuringLoad: {
        dispatcher,
        api: layout === 'in-process' ? dispatcher : api,
        postgres,
        loadGenerator: round((user + system) / 1000 / (loadEnd - loadStart), 2),
      },
    }
  } finally {
    clearInterval(rssTimer)
  }
}
