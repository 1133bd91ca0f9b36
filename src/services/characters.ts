import { InvalidFieldError, NotFoundError, PreconditionFailedError } from '../errors.js'
import { BUILT_IN } from '../history/event-types.js'
import { newId } from '../lib/ids.js'
import { mergePatch } from '../lib/merge-patch.js'
import type { CreateCharacter, PatchCharacter } from '../schemas/characters.js'
import { sheetWithSettings } from './campaign-rules.js'
import type { Principal } from '../lib/principal.js'
import type { Store } from '../repositories/index.js'
import { pageOf, pageSize } from '../lib/pagination.js'
import { loadCharacter, type Command } from './pipeline.js'
import { audienceOf } from './public-view.js'
import { characterView } from '../schemas/characters.js'

/** A body may name the campaign's rule set (a typed client does), never another one. */
function checkRuleSet(principal: Principal, body: { ruleset?: string | undefined }): void {
  if (body.ruleset !== undefined && body.ruleset !== principal.campaign.ruleset) {
    throw new InvalidFieldError(
      '/body/ruleset',
      `this campaign plays ${principal.campaign.ruleset}, not ${body.ruleset}: its characters’ sheets are ${principal.campaign.ruleset} sheets`,
    )
  }
}

/** Adds a character: its sheet validated against the campaign's rule set, defaults filled in. */
export function createCommand(principal: Principal, body: CreateCharacter): Command {
  checkRuleSet(principal, body)
  return {
    load() {
      const { sheet } = sheetWithSettings(principal, body.sheet ?? {})
      // Version 0: not stored yet. Recording its `character.created` event inserts it at version 1.
      return { character: { id: newId(), name: body.name, sheet, publicSheet: null, version: 0, archivedAt: null } }
    },
    decide: (_repositories, { character }) => ({
      type: BUILT_IN.created.type,
      payload: {
        request: body,
        dice: [],
        outcome: null,
        summary: `${body.name} joins the campaign`,
        sheetBefore: null,
        sheetAfter: character.sheet as Record<string, unknown>,
      },
    }),
  }
}

export async function getCharacter(
  { store }: { store: Pick<Store, 'characters'> },
  principal: Principal,
  characterId: string,
) {
  const character = await store.characters.find(principal.campaign.id, characterId)
  if (!character) throw new NotFoundError(`character ${characterId} not found`)
  return characterView(character, principal.campaign, audienceOf(principal))
}

export async function listCharacters(
  { store }: { store: Pick<Store, 'characters'> },
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
function expectedVersion(ifMatch: string | undefined): number | undefined {
  if (ifMatch === undefined || ifMatch.trim() === '*') return undefined
  const match = ifMatch.trim().match(/^(?:W\/)?"?(\d+)"?$/)
  if (!match) throw new PreconditionFailedError(`If-Match must be a version ETag such as "3", got ${ifMatch}`)
  return Number(match[1])
}

/** A GM's edit: a new name and/or a JSON merge patch of the sheet, refused when `If-Match` names another version. */
export function patchCommand(
  principal: Principal,
  characterId: string,
  body: PatchCharacter,
  ifMatch: string | undefined,
): Command {
  checkRuleSet(principal, body)
  const expected = expectedVersion(ifMatch)
  return {
    load: async (repositories) => ({ character: await loadCharacter(repositories, principal, characterId) }),
    decide(_repositories, { character }) {
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
      return {
        type: BUILT_IN.updated.type,
        name,
        replay: (sheet) => ({
          sheet: body.sheet === undefined ? sheet : sheetWithSettings(principal, mergePatch(sheet, body.sheet)).sheet,
        }),
        payload: {
          request: body,
          dice: [],
          outcome: null,
          summary: body.reason ? `${name}'s sheet edited: ${body.reason}` : `${name}'s sheet edited`,
          sheetBefore: character.sheet as Record<string, unknown>,
          sheetAfter,
        },
      }
    },
  }
}

/** Takes the character out of play; its history stays, and a revert brings it back. */
export function archiveCommand(principal: Principal, characterId: string): Command {
  return {
    load: async (repositories) => ({ character: await loadCharacter(repositories, principal, characterId) }),
    decide: (_repositories, { character }) => ({
      type: BUILT_IN.archived.type,
      archivedAt: new Date(),
      replay: (sheet) => ({ sheet }),
      payload: {
        request: null,
        dice: [],
        outcome: null,
        summary: `${character.name} is archived`,
        sheetBefore: character.sheet as Record<string, unknown>,
        sheetAfter: character.sheet as Record<string, unknown>,
      },
    }),
  }
}
