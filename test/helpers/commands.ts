import type { App } from '../../src/app.js'
import { PROBLEM, type Auth, type CharacterView, type EventView } from './api.js'

/** What every event-creating POST answers with. */
export interface CommandResult {
  event: EventView
  character: CharacterView
}

export interface AuditReport {
  characterId: string
  consistent: boolean
  eventsReplayed: number
  version: number
  divergence: { seq: number; eventId: string; type: string; reason: string } | null
}

export interface Problem {
  type: string
  title: string
  status: number
  detail: string
  code?: string
  errors?: { pointer: string; detail: string }[]
}

export interface Ids {
  campaignId: string
  characterId: string
}

export const characterUrl = ({ campaignId, characterId }: Ids) =>
  `/v1/campaigns/${campaignId}/characters/${characterId}`

/** Faces the caller rolled: makes an outcome certain. */
export const provided = (...faces: number[]) => ({ source: 'provided' as const, faces })

/** `POST …/characters/{id}/{action}` with `{ request, dice?, visibility? }`. */
export function act(
  app: App,
  auth: Auth,
  ids: Ids,
  action: string,
  body: { request: unknown; dice?: unknown; visibility?: 'public' | 'gm' },
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: `${characterUrl(ids)}/${action}`,
    headers: { ...auth, ...headers },
    payload: body as object,
  })
}

/** `POST …/events/{eventId}/decision`. */
export function decide(
  app: App,
  auth: Auth,
  campaignId: string,
  eventId: string,
  body: { action?: string; request: unknown; dice?: unknown },
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: `/v1/campaigns/${campaignId}/events/${eventId}/decision`,
    headers: { ...auth, ...headers },
    payload: body as object,
  })
}

/** `POST …/characters/{id}/revert`. */
export function revert(app: App, auth: Auth, ids: Ids, eventId: string, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: `${characterUrl(ids)}/revert`,
    headers: { ...auth, ...headers },
    payload: { eventId },
  })
}

export async function audit(app: App, auth: Auth, ids: Ids): Promise<AuditReport> {
  const res = await app.inject({ url: `${characterUrl(ids)}/audit`, headers: auth })
  if (res.statusCode !== 200) throw new Error(`audit: expected 200, got ${res.statusCode}: ${res.body}`)
  return res.json()
}

export async function getCharacter(app: App, auth: Auth, ids: Ids): Promise<CharacterView> {
  const res = await app.inject({ url: characterUrl(ids), headers: auth })
  if (res.statusCode !== 200) throw new Error(`get character: expected 200, got ${res.statusCode}: ${res.body}`)
  return res.json()
}

/** Every event of the campaign the key may see, following the cursor to the end. */
export async function allEvents(
  app: App,
  auth: Auth,
  campaignId: string,
  query: Record<string, string> = {},
): Promise<EventView[]> {
  const events: EventView[] = []
  let after: number | null = 0
  while (after !== null) {
    const search = new URLSearchParams({ ...query, limit: '100', after: String(after) })
    const res = await app.inject({ url: `/v1/campaigns/${campaignId}/events?${search.toString()}`, headers: auth })
    if (res.statusCode !== 200) throw new Error(`events: expected 200, got ${res.statusCode}: ${res.body}`)
    const page: { data: EventView[]; hasMore: boolean; nextCursor: number | null } = res.json()
    events.push(...page.data)
    after = page.nextCursor
  }
  return events
}

/** Unwraps a command that must succeed; an unexpected status stops the test with the problem. */
export function created(res: { statusCode: number; body: string; json(): unknown }, what: string): CommandResult {
  if (res.statusCode !== 201) throw new Error(`${what}: expected 201, got ${res.statusCode}: ${res.body.slice(0, 500)}`)
  return res.json() as CommandResult
}

export function isProblem(res: { headers: Record<string, unknown> }): boolean {
  return (res.headers['content-type']?.toString() ?? '').startsWith(PROBLEM)
}
