import pg from 'pg'
import { randomBytes } from 'node:crypto'
import { openDatabase } from '../../src/db/database.js'
import { migrate, readMigrations } from '../../src/db/migrate.js'
import { createStore, type Store } from '../../src/repositories/index.js'

/**
 * Tests run against a real PostgreSQL when TEST_DATABASE_URL names a server they may create
 * databases on (CI starts a throwaway one), and against in-memory PGlite otherwise.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined
export const engine = TEST_DATABASE_URL ? 'postgres' : 'pglite'

interface Teardown {
  teardown(fn: () => unknown): void
}

/** A fresh, empty database for one test: its URL (PostgreSQL) or undefined (PGlite in memory). */
export async function freshDatabaseUrl(t: Teardown): Promise<string | undefined> {
  if (!TEST_DATABASE_URL) return undefined
  const name = `nerve_test_${randomBytes(6).toString('hex')}`
  await adminQuery(`CREATE DATABASE ${name}`)
  t.teardown(() => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
  const url = new URL(TEST_DATABASE_URL)
  url.pathname = `/${name}`
  return url.toString()
}

export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/**
 * The repositories over a fresh, migrated database, without an app: for services tested on
 * their own (they take only the repositories they need).
 */
export async function testStore(t: Teardown): Promise<Store> {
  const database = await openDatabase({ url: await freshDatabaseUrl(t), dataDir: 'memory://' })
  t.teardown(() => database.close())
  const migrations = await readMigrations()
  await database.withSession((session) => migrate(session, migrations))
  return createStore(database)
}
