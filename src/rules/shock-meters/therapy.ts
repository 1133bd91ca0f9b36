import { readD100 } from '../d100.js'
import { RuleError } from '../errors.js'
import type { FollowUp, RuleAction } from '../rule-set.js'
import { MAX_HARDENED, titleOf } from './constants.js'
import { describeTier, tierOf } from './defence-roll.js'
import { TherapyAssistanceOutcomeSchema } from './outcomes.js'
import { TherapyAssistanceRequestSchema, type TherapyAssistanceRequest } from './requests.js'
import { derive, withMeter } from './sheet.js'
import type { Disorder, LastCheck, ShockMetersSheet } from './sheet-schema.js'
import { CHECK_ACTIONS, runStressCheck } from './stress-check.js'
import { findTrigger } from './triggers.js'
import { parseWith } from '../parse.js'

const RELATIONSHIP_DROP = 5

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

export const therapyAssistanceAction: RuleAction<ShockMetersSheet, TherapyAssistanceRequest> = {
  name: 'therapy-assistance',
  actor: 'player',
  kind: 'roll',
  amends: CHECK_ACTIONS,
  summary: 'Immediate assistance from a therapist',
  description:
    'Right after a failed stress check, a therapist with the Therapeutic feature rolls d100 against that identity. Fumble: the patient faces a Self check of rank 2–3. Matched failure: their relationship drops 5; if that brings it to 0%, `followUps` names the Isolation 4–5 check it calls for, for the GM to make. Failure: nothing. Success: with the patient’s consent the failed notch becomes a hardened one. Matched success or critical: the failed notch is erased. When that notch was the fifth, the disorder its mental trauma brought goes with it.',
  request: TherapyAssistanceRequestSchema,
  outcome: TherapyAssistanceOutcomeSchema,
  resolve(sheet, request, dice) {
    const parsed = parseWith(TherapyAssistanceRequestSchema, request, '/request', 'REQUEST_INVALID')
    const check = requireFreshFailedNotch(sheet)
    if (parsed.relationship !== undefined && !sheet.relationships.some((entry) => entry.name === parsed.relationship)) {
      throw new RuleError(
        'UNKNOWN_RELATIONSHIP',
        `request/relationship "${parsed.relationship}" is not on the sheet`,
        'invalid',
        '/request/relationship',
      )
    }
    const face = dice.roll(100, 'therapy')
    const tier = tierOf(face, parsed.rating)
    const treated = { ...sheet, lastCheck: { ...check, therapy: tier } }
    const gauge = sheet.meters[check.meter]

    let next: ShockMetersSheet = treated
    let effect: 'self-check' | 'relationship-drop' | 'none' | 'declined' | 'notch-hardened' | 'notch-erased'
    let relationship = null
    let disorderRemoved: Disorder | null = null
    let selfCheck = null
    let selfCheckSummary = ''
    switch (tier) {
      case 'fumble': {
        effect = 'self-check'
        const resolved = runStressCheck(
          treated,
          {
            meter: 'self',
            rank: parsed.selfCheckRank ?? 2,
            trigger: 'therapist-fumble',
            identity: null,
            passion: null,
            response: parsed.selfCheckResponse ?? null,
            disorder: null,
            cause: `${parsed.identity} fumbled immediate assistance`,
          },
          dice,
        )
        next = resolved.sheet
        selfCheck = resolved.outcome
        selfCheckSummary = `; ${resolved.summary}`
        break
      }
      case 'matched-failure': {
        const name = parsed.relationship
        const found = sheet.relationships.find((entry) => entry.name === name)
        effect = found === undefined ? 'none' : 'relationship-drop'
        if (found !== undefined) {
          const after = Math.max(0, found.rating - RELATIONSHIP_DROP)
          relationship = { name, before: found.rating, after }
          next = {
            ...treated,
            relationships: treated.relationships.map((entry) =>
              entry.name === name ? { ...entry, rating: after } : entry,
            ),
          }
        }
        break
      }
      case 'failure':
        effect = 'none'
        break
      case 'success':
      case 'matched-success':
      case 'critical': {
        const harden = tier === 'success'
        if (harden && parsed.consent === false) {
          effect = 'declined'
          break
        }
        effect = harden ? 'notch-hardened' : 'notch-erased'
        const removed = removeFailedNotch(treated, check, harden)
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
