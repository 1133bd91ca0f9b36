import Type, { type Static } from 'typebox'
import type { ApiKey, Campaign } from '../generated/prisma/client.js'
import { RULE_SET_IDS } from '../rules/index.js'
import { FreeObject, Timestamp, Uuid } from './common.js'
import { ref } from './ref.js'

export const RuleSetId = Type.Union(
  RULE_SET_IDS.map((id) => Type.Literal(id)),
  { description: 'Which rule set the campaign plays: `shock-meters`, `trauma-table` or `reaction-rolls`.' },
)

export const CampaignSchema = Type.Object(
  {
    id: Uuid('Campaign id.'),
    name: Type.String(),
    ruleset: Type.String({ description: 'The rule set every character of this campaign uses.' }),
    settings: FreeObject('Rule-set settings, defaults filled (see the rule set’s `settingsSchema`).'),
    eventCount: Type.Integer({ description: 'Events recorded so far; the latest event’s `seq`.' }),
    createdAt: Timestamp('When the campaign was created.'),
    updatedAt: Timestamp('When its name or settings last changed.'),
  },
  { $id: 'Campaign', additionalProperties: false },
)

export const CreateCampaignSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'What the table calls the campaign.' }),
    ruleset: RuleSetId,
    settings: Type.Optional(FreeObject('Rule-set settings; anything left out takes its default.')),
  },
  {
    $id: 'CreateCampaign',
    additionalProperties: false,
    examples: [{ name: 'The Mercy Street Irregulars', ruleset: 'shock-meters' }],
  },
)
export type CreateCampaign = Static<typeof CreateCampaignSchema>

export const UpdateCampaignSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    settings: Type.Optional(FreeObject('Replaces the settings; anything left out takes its default.')),
  },
  {
    $id: 'UpdateCampaign',
    additionalProperties: false,
    minProperties: 1,
    examples: [{ name: 'The Mercy Street Irregulars, season 2' }],
  },
)
export type UpdateCampaign = Static<typeof UpdateCampaignSchema>

export const ApiKeySchema = Type.Object(
  {
    id: Uuid('Key id, used to revoke it.'),
    role: Type.Union([Type.Literal('gm'), Type.Literal('player')], {
      description: '`gm` may do everything in the campaign; `player` may read it and act for its own characters.',
    }),
    label: Type.Union([Type.String(), Type.Null()]),
    prefix: Type.String({
      description: 'The first characters of the key, to tell keys apart. The key itself is never shown again.',
    }),
    characterIds: Type.Array(Uuid('A character this player key acts for.')),
    createdAt: Timestamp('When the key was minted.'),
    revokedAt: Type.Union([Timestamp('When the key was revoked.'), Type.Null()]),
  },
  { $id: 'ApiKey', additionalProperties: false },
)

export const MintedKeySchema = Type.Object(
  {
    ...ApiKeySchema.properties,
    key: Type.String({ description: 'The secret key. Shown once: store it now; Nerve keeps only its hash.' }),
  },
  { $id: 'MintedKey', additionalProperties: false },
)

export const CreatedCampaignSchema = Type.Object(
  {
    campaign: ref(CampaignSchema),
    gmKey: ref(MintedKeySchema),
  },
  { $id: 'CreatedCampaign', additionalProperties: false },
)

export const MintKeySchema = Type.Object(
  {
    label: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Who holds the key, e.g. the player’s name.' }),
    ),
    characterIds: Type.Array(Uuid('A character of this campaign.'), {
      minItems: 1,
      maxItems: 50,
      uniqueItems: true,
      description: 'The characters this player key may act for.',
    }),
  },
  {
    $id: 'MintKey',
    additionalProperties: false,
    examples: [{ label: 'Sam', characterIds: ['0193a5e2-7c1d-7000-8000-000000000001'] }],
  },
)
export type MintKey = Static<typeof MintKeySchema>

export const ApiKeyListSchema = Type.Object(
  { data: Type.Array(ref(ApiKeySchema)) },
  { $id: 'ApiKeyList', additionalProperties: false },
)

export function campaignView(campaign: Campaign) {
  return {
    id: campaign.id,
    name: campaign.name,
    ruleset: campaign.ruleset,
    settings: campaign.settings as Record<string, unknown>,
    eventCount: Number(campaign.lastSeq),
    createdAt: campaign.createdAt.toISOString(),
    updatedAt: campaign.updatedAt.toISOString(),
  }
}

export function apiKeyView(key: ApiKey) {
  return {
    id: key.id,
    role: key.role as 'gm' | 'player',
    label: key.label,
    prefix: key.prefix,
    characterIds: key.characterIds,
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
  }
}
