import { readD100 } from '../d100.js'
import { namedOnSheet, RuleError } from '../errors.js'
import type { FollowUp, RuleAction } from '../rule-set.js'
import { MAX_HARDENED, titleOf, type Tier } from './constants.js'
import { describeTier, tierOf } from './defence-roll.js'
import { TherapyAssistanceOutcomeSchema } from './outcomes.js'
import { TherapyAssistanceRequestSchema, type TherapyAssistanceRequest } from './requests.js'
import { derive, withMeter } from './sheet.js'
import type { Disorder, LastCheck, ShockMetersSheet } from './sheet-schema.js'
import { CHECK_ACTIONS, runStressCheck, type CheckInput } from './stress-check.js'
import { findTrigger } from './triggers.js'
import { parseWith } from '../parse.js'

const RELATIONSHIP_DROP = 5

/** A matched failure lowers the patient's relationship with the therapist by 5, never below 0%. */
export function droppedRating(rating: number): number {
  return Math.max(0, rating - RELATIONSHIP_DROP)
}

/**
 * "A relationship rating falls to 0%" is itself a trigger of the catalogue: the patient's
 * Isolation check it calls for is named, for the GM to make at the rank they choose.
 */
function relationshipFollowUps(
  relationship: { name: string | undefined; before: number; after: number } | null,
): FollowUp[] {
  if (relationship?.name === undefined || relationship.after > 0 || relationship.before === 0) return []
  const trigger = findTrigger('relationship-at-zero')!
  const because = `the relationship with ${relationship.name} fell to 0%`
  return trigger.meters.map((meter) => ({
    trigger: trigger.id,
    because,
    action: 'stress-check',
    request: {
      meter,
      rank: trigger.rank.min,
      trigger: trigger.id,
      cause: `The relationship with ${relationship.name} fell to 0%`,
    },
    ranks: { min: trigger.rank.min, max: trigger.rank.max },
  }))
}

function requireFreshFailedNotch(sheet: ShockMetersSheet): LastCheck {
  const check = sheet.lastCheck
  if (check === null || check.marked !== 'failed') {
    throw new RuleError(
      'NO_FAILED_NOTCH',
      check === null
        ? 'there is no stress check to assist with yet'
        : 'the latest stress check did not mark a failed notch: immediate assistance has nothing to work on',
      'conflict',
      '/sheet/lastCheck',
    )
  }
  if (check.closed) {
    throw new RuleError(
      'CHECK_CLOSED',
      'the latest stress check is from a finished session or treatment; immediate assistance is too late',
      'conflict',
      '/sheet/lastCheck/closed',
    )
  }
  if (check.therapy !== null) {
    throw new RuleError(
      'CHECK_TREATED',
      `a therapist already assisted with the latest stress check (${check.therapy})`,
      'conflict',
      '/sheet/lastCheck/therapy',
    )
  }
  return check
}

/** The notch goes, and with it the trauma it brought when it was the fifth. */
function removeFailedNotch(sheet: ShockMetersSheet, check: LastCheck, hardenInstead: boolean) {
  const gauge = sheet.meters[check.meter]
  const next = withMeter(sheet, check.meter, {
    failed: Math.max(0, gauge.failed - 1),
    hardened: hardenInstead ? Math.min(MAX_HARDENED, gauge.hardened + 1) : gauge.hardened,
  })
  const disorderRemoved: Disorder | null = check.trauma
    ? (next.disorders.find((disorder) => disorder.check === check.number) ?? null)
    : null
  return {
    sheet: { ...next, disorders: next.disorders.filter((disorder) => disorder !== disorderRemoved) },
    disorderRemoved,
  }
}

/** What immediate assistance does, by the tier of the therapist's roll. */
export type AssistanceEffect =
  'self-check' | 'relationship-drop' | 'none' | 'declined' | 'notch-hardened' | 'notch-erased'

/**
 * Fumble: the patient faces a Self check. Matched failure: the relationship with the therapist
 * drops (when the request names one on the sheet). Failure: nothing. Success: the failed notch
 * hardens, if the patient consents. Matched success or critical: the notch is erased.
 */
export function assistanceEffect(
  tier: Tier,
  request: TherapyAssistanceRequest,
  sheet: ShockMetersSheet,
): AssistanceEffect {
  switch (tier) {
    case 'fumble':
      return 'self-check'
    case 'matched-failure':
      return sheet.relationships.some((entry) => entry.name === request.relationship) ? 'relationship-drop' : 'none'
    case 'failure':
      return 'none'
    case 'success':
      return request.consent === false ? 'declined' : 'notch-hardened'
    case 'matched-success':
    case 'critical':
      return 'notch-erased'
  }
}

