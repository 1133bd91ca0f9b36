import { namedOnSheet, RuleError } from '../errors.js'
import type { RuleAction } from '../rule-set.js'
import { Passions, titleOf, type Passion } from './constants.js'
import { ClearStressedOutcomeSchema, NewSessionOutcomeSchema, OngoingTreatmentOutcomeSchema } from './outcomes.js'
import {
  ClearStressedRequestSchema,
  NewSessionRequestSchema,
  OngoingTreatmentRequestSchema,
  type ClearStressedRequest,
  type NewSessionRequest,
  type OngoingTreatmentRequest,
} from './requests.js'
import { derive, withMeter } from './sheet.js'
import type { ShockMetersSheet } from './sheet-schema.js'
import { parseWith } from '../parse.js'

/** Once play moves on, a passion or immediate assistance can no longer rewrite the latest check. */
function closeLastCheck(sheet: ShockMetersSheet): ShockMetersSheet['lastCheck'] {
  return sheet.lastCheck === null ? null : { ...sheet.lastCheck, closed: true }
}

export const clearStressedAction: RuleAction<ShockMetersSheet, ClearStressedRequest> = {
  name: 'clear-stressed',
  actor: 'gm',
  kind: 'gm',
  title: 'end of the stressed state',
  summary: 'End the stressed state: the threat is gone',
  description:
    'A stressed character keeps to the chosen response until the source of the threat is removed; the GM ends it here.',
  request: ClearStressedRequestSchema,
  outcome: ClearStressedOutcomeSchema,
  resolve(sheet, request) {
    const parsed = parseWith(ClearStressedRequestSchema, request, '/request', 'REQUEST_INVALID')
    if (sheet.stressed === null) {
      throw new RuleError('NOT_STRESSED', 'the character is not stressed', 'conflict', '/sheet/stressed')
    }
    const after = { ...sheet, stressed: null }
    return {
      sheet: after,
      outcome: { cleared: sheet.stressed, reason: parsed.reason ?? null },
      summary: `No longer stressed (${titleOf(sheet.stressed.meter)})${parsed.reason === undefined ? '' : `: ${parsed.reason}`}`,
    }
  },
}

export const newSessionAction: RuleAction<ShockMetersSheet, NewSessionRequest> = {
  name: 'new-session',
  actor: 'gm',
  kind: 'gm',
  title: 'new session',
  summary: 'Start a new session',
  description:
    'Every passion may flip-flop once again, and the previous session’s stress check can no longer be changed.',
  request: NewSessionRequestSchema,
  outcome: NewSessionOutcomeSchema,
  resolve(sheet, request) {
    parseWith(NewSessionRequestSchema, request, '/request', 'REQUEST_INVALID')
    const restored: Passion[] = Passions.filter((passion) => sheet.passions[passion]?.flipFlopUsed === true)
    const passions = { ...sheet.passions }
    for (const passion of restored) passions[passion] = { ...passions[passion]!, flipFlopUsed: false }
    const after = { ...sheet, passions, lastCheck: closeLastCheck(sheet) }
    return {
      sheet: after,
      outcome: { flipFlopsRestored: restored, lastCheckClosed: sheet.lastCheck !== null },
      summary: `New session${restored.length === 0 ? '' : `: flip-flop restored for ${restored.join(', ')}`}`,
    }
  },
}

export const ongoingTreatmentAction: RuleAction<ShockMetersSheet, OngoingTreatmentRequest> = {
  name: 'ongoing-treatment',
  actor: 'gm',
  kind: 'gm',
  title: 'ongoing treatment',
  summary: 'Ongoing treatment: remove notches or a disorder',
  description:
    'Treatment over time by a therapist removes failed or hardened notches from a meter, or cures a disorder; the reason is kept with the outcome. Removing hardened notches can end burn-out.',
  request: OngoingTreatmentRequestSchema,
  outcome: OngoingTreatmentOutcomeSchema,
  resolve(sheet, request) {
    const parsed = parseWith(OngoingTreatmentRequestSchema, request, '/request', 'REQUEST_INVALID')
    if (parsed.failed === undefined && parsed.hardened === undefined && parsed.disorder === undefined) {
      throw new RuleError(
        'NOTHING_TO_TREAT',
        'request: give failed or hardened notches to remove, or a disorder',
        'invalid',
        '/request',
      )
    }
    const meter = parsed.meter ?? null
    if (meter === null && (parsed.failed !== undefined || parsed.hardened !== undefined)) {
      throw new RuleError(
        'METER_REQUIRED',
        'request/meter: say which meter the notches come off',
        'invalid',
        '/request/meter',
      )
    }
    let next: ShockMetersSheet = sheet
    let hardened = null
    let failed = null
    if (meter !== null) {
      const gauge = sheet.meters[meter]
      for (const [field, count] of [
        ['hardened', parsed.hardened],
        ['failed', parsed.failed],
      ] as const) {
        if (count !== undefined && count > gauge[field]) {
          throw new RuleError(
            'NOT_ENOUGH_NOTCHES',
            `${meter} has only ${gauge[field]} ${field} notch${gauge[field] === 1 ? '' : 'es'}, cannot remove ${count}`,
            'invalid',
            `/request/${field}`,
          )
        }
      }
      const after = { hardened: gauge.hardened - (parsed.hardened ?? 0), failed: gauge.failed - (parsed.failed ?? 0) }
      next = withMeter(next, meter, after)
      hardened = { before: gauge.hardened, after: after.hardened }
      failed = { before: gauge.failed, after: after.failed }
    }
    let disorderRemoved = null
    if (parsed.disorder !== undefined) {
      const found = namedOnSheet(next.disorders, 'disorder', parsed.disorder, 'UNKNOWN_DISORDER')
      disorderRemoved = found
      next = { ...next, disorders: next.disorders.filter((disorder) => disorder !== found) }
    }
    const after = derive({ ...next, lastCheck: closeLastCheck(next) })
    const changes = [
      hardened !== null && hardened.before !== hardened.after
        ? `hardened ${hardened.before} → ${hardened.after}`
        : null,
      failed !== null && failed.before !== failed.after ? `failed ${failed.before} → ${failed.after}` : null,
      disorderRemoved !== null ? `disorder ${disorderRemoved.name} cured` : null,
      sheet.burnedOut && !after.burnedOut ? 'no longer burned out' : null,
    ].filter((change) => change !== null)
    return {
      sheet: after,
      outcome: {
        reason: parsed.reason,
        meter,
        hardened,
        failed,
        disorderRemoved,
        burnedOut: { before: sheet.burnedOut, after: after.burnedOut },
      },
      summary: `Ongoing treatment${meter === null ? '' : ` (${titleOf(meter)})`}: ${changes.join('; ')} — ${parsed.reason}`,
    }
  },
}
