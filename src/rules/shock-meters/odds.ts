import { flipFlop, readD100 } from '../d100.js'
import { createDice } from '../dice.js'
import { RuleError } from '../errors.js'
import { fraction, plus, probability, sum, ZERO, ONE, type Fraction, type Probability } from '../fraction.js'
import type { ActionOdds } from '../rule-set.js'
import { Passions, Tiers, titleOf, type Tier } from './constants.js'
import { describeTier, isSuccess, tierOf } from './defence-roll.js'
import {
  PassionFlipFlopOddsSchema,
  PassionRerollOddsSchema,
  StressCheckOddsSchema,
  TherapyAssistanceOddsSchema,
  type ChangeOdds,
  type CheckOdds,
  type CheckOutcome,
  type PassionFlipFlopOdds,
  type PassionOdds,
  type PassionRerollOdds,
  type StressCheckOdds,
  type TherapyAssistanceOdds,
} from './odds-schemas.js'
import { readChange, requireChangeable, type Change } from './passions.js'
import { requireNothingPending } from './pending.js'
import type { LastCheck, ShockMetersSheet } from './sheet-schema.js'
import {
  marksFifthNotch,
  prepareCheck,
  readStressCheck,
  runStressCheck,
  undoResult,
  type CheckInput,
} from './stress-check.js'
import {
  assistanceEffect,
  droppedRating,
  fumbleSelfCheck,
  readAssistance,
  treatedSheet,
  type AssistanceEffect,
} from './therapy.js'

const D100_FACES = Array.from({ length: 100 }, (_, index) => index + 1)
const TIERS_BEST_FIRST: readonly Tier[] = [...Tiers].reverse()
const CHECK_OUTCOMES: readonly CheckOutcome[] = ['avoided', 'automatic-failure', ...TIERS_BEST_FIRST]
const EFFECTS: readonly AssistanceEffect[] = [
  'notch-erased',
  'notch-hardened',
  'declined',
  'none',
  'relationship-drop',
  'self-check',
]
/** "00" fumbles against any rating: the face that certainly fails the defence roll. */
const FUMBLE = 100

const PASSING: readonly Tier[] = Tiers.filter(isSuccess)
const FAILING: readonly Tier[] = Tiers.filter((tier) => !isSuccess(tier))
const passes = (tier: Tier) => PASSING.includes(tier)

type Chances<Key extends string> = Record<Key, Fraction>

/**
 * Counts that depend on nothing but the rating (0–99) are made once per rating and kept: they
 * are the same for every sheet, and callers only read them.
 */
function perRating<Counted>(count: (rating: number) => Counted): (rating: number) => Counted {
  const known = new Map<number, Counted>()
  return (rating) => {
    let counted = known.get(rating)
    if (counted === undefined) {
      counted = count(rating)
      known.set(rating, counted)
    }
    return counted
  }
}

function none<Key extends string>(keys: readonly Key[]): Chances<Key> {
  return Object.fromEntries(keys.map((key) => [key, ZERO])) as Chances<Key>
}

/** How many of the d100's hundred faces give each tier against a rating (01 critical, 00 fumble, doubles matched). */
const tierCounts = perRating((rating): Readonly<Record<Tier, number>> => {
  const counts = Object.fromEntries(Tiers.map((tier) => [tier, 0])) as Record<Tier, number>
  for (const face of D100_FACES) counts[tierOf(face, rating)]++
  return counts
})

function tierChances(counts: Readonly<Record<Tier, number>>): Chances<Tier> {
  return Object.fromEntries(Tiers.map((tier) => [tier, fraction(counts[tier], D100_FACES.length)])) as Chances<Tier>
}

/** The chance of each tier of one d100 against a rating. */
const d100Chances = perRating((rating) => tierChances(tierCounts(rating)))

/** Each key with its chance, in the order given, as `entry` names it. */
const listed = <Key extends string, Entry>(
  keys: readonly Key[],
  chances: Chances<Key>,
  entry: (key: Key, chance: Probability) => Entry,
) => keys.map((key) => entry(key, probability(chances[key])))

/** Pass, fail and the fifth failed notch, from the chance of each tier and of an automatic failure. */
function notches(tiers: Chances<Tier>, automatic: Fraction, failedBefore: number) {
  const pass = sum(PASSING.map((tier) => tiers[tier]))
  const rolledFail = sum(FAILING.map((tier) => tiers[tier]))
  return {
    pass: probability(pass),
    fail: probability(plus(automatic, rolledFail)),
    // Only a roll marks a new notch: at five already, an automatic failure marks none.
    fifthFailedNotch: probability(marksFifthNotch(failedBefore) ? rolledFail : ZERO),
  }
}

function changeOdds(tiers: Chances<Tier>, failedBefore: number): ChangeOdds {
  const { pass, fail, fifthFailedNotch } = notches(tiers, ZERO, failedBefore)
  return {
    outcomes: listed(TIERS_BEST_FIRST, tiers, (tier, chance) => ({ tier, probability: chance })),
    pass,
    fail,
    fifthFailedNotch,
  }
}

