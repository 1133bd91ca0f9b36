import t from 'tap'
import { openDatabase } from '../../src/db/database.js'
import { isDatabaseUnavailable } from '../../src/db/unavailable.js'
import { createCampaign, createCharacter, PROBLEM } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { freshDatabaseUrl, TEST_DATABASE_URL } from '../helpers/database.js'
import { eventually } from '../helpers/webhook-receiver.js'

/** Shaped like the errors seen when PostgreSQL was stopped under a running service. */
const socketError = (code: string) =>
  Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, syscall: 'connect', errno: -111 })
const prismaError = (code: string, cause?: unknown) =>
  Object.assign(new Error('Invalid `this.db.apiKey.findFirst()` invocation'), {
    name: 'PrismaClientKnownRequestError',
    code,
    meta: cause === undefined ? {} : { driverAdapterError: { name: 'DriverAdapterError', cause } },
  })

t.test('errors that mean the database is unavailable', async (t) => {
  const unavailable: [string, unknown][] = [
    [
      'Prisma P1001 (cannot reach the server)',
      prismaError('P1001', { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 }),
    ],
    ['Prisma P1017 (the server closed the connection)', prismaError('P1017')],
    ['Prisma P2024 (pool timeout)', prismaError('P2024')],
    ['Prisma P2028 (a transaction could not start in time)', prismaError('P2028')],
    [
      'an adapter error with 57P01 (terminating connection due to administrator command)',
      prismaError('P2039', { kind: 'postgres', code: '57P01', severity: 'FATAL', message: 'terminating connection' }),
    ],
    [
      '57P03 (the database system is starting up)',
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ],
    [
      '25006 (a write reached a standby, or a primary demoted by a failover)',
      prismaError('P2039', {
        kind: 'postgres',
        code: '25006',
        severity: 'ERROR',
        message: 'cannot execute INSERT in a read-only transaction',
      }),
    ],
    ['a connection exception (class 08)', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['ECONNREFUSED from pg', socketError('ECONNREFUSED')],
    ['ECONNRESET wrapped as a cause', new Error('query failed', { cause: socketError('ECONNRESET') })],
    ['pg: Connection terminated unexpectedly', new Error('Connection terminated unexpectedly')],
    ['pg-pool: timeout exceeded when trying to connect', new Error('timeout exceeded when trying to connect')],
    ['the adapter’s ConnectionClosed', prismaError('P2010', { kind: 'ConnectionClosed' })],
  ]
  for (const [name, error] of unavailable) t.ok(isDatabaseUnavailable(error), name)

  const otherwise: [string, unknown][] = [
    ['a unique violation (P2002)', prismaError('P2002', { kind: 'UniqueConstraintViolation' })],
    ['a check violation (23514)', Object.assign(new Error('check'), { code: '23514' })],
    ['an append-only trigger refusal', Object.assign(new Error('roll_events is append-only'), { code: 'P0001' })],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'sheet')")],
    ['not an error at all', 'ECONNREFUSED'],
    ['null', null],
  ]
  for (const [name, error] of otherwise) t.notOk(isDatabaseUnavailable(error), `not: ${name}`)

  const loop: { cause?: unknown; message: string } = { message: 'a cycle' }
  loop.cause = loop
  t.notOk(isDatabaseUnavailable(loop), 'a cause cycle ends the search')
})

t.test('a database outage is 503 problem details with Retry-After, never a 500 or its internals', async (t) => {
  const app = await buildTestApp(t, {}, {}, (app) => {
    app.get('/outage', async () => {
      throw prismaError('P1001', { kind: 'DatabaseNotReachable', host: 'db.internal', port: 5432 })
    })
    app.get('/bug', async () => {
      throw new Error('a bug at db.internal')
    })
  })
  const res = await app.inject({ url: '/outage' })
  t.equal(res.statusCode, 503, '503 Service Unavailable')
  t.match(res.headers['content-type'], PROBLEM, 'as problem details')
  t.match(res.json(), { status: 503, code: 'DATABASE_UNAVAILABLE', title: 'Service Unavailable' })
  t.ok(Number(res.headers['retry-after']) > 0, 'Retry-After says when to try again')
  t.notMatch(res.body, 'db.internal', 'the database host is not shown')
  const bug = await app.inject({ url: '/bug' })
  t.equal(bug.statusCode, 500, 'other failures stay 500')
})

