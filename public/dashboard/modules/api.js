// @ts-check
import { namingActions } from './event-names.js'
import { labelOf } from './forms/words.js'
import { campaignPath, session } from './session.js'

export const CHARACTER_ROUTE = '/v1/campaigns/{campaignId}/characters/{characterId}/'

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail)
    this.status = status
  }
}

/** Where a request part ends and a field begins in a problem's pointer (`/body/request/pressure`). */
const REQUEST_PARTS = new Set(['body', 'request', 'querystring', 'params', 'headers'])

/**
 * One refused field as a GM reads it: the field by its label, not its JSON pointer ("Pressure is
 * required", "Address: the URL must be an http:// or https:// URL").
 * @param {{ pointer?: string, field?: string, detail?: string, message?: string }} error
 */
function fieldProblem(error) {
  const name = (error.pointer ?? error.field ?? '')
    .split('/')
    .filter((part) => part && !/^\d+$/.test(part) && !REQUEST_PARTS.has(part))
    .at(-1)
  const what = error.detail ?? error.message ?? 'is refused'
  if (!name) return what
  return /^(is|must|should|has) /.test(what) ? `${labelOf(name)} ${what}` : `${labelOf(name)}: ${what}`
}

/**
 * The answer to a request with the tab's key; a problem document (RFC 9457) becomes an ApiError
 * with its detail, the actions it names in the console's words (every refusal the page shows
 * comes through here).
 */
export async function request(path, options = {}) {
  const headers = {
    accept: 'application/json',
    ...(session.key ? { authorization: `Bearer ${session.key}` } : {}),
    ...(options.body ? { 'content-type': 'application/json' } : {}),
    ...options.headers,
  }
  const response = await fetch(path, {
    ...options,
    // A header given as null is not sent: creating a campaign sends no campaign's key.
    headers: Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== null)),
    cache: 'no-store',
  })
  if (!response.ok) {
    let detail = `${response.status} ${response.statusText}`
    try {
      const problem = await response.json()
      const fields = (problem.errors ?? []).map(fieldProblem)
      detail = fields.length ? fields.join('; ') : problem.detail || problem.title || detail
    } catch {
      // not a problem document: keep the status line
    }
    throw new ApiError(response.status, namingActions(detail))
  }
  return response
}

/** A JSON request's answer, parsed; null for 204. */
export async function api(path, options = {}) {
  const response = await request(path, options)
  return response.status === 204 ? null : response.json()
}

export const post = (path, body, headers = {}) => api(path, { method: 'POST', body: JSON.stringify(body), headers })

/**
 * A roll whose answer never came (the network failed, or the server answered 5xx) keeps its
 * Idempotency-Key: pressing the button again with the form unchanged sends the same key, and
 * Nerve answers with the roll it made instead of rolling twice.
 */
let unanswered = null

/** The roll was answered (or refused): the next one gets a new key. */
export function answered() {
  unanswered = null
}

export function idempotencyKeyFor(request) {
  if (unanswered?.request !== request) {
    // getRandomValues, unlike randomUUID, also works on a page served over plain HTTP on a LAN.
    const bytes = crypto.getRandomValues(new Uint8Array(16))
    unanswered = { request, key: [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('') }
  }
  return unanswered.key
}

export async function loadCharacters() {
  const characters = []
  let after = null
  do {
    const query = new URLSearchParams({ limit: '100' })
    if (after) query.set('after', after)
    const page = await api(`${campaignPath()}/characters?${query}`)
    characters.push(...page.data)
    after = page.hasMore ? page.nextCursor : null
  } while (after)
  return characters
}

/**
 * Every event of the character this key may see, oldest first, a page at a time; `sheets`
 * `none` leaves out the sheets before and after each.
 * @returns {Promise<import('./api-types.js').Event[]>}
 */
export async function characterEvents(characterId, sheets = 'full') {
  const events = []
  let after = 0
  for (;;) {
    const query = new URLSearchParams({ characterId, sheets, limit: '100', after: String(after) })
    const page = await api(`${campaignPath()}/events?${query}`)
    events.push(...page.data)
    if (!page.hasMore || !page.data.length) return events
    after = page.nextCursor ?? page.data[page.data.length - 1].seq
  }
}

/** The character's latest event, the only one a revert may undo. */
export const latestEventOf = async (characterId) => (await characterEvents(characterId, 'none')).at(-1) ?? null
