import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'
import Type, { type Static } from 'typebox'
import { shockMeters } from '../rules/shock-meters/index.js'
import { CampaignSchema, MintedKeySchema } from '../schemas/campaigns.js'
import { CharacterSchema } from '../schemas/characters.js'
import { FreeObject, Timestamp, Uuid } from '../schemas/common.js'
import { EventSchema } from './event.js'
import { ref } from '../schemas/ref.js'
import { CreatedWebhookEndpointSchema, WebhookEndpointSchema } from '../webhooks/schemas.js'

/** A campaign archive: JSON lines (NDJSON), one object per line. */
export const ARCHIVE_MEDIA_TYPE = 'application/x-ndjson'
export const ARCHIVE_FORMAT = 'nerve-campaign'
/** The archive format this Nerve writes and reads. */
export const ARCHIVE_VERSION = 1

/** The SHA-256 an end line carries: of every byte before it, newlines included. */
export function archiveDigest() {
  return createHash('sha256')
}

export const ArchiveHeaderSchema = Type.Object(
  {
    kind: Type.Literal('archive'),
    format: Type.Literal(ARCHIVE_FORMAT),
    version: Type.Integer({
      minimum: 1,
      description: `The archive format's version: ${ARCHIVE_VERSION}. A Nerve refuses a version it does not know.`,
    }),
    exportedAt: Timestamp('When the export began; the archive holds the campaign as it was then.'),
    counts: Type.Object(
      {
        characters: Type.Integer({ minimum: 0, description: 'How many `character` lines follow.' }),
        events: Type.Integer({ minimum: 0, description: 'How many `event` lines follow.' }),
        webhooks: Type.Integer({ minimum: 0, description: 'How many `webhook` lines follow.' }),
      },
      {
        additionalProperties: false,
        description: 'How many lines of each kind follow, so a reader can show its progress.',
      },
    ),
  },
  {
    $id: 'ArchiveHeader',
    additionalProperties: false,
    description: 'The first line of a campaign archive.',
  },
)
export type ArchiveHeader = Static<typeof ArchiveHeaderSchema>

export const ArchiveCampaignSchema = Type.Object(
  { kind: Type.Literal('campaign'), campaign: ref(CampaignSchema) },
  {
    $id: 'ArchiveCampaign',
    additionalProperties: false,
    description: 'The second line: the campaign as `GET /v1/campaigns/{campaignId}` shows it.',
  },
)

export const ArchiveCharacterSchema = Type.Object(
  { kind: Type.Literal('character'), character: ref(CharacterSchema) },
  {
    $id: 'ArchiveCharacter',
    additionalProperties: false,
    description:
      'One line per character, archived ones too, in the order they were created, as the GM key reads them. Their history starts with their `character.created` events; these lines say where it leads, so a reader can check it.',
  },
)

export const ArchiveEventSchema = Type.Object(
  {
    kind: Type.Literal('event'),
    event: ref(EventSchema),
    settings: Type.Union([FreeObject('The rule-set settings the event was resolved with.'), Type.Null()], {
      description:
        'The campaign settings in force when the event was resolved, which replaying it needs (the history does not show them); null for events that use none (creations, edits, archiving, reverts).',
    }),
  },
  {
    $id: 'ArchiveEvent',
    additionalProperties: false,
    description:
      'One line per event of the history, in `seq` order from 1 with no gap, each exactly as the GM key reads it (`GET …/events`): GM-only events included, with their `visibility`.',
  },
)

export const ArchiveWebhookSchema = Type.Object(
  { kind: Type.Literal('webhook'), webhook: ref(WebhookEndpointSchema) },
  {
    $id: 'ArchiveWebhook',
    additionalProperties: false,
    description: 'One line per webhook endpoint, as `GET …/webhooks` shows it: never its signing secret.',
  },
)

export const ArchiveEndSchema = Type.Object(
  {
    kind: Type.Literal('end'),
    events: Type.Integer({ minimum: 0, description: 'How many event lines the archive holds.' }),
    lastSeq: Type.Integer({ minimum: 0, description: 'The `seq` of the last of them (0 for none).' }),
    sha256: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description:
        'SHA-256, in hex, of every byte before this line (each line and its newline): a truncated or altered archive does not match. It detects accidents, not forgery: anyone can compute it again, which is why an import also replays every event.',
    }),
  },
  {
    $id: 'ArchiveEnd',
    additionalProperties: false,
    description: 'The last line. An archive without it was cut short.',
  },
)

export const ArchiveLineSchema = Type.Union(
  [
    ref(ArchiveHeaderSchema),
    ref(ArchiveCampaignSchema),
    ref(ArchiveCharacterSchema),
    ref(ArchiveEventSchema),
    ref(ArchiveWebhookSchema),
    ref(ArchiveEndSchema),
  ],
  {
    $id: 'ArchiveLine',
    description:
      'A line of a campaign archive, told apart by `kind`. In order: `archive`, `campaign`, every `character`, every `event`, every `webhook`, `end`.',
  },
)

const EXAMPLE = {
  campaign: '0193b5c2-6f10-7c2e-8a4b-5d9e3f1c2b80',
  character: '0193b5c2-7a31-7d4f-9b2e-6c1a0e5f3d92',
  event: '0193b5c2-7a32-7e10-8c4d-1f2a3b4c5d6e',
  gmKey: '0193b5c2-6f11-7a1b-9f4e-3b5d7c9e1a24',
  at: '2026-12-05T19:30:00.000Z',
}

