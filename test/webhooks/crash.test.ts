import t from 'tap'
import { Webhook } from 'standardwebhooks'
import { freshDatabaseUrl } from '../helpers/database.js'
import { call, startServer, untilReady } from '../helpers/server-process.js'
import { startReceiver, unusedPort } from '../helpers/webhook-receiver.js'

const EVENTS = 40

t.test('the service killed with SIGKILL mid-dispatch delivers every event at least once after a restart', async (t) => {
  // The same database across the restart: a PGlite directory, or a fresh PostgreSQL database.
  const url = await freshDatabaseUrl(t)
  const database: Record<string, string> = url ? { DATABASE_URL: url } : { DATA_DIR: t.testdir() }
  const env = {
    ...database,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE: '0.1,0.2,0.5,1,1,1,1,1',
    WEBHOOK_POLL_INTERVAL_MS: '50',
    // On PostgreSQL a delivery left in flight is sent again once its lease (2 × timeout + 5 s) runs out.
    WEBHOOK_TIMEOUT_MS: '1000',
  }
  let inFlight = 0
  let slow = true
  const receiver = await startReceiver(t, {
    answer: () => ({ status: 200, delayMs: slow ? 150 : 0 }),
    onRequest: () => inFlight++,
    onAnswered: () => inFlight--,
  })

  const port = await unusedPort()
  const first = startServer(port, env)
  const base = first.base
  t.teardown(() => first.child.kill('SIGKILL'))
  await untilReady(first)

  const { campaign, gmKey } = await call(base, '/v1/campaigns', null, { name: 'Crash test', ruleset: 'shock-meters' })
  const webhook = await call(base, `/v1/campaigns/${campaign.id}/webhooks`, gmKey.key, { url: receiver.url })
  const { character } = await call(base, `/v1/campaigns/${campaign.id}/characters`, gmKey.key, { name: 'Vera Okafor' })
  for (let i = 1; i < EVENTS; i++) {
    await call(base, `/v1/campaigns/${campaign.id}/characters/${character.id}/new-session`, gmKey.key, { request: {} })
  }

  await receiver.waitFor('a delivery in flight', () => inFlight > 0 && receiver.received.length < EVENTS)
  first.child.kill('SIGKILL')
  const [, signal] = await first.exited
  t.equal(signal, 'SIGKILL', 'the first server was killed')
  const beforeRestart = receiver.eventIds().size
  t.ok(beforeRestart < EVENTS, `it was killed mid-dispatch (${beforeRestart} of ${EVENTS} events delivered)`)

  slow = false
  const second = startServer(port, env)
  t.teardown(() => second.child.kill('SIGKILL'))
  await untilReady(second)
  const history = await call(base, `/v1/campaigns/${campaign.id}/events?limit=100`, gmKey.key)
  const eventIds = new Set<string>(history.data.map((event: { id: string }) => event.id))
  t.equal(eventIds.size, EVENTS, 'every acknowledged event survived the kill')

  await receiver.waitFor('every event', () => [...eventIds].every((id) => receiver.eventIds().has(id)), 90_000)
  t.pass('every event was delivered at least once')

  const eventOf = new Map<string, Set<string>>()
  for (const request of receiver.received) {
    const events = eventOf.get(request.id) ?? new Set<string>()
    events.add(String(request.payload.data.id))
    eventOf.set(request.id, events)
  }
  t.ok(
    [...eventOf.values()].every((events) => events.size === 1),
    'each webhook-id always carries the same event',
  )
  t.equal(eventOf.size, EVENTS, 'de-duplicated by webhook-id, the consumer has each event exactly once')
  t.comment(`${receiver.received.length - EVENTS} duplicate(s) arrived, as at-least-once allows`)
  const verifier = new Webhook(webhook.secret)
  t.ok(
    receiver.received.every((request) =>
      verifier.verify(request.body, {
        'webhook-id': request.id,
        'webhook-timestamp': request.timestamp,
        'webhook-signature': request.signature,
      }),
    ),
    'every copy verifies',
  )

  second.child.kill('SIGTERM')
  await second.exited
})
