import t, { type Test } from 'tap'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import type { App } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { dispatcherOptions, WebhookDispatcher, type DispatcherOptions } from '../../src/webhooks/dispatcher.js'
import { buildTestApp } from '../helpers/build-app.js'
import { eventually, startReceiver } from '../helpers/webhook-receiver.js'
import { allDeliveries, campaignWithCharacter, createWebhook, FAST_WEBHOOKS, newSession } from '../helpers/webhooks.js'

type FinalOrOpen = 'delivered' | 'failed' | 'pending' | 'delivering'

/**
 * An app that only queues (its own dispatcher is off), with one endpoint and `events`
 * deliveries to it, so each test puts them in the states it needs and sweeps them itself.
 */
async function outboxWith(t: Test, events: number) {
  const app = await buildTestApp(t, { ...FAST_WEBHOOKS, WEBHOOK_DISPATCHER: 'off' })
  const { campaign, auth, ids } = await campaignWithCharacter(app)
  const webhook = await createWebhook(app, campaign.id, auth, { url: 'http://127.0.0.1:9/hooks' })
  for (let i = 0; i < events; i++) await newSession(app, auth, ids)
  // Oldest event first.
  const deliveries = (await allDeliveries(app, campaign.id, auth, webhook.id)).reverse()
  if (deliveries.length !== events) throw new Error(`expected ${events} deliveries, got ${deliveries.length}`)
  return { app, campaign, auth, webhook, ids: deliveries.map((delivery) => delivery.id) }
}

/**
 * Puts a delivery in `status` as of `daysAgo` days, with `attempts` attempts recorded then:
 * what the dispatcher's settling statements would have left, with the clock moved back.
 */
async function putIn(app: App, id: string, status: FinalOrOpen, daysAgo: number, attempts: number) {
  await app.db.query(
    `UPDATE "webhook_deliveries"
     SET "status" = $2::text, "attempt_count" = $3::int,
         "created_at" = now() - make_interval(days => $4::int + 1),
         "next_attempt_at" = now() - make_interval(days => $4::int),
         "delivered_at" = CASE WHEN $2::text = 'delivered' THEN now() - make_interval(days => $4::int) END,
         "locked_until" = CASE WHEN $2::text = 'delivering' THEN now() - make_interval(days => $4::int) END,
         "lease_id" = CASE WHEN $2::text = 'delivering' THEN gen_random_uuid() END
     WHERE "id" = $1::uuid`,
    [id, status, attempts, daysAgo],
  )
  await app.db.query(
    `INSERT INTO "webhook_attempts" ("id", "campaign_id", "delivery_id", "attempted_at", "status_code", "latency_ms", "error")
     SELECT gen_random_uuid(), d."campaign_id", d."id", now() - make_interval(days => $2::int), 500, 3, 'the endpoint answered 500'
     FROM "webhook_deliveries" d, generate_series(1, $3::int) AS n
     WHERE d."id" = $1::uuid`,
    [id, daysAgo, attempts],
  )
}

async function remaining(app: App, ids: string[]) {
  const rows = await app.db.query<{ id: string; attempts: number }>(
    `SELECT d."id", (SELECT count(*) FROM "webhook_attempts" a WHERE a."delivery_id" = d."id")::int AS "attempts"
     FROM "webhook_deliveries" d`,
  )
  return ids.map((id) => rows.find((row) => row.id === id)?.attempts ?? 'gone')
}

async function orphanAttempts(app: App) {
  const [row] = await app.db.query<{ orphans: number }>(
    `SELECT count(*)::int AS "orphans" FROM "webhook_attempts" a
     WHERE NOT EXISTS (SELECT 1 FROM "webhook_deliveries" d WHERE d."id" = a."delivery_id")`,
  )
  return row!.orphans
}

