import { ConflictError, NotFoundError } from '../errors.js'
import { oddsOf } from '../rules/rule-set.js'
import { ruleSetOfCampaign } from './campaign-rules.js'
import { actionOfCampaign, authorize, onStoredSheet } from './commands.js'
import type { Principal } from '../lib/principal.js'
import type { Store } from '../repositories/index.js'
import { audienceOf } from './public-view.js'

/**
 * The odds of an action on a stored character, read with the key: allowed as performing it is,
 * and nothing is written. A player key gets the odds on the sheet players see — always, and
 * saying so, so that neither the odds nor a change in what the answer says tells of a GM-only roll.
 */
export async function characterOdds(
  { store }: { store: Pick<Store, 'characters'> },
  principal: Principal,
  characterId: string,
  actionName: string,
  body: { request: unknown },
) {
  const action = actionOfCampaign(principal, actionName)
  authorize(principal, action, characterId, 'public')
  const character = await store.characters.find(principal.campaign.id, characterId)
  if (!character) throw new NotFoundError(`character ${characterId} not found`)
  if (character.archivedAt) throw new ConflictError(`character ${characterId} is archived`)
  const players = audienceOf(principal) === 'players'
  const sheet = players ? (character.publicSheet ?? character.sheet) : character.sheet
  const ruleSet = ruleSetOfCampaign(principal)
  // On the players' sheet a refusal tells only what they see, so it is given in full.
  const odds = onStoredSheet(action, false, () =>
    oddsOf(ruleSet, action, { sheet, request: body.request, settings: principal.campaign.settings }),
  )
  return { sheet: players ? 'as players see it' : 'as stored', ...odds }
}
