import { createParties, rollBody, rollPath, rollRequests, targetsOf, type Party } from './lib/fixtures.js'
import { load } from './lib/load.js'
import { withClient } from './lib/postgres.js'
import type { BenchServer } from './lib/server.js'
import { mb, round } from './lib/stats.js'
import { seedHistory } from './history.js'

export interface ExportResult {
  events: number
  bytes: number
  seconds: number
  megabytesPerSecond: number
  eventsPerSecond: number
  /** From the request to the first line (the counts), ms. */
  firstLineMs: number
  /** Server RSS just before the export, and its peak by the end of it (the peak since start), MB. */
  rssBefore: number
  rssPeak: number
  heapUsedPeak: number
}

export interface ImportResult {
  events: number
  bytes: number
  /** Exporting the history made through the API, then importing that archive. */
  exportSeconds: number
  importSeconds: number
  eventsPerSecond: number
  rssBefore: number
  rssPeak: number
  heapUsedPeak: number
}

/**
 * Reads an export as a slow-enough client would: chunk by chunk, counting, keeping only the
 * tail (where the end line is). Returns the end line, the bytes and when the first line came.
 */
async function readExport(server: BenchServer, party: Party) {
  const started = performance.now()
  const res = await fetch(`${server.url}/v1/campaigns/${party.campaignId}/export`, {
    headers: { authorization: `Bearer ${party.key}` },
  })
  if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status} ${await res.text()}`)
  let bytes = 0
  let firstLineMs = 0
  let tail = ''
  const decoder = new TextDecoder()
  for await (const chunk of res.body) {
    if (bytes === 0) firstLineMs = performance.now() - started
    bytes += chunk.length
    tail = (tail + decoder.decode(chunk, { stream: true })).slice(-4096)
  }
  const seconds = (performance.now() - started) / 1000
  const end = JSON.parse(tail.trimEnd().split('\n').at(-1)!) as { kind: string; events: number }
  if (end.kind !== 'end') throw new Error(`the export ends without its end line: ${tail.slice(-200)}`)
  return { end, bytes, seconds, firstLineMs }
}

/**
 * Target of issue 16: a campaign of `events` events exports with the server's RSS under 250 MB.
 * The history is copies of a real roll's event written straight into the database (as the
 * history benchmark seeds it); the export reads it all, in pages, as the client takes it.
 */
export async function benchExport(
  server: BenchServer,
  databaseUrl: string,
  options: { events: number },
): Promise<ExportResult> {
  const [party] = await createParties(server.url, { campaigns: 1, characters: 10 })
  const res = await fetch(`${server.url}${rollPath({ ...party!, characterId: party!.characterIds[0]! })}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${party!.key}` },
    body: rollBody(),
  })
  if (res.status !== 201) throw new Error(`seed roll: ${res.status} ${await res.text()}`)
  const seeding = performance.now()
  await seedHistory(databaseUrl, party!, options.events)
  // A history that grew event by event has been analysed by autovacuum on the way; one written
  // in a single statement has not, and its first reads would measure that instead.
  await withClient(databaseUrl, async (client) => {
    await client.query('VACUUM ANALYZE roll_events')
    await client.query('CHECKPOINT')
  })
  console.log(`  seeded ${options.events} events in ${round((performance.now() - seeding) / 1000, 0)} s`)

  const before = await server.memory()
  const { end, bytes, seconds, firstLineMs } = await readExport(server, party!)
  const { peak } = await server.memory()
  return {
    events: end.events,
    bytes,
    seconds: round(seconds, 1),
    megabytesPerSecond: round(bytes / 2 ** 20 / seconds, 1),
    eventsPerSecond: round(end.events / seconds, 0),
    firstLineMs: round(firstLineMs, 0),
    rssBefore: mb(before.current.rss),
    rssPeak: mb(peak.rss),
    heapUsedPeak: mb(peak.heapUsed),
  }
}

/**
 * An import of a real history: `rolls` stress checks made through the API on ten characters,
 * exported, then imported into the same Nerve (every event replayed through the rules).
 */
export async function benchImport(server: BenchServer, options: { rolls: number }): Promise<ImportResult> {
  const parties = await createParties(server.url, { campaigns: 1, characters: 10 })
  const targets = targetsOf(parties)
  const made = await load({
    url: server.url,
    connections: 10,
    amount: options.rolls,
    requests: rollRequests(targets),
  })
  if (made.non2xx || made.errors) throw new Error(`rolls for the import: ${made.non2xx} non-2xx, ${made.errors} errors`)
  const party = parties[0]!
  const exporting = performance.now()
  const archive = await (
    await fetch(`${server.url}/v1/campaigns/${party.campaignId}/export`, {
      headers: { authorization: `Bearer ${party.key}` },
    })
  ).text()
  const exportSeconds = (performance.now() - exporting) / 1000

  const before = await server.memory()
  const importing = performance.now()
  const res = await fetch(`${server.url}/v1/campaigns/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: archive,
  })
  const importSeconds = (performance.now() - importing) / 1000
  if (res.status !== 201) throw new Error(`import: ${res.status} ${(await res.text()).slice(0, 500)}`)
  const imported = (await res.json()) as { events: { count: number } }
  const { peak } = await server.memory()
  return {
    events: imported.events.count,
    bytes: Buffer.byteLength(archive),
    exportSeconds: round(exportSeconds, 1),
    importSeconds: round(importSeconds, 1),
    eventsPerSecond: round(imported.events.count / importSeconds, 0),
    rssBefore: mb(before.current.rss),
    rssPeak: mb(peak.rss),
    heapUsedPeak: mb(peak.heapUsed),
  }
}
