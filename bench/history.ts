import { pageStatement } from '../src/repositories/event-pages.js'
import { createParties, rollBody, rollPath, type Party } from './lib/fixtures.js'
import { load } from './lib/load.js'
import { copiedListings } from './lib/copies.js'
import { withClient } from './lib/postgres.js'
import type { BenchServer } from './lib/server.js'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runPgbench } from './stateful.js'
import { percentile, round } from './lib/stats.js'

export type Sheets = 'full' | 'none'

export interface PageTiming {
  campaign: string
  page: string
  /** `sheets=` of the request: `full` (the default) or `none`. */
  sheets: Sheets
  /** Bytes of the response body. */
  bytes: number
  requests: number
  /** Server-side (Fastify's elapsed time), ms. */
  serverP50: number
  serverP99: number
  /** Client-side (autocannon), ms. */
  clientP99: number
}

export interface HistoryResult {
  depths: Record<string, number>
  seedSeconds: number
  pages: PageTiming[]
  /** pgbench running the page's SELECT alone (the database's share of a page), ms, by page and `sheets`. */
  databaseFloor: Record<string, { mean: number; p50: number; p99: number }>
}

/**
 * Appends `count` events to a campaign in one statement: copies of a real roll's event,
 * spread over its characters in turn, with the campaign's sequence moved on to match.
 */
export async function seedHistory(databaseUrl: string, party: Party, count: number) {
  await withClient(databaseUrl, async (client) => {
    await client.query('BEGIN')
    const {
      rows: [{ last_seq: base }],
    } = await client.query('SELECT last_seq FROM campaigns WHERE id = $1 FOR UPDATE', [party.campaignId])
    await client.query(
      `WITH copies AS MATERIALIZED (
         SELECT g, nerve_uuid_v7() AS id, ($3::uuid[])[1 + g % cardinality($3::uuid[])] AS character_id,
           now() - make_interval(secs => ($4 - g) / 1000.0) AS occurred_at
         FROM generate_series(1, $4::integer) g)
       INSERT INTO roll_events (id, campaign_id, seq, character_id, type, ruleset, visibility, actor, payload, occurred_at,
         listing, public_listing)
       SELECT n.id, t.campaign_id, $2::bigint + n.g, n.character_id,
         t.type, t.ruleset, t.visibility, t.actor, t.payload, n.occurred_at,
         ${copiedListings('t', { id: 'n.id', seq: '$2::bigint + n.g', characterId: 'n.character_id', occurredAt: 'n.occurred_at' })}
       FROM copies n,
         (SELECT * FROM roll_events WHERE campaign_id = $1 AND type = 'stress-check' ORDER BY seq DESC LIMIT 1) t`,
      [party.campaignId, base, party.characterIds, count],
    )
    await client.query('UPDATE campaigns SET last_seq = last_seq + $2 WHERE id = $1', [party.campaignId, count])
    await client.query('COMMIT')
  })
}

/**
 * Target 3: pages of 100 events from the start, the middle and the end of a campaign's history,
 * and filtered by character, in a shallow and a deep campaign of the same database: the time
 * the server spends on each must not grow with depth. Each page is read whole (`sheets=full`,
 * the default) and without the sheets (`sheets=none`).
 */
