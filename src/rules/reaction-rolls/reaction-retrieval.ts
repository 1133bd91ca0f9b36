import type { Dice } from '../dice.js'
import { RuleError } from '../errors.js'
import type { Resolution, RuleAction } from '../rule-set.js'
import { RETRIEVAL_DECISION_ACTION } from './reaction-roll.js'
import { applyRetrieval, assertRetrievalChoice, describeRetrieval } from './retrieval.js'
import {
  ReactionRetrievalOutcomeSchema,
  ReactionRetrievalRequestSchema,
  type ReactionRetrievalOutcome,
  type ReactionRollsSettings,
  type ReactionRollsSheet,
} from './schemas.js'
import { assertSheetFitsSettings } from './sheet.js'
import { parseWith } from '../parse.js'
import { capitalise } from './words.js'

function resolveReactionRetrieval(
  sheet: ReactionRollsSheet,
  input: unknown,
  _dice: Dice,
  settings: ReactionRollsSettings,
): Resolution<ReactionRollsSheet> {
  const request = parseWith(ReactionRetrievalRequestSchema, input, '/request', 'REQUEST_INVALID')
  assertSheetFitsSettings(sheet, settings)
  const pending = sheet.pendingRetrieval
  if (pending === null) {
    throw new RuleError(
      'NO_RETRIEVAL_PENDING',
      'no retrievable reaction roll is pending on this sheet: there is nothing to raise an emotion for or decline',
      'conflict',
      '/sheet/pendingRetrieval',
    )
  }
  assertRetrievalChoice(request, sheet, settings, '/request')
  const settled = applyRetrieval(sheet, pending.ability, request, settings)
  const outcome: ReactionRetrievalOutcome = {
    ability: pending.ability,
    dice: pending.dice,
    pressure: pending.pressure,
    result: pending.result,
    retrieval: settled.retrieval,
    verdict: settled.verdict,
  }
  return {
    sheet: settled.sheet,
    outcome,
    summary: `${capitalise(pending.ability)} ${pending.dice} result ${pending.result} vs pressure ${pending.pressure}, retrieval: ${describeRetrieval(pending.ability, settled.retrieval)}`,
  }
}

export const reactionRetrievalAction: RuleAction<ReactionRollsSheet, unknown, ReactionRollsSettings> = {
  name: RETRIEVAL_DECISION_ACTION,
  actor: 'player',
  kind: 'decision',
  title: 'retrieval',
  summary: 'Settle a retrievable reaction roll',
  description:
    "The player decides a reaction roll that landed in the retrievable band: `raise` one emotion by one stage (it must be below the campaign's top stage) to turn the roll into a success and mark one XP on the rolled ability unless it is maxed-out, crippled or its track is full; or `decline` and the roll fails.",
  request: ReactionRetrievalRequestSchema,
  outcome: ReactionRetrievalOutcomeSchema,
  exampleSheet: { pendingRetrieval: { ability: 'agility', dice: 'd6', pressure: 4, result: 3 } },
  resolve: resolveReactionRetrieval,
}
