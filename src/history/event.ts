import Type, { type Static } from 'typebox'
import type { RollEvent } from '../generated/prisma/client.js'
import { builtInTypesList } from './event-types.js'
import { DieRollSchema } from '../rules/dice.js'
import type { FollowUp, PendingDecision } from '../rules/rule-set.js'
import { FreeObject, PageLimit, SeqCursor, Timestamp, Uuid, type Audience } from '../schemas/common.js'
import { FollowUpsSchema, PendingDecisionsSchema, UnusedFacesSchema, routed } from '../schemas/resolution.js'
import { ref } from '../schemas/ref.js'
import { CharacterSchema } from '../schemas/characters.js'

const VisibilitySchema = Type.Union([Type.Literal('public'), Type.Literal('gm')], {
  description:
    'Who sees the event. Leave it out and Nerve decides: `gm` when the event settles, amends or reverts a GM-only event, or when its result on the sheet as players know it would differ from its result on the sheet itself (it reads what GM-only events did); `public` otherwise. The answer’s `visibilityReason` says which and why. `gm` events are hidden from player keys and from webhooks that did not opt in, and so is what they did to the sheet: players keep seeing the sheet as it was before them. A GM may send `public` to show players an event anyway: they then see that it happened and its dice; when its result read what GM-only events did, neither its request nor its result (docs/guides/hidden-rolls.md). A player’s own actions are always public. Players see only that a hidden event happened (`version`, `eventCount` and gaps in `seq` count every event); a GM reveals one later with `POST …/events/{eventId}/reveal`.',
})

export type Visibility = Static<typeof VisibilitySchema>

const ActorSchema = Type.Object(
  {
    role: Type.Union([Type.Literal('gm'), Type.Literal('player'), Type.Literal('admin')]),
    keyId: Type.Union([Uuid('The key that made the request.'), Type.Null()]),
  },
  { additionalProperties: false },
)
export type Actor = Static<typeof ActorSchema>

/** What every event carries besides the sheets. */
export const eventFields = {
  id: Uuid('Event id (UUIDv7).'),
  seq: Type.Integer({ description: 'Position in the campaign’s history: 1, 2, 3… with no gaps.' }),
  campaignId: Uuid('The campaign.'),
  characterId: Type.Union([Uuid('The character the event is about.'), Type.Null()]),
  characterName: Type.Union([Type.String(), Type.Null()], {
    description:
      'The character’s name when the event was recorded, so a message can name them without another request. The history is append-only: a later rename does not change it (the renaming edit itself carries the new name).',
  }),
  type: Type.String({
    description: `What happened: an action of the campaign’s rule set (\`stress-check\`…; \`GET /v1/rulesets/{ruleset}\` lists them), or one of the types every campaign records:\n${builtInTypesList()}`,
  }),
  ruleset: Type.String(),
  visibility: VisibilitySchema,
  actor: ActorSchema,
  occurredAt: Timestamp('When the event was recorded.'),
  causationId: Type.Union([
    Uuid('The event this one follows from: the roll a decision settles, or the event a revert undoes.'),
    Type.Null(),
  ]),
  request: Type.Union([FreeObject('The request as resolved.'), Type.Null()]),
  dice: Type.Array(ref(DieRollSchema), { description: 'Every die rolled, in order.' }),
  unusedFaces: UnusedFacesSchema,
  outcome: Type.Union([FreeObject('What the rules decided.'), Type.Null()]),
  summary: Type.String({ description: 'One line a GM can read out.' }),
  pending: PendingDecisionsSchema,
  followUps: FollowUpsSchema,
}

const SheetBefore = Type.Union([FreeObject('The sheet before the event.'), Type.Null()])
const SheetAfter = FreeObject('The sheet after the event.')

export const EventSchema = Type.Object(
  { ...eventFields, sheetBefore: SheetBefore, sheetAfter: SheetAfter },
  { $id: 'Event', additionalProperties: false },
)
/** An event as the API shows it: what `eventView` returns. */
export type Event = Static<typeof EventSchema>

type Sheet = Record<string, unknown>

/** How players see a public event recorded while the public sheet differs from the sheet (src/services/public-view.ts). */
export interface PublicView {
  sheetBefore: Sheet
  sheetAfter: Sheet
  pending: PendingDecision[]
  /** Present when players may not read the event's request and result: it read what GM-only events did. */
  request?: null
  outcome?: null
  summary?: string
  followUps?: FollowUp[]
  /** Null when the event it follows is GM-only. */
  causationId?: null
}