t.test('text the database cannot store, and cursors it cannot hold, are 400 at the door', async (t) => {
  const app = await buildTestApp(t)
  const { campaign, auth } = await createCampaign(app, 'shock-meters')
  const { character } = await createCharacter(app, campaign, auth)
  const post = (url: string, payload: string) =>
    app.inject({ method: 'POST', url, headers: { ...auth, 'content-type': 'application/json' }, payload })

  const cases: [string, Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>][] = [
    ['a NUL in a character name', post(`/v1/campaigns/${campaign.id}/characters`, '{"name":"Vera\\u0000"}')],
    [
      'a NUL in a roll’s cause',
      post(
        `/v1/campaigns/${campaign.id}/characters/${character.id}/stress-check`,
        '{"request":{"meter":"violence","rank":4,"cause":"x\\u0000"}}',
      ),
    ],
    [
      'a NUL in a key of an object',
      post(`/v1/campaigns/${campaign.id}/characters`, '{"name":"Vera","sheet":{"a\\u0000":1}}'),
    ],
    ['an unpaired surrogate', post(`/v1/campaigns/${campaign.id}/characters`, '{"name":"\\ud800"}')],
    [
      'a NUL in an Idempotency-Key',
      app.inject({
        method: 'POST',
        url: `/v1/campaigns/${campaign.id}/characters`,
        headers: { ...auth, 'idempotency-key': 'key\u0000' },
        payload: { name: 'Vera' },
      }),
    ],
    [
      'a seq cursor past 2^53',
      app.inject({ url: `/v1/campaigns/${campaign.id}/events?after=18446744073709551616`, headers: auth }),
    ],
    [
      'a NUL in an event type filter',
      app.inject({ url: `/v1/campaigns/${campaign.id}/events?type=%00`, headers: auth }),
    ],
  ]
  for (const [name, pending] of cases) {
    const res = await pending
    t.equal(res.statusCode, 400, `${name}: 400`)
    t.match(res.headers['content-type'], PROBLEM, `${name}: as problem details`)
  }
  const fine = await post(`/v1/campaigns/${campaign.id}/characters`, '{"name":"Véra 🎲 \\u00e9"}')
  t.equal(fine.statusCode, 201, 'other unicode, emoji pairs included, is welcome')
})

t.test(
  'a connection terminated between two statements fails that work, not the process',
  { skip: TEST_DATABASE_URL ? false : 'needs PostgreSQL: set TEST_DATABASE_URL' },
  async (t) => {
    const db = await openDatabase({ url: await freshDatabaseUrl(t), dataDir: 'memory://' })
    t.teardown(() => db.close())
    // pg_terminate_backend only signals the backend: wait until it has gone and closed the connection.
    const terminate = async (pid: number) => {
      await db.withSession((session) => session.query('SELECT pg_terminate_backend($1)', [pid]))
      await eventually(
        'the backend to exit',
        () => db.withSession((session) => session.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])),
        (rows) => rows.length === 0,
      )
    }

    // Between two statements the client sits idle in its transaction: nobody is listening to it
    // when the server ends the connection, which is what a PostgreSQL restart does.
    const failed = await db.prisma
      .$transaction(async (tx) => {
        const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`
        await terminate(row!.pid)
        await tx.$queryRaw`SELECT 1`
      })
      .then(
        () => null,
        (error: unknown) => error,
      )
    t.ok(failed, 'the transaction failed')
    t.ok(isDatabaseUnavailable(failed), `and its error reads as the database being unavailable: ${String(failed)}`)

    // The same for a session held by the migrator or the readiness probe.
    const sessionFailed = await db
      .withSession(async (session) => {
        const [row] = await session.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
        await terminate(row!.pid)
        await session.query('SELECT 1')
      })
      .then(
        () => null,
        (error: unknown) => error,
      )
    t.ok(isDatabaseUnavailable(sessionFailed), `a held session fails the same way: ${String(sessionFailed)}`)

    // The pool may hand out a killed client once more before its socket's end is seen (as a
    // request after a restart may be answered 503 once); what matters is that it carries on.
    const rows = await eventually(
      'a statement on a fresh connection',
      () => db.prisma.$queryRaw<{ one: number }[]>`SELECT 1 AS one`.catch(() => []),
      (answer) => answer.length === 1,
    )
    t.equal(rows[0]?.one, 1, 'the pool carries on with a fresh connection')
  },
)
