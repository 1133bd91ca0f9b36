import t from 'tap'
import { DASHBOARD_CSP } from '../../src/routes/dashboard/index.js'
import { DOCS_CSP } from '../../src/plugins/external/swagger.js'
import { bearer, createCampaign, PROBLEM } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { problemFault } from '../helpers/reliability.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function asAnswer(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  return {
    status: res.statusCode,
    headers: Object.fromEntries(Object.entries(res.headers).map(([name, value]) => [name, String(value)])),
    body: res.body,
  }
}

// Each app costs an embedded-database start, so tests that can share one do.
const small = await buildTestApp(t, { BODY_LIMIT_BYTES: '2048' })

t.test('a body over BODY_LIMIT_BYTES is refused with 413 problem details before anything runs', async (t) => {
  const app = small
  const { campaign, auth } = await createCampaign(app, 'shock-meters')
  const send = (size: number) =>
    app.inject({
      method: 'POST',
      url: `/v1/campaigns/${campaign.id}/characters`,
      headers: auth,
      payload: { name: 'Vera', sheet: { notes: 'x'.repeat(size) } },
    })
  const tooLarge = await send(4096)
  t.equal(tooLarge.statusCode, 413, '413 Content Too Large')
  t.equal(problemFault(asAnswer(tooLarge)), null, 'as problem details')
  const characters = await app.inject({ url: `/v1/campaigns/${campaign.id}/characters`, headers: auth })
  t.equal(characters.json().data.length, 0, 'nothing was created')
  t.not((await send(100)).statusCode, 413, 'a body under the limit is read')
})

