import Type, { type Static } from 'typebox'
import type { Character } from '../generated/prisma/client.js'
import { findRuleSet } from '../rules/index.js'
import { RuleSetId } from './campaigns.js'
import { FreeObject, PageLimit, Timestamp, Uuid, type Audience } from './common.js'
import { ref } from './ref.js'
import { PendingDecisionsSchema, routed } from './resolution.js'

export const CharacterSchema = Type.Object(
  {
    id: Uuid('Character id.'),
    campaignId: Uuid('The campaign it belongs to.'),
    name: Type.String(),
    ruleset: Type.String(),
    sheet: FreeObject('The sheet, defaults filled and derived values computed (schema: GET /v1/rulesets/{ruleset}).'),
    pending: PendingDecisionsSchema,
    version: Type.Integer({ description: 'Goes up by one with every change; also the ETag.' }),
    createdAt: Timestamp('When the character was created.'),
    updatedAt: Timestamp('When the sheet last changed.'),
    archivedAt: Type.Union([Timestamp('When the character was archived.'), Type.Null()]),
    hiddenFromPlayers: Type.Optional(
      Type.Boolean({
        description:
          'GM key only: true while GM-only events have changed the sheet, so players see it as it was before them (docs/guides/hidden-rolls.md). A new event whose result would differ on the sheet players know is then GM-only unless you ask for public.',
      }),
    ),
  },
  { $id: 'Character', additionalProperties: false },
)

/** A character as the API shows it to an audience: players see the sheet as they know it. */
export function characterView(
  character: Character,
  campaign: { ruleset: string; settings: unknown },
  audience: Audience,
): Static<typeof CharacterSchema> {
  const sheet = audience === 'players' ? (character.publicSheet ?? character.sheet) : character.sheet
  const ruleSet = findRuleSet(campaign.ruleset)
  const pending = ruleSet ? ruleSet.pendingOf(sheet, ruleSet.normalizeSettings(campaign.settings)) : []
  return {
    id: character.id,
    campaignId: character.campaignId,
    name: character.name,
    ruleset: campaign.ruleset,
    sheet: sheet as Record<string, unknown>,
    pending: routed(character.campaignId, character.id, pending),
    version: character.version,
    createdAt: character.createdAt.toISOString(),
    updatedAt: character.updatedAt.toISOString(),
    archivedAt: character.archivedAt?.toISOString() ?? null,
    ...(audience === 'gm' ? { hiddenFromPlayers: character.publicSheet !== null } : {}),
  }
}

/**
 * A character's body may name its campaign's rule set: optional, and refused when it is another.
 * It is what a typed client tells the sheets apart by (the document's `CreateCharacter` and
 * `PatchCharacter` are unions by `ruleset`, src/schemas/typed.ts).
 */
const BodyRuleSet = Type.Optional(
  Type.Union(RuleSetId.anyOf, {
    description:
      'The campaign’s rule set, which the sheet is in. Optional: when given it must be the campaign’s (else 422); a typed client sends it to have the sheet checked against that rule set’s schema.',
  }),
)

export const CreateCharacterSchema = Type.Object(
  {
    ruleset: BodyRuleSet,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    sheet: Type.Optional(
      FreeObject(
        'The sheet in the campaign’s rule set; anything left out takes its default. Leave it out for a new character.',
      ),
    ),
  },
  { $id: 'CreateCharacter', additionalProperties: false, examples: [{ name: 'Vera Okafor' }] },
)
export type CreateCharacter = Static<typeof CreateCharacterSchema>

export const PatchCharacterSchema = Type.Object(
  {
    ruleset: BodyRuleSet,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    sheet: Type.Optional(
      FreeObject(
        'A JSON merge patch (RFC 7396) of the sheet: fields given replace the stored ones, `null` removes a field (it then takes its default). Derived values are recomputed.',
      ),
    ),
    reason: Type.Optional(
      Type.String({ maxLength: 500, description: 'Why the sheet was edited; kept in the history.' }),
    ),
  },
  { $id: 'PatchCharacter', additionalProperties: false, minProperties: 1, examples: [{ name: 'Vera "Doc" Okafor' }] },
)
export type PatchCharacter = Static<typeof PatchCharacterSchema>

export const CharacterListSchema = Type.Object(
  {
    data: Type.Array(ref(CharacterSchema)),
    hasMore: Type.Boolean({ description: 'True when another page follows.' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `after` to get the next page.' }),
  },
  { $id: 'CharacterList', additionalProperties: false },
)

export const CharacterListQuery = Type.Object({
  after: Type.Optional(Uuid('Cursor: the last character id of the previous page.')),
  limit: PageLimit,
  includeArchived: Type.Optional(Type.Boolean({ default: false, description: 'Also list archived characters.' })),
})
