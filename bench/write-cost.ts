import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { forCommandStatement } from '../src/repositories/characters.js'
import { recordedEvent, recordStatement, type NewEvent } from '../src/repositories/events.js'
import { postgresCpuMicros, withClient } from './lib/postgres.js'
import type { LoadResult } from './lib/load.js'
import { median, round, sleep } from './lib/stats.js'
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
  /** Nerve's statements with the outbox's ids random, as they were before (gen_random_uuid, not nerve_uuid_v7). */
  randomDeliveryIds?: boolean
}

const COPIED = ['campaigns', 'characters', 'webhook_endpoints', 'roll_events', 'webhook_deliveries']
const COPIED_EVENTS = 10_000

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
      // LIKE copies no storage parameters (roll_events' toast_tuple_target): set them as Nerve's are.
      const {
        rows: [{ options } = { options: null }],
      } = await client.query<{ options: string[] | null }>(
        `SELECT reloptions AS "options" FROM pg_class WHERE oid = $1::regclass`,
        [`public."${table}"`],
      )
      if (options) await client.query(`ALTER TABLE ${COPY_SCHEMA}."${table}" SET (${options.join(', ')})`)
      if (!['roll_events', 'webhook_deliveries'].includes(table))
        await client.query(`INSERT INTO ${COPY_SCHEMA}."${table}" SELECT * FROM public."${table}"`)
    }
    // The history's latest events and their deliveries too: on empty tables the planner would
    // check the foreign keys into them by scanning them whole, as they grew during the run.
    await client.query(
      `INSERT INTO ${COPY_SCHEMA}."roll_events" SELECT * FROM public."roll_events" ORDER BY "id" DESC LIMIT ${COPIED_EVENTS}`,
    )
    await client.query(
      `INSERT INTO ${COPY_SCHEMA}."webhook_deliveries"
       SELECT d.* FROM public."webhook_deliveries" d JOIN ${COPY_SCHEMA}."roll_events" e ON e."id" = d."event_id"`,
    )
    await client.query(`SET search_path = ${COPY_SCHEMA}, public`)
    if (variant.foreignKeys !== false)
      for (const key of foreignKeys)
        await client.query(`ALTER TABLE "${key.table}" ADD CONSTRAINT "${key.name}" ${key.definition}`)
    if (variant.change) await client.query(variant.change)
    for (const table of COPIED) await client.query(`ANALYZE "${table}"`)
  })
  await checkpoint(databaseUrl)
}

/**
 * Each variant is measured just after a checkpoint, so the copy's own writes are not flushed
 * during its run and every variant pays alike for the first change to each page after one, which
 * writes the whole page to the WAL: the worst point of the checkpoint cycle, where choices that
 * touch fewer pages (time-ordered ids) show their gain in full. The targets are measured wherever
 * the cycle stands, as a server runs: a transaction touching many pages, as Nerve's does, pays
 * most just after a checkpoint, which forcing one before each run would charge to Nerve alone.
 */
