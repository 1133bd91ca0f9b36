import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { forCommandStatement } from '../src/repositories/characters.js'
import { recordedEvent, recordStatement, type NewEvent } from '../src/repositories/events.js'
import { withClient } from './lib/postgres.js'
import { median, round } from './lib/stats.js'
import { runPgbench } from './stateful.js'

/**
 * Issue 17: what a roll costs the database, against a fixed minimal roll transaction.
 *
 * The minimal transaction is the benchmark's own, on its own four-column tables: lock the
 * character, update it with a small sheet, bump the campaign's sequence, insert a small event.
 * Nerve's own transaction is the text of the statements Nerve sends (`forCommandStatement`,
 * `recordStatement`, with a real roll's payload, sheet and listings as parameters), prepared as
 * Nerve prepares them; the minimal transaction is measured both ways, parsed on every call as
 * the target defines it and prepared. Then Nerve's text on a copy of Nerve's tables with one
 * thing taken away at a time — each index, the outbox, the foreign keys, the payload's
 * compression — names what each one costs a write.
 */

const MINIMAL_SCHEMA = 'bench_minimal'
const COPY_SCHEMA = 'bench_copy'
const CHARACTERS_PER_CAMPAIGN = 5

/** The minimal roll transaction, with the SQL expressions of the sheet it saves and the payload it appends. */
export const minimalScript = (sheet: string, payload: string) => `\\set n random(1, :targets)
\\set camp (:n - 1) / ${CHARACTERS_PER_CAMPAIGN} + 1
BEGIN;
SELECT "sheet" FROM ${MINIMAL_SCHEMA}."characters" WHERE "id" = :n FOR UPDATE;
UPDATE ${MINIMAL_SCHEMA}."characters" SET "sheet" = ${sheet}::jsonb, "version" = "version" + 1 WHERE "id" = :n;
UPDATE ${MINIMAL_SCHEMA}."campaigns" SET "last_seq" = "last_seq" + 1 WHERE "id" = :camp RETURNING "last_seq" \\gset
INSERT INTO ${MINIMAL_SCHEMA}."events" ("campaign_id", "seq", "character_id", "payload") VALUES (:camp, :last_seq, :n, ${payload});
END;
`

const SMALL_SHEET = '{"stress": 1}'
const SMALL_EVENT = `'{"roll": 42}'::jsonb`

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  if (typeof value === 'boolean' || typeof value === 'number') return String(value)
  if (value instanceof Date) return literal(value.toISOString())
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  // An escape string with its colons as \x3a: pgbench would read `:false` in JSON as a variable.
  return `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''").replaceAll(':', '\\x3a')}'`
}

/**
 * A Prisma statement as pgbench text, its values sent as Nerve sends them: each one a parameter
 * (a pgbench variable, added to `variables`), except nulls and the stand-ins given, written as raw SQL.
 */
function asPgbench(
  statement: { text: string; values: unknown[] },
  raw: Record<string, string>,
  variables: Record<string, string>,
): string {
  return statement.text
    .replace(/--[^\n]*/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\$(\d+)/g, (_, n: string) => {
      const value = statement.values[Number(n) - 1]
      if (String(value) in raw) return raw[String(value)]!
      if (value === null || value === undefined) return 'NULL'
      const name = `p${Object.keys(variables).length + 1}`
      variables[name] =
        value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : JSON.stringify(value)
      return `:${name}`
    })
}

/** Stands in for the version the read found, in the write that requires it (`:version`, set by the read). */
const READ_VERSION = -1

/**
 * Nerve's roll for pgbench, as a command runs it when no other command changes the character
 * meanwhile: the key lookup stands in for authentication, then Nerve's own statements — the
 * read, and the write that requires the version read — each on its own, as Nerve sends them.
 */
export function nerveScript(roll: { payload: Record<string, unknown>; actor: unknown; sheet: unknown }) {
  const raw = {
    // Node makes an event's id; in SQL, the same kind (migration 20261208000000_lean_roll_write).
    EVENT_ID: 'nerve_uuid_v7()',
    CHARACTER_ID: ':cid',
    CAMPAIGN_ID: ':camp',
    [READ_VERSION]: ':version',
    NAME: ':name',
  }
  const variables: Record<string, string> = {}
  const read = asPgbench(forCommandStatement('CAMPAIGN_ID', 'CHARACTER_ID', false), raw, variables)
  const change = { readVersion: READ_VERSION, sheet: roll.sheet, publicSheet: null, name: 'NAME' }
  const event: NewEvent = {
    id: 'EVENT_ID',
    campaignId: 'CAMPAIGN_ID',
    characterId: 'CHARACTER_ID',
    type: 'stress-check',
    ruleset: 'shock-meters',
    visibility: 'public',
    actor: roll.actor as NewEvent['actor'],
    payload: roll.payload,
    causationId: null,
    idempotencyKey: null,
  }
  const record = asPgbench(recordStatement(recordedEvent(event, change, new Date()), change), raw, variables)
  const script = `\\set n random(1, :targets)
SELECT character_id AS cid, campaign_id AS camp FROM bench_targets WHERE n = :n \\gset
${read} \\gset
${record};
`
  return { script, read, record, variables }
}

