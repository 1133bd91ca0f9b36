import t from 'tap'
import { execFile } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { buildApp } from '../../src/app.js'
import { testConfig } from '../helpers/config.js'
import {
  checkHistory,
  injectClient,
  LONG,
  percentile,
  problemFault,
  rollPath,
  scale,
  setUpTable,
  type Answer,
} from '../helpers/reliability.js'
import { eventually, unusedPort } from '../helpers/webhook-receiver.js'

const run = promisify(execFile)
const SCRIPT = fileURLToPath(new URL('../../scripts/throwaway-postgres.sh', import.meta.url))

const CONNECT_TIMEOUT_MS = 1_000
const HEALTHY_MS = scale(1_500, 10_000)
const OUTAGE_MS = scale(2_500, 20_000)
const CONCURRENCY = 8

function postgresBinaries(): string | null {
  if (process.env.PG_BIN) return existsSync(join(process.env.PG_BIN, 'pg_ctl')) ? process.env.PG_BIN : null
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return null
  const versions = readdirSync(root).filter((version) => existsSync(join(root, version, 'bin', 'pg_ctl')))
  return versions.length > 0 ? join(root, versions.sort().at(-1)!, 'bin') : null
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Phase = 'before' | 'outage' | 'after'

interface Sample {
  phase: Phase
  status: number
  ms: number
  fault: string | null
  code: string | undefined
  retryAfter: string | undefined
  eventId: string | undefined
}

t.test(
  `PostgreSQL restarted under load: requests fail fast with 503, readiness goes red then green, the service recovers without a restart${LONG ? ' (long form)' : ''}`,
  {
    skip: postgresBinaries()
      ? false
      : 'needs the PostgreSQL server binaries (/usr/lib/postgresql/*/bin or PG_BIN) to run a private cluster it can stop',
  },
  async (t) => {
    // A private cluster, since this test stops and starts it: never the shared TEST_DATABASE_URL.
    const dir = await mkdtemp(join(tmpdir(), 'nerve-pg-restart-'))
    const port = await unusedPort()
    const url = (await run(SCRIPT, ['start', dir, String(port)])).stdout.trim()
    t.teardown(() => run(SCRIPT, ['stop', dir]))

    const app = await buildApp(
      testConfig({
        DATABASE_URL: url,
        DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
        LOG_LEVEL: 'silent',
      }),
      { logger: false },
    )
    t.teardown(() => app.close())
    await app.ready()
    const client = injectClient(app)
    const table = await setUpTable(client, 4)

    let phase: Phase = 'before'
    let stopping = false
    const samples: Sample[] = []
    const readiness: { phase: Phase; status: number; ms: number }[] = []
    let n = 0
    const record = (res: Answer, at: Phase) => {
      const body = res.status === 201 || res.status >= 400 ? safeJson(res.body) : undefined
      samples.push({
        phase: at,
        status: res.status,
        ms: res.ms,
        fault: res.status >= 400 ? problemFault(res) : null,
        code: body?.code,
        retryAfter: res.headers['retry-after'],
        eventId: res.status === 201 ? body?.event?.id : undefined,
      })
    }
    const worker = async () => {
      while (!stopping) {
        const { path, body } = rollPath(table, n++)
        try {
          // Counted in the phase it was answered in.
          record(await client.request('POST', path, table.gmKey, body), phase)
        } catch (error) {
          // Only a failed test closes the app under the workers; anything else shows as status 0.
          samples.push({
            phase,
            status: 0,
            ms: 0,
            fault: String(error),
            code: String(error),
            retryAfter: undefined,
            eventId: undefined,
          })
          if (String(error).includes('closed')) return
        }
      }
    }
    const prober = async () => {
      while (!stopping) {
        const res = await client.request('GET', '/health/ready', null).catch(() => null)
        if (res === null) return
        readiness.push({ phase, status: res.status, ms: res.ms })
        await sleep(100)
      }
    }
    const load = Promise.all([...Array.from({ length: CONCURRENCY }, worker), prober()])
    t.teardown(() => {
      stopping = true
      return load
    })

    await sleep(HEALTHY_MS)
    // The outage begins as the shutdown does: requests in flight then already fail.
    phase = 'outage'
    await run(SCRIPT, ['halt', dir])
    await sleep(OUTAGE_MS)
    // A loaded machine may answer few requests in that time: keep the outage until it shows.
    await eventually(
      'the outage to show in answers and in readiness',
      async () => ({
        answered: samples.some((sample) => sample.phase === 'outage' && sample.status === 503),
        probed: readiness.some((probe) => probe.phase === 'outage' && probe.status === 503),
      }),
      ({ answered, probed }) => answered && probed,
    )
    await run(SCRIPT, ['resume', dir, String(port)])
    const resumedAt = Date.now()
    phase = 'after'
    // Green again, then a while of normal traffic.
    while (!readiness.some((probe) => probe.phase === 'after' && probe.status === 200)) {
      if (Date.now() - resumedAt > 120_000) break
      await sleep(50)
    }
    const greenAfterMs = Date.now() - resumedAt
    await sleep(HEALTHY_MS)
    stopping = true
    await load

    const by = (at: Phase) => samples.filter((sample) => sample.phase === at)
    const outage = by('outage')
    const statuses = (list: Sample[]) =>
      JSON.stringify(
        Object.fromEntries(
          [...new Set(list.map((s) => s.status))].map((s) => [s, list.filter((x) => x.status === s).length]),
        ),
      )
    t.ok(
      by('before').length > 0 && by('before').every((s) => s.status === 201),
      `before: every roll acknowledged ${statuses(by('before'))}`,
    )

    const unavailable = samples.filter((sample) => sample.status === 503)
    t.ok(unavailable.length > 0, `during the outage: ${statuses(outage)}`)
    t.same(
      samples
        .filter((sample) => sample.status !== 201 && sample.status !== 503)
        .map((s) => `${s.phase} ${s.status} ${s.code}`),
      [],
      'no answer was anything but 201 or 503: no 500, no hang',
    )
    t.same(
      unavailable.filter((sample) => sample.fault !== null).map((sample) => sample.fault),
      [],
      'every 503 is valid problem details',
    )
    t.ok(
      unavailable.every((sample) => sample.code === 'DATABASE_UNAVAILABLE' && Number(sample.retryAfter) > 0),
      'each names the database (code DATABASE_UNAVAILABLE) and says when to retry (Retry-After)',
    )
    const outageMs = outage.filter((sample) => sample.status === 503).map((sample) => sample.ms)
    // Bounded by the connect timeout, not by the transaction timeout (30 s) or TCP's: slack for a busy machine.
    t.ok(
      Math.max(...outageMs) < CONNECT_TIMEOUT_MS + 5_000,
      `503s came fast: ${outageMs.length} in ${(OUTAGE_MS / 1000).toFixed(1)} s, p50 ${percentile(outageMs, 50).toFixed(1)} ms, p99 ${percentile(outageMs, 99).toFixed(1)} ms, max ${Math.max(...outageMs).toFixed(1)} ms (connect timeout ${CONNECT_TIMEOUT_MS} ms)`,
    )

    const probes = (at: Phase) => readiness.filter((probe) => probe.phase === at).map((probe) => probe.status)
    t.equal(probes('before')[0], 200, 'readiness was green before')
    t.ok(probes('outage').includes(503), `readiness went red during the outage (${probes('outage').length} probes)`)
    t.ok(probes('after').includes(200), `readiness went green again ${greenAfterMs} ms after PostgreSQL was back`)
    t.equal(probes('after').at(-1), 200, 'and stayed green')
    const after = by('after')
    const recovered = after.filter((sample) => sample.status === 201).length
    t.ok(recovered > 0, `the same app serves again without a restart: ${statuses(after)} after the restart`)

    const acknowledged = new Set(samples.flatMap((sample) => (sample.eventId ? [sample.eventId] : [])))
    // A 503 whose commit reached the server before the connection died may still have recorded its event.
    await checkHistory(t, client, table, acknowledged, unavailable.length)
  },
)

function safeJson(text: string): any {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