t.test('rate limits: per API key and per client address, 429 problem details with Retry-After', async (t) => {
  const app = await buildTestApp(t, { RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_MS: '60000', TRUST_PROXY: '1' })
  // Campaign creation has no key: it counts against 127.0.0.1, which the test does not use again.
  const one = await createCampaign(app, 'shock-meters')
  const two = await createCampaign(app, 'shock-meters')
  const get = (
    headers: Record<string, string>,
    remoteAddress = '127.0.0.1',
    url = `/v1/campaigns/${one.campaign.id}`,
  ) => app.inject({ url, headers, remoteAddress })

  const firstFive = await Promise.all(Array.from({ length: 5 }, () => get(one.auth)))
  t.same(
    firstFive.map((res) => res.statusCode),
    [200, 200, 200, 200, 200],
    'five requests with one key pass',
  )
  t.equal(firstFive[0]!.headers['x-ratelimit-limit'], '5', 'the limit is announced')
  const limited = await get(one.auth)
  t.equal(limited.statusCode, 429, 'the sixth is 429 Too Many Requests')
  t.equal(problemFault(asAnswer(limited)), null, 'as problem details')
  t.equal(limited.json().code, 'RATE_LIMITED', 'with code RATE_LIMITED')
  const retryAfter = Number(limited.headers['retry-after'])
  t.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After says when to come back (${retryAfter} s)`)
  t.match(limited.json().detail, /retry in \d+ s/, 'and so does the detail')

  const sameKeyElsewhere = await get(one.auth, '127.0.0.9')
  t.equal(sameKeyElsewhere.statusCode, 429, 'the key is limited from any address: the bucket is the key')
  t.equal(
    (await get(two.auth, '127.0.0.1', `/v1/campaigns/${two.campaign.id}`)).statusCode,
    200,
    'another key has its own bucket',
  )

  const anonymous = (address: string) => get({}, address, '/v1/rulesets')
  const fromOneAddress = await Promise.all(Array.from({ length: 5 }, () => anonymous('127.0.0.2')))
  t.ok(
    fromOneAddress.every((res) => res.statusCode === 200),
    'five requests without a key from one address pass',
  )
  const anonymousLimited = await anonymous('127.0.0.2')
  t.equal(anonymousLimited.statusCode, 429, 'the sixth from that address is 429')
  t.ok(Number(anonymousLimited.headers['retry-after']) > 0, 'with Retry-After')
  t.equal((await anonymous('127.0.0.3')).statusCode, 200, 'another address has its own bucket')

  t.equal((await get({}, '127.0.0.2', '/health/live')).statusCode, 200, 'liveness is never rate-limited')
  t.equal((await get({}, '127.0.0.2', '/health/ready')).statusCode, 200, 'nor is readiness')

  // TRUST_PROXY=1: behind one proxy, the address it forwards is the client's.
  const viaProxy = (client: string) =>
    app.inject({ url: '/v1/rulesets', remoteAddress: '127.0.0.4', headers: { 'x-forwarded-for': client } })
  const forwarded = []
  for (let i = 0; i < 6; i++) forwarded.push((await viaProxy('198.51.100.7')).statusCode)
  t.same(forwarded, [200, 200, 200, 200, 200, 429], 'one client behind the proxy is limited')
  t.equal((await viaProxy('198.51.100.8')).statusCode, 200, 'another client behind the same proxy is not')
})

t.test(
  'under pressure (a tiny heap threshold), requests are shed with 503 problem details; readiness says so',
  async (t) => {
    const app = await buildTestApp(t, {
      UNDER_PRESSURE_MAX_HEAP_USED_BYTES: '1',
      UNDER_PRESSURE_SAMPLE_INTERVAL_MS: '25',
      METRICS_TOKEN: 'metrics-token-for-the-test',
    })
    // Past the grace period after start: two samples.
    await sleep(150)
    const shed = await app.inject({ url: '/v1/rulesets' })
    t.equal(shed.statusCode, 503, '503 Service Unavailable')
    t.equal(problemFault(asAnswer(shed)), null, 'as problem details')
    t.match(shed.json().detail, 'overloaded', 'saying the service is overloaded')
    t.equal(shed.headers['retry-after'], '10', 'with Retry-After')
    const ready = await app.inject({ url: '/health/ready' })
    t.equal(ready.statusCode, 503, 'readiness is red, so a load balancer sends traffic elsewhere')
    t.equal(problemFault(asAnswer(ready)), null, 'readiness answers problem details too')
    t.equal((await app.inject({ url: '/health/live' })).statusCode, 200, 'liveness stays green: busy is not dead')
    const metrics = await app.inject({ url: '/metrics', headers: bearer('metrics-token-for-the-test') })
    t.equal(metrics.statusCode, 200, 'the metrics can still be scraped')
  },
)

t.test('a blocked event loop turns readiness red, and green again once it runs freely', async (t) => {
  const app = await buildTestApp(t, {
    UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '100',
    UNDER_PRESSURE_SAMPLE_INTERVAL_MS: '100',
  })
  await sleep(300)
  t.equal((await app.inject({ url: '/health/ready' })).statusCode, 200, 'ready while idle')
  // Saturated: the event loop is held for 300 ms at a time, with only a moment between, until
  // both answers show it. under-pressure reports the mean delay of its 10 ms probes over a
  // sample, so every sample taken meanwhile holds a long delay and few quick probes.
  let shed = false
  let red = false
  for (let i = 0; i < 30 && !(shed && red); i++) {
    const until = Date.now() + 300
    while (Date.now() < until) {
      // busy
    }
    await sleep(1)
    shed ||= (await app.inject({ url: '/v1/rulesets' })).statusCode === 503
    red ||= (await app.inject({ url: '/health/ready' })).statusCode === 503
  }
  t.ok(shed, 'right after, requests are shed')
  t.ok(red, 'and readiness is red')
  let green = false
  for (let i = 0; i < 100 && !green; i++) {
    await sleep(50)
    green = (await app.inject({ url: '/health/ready' })).statusCode === 200
  }
  t.ok(green, 'readiness turns green again once the loop runs freely')
  t.equal((await app.inject({ url: '/v1/rulesets' })).statusCode, 200, 'and requests are served')
})

t.test('Swagger UI and the dashboard are served with security headers', async (t) => {
  const app = small
  for (const url of ['/docs', '/docs/static/swagger-ui.css', '/docs/static/swagger-initializer.js', '/docs/json']) {
    const res = await app.inject({ url })
    t.equal(res.statusCode, 200, `${url} is served`)
    t.equal(res.headers['content-security-policy'], DOCS_CSP, `${url}: the docs CSP`)
    t.equal(res.headers['x-content-type-options'], 'nosniff', `${url}: nosniff`)
    t.equal(res.headers['referrer-policy'], 'no-referrer', `${url}: no referrer`)
    t.equal(res.headers['x-frame-options'], 'DENY', `${url}: not framed (old browsers)`)
  }
  t.match(DOCS_CSP, "frame-ancestors 'none'", 'the docs cannot be framed')
  t.match(DOCS_CSP, "script-src 'self'", 'only the docs’ own scripts run')
  t.notMatch(DOCS_CSP, 'unsafe-inline', 'no inline script or style')
  t.equal(
    (await app.inject({ url: '/v1/rulesets' })).headers['content-security-policy'],
    undefined,
    'the API itself is left alone',
  )

  for (const url of ['/dashboard', '/dashboard/dashboard.js']) {
    const res = await app.inject({ url })
    t.equal(res.headers['content-security-policy'], DASHBOARD_CSP, `${url}: the dashboard CSP`)
    t.equal(res.headers['x-content-type-options'], 'nosniff', `${url}: nosniff`)
    t.equal(res.headers['referrer-policy'], 'no-referrer', `${url}: no referrer`)
  }
  t.match(DASHBOARD_CSP, "frame-ancestors 'none'", 'the dashboard cannot be framed')
  t.equal(PROBLEM, 'application/problem+json')
})