const VisibilityReasonSchema = Type.Object(
  {
    code: Type.Enum(['requested', 'default', 'follows-gm-only-event', 'reads-hidden-state', 'redacted'], {
      // Stated, so Swagger UI lists the values.
      type: 'string',
      description:
        '`requested`: as the request said. `default`: public, as nothing hidden is involved. `follows-gm-only-event`: GM-only because it settles, amends or reverts a GM-only event. `reads-hidden-state`: GM-only because its result on the sheet players know would differ. `redacted`: public as asked, but players see it without its result.',
    }),
    detail: Type.String({ description: 'The reason in a sentence, for the GM.' }),
  },
  { additionalProperties: false, description: 'Why the event was recorded with its `visibility`.' },
)
export type VisibilityReason = Static<typeof VisibilityReasonSchema>

/**
 * The JSON an event's payload column holds: the fields of the event (`Event`) that its row has no
 * column for, and what only the server reads (`settings`, `publicView`). Fields added over time
 * are optional, as events recorded before them lack them.
 */
export type EventPayload = Pick<Event, 'request' | 'dice' | 'outcome' | 'summary' | 'sheetBefore' | 'sheetAfter'> &
  Partial<Pick<Event, 'characterName' | 'unusedFaces' | 'followUps'>> & {
    /** Every decision left open; events written before decisions were listed hold one, or null. */
    pending: PendingDecision[] | PendingDecision | null
    /** Campaign settings the event was resolved with, so an audit replays it exactly. */
    settings?: unknown
    /** How players see this public event, when GM-only events made their sheet differ. */
    publicView?: PublicView
  }

/** Players are never shown a GM-only event: the callers leave those out before asking for a view. */
export function eventView(event: RollEvent, audience: Audience): Event {
  const payload = event.payload as unknown as EventPayload
  const shown = audience === 'players' ? payload.publicView : undefined
  return {
    id: event.id,
    seq: Number(event.seq),
    campaignId: event.campaignId,
    characterId: event.characterId,
    characterName: payload.characterName ?? null,
    type: event.type,
    ruleset: event.ruleset,
    visibility: event.visibility as Visibility,
    actor: event.actor as Actor,
    occurredAt: event.occurredAt.toISOString(),
    causationId: shown && 'causationId' in shown ? null : event.causationId,
    request: shown && 'request' in shown ? null : payload.request,
    dice: payload.dice,
    unusedFaces: payload.unusedFaces ?? [],
    outcome: shown && 'outcome' in shown ? (shown.outcome ?? null) : payload.outcome,
    summary: shown?.summary ?? payload.summary,
    pending: routed(event.campaignId, event.characterId, pendingList(shown ? shown.pending : payload.pending)),
    followUps: routed(event.campaignId, event.characterId, shown?.followUps ?? payload.followUps ?? []),
    sheetBefore: shown ? shown.sheetBefore : payload.sheetBefore,
    sheetAfter: shown ? shown.sheetAfter : payload.sheetAfter,
  }
}

/**
 * An event as history pages list it: its view without the sheets, as JSON text — for the GM,
 * and for players when they see the event through its public view (null: as the GM does).
 * Stored with the event when it is written (`listing`, `public_listing`), so a page copies text
 * (src/repositories/event-pages.ts).
 */
export function eventListings(event: RollEvent): { listing: string; publicListing: string | null } {
  const { publicView } = event.payload as unknown as EventPayload
  return { listing: listing(event, 'gm'), publicListing: publicView ? listing(event, 'players') : null }
}

function listing(event: RollEvent, audience: Audience): string {
  const { sheetBefore, sheetAfter, ...listed } = eventView(event, audience) as Record<string, unknown>
  // A part the payload lacks is listed as null, as the API shows it, not left out as JSON.stringify would.
  for (const field in listed) listed[field] ??= null
  return JSON.stringify(listed)
}

/** Events written before decisions were listed hold one decision or null. */
export function pendingList(pending: EventPayload['pending']): PendingDecision[] {
  return Array.isArray(pending) ? pending : pending === null ? [] : [pending]
}

/** How much of the sheets a history page carries (`sheets=`). */
export const SheetsOption = Type.Enum(['full', 'none'], {
  // Stated, so Swagger UI offers the values as a list.
  type: 'string',
  default: 'full',
  examples: ['none', 'full'],
  description:
    '`full`: every event carries `sheetBefore` and `sheetAfter`. `none`: both are left out, which makes a page about a third of the size and quicker to read; get one event (`GET …/events/{eventId}`) or the character when you need a sheet.',
})

