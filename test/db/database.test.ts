import t from 'tap'
import { openDatabase } from '../../src/db/database.js'
import { freshDatabaseUrl } from '../helpers/database.js'

// One pooled connection: a client not given back after a statement, failed or not, would
// leave the next statement waiting for a connection until the pool's timeout.
async function oneConnection(t: Parameters<typeof freshDatabaseUrl>[0]) {
  const database = await openDatabase({ url: await freshDatabaseUrl(t), dataDir: 'memory://', poolSize: 1 })
  t.teardown(() => database.close())
  return database
}

t.test('a statement through the driver returns its rows, named or not, call after call', async (t) => {
  const database = await oneConnection(t)
  for (const name of [undefined, 'nerve_test_rows', 'nerve_test_rows']) {
    const rows = await database.query<{ doubled: number; label: string }>(
      'SELECT $1::int * 2 AS "doubled", $2::text AS "label"',
      [21, `as ${name ?? 'unnamed'}`],
      name,
    )
    t.same(rows, [{ doubled: 42, label: `as ${name ?? 'unnamed'}` }], `the row, ${name ?? 'unnamed'}`)
  }
  t.same(await database.query('SELECT 1 AS "one" WHERE false'), [], 'no rows: an empty list')
})

t.test("a failing statement rejects with PostgreSQL's own error, and the connection serves the next", async (t) => {
  const database = await oneConnection(t)
  for (const name of [undefined, 'nerve_test_division']) {
    const failure = await database.query('SELECT 1 / $1::int AS "quotient"', [0], name).then(
      () => undefined,
      (error: unknown) => error,
    )
    t.ok(failure instanceof Error, `${name ?? 'unnamed'}: an Error`)
    t.match(
      failure,
      { code: '22012', message: /division by zero/ },
      `${name ?? 'unnamed'}: SQLSTATE 22012 and the server's message`,
    )
    t.same(
      await database.query('SELECT 1 / $1::int AS "quotient"', [1], name),
      [{ quotient: 1 }],
      `${name ?? 'unnamed'}: the same statement then runs on the one connection`,
    )
  }
})