interface Variant {
  name: string
  /** Applied to the copy of Nerve's tables (schema bench_copy) before it is measured. */
  change: string
  /** Keep the copy's foreign keys (as Nerve's tables have them). */
  foreignKeys?: boolean
}

const COPIED = ['campaigns', 'characters', 'webhook_endpoints', 'roll_events', 'webhook_deliveries']

async function copyNerveTables(databaseUrl: string, variant: Variant) {
  await withClient(databaseUrl, async (client) => {
    const { rows: foreignKeys } = await client.query<{ table: string; name: string; definition: string }>(
      `SELECT c.conrelid::regclass::text AS "table", c.conname AS "name", pg_get_constraintdef(c.oid) AS "definition"
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
       WHERE n.nspname = 'public' AND c.contype = 'f' AND c.conrelid::regclass::text = ANY($1)
         AND c.confrelid::regclass::text = ANY($1)`,
      [COPIED],
    )
    await client.query(`DROP SCHEMA IF EXISTS ${COPY_SCHEMA} CASCADE`)
    await client.query(`CREATE SCHEMA ${COPY_SCHEMA}`)
    for (const table of COPIED) {
      await client.query(`CREATE TABLE ${COPY_SCHEMA}."${table}" (LIKE public."${table}" INCLUDING ALL)`)
      if (!['roll_events', 'webhook_deliveries'].includes(table))
        await client.query(`INSERT INTO ${COPY_SCHEMA}."${table}" SELECT * FROM public."${table}"`)
    }
    await client.query(`SET search_path = ${COPY_SCHEMA}, public`)
    if (variant.foreignKeys !== false)
      for (const key of foreignKeys)
        await client.query(`ALTER TABLE "${key.table}" ADD CONSTRAINT "${key.name}" ${key.definition}`)
    if (variant.change) await client.query(variant.change)
    for (const table of COPIED) await client.query(`ANALYZE "${table}"`)
  })
}

/** The secondary indexes of a table of the copy, each named as Nerve's own index it copies. */
async function copiedIndexes(databaseUrl: string, table: string) {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ schema: string; name: string; definition: string }>(
      `SELECT n.nspname AS "schema", i.relname AS "name", pg_get_indexdef(i.oid) AS "definition"
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       WHERE n.nspname IN ('public', $1) AND t.relname = $2 AND NOT x.indisprimary AND NOT x.indisunique
       ORDER BY i.relname`,
      [COPY_SCHEMA, table],
    )
    const shape = (row: { definition: string }) => row.definition.replace(/^.* USING /, '')
    const originals = rows.filter((row) => row.schema === 'public')
    return rows
      .filter((row) => row.schema === COPY_SCHEMA)
      .map((row) => ({ name: row.name, nerveName: originals.find((o) => shape(o) === shape(row))?.name ?? row.name }))
  })
}

async function setUpMinimal(databaseUrl: string, targets: number) {
  await withClient(databaseUrl, async (client) => {
    await client.query(`DROP SCHEMA IF EXISTS ${MINIMAL_SCHEMA} CASCADE`)
    await client.query(`CREATE SCHEMA ${MINIMAL_SCHEMA}`)
    await client.query(
      `CREATE TABLE ${MINIMAL_SCHEMA}."campaigns" ("id" bigint PRIMARY KEY, "last_seq" bigint NOT NULL DEFAULT 0)`,
    )
    await client.query(
      `CREATE TABLE ${MINIMAL_SCHEMA}."characters" ("id" bigint PRIMARY KEY, "campaign_id" bigint NOT NULL, "sheet" jsonb NOT NULL, "version" int NOT NULL DEFAULT 0)`,
    )
    await client.query(
      `CREATE TABLE ${MINIMAL_SCHEMA}."events" ("campaign_id" bigint, "seq" bigint, "character_id" bigint, "payload" jsonb NOT NULL, PRIMARY KEY ("campaign_id", "seq"))`,
    )
    await client.query(`INSERT INTO ${MINIMAL_SCHEMA}."campaigns" ("id") SELECT generate_series(1, $1::int)`, [
      Math.ceil(targets / CHARACTERS_PER_CAMPAIGN),
    ])
    await client.query(
      `INSERT INTO ${MINIMAL_SCHEMA}."characters" ("id", "campaign_id", "sheet") SELECT n, (n - 1) / ${CHARACTERS_PER_CAMPAIGN} + 1, '{}' FROM generate_series(1, $1::int) n`,
      [targets],
    )
  })
}

