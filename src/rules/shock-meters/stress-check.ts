import { readD100 } from '../d100.js'
import type { Dice } from '../dice.js'
import { namedOnSheet, RuleError } from '../errors.js'
import type { RuleAction } from '../rule-set.js'
import {
  FallbackAbility,
  MAX_FAILED,
  MAX_HARDENED,
  titleOf,
  type Meter,
  type Passion,
  type Response,
  type Tier,
} from './constants.js'
import { describeTier, isSuccess, tierOf } from './defence-roll.js'
import { StressCheckOutcomeSchema, type StressCheckOutcome } from './outcomes.js'
import { requireNothingPending } from './pending.js'
import { StressCheckRequestSchema, type StressCheckRequest } from './requests.js'
import { derive, withMeter } from './sheet.js'
import type { Defence, Disorder, LastCheck, ShockMetersSheet, Stressed } from './sheet-schema.js'
import { requireTriggerFits } from './triggers.js'
import { parseWith } from '../parse.js'

export interface CheckInput {
  meter: Meter
  rank: number
  trigger: string | null
  identity: string | null
  passion: Passion | null
  response: Response | null
  disorder: string | null
  cause: string | null
}

/**
 * Only identities that resist shock to the meter defend it, even when lower than the ability;
 * otherwise the meter's fallback ability itself is used (an identity substituting for it won't do).
 */
function chooseDefence(sheet: ShockMetersSheet, meter: Meter, identityName: string | null): Defence {
  const resists = (features: ShockMetersSheet['identities'][number]['features']) =>
    features.some((feature) => feature.type === 'resists-shock' && feature.meter === meter)
  if (identityName !== null) {
    const identity = namedOnSheet(sheet.identities, 'identity', identityName, 'UNKNOWN_IDENTITY')
    if (!resists(identity.features)) {
      throw new RuleError(
        'IDENTITY_CANNOT_DEFEND',
        `request/identity "${identityName}" has no Resists Shock feature for ${meter}; only such identities defend stress checks (substitutes never do)`,
        'invalid',
        '/request/identity',
      )
    }
    return { kind: 'identity', name: identity.name, rating: identity.rating }
  }
  const best = sheet.identities
    .filter((identity) => resists(identity.features))
    .reduce<ShockMetersSheet['identities'][number] | undefined>(
      (highest, identity) => (highest === undefined || identity.rating > highest.rating ? identity : highest),
      undefined,
    )
  if (best !== undefined) return { kind: 'identity', name: best.name, rating: best.rating }
  const ability = FallbackAbility[meter]
  return { kind: 'ability', name: ability, rating: sheet.abilities[ability] }
}

/** A failed notch marked on a meter that holds four is the fifth: mental trauma and a disorder. */
export function marksFifthNotch(failedBefore: number): boolean {
  return failedBefore === MAX_FAILED - 1
}

interface Effects {
  sheet: ShockMetersSheet
  marked: LastCheck['marked']
  setStressed: boolean
  trauma: boolean
  disorder: Disorder | null
}

/**
 * Pass: mark a hardened notch. Fail: mark a failed notch and become stressed; the fifth failed
 * notch brings mental trauma and a disorder. `keep` carries a response or disorder name already
 * settled for this check, so replacing its roll does not ask the same question twice.
 */
export function applyResult(
  sheet: ShockMetersSheet,
  check: Pick<LastCheck, 'meter' | 'number' | 'cause' | 'response' | 'disorder'>,
  passed: boolean,
  keep: { response: Response | null; disorder: string | null } = { response: null, disorder: null },
): Effects {
  const gauge = sheet.meters[check.meter]
  if (passed) {
    const hardened = Math.min(MAX_HARDENED, gauge.hardened + 1)
    return {
      sheet: derive(withMeter(sheet, check.meter, { ...gauge, hardened })),
      marked: hardened > gauge.hardened ? 'hardened' : 'none',
      setStressed: false,
      trauma: false,
      disorder: null,
    }
  }
  const failed = Math.min(MAX_FAILED, gauge.failed + 1)
  const trauma = marksFifthNotch(gauge.failed)
  const stressed: Stressed = {
    meter: check.meter,
    response: keep.response ?? check.response ?? 'pending',
    cause: check.cause,
  }
  const disorder: Disorder | null = trauma
    ? { name: keep.disorder ?? check.disorder, meter: check.meter, cause: check.cause, check: check.number }
    : null
  const next = withMeter(sheet, check.meter, { ...gauge, failed })
  return {
    sheet: derive({ ...next, stressed, disorders: disorder === null ? next.disorders : [...next.disorders, disorder] }),
    marked: failed > gauge.failed ? 'failed' : 'none',
    setStressed: true,
    trauma,
    disorder,
  }
}

