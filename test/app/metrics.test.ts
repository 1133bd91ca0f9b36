import t from 'tap'
import { outcomeOf } from '../../src/plugins/app/metrics.js'
import { bearer, createCampaign, createCharacter, PROBLEM } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { act, created, provided } from '../helpers/commands.js'
import { engine } from '../helpers/database.js'
import { createWebhook } from '../helpers/webhooks.js'

const TOKEN = 'a-metrics-token-of-some-length'

/** The value of one sample line, e.g. `nerve_database_up 1`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

t.test('without METRICS_TOKEN there is no /metrics route', async (t) => {
  const app = await buildTestApp(t)
  const res = await app.inject({ url: '/metrics' })
  t.equal(res.statusCode, 404, '404')
  t.match(res.headers['content-type'], PROBLEM, 'as problem details')
})

t.test('GET /metrics: Prometheus text behind the metrics token', async (t) => {
  // The dispatcher is off so queued deliveries stay in the outbox to be counted.
  const app = await buildTestApp(t, {
    METRICS_TOKEN: TOKEN,
    WEBHOOK_DISPATCHER: 'off',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    RATE_LIMIT_MAX: '10',
  })

  t.test('it needs the token', async (t) => {
    const anonymous = await app.inject({ url: '/metrics' })
    t.equal(anonymous.statusCode, 401, 'no token: 401')
    t.match(anonymous.headers['content-type'], PROBLEM, 'as problem details')
    t.match(anonymous.headers['www-authenticate'], 'Bearer', 'saying how to authenticate')
    t.equal(
      (await app.inject({ url: '/metrics', headers: bearer('wrong-token-wrong-token') })).statusCode,
      401,
      'a wrong token: 401',
    )
  })

  t.test('it counts requests by route pattern, events by rule set and outcome, and the outbox', async (t) => {
    const { campaign, auth } = await createCampaign(app, 'reaction-rolls')
    const { character } = await createCharacter(app, campaign, auth)
    const ids = { campaignId: campaign.id, characterId: character.id }
    await createWebhook(app, campaign.id, auth, { url: 'http://127.0.0.1:9/hooks' })
    // A d6 showing 6 against pressure 6: a success; the same Idempotency-Key again is a replay, not a new roll.
    const roll = () =>
      act(
        app,
        auth,
        ids,
        'reaction-roll',
        { request: { ability: 'agility', pressure: 6 }, dice: provided(6) },
        { 'idempotency-key': 'once' },
      )
    created(await roll(), 'the roll')
    t.equal((await roll()).headers['idempotent-replayed'], 'true', 'the retry is replayed')

    const res = await app.inject({ url: '/metrics', headers: bearer(TOKEN) })
    t.equal(res.statusCode, 200, '200 with the token')
    t.match(res.headers['content-type'], 'text/plain; version=0.0.4', 'in the Prometheus text format')
    const text = res.body

    const route = '/v1/campaigns/:campaignId/characters/:characterId/reaction-roll'
    t.equal(
      sample(text, `nerve_http_request_duration_seconds_count{method="POST",route="${route}",status_code="201"}`),
      2,
      'requests are counted by route pattern and status',
    )
    t.notMatch(text, character.id, 'never by raw URL: no id appears in any label')
    t.ok(
      sample(
        text,
        `nerve_http_request_duration_seconds_bucket{le="0.1",method="POST",route="${route}",status_code="201"}`,
      ) !== undefined,
      'with latency buckets',
    )
    t.equal(
      sample(text, 'nerve_events_recorded_total{ruleset="reaction-rolls",type="reaction-roll",outcome="success"}'),
      1,
      'one successful reaction roll recorded (the replay is not counted again)',
    )
    t.equal(
      sample(text, 'nerve_events_recorded_total{ruleset="reaction-rolls",type="character.created",outcome="none"}'),
      1,
      'the character’s creation is an event too',
    )
    t.equal(
      sample(text, 'nerve_webhook_outbox_deliveries{status="pending"}'),
      1,
      'the roll’s delivery waits in the outbox',
    )
    t.ok((sample(text, 'nerve_webhook_outbox_oldest_seconds') ?? -1) >= 0, 'with its age: the delivery lag')
    t.equal(sample(text, 'nerve_database_up'), 1, 'the database is up')
    t.ok(sample(text, 'process_resident_memory_bytes')! > 0, 'process metrics are included')
    t.match(text, 'nodejs_eventloop_lag_seconds', 'and the event loop lag')
    if (engine === 'postgres') {
      t.ok(sample(text, 'nerve_database_pool_connections{state="total"}')! >= 1, 'pool connections on PostgreSQL')
      t.ok(sample(text, 'nerve_database_pool_waiting')! >= 0, 'and the queries waiting for one')
    } else {
      t.notMatch(text, 'nerve_database_pool', 'no pool gauges on PGlite, which has no pool')
    }
  })

  t.test('it is never rate-limited and stays out of the API contract', async (t) => {
    const scrapes = await Promise.all(
      Array.from({ length: 15 }, () => app.inject({ url: '/metrics', headers: bearer(TOKEN) })),
    )
    t.ok(
      scrapes.every((res) => res.statusCode === 200),
      '15 scrapes with a rate limit of 10: all answered',
    )
    const document = (await app.inject({ url: '/docs/json' })).json()
    t.notOk(document.paths['/metrics'], '/metrics is not in the OpenAPI document')
  })
})

t.test('outcome labels are the rules’ own words, and few', async (t) => {
  t.equal(outcomeOf({ verdict: 'success', result: 6 }), 'success', 'a reaction roll’s verdict')
  t.equal(outcomeOf({ result: 'failed', trauma: false }), 'failed', 'a stress check’s result')
  t.equal(outcomeOf({ status: 'pending', trauma: { id: 'rocked' } }), 'rocked', 'the trauma-table row')
  t.equal(outcomeOf(null), 'none', 'no outcome')
  t.equal(outcomeOf({ result: "Robert'); DROP TABLE" }), 'other', 'anything unexpected is folded into other')
})
