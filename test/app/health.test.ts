import t from 'tap'
import { adminQuery, engine } from '../helpers/database.js'
import { buildTestApp } from '../helpers/build-app.js'

t.test(`[${engine}] GET /health/live answers 200`, async (t) => {
  const app = await buildTestApp(t)
  const res = await app.inject({ url: '/health/live' })
  t.equal(res.statusCode, 200)
  t.same(res.json(), { status: 'ok' })
})

t.test(`[${engine}] GET /health/ready answers 200 with the engine when migrations are applied`, async (t) => {
  const app = await buildTestApp(t)
  const res = await app.inject({ url: '/health/ready' })
  t.equal(res.statusCode, 200)
  t.same(res.json(), { status: 'ready', database: engine })
})

t.test(`[${engine}] GET /health/ready answers 503 while migrations are pending`, async (t) => {
  const app = await buildTestApp(t, {}, { migrate: false })
  const res = await app.inject({ url: '/health/ready' })
  t.equal(res.statusCode, 503, 'not ready')
  t.match(res.headers['content-type'], 'application/problem+json')
  t.match(res.json().detail, /migrations not applied/, 'says why')
})

t.test(`[${engine}] GET /health/ready answers 503 when the database is unreachable`, async (t) => {
  const app = await buildTestApp(t)
  if (engine === 'postgres') {
    const [row] = await app.db.prisma.$queryRaw<{ name: string }[]>`SELECT current_database() AS name`
    await adminQuery(`DROP DATABASE "${row!.name}" WITH (FORCE)`)
  } else {
    await app.db.close()
  }
  const res = await app.inject({ url: '/health/ready' })
  t.equal(res.statusCode, 503, 'not ready')
  t.match(res.headers['content-type'], 'application/problem+json')
  t.match(res.json(), { status: 503, detail: 'the database is unreachable' })
})