/** One check, as `runStressCheck` makes it: avoided, failed without a roll, or the tiers of a d100 against the defence. */
function checkOdds(sheet: ShockMetersSheet, input: CheckInput): CheckOdds {
  const { defence, avoidedBecause, automatic } = prepareCheck(sheet, input)
  const rolled = avoidedBecause === null && !automatic
  const chances = { ...none(CHECK_OUTCOMES), ...(rolled ? d100Chances(defence.rating) : {}) }
  if (avoidedBecause !== null) chances.avoided = ONE
  if (automatic) chances['automatic-failure'] = ONE
  const { pass, fail, fifthFailedNotch } = notches(
    chances,
    chances['automatic-failure'],
    sheet.meters[input.meter].failed,
  )
  return {
    meter: input.meter,
    rank: input.rank,
    avoidedBecause,
    automaticFailure: automatic,
    defence: rolled ? defence : null,
    outcomes: listed(CHECK_OUTCOMES, chances, (outcome, chance) => ({ outcome, probability: chance })),
    pass,
    fail,
    fifthFailedNotch,
  }
}

/** Re-roll whenever the first roll fails: its passes stand, and each failure is a fresh d100. */
const afterReroll = perRating((rating): Chances<Tier> => {
  const counts = tierCounts(rating)
  const failing = FAILING.reduce((total, tier) => total + counts[tier], 0)
  const pairs = D100_FACES.length * D100_FACES.length
  return Object.fromEntries(
    Tiers.map((tier) => [
      tier,
      fraction((passes(tier) ? counts[tier] * D100_FACES.length : 0) + failing * counts[tier], pairs),
    ]),
  ) as Chances<Tier>
})

/** Flip-flop whenever the swapped digits pass where the roll failed; any other roll stands. */
const afterFlipFlop = perRating((rating): Chances<Tier> => {
  const counts = Object.fromEntries(Tiers.map((tier) => [tier, 0])) as Record<Tier, number>
  for (const face of D100_FACES) {
    const rolled = tierOf(face, rating)
    const swapped = tierOf(flipFlop(face), rating)
    counts[!passes(rolled) && passes(swapped) ? swapped : rolled]++
  }
  return tierChances(counts)
})

/** Whether the passion rules allow a change on this sheet: their own refusal, in their words, or null. */
function refusal(sheet: ShockMetersSheet, passion: (typeof Passions)[number], change: Change): string | null {
  try {
    requireChangeable(sheet, passion, change)
    return null
  } catch (error) {
    if (error instanceof RuleError) return error.message
    throw error
  }
}

function passionOdds(sheet: ShockMetersSheet, input: CheckInput, check: CheckOdds): PassionOdds[] {
  // The sheet a failed roll would leave (00 fails against any rating), so that the passion
  // rules themselves say whether they would then allow a re-roll or a flip-flop.
  const afterFailure = runStressCheck(sheet, input, createDice({ source: 'provided', faces: [FUMBLE] })).sheet
  const failedBefore = sheet.meters[input.meter].failed
  // The same for every passion that may use it: counted once, when one may.
  const once = (count: () => Chances<Tier>) => {
    let odds: ChangeOdds | undefined
    return () => (odds ??= changeOdds(count(), failedBefore))
  }
  const rerolled = once(() => afterReroll(check.defence!.rating))
  const flipped = once(() => afterFlipFlop(check.defence!.rating))
  const use = (passion: (typeof Passions)[number], change: Change, odds: () => ChangeOdds) => {
    const because = refusal(afterFailure, passion, change)
    return { usable: because === null, because, odds: because === null ? odds() : null }
  }
  return Passions.filter((passion) => sheet.passions[passion] !== null).map((passion) => ({
    passion,
    named: input.passion === passion,
    reroll: use(passion, 'passion-reroll', rerolled),
    flipFlop: use(passion, 'passion-flip-flop', flipped),
  }))
}

const said = (chance: Probability) => `${chance.fraction} (${chance.percent}%)`

function summarizeCheckOdds(odds: CheckOdds): string {
  const head = `${titleOf(odds.meter)} ${odds.rank}`
  if (odds.avoidedBecause !== null) {
    return `${head}: avoided for certain — ${odds.avoidedBecause === 'hardened' ? 'hardened notches reach the rank' : 'already stressed'}`
  }
  if (odds.automaticFailure) return `${head}: fails for certain without a roll — five failed notches`
  const parts = [`passes ${said(odds.pass)}`, `fails ${said(odds.fail)}`]
  if (odds.fifthFailedNotch.fraction !== '0/1') parts.push(`fifth failed notch ${said(odds.fifthFailedNotch)}`)
  return `${head} vs ${titleOf(odds.defence!.name)} ${odds.defence!.rating}: ${parts.join(', ')}`
}

