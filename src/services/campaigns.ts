import { ConflictError, InvalidFieldError, NotFoundError, UnprocessableError } from '../errors.js'
import type { Prisma } from '../generated/prisma/client.js'
import { mintKey } from '../lib/secrets.js'
import { newId } from '../lib/ids.js'
import type { NewApiKey } from '../repositories/api-keys.js'
import type { Repositories, Store } from '../repositories/index.js'
import { RuleError } from '../rules/errors.js'
import { findRuleSet } from '../rules/index.js'
import type { CreateCampaign, MintKey, UpdateCampaign } from '../schemas/campaigns.js'
import type { EventFeed } from '../history/feed.js'
import { apiKeyView, campaignView } from '../schemas/campaigns.js'

function ruleSetOf(id: string) {
  const ruleSet = findRuleSet(id)
  if (!ruleSet) throw new UnprocessableError(`unknown rule set "${id}"`)
  return ruleSet
}

function settingsFor(ruleset: string, settings: unknown): Prisma.InputJsonObject {
  return ruleSetOf(ruleset).normalizeSettings(settings ?? {}) as Prisma.InputJsonObject
}

export async function createCampaign(store: Store, body: CreateCampaign) {
  const settings = settingsFor(body.ruleset, body.settings)
  return store.transaction(async (tx) => {
    const campaign = await tx.campaigns.create({ id: newId(), name: body.name, ruleset: body.ruleset, settings })
    return { campaign: campaignView(campaign), gmKey: await createKey(tx, campaign.id, GM_KEY) }
  })
}

export async function getCampaign(store: Pick<Store, 'campaigns'>, campaignId: string) {
  const campaign = await store.campaigns.findActive(campaignId)
  if (!campaign) throw new NotFoundError(`campaign ${campaignId} not found`)
  return campaignView(campaign)
}

/**
 * Settings bound what a sheet may hold (e.g. an emotion's top stage). Stored sheets are
 * re-checked against the settings before every roll, so settings that a sheet already exceeds
 * would leave that character unable to roll at all: refuse them instead.
 */
async function checkSheetsFit(
  store: Pick<Store, 'characters'>,
  campaignId: string,
  ruleset: string,
  settings: Prisma.InputJsonObject,
) {
  const ruleSet = ruleSetOf(ruleset)
  for (const character of await store.characters.sheets(campaignId)) {
    try {
      ruleSet.normalizeSheet(character.sheet, settings)
    } catch (error) {
      if (!(error instanceof RuleError)) throw error
      throw new ConflictError(
        `${character.name} (${character.id}) does not fit the new settings: ${error.message}. Edit the sheet first.`,
      )
    }
  }
}

export async function updateCampaign(
  store: Pick<Store, 'campaigns' | 'characters'>,
  campaignId: string,
  body: UpdateCampaign,
) {
  const current = await getCampaign(store, campaignId)
  const settings = body.settings === undefined ? undefined : settingsFor(current.ruleset, body.settings)
  if (settings !== undefined) await checkSheetsFit(store, campaignId, current.ruleset, settings)
  const changes = {
    ...(body.name === undefined ? {} : { name: body.name }),
    ...(settings === undefined ? {} : { settings }),
  }
  return campaignView(await store.campaigns.update(campaignId, changes))
}

/** The history is kept (it is append-only); the campaign and all its keys simply stop answering. */
export async function deleteCampaign(
  { store, feed }: { store: Pick<Store, 'campaigns'>; feed: Pick<EventFeed, 'accessChanged'> },
  campaignId: string,
) {
  await store.campaigns.markDeleted(campaignId)
  feed.accessChanged(campaignId)
}

export async function mintPlayerKey(store: Pick<Store, 'characters' | 'apiKeys'>, campaignId: string, body: MintKey) {
  for (const [index, characterId] of body.characterIds.entries()) {
    if (!(await store.characters.find(campaignId, characterId))) {
      throw new InvalidFieldError(`/body/characterIds/${index}`, `character ${characterId} is not in this campaign`)
    }
  }
  return createKey(store, campaignId, { role: 'player', label: body.label, characterIds: body.characterIds })
}

/** The key every new campaign is given (created, or imported from an archive). */
export const GM_KEY = { role: 'gm', label: 'GM key' } as const

/** Mints a key and stores its hash; the answer holds the secret, shown this once. */
export async function createKey(
  repositories: Pick<Repositories, 'apiKeys'>,
  campaignId: string,
  grant: Pick<NewApiKey, 'role' | 'label' | 'characterIds'>,
) {
  const minted = mintKey(grant.role)
  const key = await repositories.apiKeys.create({
    id: newId(),
    campaignId,
    ...grant,
    prefix: minted.prefix,
    hash: minted.hash,
  })
  return { ...apiKeyView(key), key: minted.secret }
}

export async function listKeys(store: Pick<Store, 'apiKeys'>, campaignId: string) {
  return { data: (await store.apiKeys.list(campaignId)).map(apiKeyView) }
}

export async function revokeKey(
  { store, feed }: { store: Pick<Store, 'apiKeys'>; feed: Pick<EventFeed, 'accessChanged'> },
  campaignId: string,
  keyId: string,
) {
  const key = await store.apiKeys.find(campaignId, keyId)
  if (!key) throw new NotFoundError(`key ${keyId} not found`)
  if (key.revokedAt) return apiKeyView(key)
  const revoked = await store.apiKeys.revoke(keyId)
  feed.accessChanged(campaignId)
  return apiKeyView(revoked)
}
