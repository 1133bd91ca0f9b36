/**
 * A VTT talking to Nerve through the typed client (`clients/typescript`, `@nerve/client`):
 * every path, parameter, body and answer below is checked against `openapi/openapi.json` by
 * `npm run typecheck`, and no value is cast: the sheet narrows after `character.ruleset`, the
 * outcome after `event.type`.
 *
 *   npm start                                   # in one terminal
 *   npx tsx examples/client/vtt-example.ts      # in another (NERVE_URL to point elsewhere)
 *
 * The types come from `npm run client:types` (run for you before every type check). A VTT of its
 * own installs the client as docs/guides/vtt-integration.md says and imports `@nerve/client`.
 */
import { randomUUID } from 'node:crypto'
import { pathToFileURL } from 'node:url'
import {
  createNerveClient,
  data,
  type Character,
  type Event,
  type EventOf,
  type ListedEvent,
  type StreamTicket,
} from '../../clients/typescript/src/index.js'

export interface ExampleResult {
  campaignId: string
  gmKey: string
  character: Character
  /** What the VTT read on the sheet, narrowed to the shock-meters sheet: Violence's failed notches. */
  violenceFailed: number
  roll: EventOf<'stress-check'>
  decision: Event | null
  history: ListedEvent[]
  ticket: StreamTicket
}

export async function main(baseUrl = process.env.NERVE_URL ?? 'http://127.0.0.1:3000'): Promise<ExampleResult> {
  const nerve = createNerveClient({ baseUrl })

  // A campaign; its GM key is shown once, so a VTT stores it with its world settings.
  const created = data(
    await nerve.POST('/v1/campaigns', { body: { name: 'The Mercy Street Irregulars', ruleset: 'shock-meters' } }),
  )
  const campaignId = created.campaign.id
  const gm = createNerveClient({ baseUrl, apiKey: created.gmKey.key })

  // `ruleset` is optional; sent, it types the sheet as a shock-meters sheet (and Nerve checks it).
  const { character } = data(
    await gm.POST('/v1/campaigns/{campaignId}/characters', {
      params: { path: { campaignId } },
      body: { ruleset: 'shock-meters', name: 'Vera Okafor', sheet: { meters: { violence: { failed: 0 } } } },
    }),
  )
  if (character.ruleset !== 'shock-meters')
    throw new Error(`a ${character.ruleset} character in a shock-meters campaign`)

  // The VTT rolled its own d100 (85) and sends the face. The idempotency key makes a retry
  // after a dropped connection return this same roll instead of rolling twice.
  const checked = data(
    await gm.POST('/v1/campaigns/{campaignId}/characters/{characterId}/stress-check', {
      params: { path: { campaignId, characterId: character.id }, header: { 'idempotency-key': randomUUID() } },
      body: {
        request: { meter: 'violence', rank: 4, cause: 'Shot the cultist on the stairs' },
        dice: { source: 'provided', faces: [85] },
      },
    }),
  )
  const roll = checked.event
  if (roll.type !== 'stress-check') throw new Error(`a stress check recorded ${roll.type}`)

  // A failed check leaves the stress response to the player: the event lists every decision
  // left open with the action that settles it, and further stress checks answer 409 until
  // they are settled.
  let decision: Event | null = null
  const [open] = roll.pending
  if (roll.outcome?.result === 'failed' && open) {
    const settled = data(
      await gm.POST('/v1/campaigns/{campaignId}/events/{eventId}/decision', {
        params: { path: { campaignId, eventId: roll.id }, header: { 'idempotency-key': randomUUID() } },
        body: { action: open.action, request: { response: 'panic' } },
      }),
    )
    decision = settled.event
  }

  // The history, page by page: pass each page's nextCursor as `after`.
  const history: ListedEvent[] = []
  let after: number | null = 0
  while (after !== null) {
    const page: { data: ListedEvent[]; nextCursor: number | null } = data(
      await gm.GET('/v1/campaigns/{campaignId}/events', {
        params: { path: { campaignId }, query: { after, limit: 100 } },
      }),
    )
    history.push(...page.data)
    after = page.nextCursor
  }

  // The character as it is now: its sheet is a shock-meters sheet once `ruleset` says so.
  const current = data(
    await gm.GET('/v1/campaigns/{campaignId}/characters/{characterId}', {
      params: { path: { campaignId, characterId: character.id } },
    }),
  )
  if (current.ruleset !== 'shock-meters') throw new Error(`a ${current.ruleset} character in a shock-meters campaign`)
  const violenceFailed = current.sheet.meters.violence.failed

  // Live events in a browser: `new EventSource(ticket.url)` (the ticket opens one stream, within 60 s).
  const ticket = data(
    await gm.POST('/v1/campaigns/{campaignId}/events/stream-tickets', { params: { path: { campaignId } } }),
  )

  return { campaignId, gmKey: created.gmKey.key, character, violenceFailed, roll, decision, history, ticket }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await main()
  for (const event of result.history) process.stdout.write(`#${event.seq} ${event.type}: ${event.summary}\n`)
}
