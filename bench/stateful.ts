import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createParties, rollRequests, targetsOf, type Target } from './lib/fixtures.js'
import { load, type LoadResult } from './lib/load.js'
import { withClient } from './lib/postgres.js'
import { LOAD_CORE, pinned, type BenchServer } from './lib/server.js'
import { median, percentile, round } from './lib/stats.js'

export interface PgbenchResult {
  tps: number
  /** Transactions pgbench completed. */
  transactions: number
  /** Mean latency in ms, as pgbench reports it. */
  latency: number
  /** Percentiles in ms of pgbench's own per-transaction latencies (its `--log`), when asked for. */
  p50?: number
  p99?: number
}

interface Medians {
  pgbenchTps: number
  pgbenchP50: number
  pgbenchP99: number
  nerveRps: number
  nerveP50: number
  nerveP99: number
  ratio: number
}

type Run = { pgbench: PgbenchResult; nerve: LoadResult; ratio: number }

export interface StatefulResult extends Medians {
  connections: number
  runs: Run[]
  /** The same pair at fewer connections, in the same runs: what a lower p99 costs in throughput. */
  fewer: (Medians & { connections: number; runs: Run[] }) | null
}

const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`

/**
 * What one roll does in the database, as Nerve did it before any tuning — the baseline the
 * target names: the key lookup stands in for the request's authentication, then one
 * transaction locks the character, saves the sheet, takes the campaign's next sequence
 * number, appends the event (the payload and listing a real roll wrote; the listing is the
 * variable `listing`) and queues its webhook deliveries.
 */
function pgbenchScript(sheet: string, payload: string, actor: string) {
  return `\\set n random(1, :targets)
