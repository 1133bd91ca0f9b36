import { readdir } from 'node:fs/promises'
import { extname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
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

/** Every file of the console under public/dashboard/, as paths from that folder. */
async function consoleFiles(): Promise<string[]> {
  const dir = fileURLToPath(new URL('../../public/dashboard/', import.meta.url))
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
}

const TYPES = { '.js': /^text\/javascript/, '.css': /^text\/css/, '.svg': /^image\/svg\+xml/, '.html': /^text\/html/ }

t.test(
  'every file of the console, modules in subfolders too, is served with its type and the same headers',
  async (t) => {
    const files = await consoleFiles()
    t.ok(files.includes('modules/start.js'), 'the console’s modules are found')
    t.ok(files.includes('modules/rulesets/shock-meters.js'), 'and the modules in their subfolders')
    for (const file of files) {
      const url = file === 'index.html' ? '/dashboard' : `/dashboard/${file}`
      const res = await app.inject({ url })
      t.equal(res.statusCode, 200, `${url} answers 200`)
      t.match(res.headers['content-type'], TYPES[extname(file) as keyof typeof TYPES], `${url} has its content type`)
      t.match(res.headers, SECURITY_HEADERS, `${url} carries the security headers`)
    }
    const typesOnly = await app.inject({ url: '/dashboard/modules/api-types.d.ts' })
    t.equal(typesOnly.statusCode, 404, 'the JSDoc types are not served')
    const redirect = await app.inject({ url: '/dashboard/' })
    t.equal(redirect.statusCode, 301, '/dashboard/ redirects')
    t.equal(redirect.headers.location, '/dashboard', 'to the page')
  },
)

t.test('the dashboard stays out of the OpenAPI document', async (t) => {
  const document = (await app.inject({ url: '/docs/json' })).json()
  t.same(
    Object.keys(document.paths).filter((path) => path.startsWith('/dashboard')),
    [],
    'no /dashboard path is documented',
  )
})
