import Type from 'typebox'
import { DEFAULT_PAGE_LIMIT } from '../lib/pagination.js'

export const Uuid = (description: string) => Type.String({ format: 'uuid', description })

export const Timestamp = (description: string) => Type.String({ format: 'date-time', description })

/** A JSON object whose shape depends on the rule set; its schema is published at GET /v1/rulesets/{ruleset}. */
/** Any JSON object: a sheet, request or result whose shape the rule set defines (typed as such, not as `object`). */
export const FreeObject = (description: string) =>
  Type.Unsafe<Record<string, unknown>>(Type.Object({}, { additionalProperties: true, description }))

export const CampaignParams = Type.Object({
  campaignId: Uuid('The campaign.'),
})

export const CharacterParams = Type.Object({
  campaignId: Uuid('The campaign.'),
  characterId: Uuid('The character.'),
})

/** A campaign sequence number given by a client: bounded so it always fits PostgreSQL's bigint exactly. */
export const SeqCursor = (description: string) =>
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description })

/** Optional in the document (clients need not send it); the validator fills the default. */
export const PageLimit = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_PAGE_LIMIT, description: 'Items per page (1–100).' }),
)

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x20-\\x7E]+$',
      description:
        'Makes a retry safe: the same key and body within 24 hours returns the first response again instead of rolling twice. 1–255 printable ASCII characters (a UUID is a good choice).',
    }),
  ),
})

/**
 * Who reads what the API shows: the GM, or players (player keys, and webhooks that did not opt
 * in to GM-only events), who see neither GM-only events nor what they did to a sheet
 * (docs/guides/hidden-rolls.md).
 */
export type Audience = 'gm' | 'players'

/** Who may see the event a command records, as the request asks: the rule is in src/services/public-view.ts. */
export const VisibilityChoice = Type.Union([Type.Literal('public'), Type.Literal('gm')], {
  description:
    'Leave it out and Nerve decides: GM-only when the event settles, amends or reverts a GM-only event, or when its result would differ on the sheet as players know it; public otherwise. `gm` keeps it from players and from webhooks that did not opt in (GM keys only). `public` shows it to players as they can know it: without any result that only GM-only events could give. The answer’s `visibilityReason` says what was recorded and why (docs/api.md, "Who sees an event").',
})
