/**
 * A VTT talking to Nerve through a typed client: every path, parameter, body and answer
 * below is checked against `openapi/openapi.json` by `npm run typecheck`.
 *
 *   npm start                                   # in one terminal
 *   npx tsx examples/client/vtt-example.ts      # in another (NERVE_URL to point elsewhere)
 *
 * The types come from `npm run client:types` (run for you before every type check).
 */
import { randomUUID } from 'node:crypto'
import { pathToFileURL } from 'node:url'
import createClient from 'openapi-fetch'
import type { components, paths } from './schema.js'

export type Event = components['schemas']['Event']
/** An event in a history page: its sheets are absent when the page is read with `sheets: 'none'`. */
export type ListedEvent = components['schemas']['ListedEvent']
export type Character = components['schemas']['Character']
type Problem = components['schemas']['Problem']

export interface ExampleResult {
  campaignId: string
  gmKey: string
  character: Character
  roll: Event
  decision: Event | null
  history: ListedEvent[]
}

/** Every call answers `{ data }` or `{ error }` (an RFC 9457 problem); a VTT would show the detail to the GM. */
function ok<T>(result: { data?: T; error?: Problem | unknown; response: Response }, what: string): T {
  if (result.data !== undefined) return result.data
  const problem = result.error as Partial<Problem> | undefined
  throw new Error(`${what}: ${result.response.status} ${problem?.code ?? ''} ${problem?.detail ?? ''}`.trim())
}

export async function main(baseUrl = process.env.NERVE_URL ?? 'http://127.0.0.1:3000'): Promise<ExampleResult> {
  const nerve = createClient<paths>({ baseUrl })

  // A campaign; its GM key is shown once, so a VTT stores it with its world settings.
  const created = ok(
    await nerve.POST('/v1/campaigns', { body: { name: 'The Mercy Street Irregulars', ruleset: 'shock-meters' } }),
    'create campaign',
  )
  const campaignId = created.campaign.id
  const gm = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${created.gmKey.key}` } })

  const { character } = ok(
    await gm.POST('/v1/campaigns/{campaignId}/characters', {
      params: { path: { campaignId } },
      body: { name: 'Vera Okafor' },
    }),
    'create character',
  )

  // The VTT rolled its own d100 (85) and sends the face. The idempotency key makes a retry
  // after a dropped connection return this same roll instead of rolling twice.
  const checked = ok(
    await gm.POST('/v1/campaigns/{campaignId}/characters/{characterId}/stress-check', {
      params: { path: { campaignId, characterId: character.id }, header: { 'idempotency-key': randomUUID() } },
      body: {
        request: { meter: 'violence', rank: 4, cause: 'Shot the cultist on the stairs' },
        dice: { source: 'provided', faces: [85] },
      },
    }),
    'stress check',
  )
  const roll = checked.event

  // A failed check leaves the stress response to the player: the event lists every decision
  // left open with the action that settles it, and further stress checks answer 409 until
  // they are settled.
  let decision: Event | null = null
  const [open] = roll.pending
  if (open) {
    const settled = ok(
      await gm.POST('/v1/campaigns/{campaignId}/events/{eventId}/decision', {
        params: { path: { campaignId, eventId: roll.id }, header: { 'idempotency-key': randomUUID() } },
        body: { action: open.action, request: { response: 'panic' } },
      }),
      `settle ${open.action}`,
    )
    decision = settled.event
  }

  // The history, page by page: pass each page's nextCursor as `after`.
  const history: ListedEvent[] = []
  let after: number | null = 0
  while (after !== null) {
    const page: components['schemas']['EventList'] = ok(
      await gm.GET('/v1/campaigns/{campaignId}/events', {
        params: { path: { campaignId }, query: { after, limit: 100 } },
      }),
      'read history',
    )
    history.push(...page.data)
    after = page.nextCursor
  }

  return { campaignId, gmKey: created.gmKey.key, character, roll, decision, history }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await main()
  for (const event of result.history) process.stdout.write(`#${event.seq} ${event.type}: ${event.summary}\n`)
}