/** A dispatcher used only to sweep (never started unless a test starts it), logging into `lines`. */
function sweeper(app: App, options: Partial<DispatcherOptions> = {}, lines: Record<string, unknown>[] = []) {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line))
      done()
    },
  })
  return new WebhookDispatcher(app.store, pino({ level: 'info' }, stream), {
    ...dispatcherOptions(loadConfig({ ...FAST_WEBHOOKS })),
    releaseLeasesOnStart: false,
    ...options,
  })
}

t.test('a sweep removes delivered and failed deliveries older than the retention, with their attempts', async (t) => {
  const { app, ids } = await outboxWith(t, 4)
  const [oldDelivered, oldFailed, recentDelivered, recentFailed] = ids as [string, string, string, string]
  await putIn(app, oldDelivered, 'delivered', 31, 2)
  await putIn(app, oldFailed, 'failed', 45, 5)
  await putIn(app, recentDelivered, 'delivered', 29, 1)
  await putIn(app, recentFailed, 'failed', 2, 5)

  const removed = await sweeper(app, { retentionDays: 30 }).sweep()
  t.same(removed, { deliveries: 2, attempts: 7 }, 'the two final deliveries past 30 days and their 7 attempts')
  t.same(
    await remaining(app, ids),
    ['gone', 'gone', 1, 5],
    'the old ones are gone; the recent ones stay with every attempt',
  )
  t.equal(await orphanAttempts(app), 0, 'no attempt is left without its delivery')
  t.same(
    await sweeper(app, { retentionDays: 30 }).sweep(),
    { deliveries: 0, attempts: 0 },
    'a second sweep finds nothing',
  )
})

t.test('pending, retrying and in-flight deliveries stay, however old', async (t) => {
  const { app, ids } = await outboxWith(t, 3)
  const [queued, retrying, inFlight] = ids as [string, string, string]
  await putIn(app, queued, 'pending', 400, 0)
  await putIn(app, retrying, 'pending', 400, 3)
  await putIn(app, inFlight, 'delivering', 400, 4)

  const removed = await sweeper(app, { retentionDays: 1 }).sweep()
  t.same(removed, { deliveries: 0, attempts: 0 }, 'nothing removed')
  t.same(await remaining(app, ids), [0, 3, 4], 'each is still there with its attempts')
})

t.test('WEBHOOK_RETENTION_DAYS=0 keeps every delivery', async (t) => {
  const { app, ids } = await outboxWith(t, 2)
  const options = dispatcherOptions(loadConfig({ ...FAST_WEBHOOKS, WEBHOOK_RETENTION_DAYS: '0' }))
  t.equal(options.retentionDays, 0, 'the setting reaches the dispatcher')
  await putIn(app, ids[0]!, 'delivered', 3650, 1)
  await putIn(app, ids[1]!, 'failed', 3650, 5)

  const lines: Record<string, unknown>[] = []
  const dispatcher = sweeper(app, { ...options, retentionSweepMs: 20 }, lines)
  t.same(await dispatcher.sweep(), { deliveries: 0, attempts: 0 }, 'a sweep does nothing')
  dispatcher.start()
  await new Promise((resolve) => setTimeout(resolve, 200))
  await dispatcher.stop()
  t.same(await remaining(app, ids), [1, 5], 'ten-year-old deliveries are all kept')
  t.notOk(
    lines.some((line) => line.msg === 'old webhook deliveries and their attempts removed'),
    'and nothing was logged as removed',
  )
})

t.test('a sweep removes a backlog in bounded batches until none is left', async (t) => {
  const { app, ids } = await outboxWith(t, 7)
  for (const id of ids.slice(0, 6)) await putIn(app, id, 'delivered', 60, 1)
  await putIn(app, ids[6]!, 'pending', 60, 1)

  const removed = await sweeper(app, { retentionDays: 30, retentionBatchSize: 2 }).sweep()
  t.same(removed, { deliveries: 6, attempts: 6 }, 'three batches of two, then an empty one')
  t.same(await remaining(app, ids), ['gone', 'gone', 'gone', 'gone', 'gone', 'gone', 1], 'only the pending one is left')
})