/** Takes back what the latest check did to the sheet, returning what had been settled for it. */
export function undoResult(
  sheet: ShockMetersSheet,
  check: LastCheck,
): { sheet: ShockMetersSheet; keep: { response: Response | null; disorder: string | null } } {
  const gauge = sheet.meters[check.meter]
  const next = withMeter(sheet, check.meter, {
    hardened: check.marked === 'hardened' ? Math.max(0, gauge.hardened - 1) : gauge.hardened,
    failed: check.marked === 'failed' ? Math.max(0, gauge.failed - 1) : gauge.failed,
  })
  const ownStressed = check.setStressed && next.stressed?.meter === check.meter ? next.stressed : null
  const ownDisorder = check.trauma ? next.disorders.find((disorder) => disorder.check === check.number) : undefined
  return {
    sheet: derive({
      ...next,
      stressed: ownStressed === null ? next.stressed : null,
      disorders: next.disorders.filter((disorder) => disorder !== ownDisorder),
    }),
    keep: {
      response: ownStressed !== null && ownStressed.response !== 'pending' ? ownStressed.response : null,
      disorder: ownDisorder?.name ?? null,
    },
  }
}

export interface CheckResolution {
  sheet: ShockMetersSheet
  outcome: StressCheckOutcome
  summary: string
}

/** What a check faces before any die is rolled. */
export interface PreparedCheck {
  /** The trigger's catalogue id (an alias is recorded as the id it names). */
  trigger: string | null
  defence: Defence
  /** Avoidance comes first: hardened notches at the rank, then an earlier check still in flight. */
  avoidedBecause: 'hardened' | 'stressed' | null
  /** Broken: five failed notches fail the check without a roll, once it is not avoided. */
  automatic: boolean
}

/** The checks of the request against the sheet, and the order of avoidance (hardened, stressed, broken). */
export function prepareCheck(sheet: ShockMetersSheet, input: CheckInput): PreparedCheck {
  const trigger = input.trigger === null ? null : requireTriggerFits(input.trigger, input.meter, input.rank).id
  if (input.passion !== null && sheet.passions[input.passion] === null) {
    throw new RuleError(
      'UNKNOWN_PASSION',
      `request/passion: the sheet has no ${input.passion} passion`,
      'invalid',
      '/request/passion',
    )
  }
  const defence = chooseDefence(sheet, input.meter, input.identity)
  const gauge = sheet.meters[input.meter]
  const avoidedBecause = gauge.hardened >= input.rank ? 'hardened' : sheet.stressed !== null ? 'stressed' : null
  return { trigger, defence, avoidedBecause, automatic: avoidedBecause === null && gauge.failed >= MAX_FAILED }
}

/** Avoidance first (hardened, then stressed, then broken), and only then the defence roll. */
export function runStressCheck(sheet: ShockMetersSheet, input: CheckInput, dice: Dice): CheckResolution {
  const { trigger, defence, avoidedBecause, automatic } = prepareCheck(sheet, input)
  const number = sheet.stressChecks + 1
  const asked: AskedCheck = {
    number,
    meter: input.meter,
    rank: input.rank,
    trigger,
    cause: input.cause,
    passion: input.passion,
    response: input.response,
    disorder: input.disorder,
  }
  const counted = { ...sheet, stressChecks: number }

  if (avoidedBecause !== null) {
    const lastCheck = recordCheck(asked, {
      result: 'avoided',
      avoidedBecause,
      defence: null,
      face: null,
      tier: null,
      marked: 'none',
      setStressed: false,
      trauma: false,
    })
    const outcome = checkOutcome(sheet, { ...counted, lastCheck }, lastCheck, null)
    return { sheet: { ...counted, lastCheck }, outcome, summary: summarizeCheck(outcome, sheet) }
  }

  const face = automatic ? null : dice.roll(100, 'defence')
  const tier = face === null ? null : tierOf(face, defence.rating)
  const effects = applyResult(counted, asked, tier !== null && isSuccess(tier))
  const lastCheck = recordCheck(asked, {
    result: automatic ? 'automatic-failure' : tier !== null && isSuccess(tier) ? 'passed' : 'failed',
    avoidedBecause: null,
    defence: automatic ? null : defence,
    face,
    tier,
    marked: effects.marked,
    setStressed: effects.setStressed,
    trauma: effects.trauma,
  })
  const after = { ...effects.sheet, lastCheck }
  const outcome = checkOutcome(sheet, after, lastCheck, effects.disorder)
  return { sheet: after, outcome, summary: summarizeCheck(outcome, sheet) }
}

/** What a check was asked to do, before it is rolled. */
type AskedCheck = Pick<
  LastCheck,
  'number' | 'meter' | 'rank' | 'trigger' | 'cause' | 'passion' | 'response' | 'disorder'
>

/**
 * A new check's record, nothing yet changed by a passion or therapy. Written out field by field:
 * adding fields to a spread copy (`{ ...asked, result }`) makes V8 build a new hidden class for
 * every field of every check, which cost more than the rest of the roll.
 */