/** A whole archive (a shock-meters campaign with one new character), as an export writes it: it imports as it is. */
function exampleArchive(): string {
  const sheet = shockMeters.normalizeSheet({}) as Record<string, unknown>
  const lines: unknown[] = [
    {
      kind: 'archive',
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      exportedAt: '2026-12-06T21:00:00.000Z',
      counts: { characters: 1, events: 1, webhooks: 0 },
    },
    {
      kind: 'campaign',
      campaign: {
        id: EXAMPLE.campaign,
        name: 'The Mercy Street Irregulars',
        ruleset: 'shock-meters',
        settings: {},
        eventCount: 1,
        createdAt: EXAMPLE.at,
        updatedAt: EXAMPLE.at,
      },
    },
    {
      kind: 'character',
      character: {
        id: EXAMPLE.character,
        campaignId: EXAMPLE.campaign,
        name: 'Vera Okafor',
        ruleset: 'shock-meters',
        sheet,
        pending: [],
        version: 1,
        createdAt: EXAMPLE.at,
        updatedAt: EXAMPLE.at,
        archivedAt: null,
      },
    },
    {
      kind: 'event',
      event: {
        id: EXAMPLE.event,
        seq: 1,
        campaignId: EXAMPLE.campaign,
        characterId: EXAMPLE.character,
        characterName: 'Vera Okafor',
        type: 'character.created',
        ruleset: 'shock-meters',
        visibility: 'public',
        actor: { role: 'gm', keyId: EXAMPLE.gmKey },
        occurredAt: EXAMPLE.at,
        causationId: null,
        request: { name: 'Vera Okafor' },
        dice: [],
        unusedFaces: [],
        outcome: null,
        summary: 'Vera Okafor joins the campaign',
        pending: [],
        followUps: [],
        sheetBefore: null,
        sheetAfter: sheet,
      },
      settings: null,
    },
  ]
  const body = lines.map((line) => `${JSON.stringify(line)}\n`).join('')
  const sha256 = archiveDigest().update(body).digest('hex')
  return `${body}${JSON.stringify({ kind: 'end', events: 1, lastSeq: 1, sha256 })}\n`
}

const ARCHIVE_DESCRIPTION =
  'A campaign archive: one JSON object per line (NDJSON), each an `ArchiveLine` — in order `archive` (format, version, how many lines of each kind follow), `campaign`, every `character`, every `event` in `seq` order, every `webhook`, and `end` with the SHA-256 of everything before it.'

/** The body of an export, documented; it is streamed, never built whole. */
export const ArchiveTextSchema = {
  type: 'string',
  contentMediaType: ARCHIVE_MEDIA_TYPE,
  contentSchema: ref(ArchiveLineSchema),
  description: ARCHIVE_DESCRIPTION,
  examples: [exampleArchive()],
} as const

/**
 * The body of an import, documented. The route reads it as a stream, line by line, so the
 * schema asserts nothing (a type would be checked against the stream): each line is checked
 * against its `ArchiveLine` schema as it arrives.
 */
export const ArchiveUploadSchema = Type.Unsafe<Readable>({
  contentMediaType: ARCHIVE_MEDIA_TYPE,
  contentSchema: ref(ArchiveLineSchema),
  description: `${ARCHIVE_DESCRIPTION} Send it as \`${ARCHIVE_MEDIA_TYPE}\`, exactly as an export wrote it.`,
  examples: [exampleArchive()],
})

export const ImportQuery = Type.Object({
  webhooks: Type.Optional(
    Type.Enum(['disabled', 'none'], {
      type: 'string',
      default: 'disabled',
      description:
        '`disabled` (the default): each webhook endpoint of the archive is created again, disabled, with a new signing secret; enable it once its receiver has the secret. `none`: no endpoint is created (say, when their URLs point into the old Nerve’s private network).',
    }),
  ),
})
export type ImportOptions = Static<typeof ImportQuery>

export const ImportedCampaignSchema = Type.Object(
  {
    campaign: ref(CampaignSchema),
    gmKey: ref(MintedKeySchema),
    importedFrom: Type.Object(
      {
        campaignId: Uuid('The campaign’s id where it was exported.'),
        exportedAt: Timestamp('When the archive was exported.'),
      },
      { additionalProperties: false },
    ),
    characters: Type.Array(
      Type.Object(
        {
          id: Uuid('The character’s id here.'),
          importedFrom: Uuid('Its id in the archive.'),
          name: Type.String(),
        },
        { additionalProperties: false },
      ),
      { description: 'Every character with its new id, in the archive’s order.' },
    ),
    events: Type.Object(
      {
        count: Type.Integer({ minimum: 0, description: 'Events imported, every one replayed.' }),
        lastSeq: Type.Integer({ minimum: 0, description: 'The `seq` of the last one.' }),
      },
      {
        additionalProperties: false,
        description:
          'Events keep their `seq`: event 12 of the archive is event 12 here, with a new `id`. Find one by `seq` (`GET …/events?after=11&limit=1`).',
      },
    ),
    webhooks: Type.Array(
      Type.Object(
        { importedFrom: Uuid('The endpoint’s id in the archive.'), endpoint: ref(CreatedWebhookEndpointSchema) },
        { additionalProperties: false },
      ),
      {
        description:
          'The webhook endpoints created again, each **disabled** and with a new signing secret, **shown only this once**. Give the secret to the receiver, then enable the endpoint. Empty with `webhooks=none`.',
      },
    ),
  },
  { $id: 'ImportedCampaign', additionalProperties: false },
)