export async function benchHistory(
  server: BenchServer,
  databaseUrl: string,
  workDir: string,
  options: { deep: number; shallow: number; seconds: number },
): Promise<HistoryResult> {
  const parties = await createParties(server.url, { campaigns: 2, characters: 10 })
  const campaigns = { shallow: parties[0]!, deep: parties[1]! }
  for (const party of parties) {
    const res = await fetch(`${server.url}${rollPath({ ...party, characterId: party.characterIds[0]! })}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${party.key}` },
      body: rollBody(),
    })
    if (res.status !== 201) throw new Error(`seed roll: ${res.status} ${await res.text()}`)
  }
  const started = Date.now()
  await seedHistory(databaseUrl, campaigns.shallow, options.shallow)
  await seedHistory(databaseUrl, campaigns.deep, options.deep)
  await withClient(databaseUrl, async (client) => {
    await client.query('VACUUM ANALYZE roll_events')
    // Write the seeding's dirty pages out now, not in a timed checkpoint in the middle of the measurement.
    await client.query('CHECKPOINT')
  })
  const seedSeconds = round((Date.now() - started) / 1000, 0)
  console.log(`  seeded ${options.shallow} + ${options.deep} events in ${seedSeconds} s`)

  const depths: Record<string, number> = {}
  const pages: PageTiming[] = []
  for (const [name, party] of Object.entries(campaigns)) {
    const total = options[name as 'deep' | 'shallow'] + party.characterIds.length + 1
    depths[name] = total
    const base = `/v1/campaigns/${party.campaignId}/events`
    const queries: Record<string, string> = {
      first: `${base}?limit=100`,
      middle: `${base}?after=${Math.floor(total / 2)}&limit=100`,
      last: `${base}?after=${total - 100}&limit=100`,
      'character, middle': `${base}?characterId=${party.characterIds[3]}&after=${Math.floor(total / 2)}&limit=100`,
      'character, last': `${base}?characterId=${party.characterIds[3]}&after=${total - 1000}&limit=100`,
    }
    for (const [page, query] of Object.entries(queries))
      for (const sheets of ['full', 'none'] as const) {
        const path = sheets === 'full' ? query : `${query}&sheets=none`
        const label = `${name} ${page} ${sheets}`
        const headers = { authorization: `Bearer ${party.key}`, 'x-bench-label': label }
        await load({
          url: `${server.url}${path}`,
          headers: { authorization: headers.authorization },
          connections: 1,
          amount: 100,
        })
        const result = await load({ url: `${server.url}${path}`, headers, connections: 1, duration: options.seconds })
        if (result.non2xx || result.errors) throw new Error(`history ${label} failed`)
        const body = await (
          await fetch(`${server.url}${path}`, { headers: { authorization: headers.authorization } })
        ).text()
        const times = (await server.timings(true))[label] ?? []
        pages.push({
          campaign: `${name} (${total} events)`,
          page,
          sheets,
          bytes: Buffer.byteLength(body),
          requests: times.length,
          serverP50: round(percentile(times, 50), 2),
          serverP99: round(percentile(times, 99), 2),
          clientP99: result.p99,
        })
        console.log(
          `  ${label.padEnd(29)} server p50 ${round(percentile(times, 50), 2)} ms, p99 ${round(percentile(times, 99), 2)} ms (client p99 ${result.p99} ms, ${times.length} requests, ${round(Buffer.byteLength(body) / 1024, 0)} KB)`,
        )
      }
  }
  const databaseFloor: HistoryResult['databaseFloor'] = {}
  const deep = campaigns.deep
  const middle = Math.floor((depths.deep ?? 0) / 2)
  for (const [page, filter] of Object.entries({
    'deep first': {},
    'deep middle': { after: middle },
    'deep character, middle': { after: middle, characterId: deep.characterIds[3] },
  }))
    for (const sheets of ['full', 'none'] as const) {
      // The repository's own statement, its bind parameters as pgbench variables.
      const statement = pageStatement(
        deep.campaignId,
        { ...filter, limit: 100, publicOnly: false },
        { sheets: sheets === 'full' },
      )
      const script = join(workDir, 'history-page.sql')
      writeFileSync(script, `${statement.text.replace(/\$(\d+)/g, ':p$1')};\n`)
      const variables = Object.fromEntries(statement.params.map((value, i) => [`p${i + 1}`, String(value)]))
      const key = `${page} ${sheets}`
      const floor = runPgbench(databaseUrl, script, { seconds: 3, connections: 1, variables, percentiles: true })
      databaseFloor[key] = { mean: floor.latency, p50: floor.p50 ?? NaN, p99: floor.p99 ?? NaN }
      console.log(
        `  pgbench, the same SELECT alone: ${key} mean ${floor.latency} ms, p50 ${floor.p50} ms, p99 ${floor.p99} ms`,
      )
    }
  return { depths, seedSeconds, pages, databaseFloor }
}