/** An event in a history page: the sheets are absent when the page was read with `sheets=none`. */
export const ListedEventSchema = Type.Object(
  {
    ...eventFields,
    sheetBefore: Type.Optional(
      Type.Union([FreeObject('The sheet before the event. Absent with `sheets=none`.'), Type.Null()]),
    ),
    sheetAfter: Type.Optional(FreeObject('The sheet after the event. Absent with `sheets=none`.')),
  },
  { $id: 'ListedEvent', additionalProperties: false },
)

export const EventListSchema = Type.Object(
  {
    data: Type.Array(ref(ListedEventSchema)),
    hasMore: Type.Boolean({ description: 'True when more events follow.' }),
    nextCursor: Type.Union([Type.Integer(), Type.Null()], { description: 'Pass as `after` to get the next page.' }),
  },
  { $id: 'EventList', additionalProperties: false },
)

export const EventListQuery = Type.Object({
  after: Type.Optional(SeqCursor('Cursor: only events with a greater `seq`.')),
  limit: PageLimit,
  characterId: Type.Optional(Uuid('Only this character’s events.')),
  type: Type.Optional(
    Type.String({
      maxLength: 100,
      pattern: '^[a-z][a-z0-9.-]*$',
      description:
        'Only events of this type: an action of the campaign’s rule set (`GET /v1/rulesets/{ruleset}`, `actions`) or a built-in type such as `character.created`, `revert` or `reveal`. Any other is 422, naming the type most likely meant.',
    }),
  ),
  sheets: Type.Optional(SheetsOption),
})
export type EventListFilter = Static<typeof EventListQuery>

export const CommandResultSchema = Type.Object(
  {
    event: ref(EventSchema),
    character: ref(CharacterSchema),
    visibilityReason: VisibilityReasonSchema,
  },
  { $id: 'CommandResult', additionalProperties: false },
)

/** The data of a stream's last message, sent when the key is revoked or the campaign closed. */
export const StreamEndSchema = Type.Object(
  {
    ended: Type.Enum(['revoked', 'closed'], {
      description: 'Why the stream ended; also the message’s `event:` name unless `named=false`.',
    }),
    reason: Type.String({ description: 'The same, in words.' }),
  },
  {
    $id: 'StreamEnd',
    additionalProperties: false,
    examples: [{ ended: 'revoked', reason: 'key revoked' }],
  },
)

export type StreamEnd = Static<typeof StreamEndSchema>

/**
 * The body of the event stream, documented: OpenAPI 3.1 has no schema for the messages of a
 * `text/event-stream`, so, as an export's lines are, each message's `data` is the content schema.
 */
export const StreamTextSchema = {
  type: 'string',
  contentMediaType: 'text/event-stream',
  contentSchema: Type.Union([ref(ListedEventSchema), ref(StreamEndSchema)]),
  description:
    'Server-sent events. Each message’s `data` is an event as the history lists it (`ListedEvent`, one schema per event type: without its sheets with `sheets=none`), with `id:` its `seq`; the last message, if the key is revoked or the campaign closed, is a `StreamEnd` without `id:`. Comment lines (`: keep-alive`) keep the connection open.',
  examples: [
    ': connected\n\nid: 7\nevent: stress-check\ndata: {"id":"…","seq":7,"type":"stress-check",…}\n\n: keep-alive\n\n',
  ],
} as const

export const StreamTicketSchema = Type.Object(
  {
    ticket: Type.String({
      description:
        'Opens one event stream, once, within its lifetime, as the key that minted it. Nerve keeps only its hash.',
    }),
    expiresAt: Timestamp('When the ticket stops opening a stream (60 s after it was minted).'),
    url: Type.String({
      format: 'uri',
      description:
        'The stream’s URL with the ticket in it: `new EventSource(url)`. Append `&after=<seq>` to resume, `&sheets=none` to leave the sheets out.',
    }),
  },
  {
    $id: 'StreamTicket',
    additionalProperties: false,
    examples: [
      {
        ticket: 'nrv_st_3q2-7wF0xYk9mB1cR5tL8vN4hJ6pD0sA2eG7uW9zQ1o',
        expiresAt: '2026-12-04T18:30:45.000Z',
        url: 'https://nerve.example.com/v1/campaigns/0193b5c2-6f10-7c2e-8a4b-5d9e3f1c2b80/events/stream?ticket=nrv_st_3q2-7wF0xYk9mB1cR5tL8vN4hJ6pD0sA2eG7uW9zQ1o',
      },
    ],
  },
)