/** The request read, and the failed notch it works on: what assistance and its odds both start from. */
export function readAssistance(sheet: ShockMetersSheet, request: unknown) {
  const parsed = parseWith(TherapyAssistanceRequestSchema, request, '/request', 'REQUEST_INVALID')
  const check = requireFreshFailedNotch(sheet)
  if (parsed.relationship !== undefined)
    namedOnSheet(sheet.relationships, 'relationship', parsed.relationship, 'UNKNOWN_RELATIONSHIP')
  return { parsed, check }
}

/** The Self check a therapist's fumble brings the patient: rank 2 unless the request says 3. */
export function fumbleSelfCheck(request: TherapyAssistanceRequest): CheckInput {
  return {
    meter: 'self',
    rank: request.selfCheckRank ?? 2,
    trigger: 'therapist-fumble',
    identity: null,
    passion: null,
    response: request.selfCheckResponse ?? null,
    disorder: null,
    cause: `${request.identity} fumbled immediate assistance`,
  }
}

/** The sheet as immediate assistance leaves the check it works on, before its effect. */
export function treatedSheet(sheet: ShockMetersSheet, check: LastCheck, tier: Tier): ShockMetersSheet {
  return { ...sheet, lastCheck: { ...check, therapy: tier } }
}

export const therapyAssistanceAction: RuleAction<ShockMetersSheet, TherapyAssistanceRequest> = {
  name: 'therapy-assistance',
  actor: 'player',
  kind: 'roll',
  title: 'immediate assistance',
  amends: CHECK_ACTIONS,
  summary: 'Immediate assistance from a therapist',
  description:
    'Right after a failed stress check, a therapist with the Therapeutic feature rolls d100 against that identity. Fumble: the patient faces a Self check of rank 2–3. Matched failure: their relationship drops 5; if that brings it to 0%, `followUps` names the Isolation 4–5 check it calls for, for the GM to make. Failure: nothing. Success: with the patient’s consent the failed notch becomes a hardened one. Matched success or critical: the failed notch is erased. When that notch was the fifth, the disorder its mental trauma brought goes with it.',
  request: TherapyAssistanceRequestSchema,
  outcome: TherapyAssistanceOutcomeSchema,
  resolve(sheet, request, dice) {
    const { parsed, check } = readAssistance(sheet, request)
    const face = dice.roll(100, 'therapy')
    const tier = tierOf(face, parsed.rating)
    const treated = treatedSheet(sheet, check, tier)
    const gauge = sheet.meters[check.meter]
    const effect = assistanceEffect(tier, parsed, sheet)

    let next: ShockMetersSheet = treated
    let relationship = null
    let disorderRemoved: Disorder | null = null
    let selfCheck = null
    let selfCheckSummary = ''
    switch (effect) {
      case 'self-check': {
        const resolved = runStressCheck(treated, fumbleSelfCheck(parsed), dice)
        next = resolved.sheet
        selfCheck = resolved.outcome
        selfCheckSummary = `; ${resolved.summary}`
        break
      }
      case 'relationship-drop': {
        const name = parsed.relationship
        const found = sheet.relationships.find((entry) => entry.name === name)!
        const after = droppedRating(found.rating)
        relationship = { name, before: found.rating, after }
        next = {
          ...treated,
          relationships: treated.relationships.map((entry) =>
            entry.name === name ? { ...entry, rating: after } : entry,
          ),
        }
        break
      }
      case 'none':
      case 'declined':
        break
      case 'notch-hardened':
      case 'notch-erased': {
        const removed = removeFailedNotch(treated, check, effect === 'notch-hardened')
        next = removed.sheet
        disorderRemoved = removed.disorderRemoved
        break
      }
    }
    const after = derive(next)
    const afterGauge = after.meters[check.meter]
    const hardened = { before: gauge.hardened, after: effect === 'self-check' ? gauge.hardened : afterGauge.hardened }
    const failed = { before: gauge.failed, after: effect === 'self-check' ? gauge.failed : afterGauge.failed }
    const describe = {
      'self-check': 'the patient faces a Self check',
      'relationship-drop': `relationship ${relationship?.name} ${relationship?.before} → ${relationship?.after}`,
      none: 'no effect',
      declined: 'the patient declines to harden the notch',
      'notch-hardened': `failed ${failed.before} → ${failed.after}, hardened ${hardened.before} → ${hardened.after}`,
      'notch-erased': `failed ${failed.before} → ${failed.after}`,
    }[effect]
    return {
      sheet: after,
      outcome: {
        identity: parsed.identity,
        rating: parsed.rating,
        face,
        reading: readD100(face),
        tier,
        effect,
        meter: check.meter,
        hardened,
        failed,
        relationship,
        disorderRemoved,
        selfCheck,
      },
      summary: `Therapy for ${titleOf(check.meter)} by ${parsed.identity} ${parsed.rating}: rolled ${readD100(face)}, ${describeTier(tier)} — ${describe}${disorderRemoved === null ? '' : `; trauma undone`}${selfCheckSummary}`,
      followUps: relationshipFollowUps(relationship),
    }
  },
}
