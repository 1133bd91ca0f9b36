import { edgeOf, rollWithEdge, type Dice } from '../dice.js'
import { RuleError } from '../errors.js'
import type { PendingDecision, Resolution, RuleAction } from '../rule-set.js'
import { applyRetrieval, assertRetrievalChoice, describeRetrieval, raisableEmotions } from './retrieval.js'
import {
  ReactionRollOutcomeSchema,
  ReactionRollRequestSchema,
  type Modifier,
  type ReactionRollOutcome,
  type ReactionRollsSettings,
  type ReactionRollsSheet,
} from './schemas.js'
import { assertSheetFitsSettings } from './sheet.js'
import { bandOf, DICE_SIDES, EMOTION_NAMES } from './tables.js'
import { parseWith } from '../parse.js'
import { capitalise, listOr } from './words.js'

export const RETRIEVAL_DECISION_ACTION = 'reaction-retrieval'

/**
 * The request read and checked against the sheet before any die is rolled: what a roll and its
 * odds both start from.
 */
export function readReactionRoll(sheet: ReactionRollsSheet, input: unknown, settings: ReactionRollsSettings) {
  const request = parseWith(ReactionRollRequestSchema, input, '/request', 'REQUEST_INVALID')
  assertSheetFitsSettings(sheet, settings)
  if (sheet.pendingRetrieval !== null) {
    const pending = sheet.pendingRetrieval
    throw new RuleError(
      'RETRIEVAL_PENDING',
      `a retrievable ${pending.ability} roll (result ${pending.result} vs pressure ${pending.pressure}) is still pending: settle it with ${RETRIEVAL_DECISION_ACTION} (raise an emotion or decline) before the next reaction roll`,
      'conflict',
      '/sheet/pendingRetrieval',
    )
  }
  const resist = request.resist ?? true
  const modifiers = request.modifiers ?? []
  assertOneModifierPerSource(modifiers)
  const abilityName = request.ability
  if (abilityName === undefined && resist) {
    throw new RuleError(
      'ABILITY_MISSING',
      '/request/ability is required when the character resists: name the ability whose die is rolled',
      'invalid',
      '/request/ability',
    )
  }
  // Own keys only: a name such as "constructor" must not reach Object.prototype.
  const known =
    abilityName !== undefined && Object.hasOwn(sheet.abilities, abilityName) ? sheet.abilities[abilityName] : undefined
  if (abilityName !== undefined && known === undefined) {
    throw new RuleError(
      'ABILITY_UNKNOWN',
      `/request/ability "${abilityName}" is not on the sheet; its abilities are ${Object.keys(sheet.abilities).join(', ')}`,
      'invalid',
      '/request/ability',
    )
  }
  // Checked before rolling so a policy that cannot be carried out never costs (or re-rolls) a die.
  if (request.retrieve !== undefined) assertRetrievalChoice(request.retrieve, sheet, settings, '/request/retrieve')
  return {
    request,
    resist,
    abilityName,
    ability: known,
    modifiers,
    modifierTotal: modifiers.reduce((total, modifier) => total + modifier.weight, 0),
    edge: edgeOf(request.advantage ?? false, request.disadvantage ?? false),
  }
}

