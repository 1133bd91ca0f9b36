import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { SqlSession } from './database.js'

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url))

/** Held while migrating, so several instances starting at once apply each migration once. */
const MIGRATION_LOCK_KEY = 727_001

export interface Migration {
  name: string
  sql: string
  checksum: string
}

export class MigrationError extends Error {
  override readonly name = 'MigrationError'
}

/** The migrations on disk, in Prisma's layout (`<timestamp>_<name>/migration.sql`), oldest first. */
export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(dir, name, 'migration.sql'), 'utf8')
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') }
    }),
  )
}

const CREATE_LEDGER = `
  CREATE TABLE IF NOT EXISTS "_nerve_migrations" (
    "name" TEXT PRIMARY KEY,
    "checksum" TEXT NOT NULL,
    "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now()
  )`

interface AppliedMigration {
  name: string
  checksum: string
}

/**
 * Applies every migration not yet recorded, each in its own transaction, under an advisory
 * lock. Refuses to run when a recorded migration's file has changed since it was applied.
 *
 * The lock is a transaction's (`pg_advisory_xact_lock`), taken again in each migration's
 * transaction before the ledger is read: a connection pooler in transaction mode (PgBouncer)
 * may run each transaction of one session on another server connection, where a session lock
 * taken on one and released on another would stay held on the first.
 */
export async function migrate(session: SqlSession, migrations: readonly Migration[]): Promise<string[]> {
  const applied: string[] = []
  for (;;) {
    await session.exec('BEGIN')
    let migration: Migration | undefined
    try {
      await session.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY])
      await session.exec(CREATE_LEDGER)
      migration = unappliedMigrations(migrations, await appliedMigrations(session))[0]
      if (migration !== undefined) {
        await session.exec(migration.sql)
        await session.query('INSERT INTO "_nerve_migrations" ("name", "checksum") VALUES ($1, $2)', [
          migration.name,
          migration.checksum,
        ])
      }
      await session.exec('COMMIT')
    } catch (error) {
      await session.exec('ROLLBACK')
      if (migration === undefined || error instanceof MigrationError) throw error
      throw new MigrationError(`migration ${migration.name} failed: ${(error as Error).message}`, { cause: error })
    }
    if (migration === undefined) return applied
    applied.push(migration.name)
  }
}

/** Names of the migrations on disk that the database has not applied (for readiness). */
export async function pendingMigrations(session: SqlSession, migrations: readonly Migration[]): Promise<string[]> {
  const [ledger] = await session.query<{ exists: boolean }>(
    `SELECT to_regclass('"_nerve_migrations"') IS NOT NULL AS "exists"`,
  )
  const applied = ledger?.exists ? await appliedMigrations(session) : []
  return unappliedMigrations(migrations, applied).map((migration) => migration.name)
}

function appliedMigrations(session: SqlSession): Promise<AppliedMigration[]> {
  return session.query<AppliedMigration>('SELECT "name", "checksum" FROM "_nerve_migrations" ORDER BY "name"')
}

function unappliedMigrations(migrations: readonly Migration[], applied: readonly AppliedMigration[]): Migration[] {
  const recorded = new Map(applied.map((migration) => [migration.name, migration.checksum]))
  for (const migration of migrations) {
    const checksum = recorded.get(migration.name)
    if (checksum !== undefined && checksum !== migration.checksum) {
      throw new MigrationError(
        `migration ${migration.name} was edited after it was applied (recorded checksum ${checksum.slice(0, 12)}…, file ${migration.checksum.slice(0, 12)}…); add a new migration instead`,
      )
    }
  }
  return migrations.filter((migration) => !recorded.has(migration.name))
}
