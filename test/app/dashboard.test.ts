import t from 'tap'
import { buildTestApp } from '../helpers/build-app.js'

// One app for the file: these tests only read static files.
const app = await buildTestApp(t)

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
}

t.test('GET /dashboard answers 200 text/html with a strict CSP and the security headers', async (t) => {
  const res = await app.inject({ url: '/dashboard' })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^text\/html; charset=utf-8/, 'served as HTML')
  t.match(res.body, /<form id="connect-form"/, 'the page has the credentials form')
  t.match(res.headers, SECURITY_HEADERS, 'nosniff, no referrer, no framing')
  const csp = String(res.headers['content-security-policy'])
  for (const directive of [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ]) {
    t.ok(csp.includes(directive), `the CSP has ${directive}`)
  }
  t.notMatch(csp, /unsafe-inline|unsafe-eval|\*/, 'the CSP allows no inline code, eval or wildcard origin')
  t.notMatch(res.body, /<script>|<style>|\sstyle="|\son[a-z]+="/, 'the page has no inline script, style or handler')
})

t.test('the dashboard’s scripts and stylesheet are served with their types and the same headers', async (t) => {
  for (const [url, type] of [
    ['/dashboard/dashboard.js', /^text\/javascript/],
    ['/dashboard/forms.js', /^text\/javascript/],
    ['/dashboard/dashboard.css', /^text\/css/],
  ] as const) {
    const res = await app.inject({ url })
    t.equal(res.statusCode, 200, `${url} answers 200`)
    t.match(res.headers['content-type'], type, `${url} has its content type`)
    t.match(res.headers, SECURITY_HEADERS, `${url} carries the security headers`)
  }
  const redirect = await app.inject({ url: '/dashboard/' })
  t.equal(redirect.statusCode, 301, '/dashboard/ redirects')
  t.equal(redirect.headers.location, '/dashboard', 'to the page')
})

t.test('the dashboard stays out of the OpenAPI document', async (t) => {
  const document = (await app.inject({ url: '/docs/json' })).json()
  t.same(
    Object.keys(document.paths).filter((path) => path.startsWith('/dashboard')),
    [],
    'no /dashboard path is documented',
  )
})