function resolveReactionRoll(
  sheet: ReactionRollsSheet,
  input: unknown,
  dice: Dice,
  settings: ReactionRollsSettings,
): Resolution<ReactionRollsSheet> {
  const { request, resist, abilityName, ability, modifiers, modifierTotal, edge } = readReactionRoll(
    sheet,
    input,
    settings,
  )
  const base = {
    ability: abilityName ?? null,
    dice: ability?.dice ?? null,
    pressure: request.pressure,
    modifiers,
    modifierTotal,
  }

  if (!resist || ability === undefined || abilityName === undefined) {
    const outcome: ReactionRollOutcome = {
      ...base,
      resisted: false,
      edge: 'none',
      faces: [],
      kept: null,
      result: null,
      band: null,
      retrieval: null,
      verdict: 'failure',
    }
    return {
      sheet: structuredClone(sheet),
      outcome,
      summary: `Pressure ${request.pressure}: the player lets the event unfold — failure, no roll`,
    }
  }

  const { faces, kept } = rollWithEdge(dice, DICE_SIDES[ability.dice], edge, 'reaction')
  const result = kept + modifierTotal
  const band = bandOf(request.pressure, result)
  const label = `${capitalise(abilityName)} ${ability.dice}${describeEdge(edge, faces)}${describeModifiers(modifiers)} vs pressure ${request.pressure}`
  const rolled = `${label}: ${modifiers.length > 0 || edge !== 'none' ? `kept ${kept}, result ${result}` : `rolled ${result}`}`
  const rolledOutcome = { ...base, resisted: true, edge, faces, kept, result, band }

  if (band !== 'retrievable') {
    return {
      sheet: structuredClone(sheet),
      outcome: { ...rolledOutcome, retrieval: null, verdict: band } satisfies ReactionRollOutcome,
      summary: `${rolled}, ${band}`,
    }
  }

  if (request.retrieve !== undefined) {
    const settled = applyRetrieval(sheet, abilityName, request.retrieve, settings)
    return {
      sheet: settled.sheet,
      outcome: {
        ...rolledOutcome,
        retrieval: settled.retrieval,
        verdict: settled.verdict,
      } satisfies ReactionRollOutcome,
      summary: `${rolled}, retrievable — ${describeRetrieval(abilityName, settled.retrieval)}`,
    }
  }

  const raisable = raisableEmotions(sheet, settings)
  if (raisable.length === 0) {
    return {
      sheet: structuredClone(sheet),
      outcome: { ...rolledOutcome, retrieval: null, verdict: 'failure' } satisfies ReactionRollOutcome,
      summary: `${rolled}, retrievable — but every emotion is at its top stage, failure`,
    }
  }

  const next = structuredClone(sheet)
  next.pendingRetrieval = { ability: abilityName, dice: ability.dice, pressure: request.pressure, result }
  return {
    sheet: next,
    outcome: { ...rolledOutcome, retrieval: null, verdict: 'pending' } satisfies ReactionRollOutcome,
    summary: `${rolled}, retrievable — waiting for the player to raise an emotion or decline`,
  }
}

/** A retrievable roll waits for the player to raise an emotion or decline. */
export function pendingOf(sheet: ReactionRollsSheet, settings: ReactionRollsSettings): PendingDecision[] {
  const pending = sheet.pendingRetrieval
  if (pending === null) return []
  return [
    {
      action: RETRIEVAL_DECISION_ACTION,
      prompt: `${capitalise(pending.ability)} result ${pending.result} vs pressure ${pending.pressure} is retrievable: raise ${listOr(raisableEmotions(sheet, settings))} by one stage to succeed (and mark ${pending.ability} XP), or decline and fail.`,
    },
  ]
}

function assertOneModifierPerSource(modifiers: readonly Modifier[]): void {
  const seen = new Set<Modifier['source']>()
  modifiers.forEach((modifier, index) => {
    if (seen.has(modifier.source)) {
      throw new RuleError(
        'MODIFIER_SOURCE_REPEATED',
        `/request/modifiers/${index}/source repeats "${modifier.source}": at most one modifier per source (environment, actors, means, condition)`,
        'invalid',
        `/request/modifiers/${index}/source`,
      )
    }
    seen.add(modifier.source)
  })
}

function describeEdge(edge: string, faces: readonly number[]): string {
  return edge === 'none' ? '' : ` with ${edge} (${faces.join(', ')})`
}

function describeModifiers(modifiers: readonly Modifier[]): string {
  return modifiers.map((modifier) => ` ${modifier.weight > 0 ? '+' : ''}${modifier.weight} ${modifier.source}`).join('')
}

export const reactionRollAction: RuleAction<ReactionRollsSheet, unknown, ReactionRollsSettings> = {
  name: 'reaction-roll',
  actor: 'player',
  kind: 'roll',
  title: 'reaction roll',
  summary: 'Roll to withstand an event the GM narrates',
  description:
    "The GM calls for a reaction roll with an ability and a pressure (4, 6 or 8). The ability's die is rolled — two dice keeping the higher with advantage or the lower with disadvantage — and one context modifier per source is added. " +
    'A result of half the pressure or less fails, the pressure or more succeeds, anything between is retrievable: raise one emotion (' +
    EMOTION_NAMES.join(', ') +
    ') by one stage to succeed and mark one XP on the ability, or decline and fail. Send `retrieve` to decide up front; otherwise the roll stays pending until `reaction-retrieval`. ' +
    'With `resist: false` the player lets the event unfold: a failure without a roll.',
  request: ReactionRollRequestSchema,
  outcome: ReactionRollOutcomeSchema,
  resolve: resolveReactionRoll,
}
