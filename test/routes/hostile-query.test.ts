import t from 'tap'
import { createCampaign, PROBLEM } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { createWebhook } from '../helpers/webhooks.js'

const app = await buildTestApp(t, { WEBHOOK_DISPATCHER: 'off', WEBHOOK_ALLOW_PRIVATE: 'true' })
const { campaign, auth } = await createCampaign(app)
const webhook = await createWebhook(app, campaign.id, auth, { url: 'http://127.0.0.1:9/hooks' })

/** Text that JavaScript reads as a number that is not finite (or not a number at all). */
const NOT_FINITE = ['1e309', '-1e309', 'Infinity', '-Infinity', '1e400', 'NaN', '+Infinity']

interface Parameter {
  name: string
  in: string
  schema?: { type?: string }
}

/** Every query parameter the served contract types as a number, on every operation that takes one. */
function numericQueryParameters(): { method: string; url: string; name: string }[] {
  const document = app.swagger() as { paths: Record<string, Record<string, { parameters?: Parameter[] }>> }
  const found: { method: string; url: string; name: string }[] = []
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'query' || !['integer', 'number'].includes(parameter.schema?.type ?? '')) continue
        const url = path
          .replace('{campaignId}', campaign.id)
          .replace('{webhookId}', webhook.id)
          .replace(/\{\w+\}/g, '00000000-0000-7000-8000-000000000000')
        found.push({ method: method.toUpperCase(), url, name: parameter.name })
      }
    }
  }
  return found
}

t.test('every numeric query parameter answers 400 naming itself for a value that is not a finite number', async (t) => {
  const parameters = numericQueryParameters()
  t.ok(
    parameters.some((parameter) => parameter.url.endsWith('/events/stream') && parameter.name === 'after'),
    'the stream’s `after` is among them',
  )
  t.ok(parameters.length >= 5, `the history, characters and deliveries pages are among them (${parameters.length})`)
  for (const { method, url, name } of parameters) {
    for (const value of NOT_FINITE) {
      const res = await app.inject({
        method: method as 'GET',
        url: `${url}?${name}=${encodeURIComponent(value)}`,
        headers: auth,
      })
      const label = `${method} ${url.replace(campaign.id, '{campaignId}')}?${name}=${value}`
      t.equal(res.statusCode, 400, `${label} is 400`)
      t.match(res.headers['content-type'], PROBLEM, `${label} answers problem details`)
      const problem = res.json<{ code: string; errors?: { pointer: string; detail: string }[] }>()
      t.equal(problem.code, 'VALIDATION_FAILED', `${label} is a validation failure`)
      t.equal(problem.errors?.[0]?.pointer, `/querystring/${name}`, `${label} names the parameter`)
    }
  }
})

t.test('the stream refuses ?after=1e309 before it opens, with the reason', async (t) => {
  const res = await app.inject({ url: `/v1/campaigns/${campaign.id}/events/stream?after=1e309`, headers: auth })
  t.equal(res.statusCode, 400, 'a 400, not a 200 stream that dies')
  t.match(res.json(), { errors: [{ pointer: '/querystring/after', detail: 'must be a finite integer' }] }, 'says why')
})

t.test('finite numbers at the edges are still checked against their bounds, not reported as infinite', async (t) => {
  const events = `/v1/campaigns/${campaign.id}/events`
  const big = await app.inject({ url: `${events}?after=1e308`, headers: auth })
  t.match(
    big.json(),
    { status: 400, errors: [{ pointer: '/querystring/after', detail: /must be <=/ }] },
    '1e308 is too large',
  )
  const negativeZero = await app.inject({ url: `${events}?after=-0`, headers: auth })
  t.equal(negativeZero.statusCode, 200, '-0 is zero, the start of the history')
  const fine = await app.inject({ url: `${events}?after=0&limit=100`, headers: auth })
  t.equal(fine.statusCode, 200, 'ordinary values still pass')
})

t.test(
  'a path the router cannot read (bad percent-encoding, a segment past 100 characters) is 404 saying why',
  async (t) => {
    for (const [segment, why] of [
      ['%E0%A4%A', /not valid percent-encoded UTF-8/],
      ['x'.repeat(3000), /longer than any id or name/],
    ] as const) {
      const res = await app.inject({ url: `/v1/campaigns/${segment}/export`, headers: auth })
      t.equal(res.statusCode, 404, `${segment.slice(0, 20)}: a status every operation with a path parameter documents`)
      t.match(res.json(), { code: 'ROUTE_NOT_FOUND', detail: why }, 'says why the path names nothing')
      t.ok(res.json<{ detail: string }>().detail.length < 400, 'without echoing a long path whole')
    }
  },
)
