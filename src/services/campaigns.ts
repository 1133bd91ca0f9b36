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
import { BUILT_IN } from '../history/event-types.js'
import type { Principal } from '../lib/principal.js'
import { apiKeyView, campaignView } from '../schemas/campaigns.js'
import { runCommand, type CampaignLoaded, type Command, type CommandContext } from './pipeline.js'
import { sameJson } from './replay.js'

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

/**
 * Renames the campaign or changes its settings, recorded as a `campaign.updated` event (webhooks,
 * the stream and the history show it). A change that changes nothing records nothing.
 */
export async function updateCampaign(context: CommandContext, principal: Principal, body: UpdateCampaign) {
  const campaignId = principal.campaign.id
  const command: Command<CampaignLoaded> = {
    load: () => ({ character: null }),
    async decide(repositories) {
      const current = await repositories.campaigns.forCommand(campaignId)
      if (!current) throw new NotFoundError(`campaign ${campaignId} not found`)
      const read = { name: current.name, settings: current.settings as Prisma.InputJsonObject }
      const settings = body.settings === undefined ? read.settings : settingsFor(current.ruleset, body.settings)
      if (body.settings !== undefined) await checkSheetsFit(repositories, campaignId, current.ruleset, settings)
      const after = { name: body.name ?? read.name, settings }
      if (after.name === read.name && sameJson(after.settings, read.settings)) throw NOTHING_CHANGED
      return {
        type: BUILT_IN.campaignUpdated.type,
        visibility: BUILT_IN.campaignUpdated.visibility,
        campaignChange: { read, ...after },
        payload: {
          request: body,
          dice: [],
          outcome: { before: read, after },
          summary: campaignUpdatedSummary(read, after),
          sheetBefore: null,
          sheetAfter: {},
        },
      }
    },
  }
  try {
    await runCommand(context, principal, command)
  } catch (error) {
    if (error !== NOTHING_CHANGED) throw error
  }
  return getCampaign(context.store, campaignId)
}

/** Thrown by a campaign update that would change nothing: no event is recorded for it. */
const NOTHING_CHANGED = new Error('the campaign update changes nothing')

function campaignUpdatedSummary(before: CampaignState, after: CampaignState): string {
  if (before.name === after.name) return `The GM changed the settings of ${after.name}`
  const renamed = `The GM renamed ${before.name} to ${after.name}`
  return sameJson(before.settings, after.settings) ? renamed : `${renamed} and changed its settings`
}

interface CampaignState {
  name: string
  settings: Prisma.InputJsonObject
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
