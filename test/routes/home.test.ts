import t from 'tap'
import { buildTestApp } from '../helpers/build-app.js'

t.test('GET / tells a GM what Nerve is and leads to the console, Swagger UI and the guides', async (t) => {
  const app = await buildTestApp(t)
  const res = await app.inject({ url: '/', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^text\/html/, 'a page')
  t.match(res.body, /<title>Nerve<\/title>/, 'titled Nerve')
  t.match(res.body, /href="\/docs"/, 'links the API documentation')
  t.match(res.body, /href="\/dashboard"/, 'links the dashboard')
  t.match(res.body, /What Nerve does/, 'says what Nerve is')
  t.match(res.body, /href="\/dashboard\/dashboard.css"/, 'in the console’s look: its stylesheet')
  t.match(res.headers['content-security-policy'], /default-src 'none'/, 'runs nothing')
  t.match(res.headers['content-security-policy'], /style-src 'self'/, 'styled by its own files only')
  t.notMatch(res.body, /<script|style=/, 'no script and no inline style')

  const css = await app.inject({ url: '/home.css' })
  t.equal(css.statusCode, 200)
  t.match(css.headers['content-type'], /^text\/css/)

  const guides = [...res.body.matchAll(/href="(\/guides\/[^"]+)"/g)].map((match) => match[1] ?? '')
  t.equal(guides[0], '/guides/quick-start-gm.md', 'the GM’s quick start comes first among the guides')
  t.ok(guides.length >= 5, 'every guide is listed')
  for (const url of guides) {
    const guide = await app.inject({ url })
    t.equal(guide.statusCode, 200, `${url} is served`)
    t.match(guide.headers['content-type'], /^text\/plain; charset=utf-8/, 'as plain text a browser shows')
    t.match(guide.body, /^# /, 'its Markdown')
  }
})

t.test('GET / gives a JSON client the same links as data', async (t) => {
  const app = await buildTestApp(t)
  const res = await app.inject({ url: '/', headers: { accept: 'application/json' } })
  t.equal(res.statusCode, 200)
  t.match(res.json(), { name: 'Nerve', docs: '/docs', openapi: '/docs/json', dashboard: '/dashboard' })
  const curl = await app.inject({ url: '/', headers: { accept: '*/*' } })
  t.match(curl.json(), { docs: '/docs' }, 'curl’s */* gets JSON')
})

t.test('Swagger UI is branded Nerve: its tab title and icon', async (t) => {
  const app = await buildTestApp(t)
  const page = await app.inject({ url: '/docs' })
  t.equal(page.statusCode, 200)
  t.match(page.body, /<title>Nerve — API<\/title>/, 'the tab says Nerve')
  const href = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(page.body)?.[1]
  t.ok(href, 'Nerve’s icon')
  const icon = await app.inject({ url: new URL(href ?? '', 'http://nerve.test/docs').pathname })
  t.equal(icon.statusCode, 200)
  t.match(icon.headers['content-type'], /^image\/svg\+xml/)
  const initializer = await app.inject({ url: '/docs/static/swagger-initializer.js' })
  t.match(initializer.body, /data:image\/svg\+xml;base64,/, 'Nerve’s logo in the top bar')
})