SELECT character_id AS cid, campaign_id AS camp FROM bench_targets WHERE n = :n \\gset
BEGIN;
SELECT "id", "name", "sheet", "version", "archived_at" FROM "characters" WHERE "id" = :cid AND "campaign_id" = :camp FOR UPDATE;
UPDATE "characters" SET "sheet" = ${sqlText(sheet)}::jsonb, "version" = "version" + 1, "updated_at" = now() WHERE "id" = :cid RETURNING *;
UPDATE "campaigns" SET "last_seq" = "last_seq" + 1 WHERE "id" = :camp RETURNING "last_seq" \\gset
INSERT INTO "roll_events" ("id", "campaign_id", "seq", "character_id", "type", "ruleset", "visibility", "actor", "payload", "listing") VALUES (gen_random_uuid(), :camp, :last_seq, :cid, 'stress-check', 'shock-meters', 'public', ${sqlText(actor)}::jsonb, ${sqlText(payload)}::jsonb, :listing) RETURNING "id" \\gset
INSERT INTO "webhook_deliveries" ("id", "campaign_id", "endpoint_id", "event_id", "event_seq", "event_type") SELECT gen_random_uuid(), e."campaign_id", e."id", :id, :last_seq, 'stress-check' FROM "webhook_endpoints" e WHERE e."campaign_id" = :camp AND e."enabled" AND (cardinality(e."event_types") = 0 OR 'stress-check' = ANY(e."event_types")) AND ('public' = 'public' OR e."include_gm_events");
END;
`
}

export function runPgbench(
  databaseUrl: string,
  script: string,
  options: {
    seconds: number
    connections: number
    variables: Record<string, string | number>
    /** Log every transaction (client, number, latency in µs, …) for the percentiles pgbench does not print. */
    percentiles?: boolean
    /** How statements are sent: parsed and planned on every call (`extended`, the default) or prepared once per connection. */
    protocol?: 'extended' | 'prepared'
  },
): PgbenchResult {
  const logDir = options.percentiles ? mkdtempSync(join(tmpdir(), 'nerve-pgbench-')) : null
  const [command, args] = pinned(LOAD_CORE, 'pgbench', [
    '-n',
    '-M',
    options.protocol ?? 'extended',
    '-c',
    String(options.connections),
    '-j',
    '1',
    '-T',
    String(options.seconds),
    ...Object.entries(options.variables).flatMap(([name, value]) => ['-D', `${name}=${value}`]),
    ...(logDir ? ['--log', `--log-prefix=${join(logDir, 'tx')}`] : []),
    '-f',
    script,
    databaseUrl,
  ])
  try {
    const output = execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    const tps = Number(/tps = ([\d.]+)/.exec(output)?.[1])
    const latency = Number(/latency average = ([\d.]+) ms/.exec(output)?.[1])
    const failed = Number(/number of failed transactions: (\d+)/.exec(output)?.[1] ?? 0)
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(output)?.[1])
    if (!tps || failed) throw new Error(`pgbench failed:\n${output}`)
    if (!logDir) return { tps, transactions, latency }
    const latencies = readdirSync(logDir).flatMap((file) =>
      readFileSync(join(logDir, file), 'utf8')
        .split('\n')
        .map((line) => Number(line.split(' ')[2]) / 1000)
        .filter((ms) => Number.isFinite(ms)),
    )
    return {
      tps,
      transactions,
      latency,
      p50: round(percentile(latencies, 50), 2),
      p99: round(percentile(latencies, 99), 2),
    }
  } finally {
    if (logDir) rmSync(logDir, { recursive: true, force: true })
  }
}

/** Rolls on random characters of the targets, as fast as `connections` clients can or at `overallRate` per second. */
export function rollLoad(
  server: BenchServer,
  targets: Target[],
  connections: number,
  seconds: number,
  overallRate?: number,
) {
  return load({
    url: server.url,
    connections,
    duration: seconds,
    ...(overallRate === undefined ? {} : { overallRate }),
    requests: rollRequests(targets),
  })
}

/**
 * Target 2: rolls through the API at `connections` clients against pgbench running the same
 * transaction on the same database, alternating, `runs` times — and the same pair at
 * `fewerConnections`. pgbench's own latency percentiles come from its per-transaction log.
 */
export async function benchStateful(
  server: BenchServer,
  databaseUrl: string,
  workDir: string,
  options: {
    runs: number
    seconds: number
    connections: number
    /** A second, lower number of connections measured in every run (0: none). */
    fewerConnections: number
    campaigns: number
    characters: number
  },
): Promise<StatefulResult & { targets: Target[] }> {
  const parties = await createParties(server.url, {
    campaigns: options.campaigns,
    characters: options.characters,
    // Outbox rows are written for it; the API server's dispatcher is off, as when `npm run worker` delivers.
    webhookUrl: 'http://127.0.0.1:9/nerve-bench',
  })
  const targets = targetsOf(parties)
  await rollLoad(server, targets, options.connections, 3)

  const script = join(workDir, 'roll.sql')
  const listing = await withClient(databaseUrl, async (client) => {
    await client.query('DROP TABLE IF EXISTS bench_targets')
    await client.query('CREATE TABLE bench_targets (n serial PRIMARY KEY, character_id uuid, campaign_id uuid)')
    for (const target of targets)
      await client.query('INSERT INTO bench_targets (character_id, campaign_id) VALUES ($1, $2)', [
        target.characterId,
        target.campaignId,
      ])
    const {
      rows: [event],
    } = await client.query(
      `SELECT e.payload::text AS payload, e.actor::text AS actor, c.sheet::text AS sheet, e.listing
       FROM roll_events e JOIN characters c ON c.id = e.character_id
       WHERE e.type = 'stress-check' ORDER BY e.seq DESC LIMIT 1`,
    )
    writeFileSync(script, pgbenchScript(event.sheet, event.payload, event.actor))
    return event.listing as string
  })
  const variables = { targets: targets.length, listing }
  runPgbench(databaseUrl, script, { seconds: 3, connections: options.connections, variables })

  // Each run measures pgbench, then Nerve, at the target's connections and then at fewer.
  const levels = [options.connections, ...(options.fewerConnections ? [options.fewerConnections] : [])]
  const runsAt = new Map<number, Run[]>(levels.map((connections) => [connections, []]))
  for (let run = 0; run < options.runs; run++) {
    for (const connections of levels) {
      const pgbench = runPgbench(databaseUrl, script, {
        seconds: options.seconds,
        connections,
        variables,
        percentiles: true,
      })
      const nerve = await rollLoad(server, targets, connections, options.seconds)
      if (nerve.non2xx || nerve.errors) throw new Error(`stateful run failed: ${JSON.stringify(nerve)}`)
      const ratio = nerve.requestsPerSecond / pgbench.tps
      runsAt.get(connections)!.push({ pgbench, nerve, ratio })
      console.log(
        `  run ${run + 1}, ${connections} connections: pgbench ${round(pgbench.tps, 0)} tps (p50 ${pgbench.p50} ms, p99 ${pgbench.p99} ms), Nerve ${round(nerve.requestsPerSecond, 0)} req/s (p50 ${nerve.p50} ms, p99 ${nerve.p99} ms), ratio ${round(ratio * 100, 0)}%`,
      )
    }
  }
  const mediansOf = (runs: Run[]): Medians => ({
    pgbenchTps: median(runs.map((r) => r.pgbench.tps)),
    pgbenchP50: median(runs.map((r) => r.pgbench.p50 ?? NaN)),
    pgbenchP99: median(runs.map((r) => r.pgbench.p99 ?? NaN)),
    nerveRps: median(runs.map((r) => r.nerve.requestsPerSecond)),
    nerveP50: median(runs.map((r) => r.nerve.p50)),
    nerveP99: median(runs.map((r) => r.nerve.p99)),
    ratio: median(runs.map((r) => r.ratio)),
  })
  const runs = runsAt.get(options.connections)!
  const fewer = options.fewerConnections ? runsAt.get(options.fewerConnections)! : null
  return {
    targets,
    connections: options.connections,
    runs,
    ...mediansOf(runs),
    fewer: fewer && { connections: options.fewerConnections, runs: fewer, ...mediansOf(fewer) },
  }
}
