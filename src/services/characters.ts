import { ConflictError, NotFoundError, PreconditionFailedError } from '../errors.js'
import { newId } from '../lib/ids.js'
import { mergePatch } from '../lib/merge-patch.js'
import type { Principal } from '../plugins/app/auth.js'
import type { Repositories } from '../repositories/index.js'
import { findRuleSet } from '../rules/index.js'
import type { RuleSet } from '../rules/rule-set.js'
import type { CreateCharacter, PatchCharacter } from '../schemas/characters.js'
import type { CommandOptions } from './commands.js'
import { actorOf, type ServiceContext } from './context.js'
import { recordChange } from './event-log.js'
import { pageOf, pageSize } from './pagination.js'
import { audienceOf } from './public-view.js'
import { characterView } from './views.js'

export function ruleSetOfCampaign(principal: Principal): RuleSet {
  const ruleSet = findRuleSet(principal.campaign.ruleset)
  if (!ruleSet) throw new Error(`campaign ${principal.campaign.id} has unknown rule set ${principal.campaign.ruleset}`)
  return ruleSet
}

/** A stored sheet is re-checked against the campaign's current settings before the rules use it. */
export function sheetWithSettings(principal: Principal, sheet: unknown) {
  const ruleSet = ruleSetOfCampaign(principal)
  const settings = ruleSet.normalizeSettings(principal.campaign.settings)
  return { ruleSet, settings, sheet: ruleSet.normalizeSheet(sheet, settings) as Record<string, unknown> }
}

/** Locks the character for the rest of the transaction; archived characters take no further changes. */
export async function lockCharacter(tx: Repositories, principal: Principal, characterId: string) {
  const character = await tx.characters.lock(principal.campaign.id, characterId)
  if (!character) throw new NotFoundError(`character ${characterId} not found`)
  if (character.archivedAt) throw new ConflictError(`character ${characterId} is archived`)
  return character
}

export async function createCharacter(
  { store, feed }: ServiceContext,
  principal: Principal,
  body: CreateCharacter,
  options: CommandOptions = {},
) {
  const { sheet } = sheetWithSettings(principal, body.sheet ?? {})
  const result = await store.transaction(async (tx) => {
    const created = await tx.characters.create({
      id: newId(),
      campaignId: principal.campaign.id,
      name: body.name,
      sheet,
    })
    const recorded = await recordChange(tx, {
      campaign: principal.campaign,
      character: { ...created, archivedAt: null },
      type: 'character.created',
      actor: actorOf(principal),
      visibility: 'public',
      causationId: null,
      idempotencyKey: options.idempotencyKey ?? null,
      payload: {
        request: body,
        dice: [],
        outcome: null,
        summary: `${body.name} joins the campaign`,
        sheetBefore: null,
        sheetAfter: sheet,
      },
    })
    await options.onCommit?.(tx, { status: 201, body: recorded })
    return recorded
  })
  feed.published(principal.campaign.id)
  return result
}

export async function getCharacter({ store }: ServiceContext, principal: Principal, characterId: string) {
  const character = await store.characters.find(principal.campaign.id, characterId)
  if (!character) throw new NotFoundError(`character ${characterId} not found`)
  return characterView(character, principal.campaign, audienceOf(principal))
}

export async function listCharacters(
  { store }: ServiceContext,
  principal: Principal,
  query: { after?: string | undefined; limit?: number | undefined; includeArchived?: boolean | undefined },
) {
  const limit = pageSize(query.limit)
  const rows = await store.characters.list(principal.campaign.id, {
    after: query.after,
    limit,
    includeArchived: query.includeArchived ?? false,
  })
  const { page, hasMore, nextCursor } = pageOf(rows, limit, (character) => character.id)
  const audience = audienceOf(principal)
  return {
    data: page.map((character) => characterView(character, principal.campaign, audience)),
    hasMore,
    nextCursor,
  }
}

/** `If-Match: "3"` (or `3`) names the version the client edited; anything else there is refused. */
export function expectedVersion(ifMatch: string | undefined): number | undefined {
  if (ifMatch === undefined || ifMatch.trim() === '*') return undefined
  const match = ifMatch.trim().match(/^(?:W\/)?"?(\d+)"?$/)
  if (!match) throw new PreconditionFailedError(`If-Match must be a version ETag such as "3", got ${ifMatch}`)
  return Number(match[1])
}

export async function patchCharacter(
  { store, feed }: ServiceContext,
  principal: Principal,
  characterId: string,
  body: PatchCharacter,
  ifMatch: string | undefined,
) {
  const expected = expectedVersion(ifMatch)
  const result = await store.transaction(async (tx) => {
    const character = await lockCharacter(tx, principal, characterId)
    if (expected !== undefined && expected !== character.version) {
      throw new PreconditionFailedError(
        `the character is at version ${character.version}, not ${expected}: fetch it again and reapply the edit`,
      )
    }
    const sheetAfter =
      body.sheet === undefined
        ? (character.sheet as Record<string, unknown>)
        : sheetWithSettings(principal, mergePatch(character.sheet, body.sheet)).sheet
    const name = body.name ?? character.name
    return recordChange(tx, {
      campaign: principal.campaign,
      character,
      type: 'character.updated',
      actor: actorOf(principal),
      visibility: 'public',
      causationId: null,
      idempotencyKey: null,
      name,
      replay: (sheet) =>
        body.sheet === undefined ? sheet : sheetWithSettings(principal, mergePatch(sheet, body.sheet)).sheet,
      payload: {
        request: body,
        dice: [],
        outcome: null,
        summary: body.reason ? `${name}'s sheet edited: ${body.reason}` : `${name}'s sheet edited`,
        sheetBefore: character.sheet as Record<string, unknown>,
        sheetAfter,
      },
    })
  })
  feed.published(principal.campaign.id)
  return result
}

export async function archiveCharacter({ store, feed }: ServiceContext, principal: Principal, characterId: string) {
  const result = await store.transaction(async (tx) => {
    const character = await lockCharacter(tx, principal, characterId)
    return recordChange(tx, {
      campaign: principal.campaign,
      character,
      type: 'character.archived',
      actor: actorOf(principal),
      visibility: 'public',
      causationId: null,
      idempotencyKey: null,
      archivedAt: new Date(),
      replay: (sheet) => sheet,
      payload: {
        request: null,
        dice: [],
        outcome: null,
        summary: `${character.name} is archived`,
        sheetBefore: character.sheet as Record<string, unknown>,
        sheetAfter: character.sheet as Record<string, unknown>,
      },
    })
  })
  feed.published(principal.campaign.id)
  return result
}
