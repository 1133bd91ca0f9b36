import { flipFlop, readD100 } from '../d100.js'
import type { Dice } from '../dice.js'
import { RuleError } from '../errors.js'
import type { RuleAction } from '../rule-set.js'
import { BURN_OUT_TOTAL, titleOf, type Passion } from './constants.js'
import { describeTier, isSuccess, tierOf } from './defence-roll.js'
import { PassionChangeOutcomeSchema, type PassionChangeOutcome } from './outcomes.js'
import {
  PassionFlipFlopRequestSchema,
  PassionRerollRequestSchema,
  type PassionFlipFlopRequest,
  type PassionRerollRequest,
} from './requests.js'
import type { LastCheck, ShockMetersSheet } from './sheet-schema.js'
import { applyResult, CHECK_ACTIONS, checkOutcome, summarizeCheck, undoResult } from './stress-check.js'
import { parseWith } from '../parse.js'

export type Change = 'passion-reroll' | 'passion-flip-flop'

/** Passions change only the latest rolled check, once, and never while burned out. */
export function requireChangeable(
  sheet: ShockMetersSheet,
  requested: Passion | undefined,
  change: Change,
): { check: LastCheck; passion: Passion } {
  const check = sheet.lastCheck
  if (check === null) {
    throw new RuleError('NO_STRESS_CHECK', 'there is no stress check to change yet', 'conflict', '/sheet/lastCheck')
  }
  const passion = requested ?? check.passion
  if (passion === null) {
    throw new RuleError(
      'NO_PASSION_IN_PLAY',
      'request/passion: name the passion in play (the stress check did not name one)',
      'invalid',
      '/request/passion',
    )
  }
  if (sheet.passions[passion] === null) {
    throw new RuleError(
      'UNKNOWN_PASSION',
      `request/passion: the sheet has no ${passion} passion`,
      'invalid',
      '/request/passion',
    )
  }
  if (sheet.burnedOut) {
    throw new RuleError(
      'BURNED_OUT',
      `the character is burned out (${sheet.totalHardened} hardened notches${sheet.totalHardened >= BURN_OUT_TOTAL ? '' : ', two meters fully hardened'}): passions cannot re-roll or flip-flop until therapy brings the gauge back under the limits`,
      'invalid',
      '/sheet/burnedOut',
    )
  }
  if (change === 'passion-flip-flop' && sheet.passions[passion]?.flipFlopUsed === true) {
    throw new RuleError(
      'FLIP_FLOP_USED',
      `the ${passion} passion has already flip-flopped a roll this session (the GM's new-session resets it)`,
      'conflict',
      `/sheet/passions/${passion}/flipFlopUsed`,
    )
  }
  if (check.closed) {
    throw new RuleError(
      'CHECK_CLOSED',
      'the latest stress check belongs to a finished session or treatment and can no longer be changed',
      'conflict',
      '/sheet/lastCheck/closed',
    )
  }
  if (
    check.result === 'avoided' ||
    check.result === 'automatic-failure' ||
    check.face === null ||
    check.defence === null
  ) {
    throw new RuleError(
      'CHECK_NOT_ROLLED',
      `the latest stress check was ${check.result === 'avoided' ? 'avoided' : 'an automatic failure'}: there is no roll to change`,
      'conflict',
      '/sheet/lastCheck/result',
    )
  }
  if (check.changedBy !== null) {
    throw new RuleError(
      'CHECK_ALREADY_CHANGED',
      `the latest stress check was already changed by a ${check.changedBy.action === 'passion-reroll' ? 're-roll' : 'flip-flop'} (${check.changedBy.passion})`,
      'conflict',
      '/sheet/lastCheck/changedBy',
    )
  }
  if (check.therapy !== null) {
    throw new RuleError(
      'CHECK_TREATED',
      'a therapist has already acted on the latest stress check',
      'conflict',
      '/sheet/lastCheck/therapy',
    )
  }
  return { check, passion }
}