t.test('concurrent sweeps share the work and none fails', async (t) => {
  const { app, ids } = await outboxWith(t, 24)
  for (const id of ids.slice(0, 20)) await putIn(app, id, 'failed', 90, 2)
  for (const id of ids.slice(20)) await putIn(app, id, 'delivered', 1, 1)

  const lines: Record<string, unknown>[] = []
  // On PostgreSQL each sweep runs on its own pooled connection, as several instances would.
  const sweepers = Array.from({ length: 4 }, () => sweeper(app, { retentionDays: 30, retentionBatchSize: 3 }, lines))
  const results = await Promise.all(sweepers.map((one) => one.sweep()))
  t.equal(
    results.reduce((sum, result) => sum + result.deliveries, 0),
    20,
    'the 20 old deliveries were removed once in all',
  )
  t.equal(
    results.reduce((sum, result) => sum + result.attempts, 0),
    40,
    'with their 40 attempts',
  )
  t.same(
    lines.filter((line) => Number(line.level) >= 50),
    [],
    'no sweep logged an error',
  )
  t.same(await remaining(app, ids.slice(20)), [1, 1, 1, 1], 'the recent ones stay')
  t.equal(await orphanAttempts(app), 0, 'no attempt is left without its delivery')
})

t.test('a running dispatcher sweeps shortly after start and logs how many rows it removed', async (t) => {
  const receiver = await startReceiver(t)
  const app = await buildTestApp(t, { ...FAST_WEBHOOKS, WEBHOOK_DISPATCHER: 'off' })
  const { campaign, auth, ids } = await campaignWithCharacter(app)
  const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url })
  for (let i = 0; i < 3; i++) await newSession(app, auth, ids)

  const lines: Record<string, unknown>[] = []
  const dispatcher = sweeper(app, { retentionDays: 30, retentionSweepMs: 50 }, lines)
  dispatcher.start()
  t.teardown(() => dispatcher.stop())
  const delivered = await eventually(
    'the three deliveries to be delivered',
    () => allDeliveries(app, campaign.id, auth, webhook.id),
    (all) => all.length === 3 && all.every((delivery) => delivery.status === 'delivered'),
  )
  t.equal(receiver.received.length, 3, 'the dispatcher sent them')
  const [newest, ...older] = delivered.map((delivery) => delivery.id) as [string, ...string[]]
  // One statement, so one sweep finds both.
  await app.db.query(
    `UPDATE "webhook_deliveries" SET "next_attempt_at" = now() - interval '31 days', "delivered_at" = now() - interval '31 days'
     WHERE "id" <> $1::uuid`,
    [newest],
  )

  await eventually(
    'the next sweep to remove the two old deliveries',
    () => allDeliveries(app, campaign.id, auth, webhook.id),
    (all) => all.length === 1,
  )
  t.same(
    (await allDeliveries(app, campaign.id, auth, webhook.id)).map((delivery) => delivery.id),
    [newest],
    'the delivery of the last month stays',
  )
  const gone = await app.inject({
    method: 'POST',
    url: `/v1/campaigns/${campaign.id}/webhooks/${webhook.id}/deliveries/${older[0]}/redeliver`,
    headers: auth,
  })
  t.equal(gone.statusCode, 404, 'a removed delivery cannot be redelivered: 404')

  await new Promise((resolve) => setTimeout(resolve, 200))
  await dispatcher.stop()
  const logged = lines.filter((line) => line.msg === 'old webhook deliveries and their attempts removed')
  t.equal(logged.length, 1, 'one info line, for the sweep that removed something; empty sweeps log nothing')
  t.match(logged[0], { level: 30, deliveries: 2, attempts: 2, retentionDays: 30 }, 'it says how many rows went')
})