function recordCheck(
  asked: AskedCheck,
  done: Pick<
    LastCheck,
    'result' | 'avoidedBecause' | 'defence' | 'face' | 'tier' | 'marked' | 'setStressed' | 'trauma'
  >,
): LastCheck {
  return {
    number: asked.number,
    meter: asked.meter,
    rank: asked.rank,
    trigger: asked.trigger,
    cause: asked.cause,
    passion: asked.passion,
    response: asked.response,
    disorder: asked.disorder,
    changedBy: null,
    therapy: null,
    closed: false,
    result: done.result,
    avoidedBecause: done.avoidedBecause,
    defence: done.defence,
    face: done.face,
    tier: done.tier,
    marked: done.marked,
    setStressed: done.setStressed,
    trauma: done.trauma,
  }
}

export function checkOutcome(
  before: ShockMetersSheet,
  after: ShockMetersSheet,
  check: LastCheck,
  disorder: Disorder | null,
): StressCheckOutcome {
  return {
    meter: check.meter,
    rank: check.rank,
    trigger: check.trigger,
    result: check.result,
    avoidedBecause: check.avoidedBecause,
    defence: check.defence,
    face: check.face,
    reading: check.face === null ? null : readD100(check.face),
    tier: check.tier,
    hardened: { before: before.meters[check.meter].hardened, after: after.meters[check.meter].hardened },
    failed: { before: before.meters[check.meter].failed, after: after.meters[check.meter].failed },
    stressed: check.setStressed ? after.stressed : null,
    trauma: check.trauma,
    disorder,
    burnedOut: after.burnedOut,
  }
}

/** e.g. "Violence 4 vs Fitness 45: rolled 33, success — hardened 2 → 3". */
export function summarizeCheck(outcome: StressCheckOutcome, before: ShockMetersSheet): string {
  const head = `${titleOf(outcome.meter)} ${outcome.rank}`
  if (outcome.result === 'avoided') {
    return outcome.avoidedBecause === 'hardened'
      ? `${head}: avoided — hardened ${outcome.hardened.before} ≥ rank ${outcome.rank}`
      : `${head}: avoided — already stressed (${titleOf(before.stressed?.meter ?? outcome.meter)})`
  }
  const parts: string[] = []
  if (outcome.hardened.after !== outcome.hardened.before)
    parts.push(`hardened ${outcome.hardened.before} → ${outcome.hardened.after}`)
  if (outcome.failed.after !== outcome.failed.before)
    parts.push(`failed ${outcome.failed.before} → ${outcome.failed.after}`)
  if (outcome.result === 'passed' && parts.length === 0) parts.push(`hardened stays ${outcome.hardened.after} (full)`)
  if (outcome.stressed !== null)
    parts.push(`stressed (${outcome.stressed.response === 'pending' ? 'response pending' : outcome.stressed.response})`)
  if (outcome.trauma) parts.push(`mental trauma: ${outcome.disorder?.name ?? 'disorder pending'}`)
  if (outcome.burnedOut && !before.burnedOut) parts.push('burned out')
  if (outcome.result === 'automatic-failure') {
    return `${head}: automatic failure — ${outcome.failed.before} failed notches, no roll; ${parts.join('; ')}`
  }
  const defence = outcome.defence
  const against = defence === null ? '' : ` vs ${titleOf(defence.name)} ${defence.rating}`
  return `${head}${against}: rolled ${outcome.reading}, ${describeTier(outcome.tier as Tier)} — ${parts.join('; ')}`
}

export function readStressCheck(request: unknown): CheckInput {
  const parsed: StressCheckRequest = parseWith(StressCheckRequestSchema, request, '/request', 'REQUEST_INVALID')
  return {
    meter: parsed.meter,
    rank: parsed.rank,
    trigger: parsed.trigger ?? null,
    identity: parsed.identity ?? null,
    passion: parsed.passion ?? null,
    response: parsed.response ?? null,
    disorder: parsed.disorder ?? null,
    cause: parsed.cause ?? null,
  }
}

/**
 * The actions whose event leaves a check as the sheet's `lastCheck` (a therapist's fumble
 * brings a Self check): passions and immediate assistance change that event's check.
 */
export const CHECK_ACTIONS = ['stress-check', 'passion-reroll', 'passion-flip-flop', 'therapy-assistance'] as const

export const stressCheckAction: RuleAction<ShockMetersSheet, StressCheckRequest> = {
  name: 'stress-check',
  actor: 'player',
  kind: 'roll',
  title: 'stress check',
  summary: 'Face a stress check',
  description:
    'A situation attacks one shock meter at a rank. The check is avoided when hardened notches reach the rank or the character is already stressed; with 5 failed notches it fails without a roll. Otherwise d100 against the resisting identity (or the fallback ability): a pass marks a hardened notch, a failure a failed notch and a stressed response; the fifth failed notch brings a disorder.',
  request: StressCheckRequestSchema,
  outcome: StressCheckOutcomeSchema,
  resolve(sheet, request, dice) {
    const input = readStressCheck(request)
    requireNothingPending(sheet)
    const { sheet: after, outcome, summary } = runStressCheck(sheet, input, dice)
    return { sheet: after, outcome, summary }
  },
}
