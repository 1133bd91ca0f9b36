import t from 'tap'
import { buildTestApp } from '../helpers/build-app.js'
import { createCampaign, PROBLEM } from '../helpers/api.js'

const VTT = 'http://localhost:30000'
const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, If-Match, Last-Event-ID'
const EXPOSED_HEADERS =
  'Idempotent-Replayed, Retry-After, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, ETag, Location, x-request-id'
const CAMPAIGN = '/v1/campaigns/0193b5c2-6f10-7c2e-8a4b-5d9e3f1c2b80'

const preflight = (url: string, origin = VTT, method = 'POST') => ({
  method: 'OPTIONS' as const,
  url,
  headers: {
    origin,
    'access-control-request-method': method,
    'access-control-request-headers': 'authorization,content-type,idempotency-key',
  },
})

t.test('a preflight from any origin is 204 with the allowed methods and headers, by default', async (t) => {
  const app = await buildTestApp(t)
  for (const url of [`${CAMPAIGN}/characters/0193b5c2-6f10-7c2e-8a4b-5d9e3f1c2b81/stress-check`, '/v1/campaigns']) {
    const res = await app.inject(preflight(url))
    t.equal(res.statusCode, 204, `OPTIONS ${url} is 204 (got ${res.statusCode}: ${res.body.slice(0, 200)})`)
    t.equal(res.headers['access-control-allow-origin'], '*', 'any origin: no credentials are ever involved')
    t.equal(res.headers['access-control-allow-credentials'], undefined, 'credentials are never allowed')
    t.match(res.headers['access-control-allow-methods'], /POST/, 'the methods are listed')
    t.equal(res.headers['access-control-allow-headers'], ALLOWED_HEADERS, 'the key, JSON and retry headers may be sent')
    t.equal(res.headers['access-control-max-age'], '600', 'browsers cache the answer for ten minutes')
    t.equal(res.headers.allow, undefined, 'a preflight is not a 405')
    t.equal(res.body, '', 'with no body')
  }
})

t.test('a preflight needs no key and is not rate limited', async (t) => {
  const app = await buildTestApp(t, { RATE_LIMIT_MAX: '2' })
  for (let i = 1; i <= 4; i++) {
    const res = await app.inject(preflight(`${CAMPAIGN}/events`, VTT, 'GET'))
    t.equal(res.statusCode, 204, `preflight ${i} of 4 is 204 with a limit of 2 and no key`)
    t.equal(res.headers['x-ratelimit-remaining'], undefined, `preflight ${i} does not count against the limit`)
  }
})

t.test('an answer to an allowed origin carries the CORS headers and exposes the headers a client reads', async (t) => {
  const app = await buildTestApp(t, { CORS_ORIGINS: `${VTT},https://owlbear.example` })
  const created = await app.inject({
    method: 'POST',
    url: '/v1/campaigns',
    headers: { origin: VTT },
    payload: { name: 'Cross-origin', ruleset: 'shock-meters' },
  })
  t.equal(created.statusCode, 201, 'the campaign is created')
  t.equal(created.headers['access-control-allow-origin'], VTT, 'a listed origin is echoed back')
  t.equal(created.headers['access-control-expose-headers'], EXPOSED_HEADERS, 'the client may read these headers')
  t.match(created.headers.vary, /Origin/, 'caches keep answers to different origins apart')

  const { auth } = await createCampaign(app)
  const problem = await app.inject({
    url: `${CAMPAIGN}/events`,
    headers: { ...auth, origin: 'https://owlbear.example' },
  })
  t.equal(problem.statusCode, 404, 'a foreign campaign is still not found')
  t.match(problem.headers['content-type'], PROBLEM)
  t.equal(
    problem.headers['access-control-allow-origin'],
    'https://owlbear.example',
    'error answers are readable by the page too',
  )

  const ok = await app.inject(preflight('/v1/campaigns', 'https://owlbear.example'))
  t.equal(ok.statusCode, 204, 'a preflight from the second listed origin is 204')
})

t.test('a disallowed origin gets no CORS headers, and its preflight is not found', async (t) => {
  const app = await buildTestApp(t, { CORS_ORIGINS: VTT })
  const res = await app.inject({ url: '/v1/rulesets', headers: { origin: 'https://evil.example' } })
  t.equal(res.statusCode, 200, 'the request itself is answered: CORS is the browser’s check, not the server’s')
  for (const header of Object.keys(res.headers)) {
    t.notOk(header.startsWith('access-control-'), `no ${header} for an origin not listed`)
  }
  const pre = await app.inject(preflight('/v1/campaigns', 'https://evil.example'))
  t.equal(pre.statusCode, 404, 'the preflight of an origin not listed is 404')
  t.match(pre.json(), { code: 'ROUTE_NOT_FOUND' }, 'as problem details')
  for (const header of Object.keys(pre.headers)) {
    t.notOk(header.startsWith('access-control-'), `no ${header} on the refused preflight`)
  }
})

t.test('a 429 carries the CORS headers, so a browser can read its Retry-After', async (t) => {
  const app = await buildTestApp(t, { RATE_LIMIT_MAX: '1' })
  const request = { url: '/v1/rulesets', headers: { origin: VTT } }
  t.equal((await app.inject(request)).statusCode, 200, 'the first request passes')
  const limited = await app.inject(request)
  t.equal(limited.statusCode, 429, 'the second is limited')
  t.equal(limited.headers['access-control-allow-origin'], '*', 'the 429 is readable across origins')
  t.ok(limited.headers['retry-after'], 'with Retry-After, which the page may read')
})
