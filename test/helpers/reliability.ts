import type { App } from '../../src/app.js'
import { PROBLEM } from './api.js'

/** `RELIABILITY_LONG=1` runs the reliability tests at full size; CI runs the short form. */
export const LONG = process.env.RELIABILITY_LONG === '1'

export const scale = (short: number, long: number) => (LONG ? long : short)

/** One answer, whichever way the request went (in-process inject or real HTTP). */
export interface Answer {
  status: number
  headers: Record<string, string>
  body: string
  json(): any
  /** Milliseconds from sending to the full answer. */
  ms: number
}

export interface Client {
  request(method: string, path: string, key: string | null, body?: unknown): Promise<Answer>
}

function answer(status: number, headers: Record<string, string>, body: string, ms: number): Answer {
  return { status, headers, body, ms, json: () => JSON.parse(body) }
}

export function injectClient(app: App): Client {
  return {
    async request(method, path, key, body) {
      const started = performance.now()
      const res = await app.inject({
        method: method as 'GET',
        url: path,
        headers: key ? { authorization: `Bearer ${key}` } : {},
        ...(body === undefined ? {} : { payload: body as object }),
      })
      const headers = Object.fromEntries(Object.entries(res.headers).map(([name, value]) => [name, String(value)]))
      return answer(res.statusCode, headers, res.body, performance.now() - started)
    },
  }
}

export function httpClient(base: string, timeoutMs = 30_000): Client {
  return {
    async request(method, path, key, body) {
      const started = performance.now()
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      })
      const text = await res.text()
      return answer(res.status, Object.fromEntries(res.headers), text, performance.now() - started)
    },
  }
}

async function must(client: Client, method: string, path: string, key: string | null, body?: unknown) {
  const res = await client.request(method, path, key, body)
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.body.slice(0, 300)}`)
  return res.json()
}

export interface Table {
  campaignId: string
  gmKey: string
  characterIds: string[]
}

/**
 * A reaction-rolls campaign whose rolls always change the sheet in ways a lost update would
 * show (XP marks, emotion stages), with room for a few hundred rolls per character.
 */
export async function setUpTable(client: Client, characters: number, adminToken?: string): Promise<Table> {
  const { campaign, gmKey } = await must(client, 'POST', '/v1/campaigns', adminToken ?? null, {
    name: 'Reliability table',
    ruleset: 'reaction-rolls',
    settings: { emotionTopStage: 20, xpTrackLength: 20 },
  })
  const characterIds: string[] = []
  for (let i = 0; i < characters; i++) {
    const { character } = await must(client, 'POST', `/v1/campaigns/${campaign.id}/characters`, gmKey.key, {
      name: `Character ${i + 1}`,
    })
    characterIds.push(character.id)
  }
  return { campaignId: campaign.id, gmKey: gmKey.key, characterIds }
}

const ABILITIES = ['agility', 'dexterity', 'insight', 'composure', 'endurance']
const EMOTIONS = ['anger', 'fear', 'sadness', 'guilt']

/** Rolls per character that may raise an emotion: about 12 raises per emotion, well under the top stage of 20. */
const RAISING_ROLLS = 50

/**
 * The nth roll of a workload: a reaction roll that, when retrievable, raises an emotion and
 * marks XP; past the first rolls it declines instead, so no emotion ever reaches its top
 * stage and every roll stays acceptable however long the workload runs.
 */
export function rollPath(table: Table, n: number): { path: string; body: unknown } {
  const characters = table.characterIds.length
  const characterId = table.characterIds[n % characters]!
  const retrieve =
    n < characters * RAISING_ROLLS
      ? { decision: 'raise', emotion: EMOTIONS[Math.floor(n / characters) % EMOTIONS.length] }
      : { decision: 'decline' }
  return {
    path: `/v1/campaigns/${table.campaignId}/characters/${characterId}/reaction-roll`,
    body: { request: { ability: ABILITIES[n % ABILITIES.length], pressure: 6, retrieve } },
  }
}

/** Runs `work(0..count-1)` with at most `concurrency` in flight. */
export async function pool(count: number, concurrency: number, work: (n: number) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < count) await work(next++)
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker))
}

interface EventRow {
  id: string
  seq: number
  characterId: string
  type: string
}

export async function allEvents(client: Client, table: Table): Promise<EventRow[]> {
  const events: EventRow[] = []
  let after: number | null = 0
  while (after !== null) {
    const page: { data: EventRow[]; nextCursor: number | null } = await must(
      client,
      'GET',
      `/v1/campaigns/${table.campaignId}/events?limit=100&after=${after}`,
      table.gmKey,
    )
    events.push(...page.data)
    after = page.nextCursor
  }
  return events
}

interface Assert {
  ok(value: unknown, message: string): void
  equal(actual: unknown, expected: unknown, message: string): void
  same(actual: unknown, expected: unknown, message: string): void
}

/**
 * The history holds every acknowledged event, numbers the campaign's events 1..n without a gap,
 * and rebuilds every character's sheet exactly (the audit replays its events). `unacknowledged`
 * bounds the events that may have committed without their answer reaching the client (a crash
 * or an outage between commit and reply).
 */
export async function checkHistory(
  t: Assert,
  client: Client,
  table: Table,
  acknowledged: Set<string>,
  unacknowledged = 0,
): Promise<EventRow[]> {
  const events = await allEvents(client, table)
  const rolls = events.filter((event) => event.type !== 'character.created')
  t.same(
    events.map((event) => event.seq),
    Array.from({ length: events.length }, (_, index) => index + 1),
    `the campaign's ${events.length} events are numbered 1..${events.length} without a gap or a repeat`,
  )
  const ids = new Set(events.map((event) => event.id))
  const missing = [...acknowledged].filter((id) => !ids.has(id))
  t.same(missing, [], `every one of the ${acknowledged.size} acknowledged events is in the history`)
  t.ok(
    rolls.length >= acknowledged.size && rolls.length <= acknowledged.size + unacknowledged,
    `${rolls.length} roll events for ${acknowledged.size} acknowledged requests (at most ${unacknowledged} more may have committed unanswered)`,
  )
  for (const characterId of table.characterIds) {
    const report = await must(
      client,
      'GET',
      `/v1/campaigns/${table.campaignId}/characters/${characterId}/audit`,
      table.gmKey,
    )
    const own = events.filter((event) => event.characterId === characterId).length
    t.ok(
      report.consistent,
      `character ${characterId}: the sheet equals the replay of its events (${JSON.stringify(report.divergence)})`,
    )
    t.equal(report.eventsReplayed, own, `character ${characterId}: all ${own} of its events were replayed`)
    t.equal(report.version, own, `character ${characterId}: its version counts its ${own} events, none lost or doubled`)
  }
  return events
}

/** Problem details as RFC 9457 and Nerve promise them; returns what is wrong, or null. */
export function problemFault(res: Pick<Answer, 'status' | 'headers' | 'body'>): string | null {
  if (!String(res.headers['content-type'] ?? '').startsWith(PROBLEM)) {
    return `${res.status} answered as ${res.headers['content-type']}, not problem details`
  }
  let problem: Record<string, unknown>
  try {
    problem = JSON.parse(res.body)
  } catch {
    return `${res.status} problem body is not JSON: ${res.body.slice(0, 200)}`
  }
  if (problem.status !== res.status) return `problem status ${String(problem.status)} ≠ HTTP ${res.status}`
  for (const field of ['type', 'title', 'detail', 'instance', 'requestId']) {
    if (typeof problem[field] !== 'string') return `problem without a string ${field}: ${res.body.slice(0, 200)}`
  }
  return null
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}