export interface WriteCostRow {
  name: string
  tps: number
  /** Against Nerve's tables as they are: what taking this away gains (the thing's cost), in percent of tps. */
  gain: number | null
}

export interface WriteCostResult {
  minimalScript: string
  /** The minimal transaction as the target defines it: `-M extended`, each statement parsed and planned on every call. */
  minimalTps: number
  minimalPreparedTps: number
  heavyMinimalTps: number
  /** Nerve's transaction as Nerve sends it: prepared statements. */
  nerveTps: number
  nerveExtendedTps: number
  rows: WriteCostRow[]
  /** EXPLAIN (ANALYZE, BUFFERS) of Nerve's write statement on its own tables, written to this file. */
  explainFile: string
  /** What the events the benchmark wrote hold: average bytes of the payload and listing as text and as stored. */
  sizes: Record<string, string>
}

/**
 * The write cost, measured with pgbench at `connections` clients: the minimal transaction, the
 * minimal transaction carrying a real sheet, Nerve's own transaction on Nerve's tables, then on
 * a copy of them with one thing taken away at a time. Runs alternate the variants `runs` times.
 */
export async function benchWriteCost(
  databaseUrl: string,
  workDir: string,
  options: { runs: number; seconds: number; connections: number; targets: number },
): Promise<WriteCostResult> {
  const roll = await withClient(databaseUrl, async (client) => {
    const {
      rows: [row],
    } = await client.query<{ payload: Record<string, unknown>; actor: unknown; sheet: unknown }>(
      `SELECT e.payload, e.actor, c.sheet FROM roll_events e JOIN characters c ON c.id = e.character_id
       WHERE e.type = 'stress-check' ORDER BY e.seq DESC LIMIT 1`,
    )
    return row!
  })
  const sheet = JSON.stringify(roll.sheet)
  const nerve = nerveScript(roll)
  const scripts = {
    minimal: minimalScript(literal(SMALL_SHEET), SMALL_EVENT),
    heavy: minimalScript(
      ':sheet',
      `jsonb_build_object('sheetBefore', :sheet::jsonb, 'sheetAfter', :sheet::jsonb, 'roll', 42)`,
    ),
    nerve: nerve.script,
  }
  const files = Object.fromEntries(
    Object.entries(scripts).map(([name, text]) => {
      const file = join(workDir, `write-cost-${name}.sql`)
      writeFileSync(file, text)
      return [name, file]
    }),
  ) as Record<keyof typeof scripts, string>
  await setUpMinimal(databaseUrl, options.targets)

  const explainFile = join(workDir, 'write-cost-explain.txt')
  await withClient(databaseUrl, async (client) => {
    const {
      rows: [target],
    } = await client.query<{ cid: string; camp: string }>(
      'SELECT character_id AS cid, campaign_id AS camp FROM bench_targets WHERE n = 1',
    )
    const bind = (text: string, read = { version: 0, name: '' }) => {
      const values: Record<string, string> = {
        ...nerve.variables,
        cid: target!.cid,
        camp: target!.camp,
        name: read.name,
      }
      return text
        .replace(/:(\w+)/g, (variable, name: string) => (name in values ? literal(values[name]) : variable))
        .replaceAll(':version', String(read.version))
    }
    // The last of several, so the session's catalog caches are warm as a pooled connection's are.
    let plan: string[] = []
    for (let attempt = 0; attempt < 5; attempt++) {
      await client.query('BEGIN')
      const {
        rows: [character],
      } = await client.query<{ version: number; name: string }>(bind(nerve.read))
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS, VERBOSE) ${bind(nerve.record, character)}`,
      )
      await client.query('ROLLBACK')
      plan = rows.map((row) => row['QUERY PLAN'])
    }
    writeFileSync(explainFile, plan.join('\n'))
  })
  const sizes = await withClient(databaseUrl, async (client) => {
    const {
      rows: [row],
    } = await client.query<Record<string, string>>(
      `SELECT round(avg(octet_length("payload"::text))) AS "payloadText", round(avg(pg_column_size("payload"))) AS "payloadStored",
         round(avg(octet_length("listing"))) AS "listingText", round(avg(pg_column_size("listing"))) AS "listingStored",
         pg_size_pretty(pg_relation_size(reltoastrelid)) AS "toast", pg_size_pretty(pg_relation_size('roll_events')) AS "heap",
         count(*) AS "events"
       FROM "roll_events", pg_class WHERE pg_class.oid = 'roll_events'::regclass GROUP BY reltoastrelid`,
    )
    return row!
  })

  await copyNerveTables(databaseUrl, { name: 'the copy whose indexes are listed', change: '' })
  const eventIndexes = await copiedIndexes(databaseUrl, 'roll_events')
  const outboxIndexes = await copiedIndexes(databaseUrl, 'webhook_deliveries')
  const dropAll = (indexes: { name: string }[]) => indexes.map((index) => `DROP INDEX "${index.name}";`).join(' ')
  const variants: Variant[] = [
    { name: "Nerve's tables (a copy)", change: '' },
    ...eventIndexes.map((index) => ({
      name: `without the index ${index.nerveName}`,
      change: `DROP INDEX "${index.name}";`,
    })),
    { name: 'without the outbox (no webhook endpoint)', change: 'DELETE FROM "webhook_endpoints";' },
    { name: `outbox without its ${outboxIndexes.length} secondary indexes`, change: dropAll(outboxIndexes) },
    { name: 'without foreign keys', change: '', foreignKeys: false },
    {
      name: 'payload compressed with lz4, not pglz',
      change: 'ALTER TABLE "roll_events" ALTER COLUMN "payload" SET COMPRESSION lz4;',
    },
    {
      name: 'payload stored uncompressed',
      change: 'ALTER TABLE "roll_events" ALTER COLUMN "payload" SET STORAGE EXTERNAL;',
    },
    {
      name: 'all of these taken away',
      change: `${dropAll(eventIndexes)} ${dropAll(outboxIndexes)} DELETE FROM "webhook_endpoints";`,
      foreignKeys: false,
    },
  ]
  const copyUrl = `${databaseUrl}?options=${encodeURIComponent(`-csearch_path=${COPY_SCHEMA},public`)}`
  const variables = { targets: options.targets }
  const pgbench = (url: string, file: string, protocol: 'extended' | 'prepared', more = {}) =>
    runPgbench(url, file, {
      seconds: options.seconds,
      connections: options.connections,
      variables: { ...variables, ...more },
      protocol,
    }).tps

  // Nerve prepares its statements (src/db/prepared.ts): its transaction runs as pgbench -M prepared.
  pgbench(databaseUrl, files.nerve, 'prepared', nerve.variables) // warm-up
  const tps = new Map<string, number[]>()
  const measure = (name: string, value: number) => {
    tps.set(name, [...(tps.get(name) ?? []), value])
    console.log(`  ${name}: ${round(value, 0)} tps`)
  }
  const names = {
    minimal: 'minimal roll transaction',
    minimalPrepared: 'minimal roll transaction, prepared',
    heavy: 'minimal, prepared, carrying the real sheet (1 write, 2 in the event)',
    nerve: "Nerve's own transaction on Nerve's tables, prepared",
    nerveExtended: "Nerve's own transaction on Nerve's tables, parsed on every call",
  }
  for (let run = 0; run < options.runs; run++) {
    console.log(`  run ${run + 1}`)
    measure(names.minimal, pgbench(databaseUrl, files.minimal, 'extended'))
    measure(names.minimalPrepared, pgbench(databaseUrl, files.minimal, 'prepared'))
    measure(names.heavy, pgbench(databaseUrl, files.heavy, 'prepared', { sheet }))
    measure(names.nerve, pgbench(databaseUrl, files.nerve, 'prepared', nerve.variables))
    measure(names.nerveExtended, pgbench(databaseUrl, files.nerve, 'extended', nerve.variables))
    for (const variant of variants) {
      await copyNerveTables(databaseUrl, variant)
      measure(variant.name, pgbench(copyUrl, files.nerve, 'prepared', nerve.variables))
    }
  }
  const medianOf = (name: string) => median(tps.get(name)!)
  const copied = medianOf(variants[0]!.name)
  return {
    minimalScript: scripts.minimal,
    minimalTps: medianOf(names.minimal),
    minimalPreparedTps: medianOf(names.minimalPrepared),
    heavyMinimalTps: medianOf(names.heavy),
    nerveTps: medianOf(names.nerve),
    nerveExtendedTps: medianOf(names.nerveExtended),
    rows: [...tps.keys()].map((name) => {
      const value = medianOf(name)
      const isCopy = variants.some((variant) => variant.name === name) && name !== variants[0]!.name
      return { name, tps: round(value, 0), gain: isCopy ? round((value / copied - 1) * 100, 0) : null }
    }),
    explainFile,
    sizes,
  }
}
