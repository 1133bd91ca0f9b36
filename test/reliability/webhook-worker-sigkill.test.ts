import t from 'tap'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../../src/app.js'
import { NO_LIMITS, testConfig } from '../helpers/config.js'
import { freshDatabaseUrl, TEST_DATABASE_URL } from '../helpers/database.js'
import { LONG, pool, scale } from '../helpers/reliability.js'
import { startReceiver } from '../helpers/webhook-receiver.js'
import { campaignWithCharacter, createWebhook, newSession, type CreatedWebhook } from '../helpers/webhooks.js'

const WORKER = fileURLToPath(new URL('../../src/worker.ts', import.meta.url))
const ROLLS = scale(240, 3_000)
const ENDPOINTS = 3

t.test(
  `a webhook worker killed with SIGKILL while ${ROLLS} events are written loses none and gives each event one webhook-id${LONG ? ' (long form)' : ''}`,
  {
    skip: TEST_DATABASE_URL
      ? false
      : 'needs PostgreSQL: the API and its workers are separate processes on one database',
  },
  async (t) => {
    const url = (await freshDatabaseUrl(t))!
    const env = {
      DATABASE_URL: url,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0.1,0.2,0.5,1,1,1,1,1',
      // A delivery leased by the killed worker goes out again when its lease (2 × timeout + 5 s) runs out.
      WEBHOOK_TIMEOUT_MS: '1000',
    }
    // A short pause before each answer keeps deliveries in flight when the worker dies.
    const receiver = await startReceiver(t, { answer: () => ({ status: 200, delayMs: 2 }) })
    const app = await buildApp(testConfig({ ...NO_LIMITS, ...env, WEBHOOK_DISPATCHER: 'off' }), { logger: false })
    t.teardown(() => app.close())
    await app.ready()
    const { campaign, auth, ids } = await campaignWithCharacter(app)
    const endpoints: CreatedWebhook[] = []
    for (let n = 1; n <= ENDPOINTS; n++) {
      endpoints.push(await createWebhook(app, campaign.id, auth, { url: `${receiver.url}/e${n}` }))
    }

    const startWorker = () => {
      const worker = spawn(process.execPath, ['--import', 'tsx', WORKER], {
        env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...NO_LIMITS, ...env },
        stdio: ['ignore', 'ignore', 'inherit'],
      })
      t.teardown(() => worker.kill('SIGKILL'))
      return { worker, exited: once(worker, 'exit') }
    }
    const first = startWorker()

    const recorded: { id: string; seq: number }[] = []
    let killed = false
    let second: ReturnType<typeof startWorker> | undefined
    await pool(ROLLS, 4, async () => {
      const { event } = await newSession(app, auth, ids)
      recorded.push({ id: event.id, seq: event.seq })
      // Once a quarter is delivered, or well into the load if the worker lags behind it.
      if (!killed && (receiver.received.length >= (ROLLS * ENDPOINTS) / 4 || recorded.length >= ROLLS * 0.6)) {
        killed = true
        first.worker.kill('SIGKILL')
        second = startWorker()
      }
    })
    const [, signal] = await first.exited
    t.equal(signal, 'SIGKILL', 'the first worker was killed while events were being written')
    t.ok(second, 'and a second one took over')

    const expected = (path: string) =>
      receiver.received.filter((request) => request.path === path && request.payload.type === 'new-session')
    await receiver.waitFor(
      `every one of the ${ROLLS} events at each of the ${ENDPOINTS} endpoints`,
      () =>
        endpoints.every((_, i) => new Set(expected(`/hooks/e${i + 1}`).map((r) => r.payload.data.id)).size === ROLLS),
      120_000,
    )
    for (const [i, endpoint] of endpoints.entries()) {
      const received = expected(`/hooks/e${i + 1}`)
      const idsOf = new Map<string, Set<string>>()
      for (const request of received) {
        const eventId = String(request.payload.data.id)
        idsOf.set(eventId, (idsOf.get(eventId) ?? new Set()).add(request.id))
      }
      t.same(
        recorded.filter((event) => !idsOf.has(event.id)),
        [],
        `endpoint ${i + 1} received every event recorded (${endpoint.id})`,
      )
      t.ok(
        [...idsOf.values()].every((webhookIds) => webhookIds.size === 1),
        `endpoint ${i + 1} received each event under one webhook-id, repeats included`,
      )
      const firstArrivals = [...new Map(received.map((request) => [request.id, request.payload.data.seq!])).values()]
      t.ok(
        firstArrivals.every((seq, n) => n === 0 || seq > firstArrivals[n - 1]!),
        `endpoint ${i + 1} first received the events in their order`,
      )
      t.comment(`endpoint ${i + 1}: ${received.length - idsOf.size} repeats after the kill, as at-least-once allows`)
    }
    const allIds = receiver.received.map((request) => `${request.path} ${request.id}`)
    const webhookIds = new Set(receiver.received.map((request) => request.id))
    t.equal(webhookIds.size, new Set(allIds).size, 'no webhook-id was used at two endpoints or for two events')

    second!.worker.kill('SIGTERM')
    const [code] = await second!.exited
    t.equal(code, 0, 'the second worker stops cleanly')
  },
)