export const stressCheckOdds: ActionOdds<ShockMetersSheet, unknown, unknown> = {
  schema: StressCheckOddsSchema,
  of(sheet, request): StressCheckOdds {
    const input = readStressCheck(request)
    requireNothingPending(sheet)
    const check = checkOdds(sheet, input)
    const passions = passionOdds(sheet, input, check)
    const usable = passions.filter((entry) => entry.reroll.usable).map((entry) => titleOf(entry.passion))
    const rerolled = passions.find((entry) => entry.reroll.odds !== null)?.reroll.odds
    const reroll =
      rerolled && usable.length > 0
        ? `; with a re-roll on a failure (${usable.join(', ')}), passes ${said(rerolled.pass)}`
        : ''
    return { ...check, passions, summary: `${summarizeCheckOdds(check)}${reroll}` }
  },
}

function rollOf(face: number, rating: number) {
  return { face, reading: readD100(face), tier: tierOf(face, rating) }
}

/** What the meter held before the check being changed marked its notch: the base of the fifth failed notch. */
function failedBeforeCheck(sheet: ShockMetersSheet, check: LastCheck): number {
  return undoResult(sheet, check).sheet.meters[check.meter].failed
}

export const passionRerollOdds: ActionOdds<ShockMetersSheet, unknown, unknown> = {
  schema: PassionRerollOddsSchema,
  of(sheet, request): PassionRerollOdds {
    const { check, passion } = readChange(sheet, request, 'passion-reroll')
    const defence = check.defence!
    const odds = changeOdds(d100Chances(defence.rating), failedBeforeCheck(sheet, check))
    const replaces = rollOf(check.face!, defence.rating)
    return {
      passion,
      defence,
      replaces,
      ...odds,
      summary: `${titleOf(passion)} passion re-rolls ${replaces.reading} (${describeTier(replaces.tier)}) vs ${titleOf(defence.name)} ${defence.rating}: passes ${said(odds.pass)}, fails ${said(odds.fail)}`,
    }
  },
}

export const passionFlipFlopOdds: ActionOdds<ShockMetersSheet, unknown, unknown> = {
  schema: PassionFlipFlopOddsSchema,
  of(sheet, request): PassionFlipFlopOdds {
    const { check, passion } = readChange(sheet, request, 'passion-flip-flop')
    const defence = check.defence!
    const replaces = rollOf(check.face!, defence.rating)
    const flipped = rollOf(flipFlop(check.face!), defence.rating)
    const tiers = { ...none(Tiers), [flipped.tier]: ONE }
    const odds = changeOdds(tiers, failedBeforeCheck(sheet, check))
    return {
      passion,
      defence,
      replaces,
      flipped,
      ...odds,
      summary: `${titleOf(passion)} passion flip-flops ${replaces.reading} → ${flipped.reading} vs ${titleOf(defence.name)} ${defence.rating}: ${describeTier(flipped.tier)} for certain`,
    }
  },
}

export const therapyAssistanceOdds: ActionOdds<ShockMetersSheet, unknown, unknown> = {
  schema: TherapyAssistanceOddsSchema,
  of(sheet, request): TherapyAssistanceOdds {
    const { parsed, check } = readAssistance(sheet, request)
    const tiers = d100Chances(parsed.rating)
    const effects = none(EFFECTS)
    for (const tier of Tiers) {
      const effect = assistanceEffect(tier, parsed, sheet)
      effects[effect] = sum([effects[effect], tiers[tier]])
    }
    const relationship = sheet.relationships.find((entry) => entry.name === parsed.relationship)
    const fallsToZero =
      relationship !== undefined && relationship.rating > 0 && droppedRating(relationship.rating) === 0
    const selfCheck = checkOdds(treatedSheet(sheet, check, 'fumble'), fumbleSelfCheck(parsed))
    const EFFECT_WORDS: Record<AssistanceEffect, string> = {
      'notch-erased': 'notch erased',
      'notch-hardened': 'notch hardened',
      declined: 'declined',
      none: 'no effect',
      'relationship-drop': 'relationship drops',
      'self-check': 'Self check',
    }
    const possible = EFFECTS.filter((effect) => effects[effect].numerator > 0).map(
      (effect) => `${EFFECT_WORDS[effect]} ${said(probability(effects[effect]))}`,
    )
    return {
      identity: parsed.identity,
      rating: parsed.rating,
      meter: check.meter,
      tiers: listed(TIERS_BEST_FIRST, tiers, (tier, chance) => ({ tier, probability: chance })),
      effects: listed(EFFECTS, effects, (effect, chance) => ({ effect, probability: chance })),
      relationshipFallsToZero: probability(fallsToZero ? effects['relationship-drop'] : ZERO),
      selfCheck,
      summary: `Therapy for ${titleOf(check.meter)} by ${parsed.identity} ${parsed.rating}: ${possible.join(', ')}`,
    }
  },
}
