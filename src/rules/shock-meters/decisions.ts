import { RuleError } from '../errors.js'
import type { RuleAction } from '../rule-set.js'
import { titleOf } from './constants.js'
import { RecordDisorderOutcomeSchema, StressResponseOutcomeSchema } from './outcomes.js'
import {
  RecordDisorderRequestSchema,
  StressResponseRequestSchema,
  type RecordDisorderRequest,
  type StressResponseRequest,
} from './requests.js'
import type { Disorder, ShockMetersSheet } from './sheet-schema.js'
import { parseWith } from '../parse.js'

export const stressResponseAction: RuleAction<ShockMetersSheet, StressResponseRequest> = {
  name: 'stress-response',
  actor: 'player',
  kind: 'decision',
  title: 'stress response',
  summary: 'Choose the response of a stressed character',
  description:
    'After a failed stress check the character flees (panic), freezes (paralysis) or lashes out (frenzy) until the threat is gone. Settles a pending response.',
  request: StressResponseRequestSchema,
  outcome: StressResponseOutcomeSchema,
  resolve(sheet, request) {
    const { response } = parseWith(StressResponseRequestSchema, request, '/request', 'REQUEST_INVALID')
    const stressed = sheet.stressed
    if (stressed === null || stressed.response !== 'pending') {
      throw new RuleError(
        'NOTHING_PENDING',
        stressed === null
          ? 'the character is not stressed: there is no response to choose'
          : `the response is already chosen (${stressed.response})`,
        'conflict',
        '/sheet/stressed',
      )
    }
    const after = { ...sheet, stressed: { ...stressed, response } }
    return {
      sheet: after,
      outcome: { meter: stressed.meter, response },
      summary: `Stressed (${titleOf(stressed.meter)}): ${response}`,
    }
  },
}

export const recordDisorderAction: RuleAction<ShockMetersSheet, RecordDisorderRequest> = {
  name: 'record-disorder',
  actor: 'gm',
  kind: 'decision',
  title: 'mental disorder',
  summary: 'Name the pending disorder, or add one',
  description:
    'Mental trauma leaves a permanent disorder that reflects the trigger and the character’s obsession and passions. The GM names the pending one; with no disorder pending, giving a meter adds a new one.',
  request: RecordDisorderRequestSchema,
  outcome: RecordDisorderOutcomeSchema,
  resolve(sheet, request) {
    const parsed = parseWith(RecordDisorderRequestSchema, request, '/request', 'REQUEST_INVALID')
    const index = sheet.disorders.findIndex((disorder) => disorder.name === null)
    const pending = sheet.disorders[index]
    let disorder: Disorder
    let disorders: Disorder[]
    if (pending !== undefined) {
      if (parsed.meter !== undefined && parsed.meter !== pending.meter) {
        throw new RuleError(
          'DISORDER_METER_MISMATCH',
          `request/meter ${parsed.meter} does not match the pending disorder, which comes from ${pending.meter}; name that one first`,
          'invalid',
          '/request/meter',
        )
      }
      disorder = { ...pending, name: parsed.name, cause: parsed.cause ?? pending.cause }
      disorders = sheet.disorders.map((entry, position) => (position === index ? disorder : entry))
    } else if (parsed.meter !== undefined) {
      disorder = { name: parsed.name, meter: parsed.meter, cause: parsed.cause ?? null, check: null }
      disorders = [...sheet.disorders, disorder]
    } else {
      throw new RuleError(
        'NOTHING_PENDING',
        'no disorder is waiting for a name; to add one, give its meter',
        'conflict',
        '/sheet/disorders',
      )
    }
    const after = { ...sheet, disorders }
    return {
      sheet: after,
      outcome: { disorder, added: pending === undefined },
      summary: `Disorder (${titleOf(disorder.meter)}) ${pending === undefined ? 'added' : 'named'}: ${parsed.name}`,
    }
  },
}
