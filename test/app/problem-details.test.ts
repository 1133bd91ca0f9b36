import t from 'tap'
import Type from 'typebox'
import { buildTestApp } from '../helpers/build-app.js'
import { RuleError } from '../../src/rules/errors.js'

const PROBLEM = 'application/problem+json'

t.test('an unknown route answers 404 problem+json', async (t) => {
  const app = await buildTestApp(t)
  const res = await app.inject({ url: '/v1/nothing-here?x=1' })
  t.equal(res.statusCode, 404)
  t.match(res.headers['content-type'], PROBLEM)
  const body = res.json()
  t.match(body, {
    type: 'about:blank',
    title: 'Not Found',
    status: 404,
    instance: '/v1/nothing-here?x=1',
    code: 'ROUTE_NOT_FOUND',
  })
  t.equal(body.requestId, res.headers['x-request-id'], 'the problem carries the request id the response header shows')
})

t.test('a known path asked with a method it does not answer is 405 naming the methods it does', async (t) => {
  const app = await buildTestApp(t)
  const campaign = '/v1/campaigns/0193b5c2-6f10-7c2e-8a4b-5d9e3f1c2b80'
  const cases = [
    { method: 'PUT', url: '/v1/campaigns', allow: 'POST' },
    { method: 'TRACE', url: '/v1/campaigns', allow: 'POST' },
    { method: 'PUT', url: `${campaign}?x=1`, allow: 'GET, HEAD, PATCH, DELETE' },
    { method: 'PATCH', url: '/v1/rulesets', allow: 'GET, HEAD' },
    { method: 'PATCH', url: '/v1/resolve/shock-meters/stress-check', allow: 'POST' },
  ] as const
  for (const { method, url, allow } of cases) {
    // light-my-request's method type leaves out TRACE, which it sends as any other method.
    const res = await app.inject({ method: method as 'PUT', url })
    t.equal(res.statusCode, 405, `${method} ${url} is 405 (got ${res.statusCode}: ${res.body.slice(0, 200)})`)
    t.equal(res.headers.allow, allow, `${method} ${url}: Allow lists what the path answers, HEAD with GET`)
    t.match(res.headers['content-type'], PROBLEM, `${method} ${url}: as problem+json`)
    t.match(
      res.json(),
      { type: 'about:blank', title: 'Method Not Allowed', status: 405, code: 'METHOD_NOT_ALLOWED', instance: url },
      `${method} ${url}: the problem says so`,
    )
  }
})

t.test('an unknown path stays 404 whatever the method, and OPTIONS keeps its 404', async (t) => {
  const app = await buildTestApp(t)
  for (const { method, url } of [
    { method: 'PUT', url: '/v1/nothing-here' },
    { method: 'TRACE', url: '/v1/campaigns/' },
    { method: 'GET', url: '/v1/campaigns/a/b/c/d' },
    { method: 'OPTIONS', url: '/v1/campaigns' },
  ] as const) {
    const res = await app.inject({ method: method as 'PUT', url })
    t.equal(res.statusCode, 404, `${method} ${url} is 404`)
    t.equal(res.headers.allow, undefined, `${method} ${url} has no Allow header`)
    t.match(res.json(), { code: 'ROUTE_NOT_FOUND' }, `${method} ${url}: the problem says no route`)
  }
})

t.test('problem details for client mistakes and server failures', async (t) => {
  const app = await buildTestApp(t, {}, {}, (app) => {
    app.post(
      '/probe',
      {
        schema: {
          body: Type.Object(
            { rank: Type.Integer({ minimum: 1, maximum: 10 }), meter: Type.String() },
            { additionalProperties: false },
          ),
          querystring: Type.Object({ limit: Type.Optional(Type.Integer({ maximum: 100 })) }),
        },
      },
      async () => ({ ok: true }),
    )
    app.get('/boom', async () => {
      throw new Error('connection string postgres://secret@db leaked?')
    })
    app.get('/rule', async () => {
      throw new RuleError(
        'BURNED_OUT',
        'a burned-out character cannot bring a passion into play',
        'invalid',
        '/request/passion',
      )
    })
  })

  t.test('a malformed JSON body is 400', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: '/probe',
      headers: { 'content-type': 'application/json' },
      payload: '{"rank": 3,',
    })
    t.equal(res.statusCode, 400)
    t.match(res.headers['content-type'], PROBLEM)
    t.match(res.json(), { status: 400, title: 'Bad Request' })
  })

  t.test('a body that is not JSON is 415, text/plain included', async (t) => {
    for (const type of ['text/plain', 'application/xml']) {
      const res = await app.inject({
        method: 'POST',
        url: '/probe',
        headers: { 'content-type': type },
        payload: 'rank=3',
      })
      t.equal(res.statusCode, 415, `${type} is 415`)
      t.match(res.headers['content-type'], PROBLEM, `${type}: as problem+json`)
      t.match(
        res.json(),
        { status: 415, title: 'Unsupported Media Type', detail: `Send the body as application/json, not ${type}.` },
        `${type}: the problem says what to send instead`,
      )
    }
  })

  t.test('a schema violation in the body is 422 and names every field', async (t) => {
    const res = await app.inject({ method: 'POST', url: '/probe', payload: { rank: 11, colour: 'red' } })
    t.equal(res.statusCode, 422)
    t.match(res.headers['content-type'], PROBLEM)
    const body = res.json()
    t.equal(body.code, 'VALIDATION_FAILED')
    t.same(
      body.errors.map((e: { pointer: string }) => e.pointer).sort(),
      ['/body/colour', '/body/meter', '/body/rank'],
      'the unknown field, the missing field and the out-of-range field are all named',
    )
    t.match(body.detail, '/body/rank must be <= 10')
  })

  t.test('a body field of the wrong type is not coerced', async (t) => {
    const res = await app.inject({ method: 'POST', url: '/probe', payload: { rank: '3', meter: 'self' } })
    t.equal(res.statusCode, 422, '"3" is not an integer')
    t.match(res.json().errors, [{ pointer: '/body/rank', detail: 'must be integer' }])
  })

  t.test('a bad query string is 400 naming the parameter', async (t) => {
    const res = await app.inject({ method: 'POST', url: '/probe?limit=1000', payload: { rank: 3, meter: 'self' } })
    t.equal(res.statusCode, 400)
    t.match(res.json().errors, [{ pointer: '/querystring/limit' }])
  })

  t.test('a rules violation is 422 with its code and field', async (t) => {
    const res = await app.inject({ url: '/rule' })
    t.equal(res.statusCode, 422)
    t.match(res.json(), {
      code: 'BURNED_OUT',
      type: 'urn:nerve:problem:burned-out',
      errors: [{ pointer: '/body/request/passion' }],
    })
  })

  t.test('an unexpected error is 500 and leaks nothing', async (t) => {
    const res = await app.inject({ url: '/boom' })
    t.equal(res.statusCode, 500)
    t.match(res.headers['content-type'], PROBLEM)
    t.notMatch(res.body, 'postgres://', 'the internal message is hidden')
    t.notMatch(res.body, 'at ', 'no stack trace')
    t.equal(res.json().requestId, res.headers['x-request-id'], 'it carries the request id')
    t.match(res.json().detail, res.headers['x-request-id'])
  })
})