async function checkpoint(databaseUrl: string) {
  await withClient(databaseUrl, (client) => client.query('CHECKPOINT'))
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

/** One pgbench run: throughput, and PostgreSQL's CPU (µs) and WAL (bytes) per transaction. */
interface Measurement {
  tps: number
  cpu: number
  wal: number
}

export interface WriteCostRow {
  name: string
  tps: number
  cpuMicros: number
  walBytes: number
  /**
   * Against Nerve's tables as they are (a copy, measured in the same run): what taking this away
   * or doing it the other way changes, in percent of tps, of CPU and of WAL per transaction; the
   * median of the runs' own comparisons.
   */
  gain: number | null
  cpuChange: number | null
  walChange: number | null
}

/** One run's figures for the targets, each against the minimal transaction measured beside it. */
export interface WriteCostRun {
  minimalTps: number
  minimalPreparedTps: number
  nerveTps: number
  /** Through HTTP (`POST …/stress-check`) at `connections` clients and at 4, when the benchmark has a server. */
  http: { rps: number; p99: number } | null
  httpFewer: { rps: number; p99: number } | null
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
  runs: WriteCostRun[]
  /** Medians of the runs' own ratios (each run's figure over that run's minimal transaction). */
  ratios: {
    nerve: number
    nerveOfPrepared: number
    http: number | null
    httpOfPrepared: number | null
    httpFewerP99: number | null
  }
  rows: WriteCostRow[]
  /** EXPLAIN (ANALYZE, BUFFERS) of Nerve's write statement on its own tables, written to this file. */
  explainFile: string
  /** What the events the benchmark wrote hold: average bytes of the payload and listing as text and as stored. */
  sizes: Record<string, string>
}

/**
 * The write cost, measured with pgbench at `connections` clients: the minimal transaction, the
 * minimal transaction carrying a real sheet, Nerve's own transaction on Nerve's tables — and,
 * given `http`, Nerve's rolls through HTTP at `connections` clients and at 4 —, then, one client
 * at a time, Nerve's transaction on a copy of its tables with one thing taken away or done the
 * other way at a time.
 * Runs alternate all of these `runs` times.
 */
export async function benchWriteCost(
  databaseUrl: string,
  workDir: string,
  options: {
    runs: number
    seconds: number
    connections: number
    targets: number
    http?: (connections: number, seconds: number) => Promise<LoadResult>
    /**
     * The same database through Debian's PgBouncer (1.18), in transaction and in session mode
     * (scripts/throwaway-pgbouncer.sh): Nerve's transaction is then also measured as it runs
     * behind each, unnamed in transaction mode (DATABASE_PREPARED_STATEMENTS=off), prepared in session mode.
     */
    pooler?: { transaction: string; session: string }
  },
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
  // What migration 20261208000000_lean_roll_write changed, undone one at a time and all together.
  const before = {
    causationIndex: 'CREATE INDEX ON "roll_events" ("causation_id");',
    outboxIndexes:
      'CREATE INDEX ON "webhook_deliveries" ("endpoint_id", "status", "event_seq"); CREATE INDEX ON "webhook_deliveries" ("status", "next_attempt_at");',
    toast: 'ALTER TABLE "roll_events" RESET (toast_tuple_target);',
  }
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
    { name: 'before: outbox ids random (gen_random_uuid)', change: '', randomDeliveryIds: true },
    { name: 'before: payload to TOAST past 2 KB', change: before.toast },
    { name: 'before: the index on causation_id', change: before.causationIndex },
    {
      name: 'before: the outbox indexes by (endpoint, status, seq) and (status, next attempt)',
      change: before.outboxIndexes,
    },
    {
      name: 'before: all four (the write of 2026-12-03)',
      change: `${before.toast} ${before.causationIndex} ${before.outboxIndexes}`,
      randomDeliveryIds: true,
    },
    {
      name: 'all taken away (indexes, outbox, foreign keys)',
      change: `${dropAll(eventIndexes)} ${dropAll(outboxIndexes)} DELETE FROM "webhook_endpoints";`,
      foreignKeys: false,
    },
  ]
  const randomIdsFile = join(workDir, 'write-cost-nerve-random-ids.sql')
  const randomIds = nerve.script.replace(
    'SELECT nerve_uuid_v7(), e."campaign_id"',
    'SELECT gen_random_uuid(), e."campaign_id"',
  )
  if (randomIds === nerve.script) throw new Error("the outbox's ids are no longer made by nerve_uuid_v7()")
  writeFileSync(randomIdsFile, randomIds)
  const copyUrl = `${databaseUrl}?options=${encodeURIComponent(`-csearch_path=${COPY_SCHEMA},public`)}`
  const variables = { targets: options.targets }
  const walPosition = () =>
    withClient(databaseUrl, async (client) => {
      const { rows } = await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS "lsn"')
      return rows[0]!.lsn
    })
  const walSince = (lsn: string) =>
    withClient(databaseUrl, async (client) => {
      const { rows } = await client.query<{ bytes: string }>(
        'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::text AS "bytes"',
        [lsn],
      )
      return Number(rows[0]!.bytes)
    })
  // Throughput, and what each transaction cost PostgreSQL: CPU (every process of the server)
  // and WAL. With one client the CPU is the work itself, no waiting on the others' locks.
  const pgbench = async (
    url: string,
    file: string,
    protocol: 'extended' | 'prepared',
    more = {},
    connections = options.connections,
  ) => {
    const [cpuBefore, walBefore] = [await postgresCpuMicros(databaseUrl), await walPosition()]
    const result = runPgbench(url, file, {
      seconds: options.seconds,
      connections,
      variables: { ...variables, ...more },
      protocol,
    })
    await sleep(200) // the postmaster counts a backend's CPU once it has reaped it
    const cpu = (await postgresCpuMicros(databaseUrl)) - cpuBefore
    const wal = await walSince(walBefore)
    return { tps: result.tps, cpu: cpu / result.transactions, wal: wal / result.transactions }
  }
  const http = async (connections: number) => {
    if (!options.http) return null
    const result = await options.http(connections, options.seconds)
    console.log(
      `  Nerve through HTTP, ${connections} connections: ${round(result.requestsPerSecond, 0)} req/s, p99 ${result.p99} ms`,
    )
    return { rps: result.requestsPerSecond, p99: result.p99 }
  }

  // Nerve prepares its statements (src/db/prepared.ts): its transaction runs as pgbench -M prepared.
  await pgbench(databaseUrl, files.nerve, 'prepared', nerve.variables) // warm-up
  const measured = new Map<string, Measurement[]>()
  const measure = (name: string, value: Measurement) => {
    measured.set(name, [...(measured.get(name) ?? []), value])
    console.log(
      `  ${name}: ${round(value.tps, 0)} tps, ${round(value.cpu, 0)} µs of CPU and ${round(value.wal, 0)} bytes of WAL a transaction`,
    )
    return value.tps
  }
  const names = {
    minimal: 'minimal roll transaction',
    minimalPrepared: 'minimal roll transaction, prepared',
    heavy: 'minimal, prepared, carrying the real sheet (1 write, 2 in the event)',
    nerve: "Nerve's own transaction on Nerve's tables, prepared",
    nerveExtended: "Nerve's own transaction on Nerve's tables, parsed on every call",
    minimalAlone: 'minimal roll transaction, prepared, one client',
    nerveAlone: "Nerve's own transaction, prepared, one client",
    nerveTransactionPooler: "Nerve's own transaction, unnamed, through PgBouncer 1.18 in transaction mode",
    nerveSessionPooler: "Nerve's own transaction, prepared, through PgBouncer 1.18 in session mode",
  }
  const runs: WriteCostRun[] = []
  for (let run = 0; run < options.runs; run++) {
    console.log(`  run ${run + 1}`)
    const minimalTps = measure(names.minimal, await pgbench(databaseUrl, files.minimal, 'extended'))
    const minimalPreparedTps = measure(names.minimalPrepared, await pgbench(databaseUrl, files.minimal, 'prepared'))
    measure(names.heavy, await pgbench(databaseUrl, files.heavy, 'prepared', { sheet }))
    const nerveTps = measure(names.nerve, await pgbench(databaseUrl, files.nerve, 'prepared', nerve.variables))
    measure(names.nerveExtended, await pgbench(databaseUrl, files.nerve, 'extended', nerve.variables))
    if (options.pooler) {
      const { transaction, session } = options.pooler
      measure(names.nerveTransactionPooler, await pgbench(transaction, files.nerve, 'extended', nerve.variables))
      measure(names.nerveSessionPooler, await pgbench(session, files.nerve, 'prepared', nerve.variables))
    }
    measure(names.minimalAlone, await pgbench(databaseUrl, files.minimal, 'prepared', {}, 1))
    measure(names.nerveAlone, await pgbench(databaseUrl, files.nerve, 'prepared', nerve.variables, 1))
    runs.push({
      minimalTps,
      minimalPreparedTps,
      nerveTps,
      http: await http(options.connections),
      httpFewer: await http(4),
    })
    // Each run starts the variants at a different one: whichever comes first follows the HTTP
    // runs' writes (autovacuum, the background writer) and measured 10–15 % slower, always the copy.
    const start = (run * Math.ceil(variants.length / options.runs)) % variants.length
    for (const variant of [...variants.slice(start), ...variants.slice(0, start)]) {
      await copyNerveTables(databaseUrl, variant)
      const file = variant.randomDeliveryIds ? randomIdsFile : files.nerve
      // One client: what the choice costs each roll, which ten clients' throughput on two cores blurs.
      measure(variant.name, await pgbench(copyUrl, file, 'prepared', nerve.variables, 1))
    }
  }
  const medianOf = (name: string, of: keyof Measurement = 'tps') => median(measured.get(name)!.map((m) => m[of]))
  const copy = measured.get(variants[0]!.name)!
  const ratioOf = (pick: (run: WriteCostRun) => number | undefined) => {
    const values = runs.map(pick).filter((value): value is number => value !== undefined)
    return values.length ? round(median(values), 3) : null
  }
  return {
    minimalScript: scripts.minimal,
    minimalTps: medianOf(names.minimal),
    minimalPreparedTps: medianOf(names.minimalPrepared),
    heavyMinimalTps: medianOf(names.heavy),
    nerveTps: medianOf(names.nerve),
    nerveExtendedTps: medianOf(names.nerveExtended),
    runs,
    ratios: {
      nerve: ratioOf((run) => run.nerveTps / run.minimalTps)!,
      nerveOfPrepared: ratioOf((run) => run.nerveTps / run.minimalPreparedTps)!,
      http: ratioOf((run) => (run.http ? run.http.rps / run.minimalTps : undefined)),
      httpOfPrepared: ratioOf((run) => (run.http ? run.http.rps / run.minimalPreparedTps : undefined)),
      httpFewerP99: ratioOf((run) => run.httpFewer?.p99),
    },
    rows: [...measured.keys()].map((name) => {
      const isVariant = variants.some((variant) => variant.name === name) && name !== variants[0]!.name
      // Each run's variant against the copy measured in the same run, then the median of those.
      const change = (of: keyof Measurement) =>
        isVariant ? round(median(measured.get(name)!.map((m, run) => m[of] / copy[run]![of] - 1)) * 100, 0) : null
      return {
        name,
        tps: round(medianOf(name), 0),
        cpuMicros: round(medianOf(name, 'cpu'), 0),
        walBytes: round(medianOf(name, 'wal'), 0),
        gain: change('tps'),
        cpuChange: change('cpu'),
        walChange: change('wal'),
      }
    }),
    explainFile,
    sizes,
  }
}