/** The request read and the check it may change: what a change and its odds both start from. */
export function readChange(sheet: ShockMetersSheet, request: unknown, change: Change) {
  const schema = change === 'passion-reroll' ? PassionRerollRequestSchema : PassionFlipFlopRequestSchema
  // Both requests have the same shape: an optional passion.
  const parsed: PassionRerollRequest = parseWith(schema, request, '/request', 'REQUEST_INVALID')
  return requireChangeable(sheet, parsed.passion, change)
}

function replaceRoll(sheet: ShockMetersSheet, check: LastCheck, passion: Passion, change: Change, face: number) {
  const rating = (check.defence as NonNullable<LastCheck['defence']>).rating
  const originalFace = check.face as number
  const originalTier = check.tier as NonNullable<LastCheck['tier']>
  const tier = tierOf(face, rating)
  const undone = undoResult(sheet, check)
  const effects = applyResult(undone.sheet, check, isSuccess(tier), undone.keep)
  const lastCheck: LastCheck = {
    ...check,
    result: isSuccess(tier) ? 'passed' : 'failed',
    face,
    tier,
    marked: effects.marked,
    setStressed: effects.setStressed,
    trauma: effects.trauma,
    changedBy: { action: change, passion, originalFace, originalTier },
  }
  const passions =
    change === 'passion-flip-flop'
      ? { ...effects.sheet.passions, [passion]: { ...effects.sheet.passions[passion]!, flipFlopUsed: true } }
      : effects.sheet.passions
  const after = { ...effects.sheet, passions, lastCheck }
  const checkResult = checkOutcome(undone.sheet, after, lastCheck, effects.disorder)
  const outcome: PassionChangeOutcome = {
    action: change,
    passion,
    originalFace,
    originalTier,
    undone: { marked: check.marked, setStressed: check.setStressed, trauma: check.trauma },
    check: checkResult,
  }
  const verb = change === 'passion-reroll' ? 're-rolled' : 'flip-flopped'
  const summary = `${titleOf(passion)} passion ${verb} ${readD100(originalFace)} (${describeTier(originalTier)}) → ${summarizeCheck(checkResult, undone.sheet)}`
  return { sheet: after, outcome, summary }
}

export const passionRerollAction: RuleAction<ShockMetersSheet, PassionRerollRequest> = {
  name: 'passion-reroll',
  actor: 'player',
  kind: 'roll',
  title: 'passion re-roll',
  amends: CHECK_ACTIONS,
  summary: 'Re-roll the latest stress check with a passion',
  description:
    'With a passion in play, roll the latest stress check again: the new d100 replaces the old one and its effects (notch, stressed state, trauma). Only a rolled check, once, and not while burned out.',
  request: PassionRerollRequestSchema,
  outcome: PassionChangeOutcomeSchema,
  resolve(sheet, request, dice: Dice) {
    const { check, passion } = readChange(sheet, request, 'passion-reroll')
    return replaceRoll(sheet, check, passion, 'passion-reroll', dice.roll(100, 'reroll'))
  },
}

export const passionFlipFlopAction: RuleAction<ShockMetersSheet, PassionFlipFlopRequest> = {
  name: 'passion-flip-flop',
  actor: 'player',
  kind: 'roll',
  title: 'passion flip-flop',
  amends: CHECK_ACTIONS,
  summary: 'Flip-flop the latest stress check with a passion',
  description:
    'With a passion in play, swap the two digits of the latest stress check’s roll (73 → 37); the swapped roll replaces the old one and its effects. Each passion flip-flops once per session; not while burned out. No die is rolled.',
  request: PassionFlipFlopRequestSchema,
  outcome: PassionChangeOutcomeSchema,
  resolve(sheet, request) {
    const { check, passion } = readChange(sheet, request, 'passion-flip-flop')
    return replaceRoll(sheet, check, passion, 'passion-flip-flop', flipFlop(check.face as number))
  },
}
