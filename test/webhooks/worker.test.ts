import t from 'tap'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../../src/app.js'
import { NO_LIMITS, testConfig } from '../helpers/config.js'
import { freshDatabaseUrl } from '../helpers/database.js'
import { startReceiver } from '../helpers/webhook-receiver.js'
import { allDeliveries, campaignWithCharacter, createWebhook, FAST_WEBHOOKS, newSession } from '../helpers/webhooks.js'

const WORKER = fileURLToPath(new URL('../../src/worker.ts', import.meta.url))

t.test('with WEBHOOK_DISPATCHER=off the service only queues; `npm run worker` delivers', async (t) => {
  const url = await freshDatabaseUrl(t)
  const env = { LOG_LEVEL: 'info', ...FAST_WEBHOOKS, ...(url ? { DATABASE_URL: url } : { DATA_DIR: t.testdir() }) }
  const receiver = await startReceiver(t)

  const app = await buildApp(testConfig({ ...env, WEBHOOK_DISPATCHER: 'off' }), { logger: false })
  t.teardown(() => app.close())
  await app.ready()
  const { campaign, auth, ids } = await campaignWithCharacter(app)
  const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url })
  for (let i = 0; i < 3; i++) await newSession(app, auth, ids)
  const queued = await allDeliveries(app, campaign.id, auth, webhook.id)
  t.same(
    queued.map((delivery) => [delivery.status, delivery.attempts.length]),
    [
      ['pending', 0],
      ['pending', 0],
      ['pending', 0],
    ],
    'three deliveries queued, none sent',
  )
  // The embedded database belongs to one process at a time.
  if (!url) await app.close()

  const worker = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    env: { PATH: process.env.PATH, ...NO_LIMITS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  worker.stdout.on('data', (chunk) => (output += chunk))
  worker.stderr.on('data', (chunk) => (output += chunk))
  const exited = once(worker, 'exit')
  t.teardown(() => worker.kill('SIGKILL'))

  await receiver.waitFor('the three queued events', (received) => received.length >= 3)
  t.same(
    receiver.received.map((request) => request.payload.data.seq),
    [2, 3, 4],
    'the worker sent them, in order',
  )
  if (url) {
    await newSession(app, auth, ids)
    await receiver.waitFor('an event recorded while the worker runs', (received) => received.length >= 4)
    t.equal(receiver.received[3]!.payload.data.seq, 5, 'the worker finds new events by polling')
  }

  worker.kill('SIGTERM')
  const [code] = await exited
  t.equal(code, 0, 'the worker stops cleanly on SIGTERM')
  t.match(output, '"msg":"webhook worker started"', 'it logged its start')
  t.match(output, '"signal":"SIGTERM"', 'and its shutdown')
})
