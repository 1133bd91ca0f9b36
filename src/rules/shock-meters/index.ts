import type { RuleSet } from '../rule-set.js'
import {
  BURN_OUT_FULL_METERS,
  BURN_OUT_TOTAL,
  DOWNBEAT_BASE,
  FallbackAbility,
  MAX_FAILED,
  MAX_HARDENED,
  MeterAbilities,
  POINTS_PER_NOTCH,
  STARTING_HARDENED,
  Tiers,
  UPBEAT_BASE,
} from './constants.js'
import { recordDisorderAction, stressResponseAction } from './decisions.js'
import { clearStressedAction, newSessionAction, ongoingTreatmentAction } from './gm-actions.js'
import { passionFlipFlopAction, passionRerollAction } from './passions.js'
import { pendingOf } from './pending.js'
import { normalizeSettings, normalizeSheet } from './sheet.js'
import {
  ShockMetersSettingsSchema,
  ShockMetersSheetSchema,
  type ShockMetersSettings,
  type ShockMetersSheet,
} from './sheet-schema.js'
import { stressCheckAction } from './stress-check.js'
import { therapyAssistanceAction } from './therapy.js'
import { StressTriggers } from './triggers.js'
import { exampleAfterFailedCheck } from './examples.js'
import { passionFlipFlopOdds, passionRerollOdds, stressCheckOdds, therapyAssistanceOdds } from './odds.js'

export { exampleSheets } from './examples.js'
export type { ShockMetersSheet, ShockMetersSettings } from './sheet-schema.js'

export const shockMeters: RuleSet<ShockMetersSheet, ShockMetersSettings> = {
  id: 'shock-meters',
  version: '1.0.0',
  title: 'Shock meters (Unknown Armies, 3rd edition)',
  description:
    'Stress checks against the five shock meters — Helplessness, Isolation, Self, Unnatural, Violence — with hardened and failed notches, stressed responses, mental trauma, burn-out, passions and therapy.',
  sheet: ShockMetersSheetSchema,
  settings: ShockMetersSettingsSchema,
  normalizeSheet,
  normalizeSettings,
  pendingOf,
  // Its summaries have always named things in words.
  rewordings: [],
  tables: {
    triggers: StressTriggers,
    meterAbilities: MeterAbilities,
    fallbackAbilities: FallbackAbility,
    tiers: Tiers,
    limits: {
      hardened: MAX_HARDENED,
      failed: MAX_FAILED,
      startingHardened: STARTING_HARDENED,
      burnOutTotal: BURN_OUT_TOTAL,
      burnOutFullMeters: BURN_OUT_FULL_METERS,
    },
    abilityFormula: {
      upbeat: `${UPBEAT_BASE} − ${POINTS_PER_NOTCH} × hardened`,
      downbeat: `${DOWNBEAT_BASE} + ${POINTS_PER_NOTCH} × hardened`,
    },
  },
  actions: [
    { ...stressCheckAction, odds: stressCheckOdds },
    // These act on a check just failed, which the default sheet has not had.
    { ...passionRerollAction, exampleSheet: exampleAfterFailedCheck, odds: passionRerollOdds },
    { ...passionFlipFlopAction, exampleSheet: exampleAfterFailedCheck, odds: passionFlipFlopOdds },
    { ...stressResponseAction, exampleSheet: exampleAfterFailedCheck },
    recordDisorderAction,
    { ...clearStressedAction, exampleSheet: exampleAfterFailedCheck },
    newSessionAction,
    { ...therapyAssistanceAction, exampleSheet: exampleAfterFailedCheck, odds: therapyAssistanceOdds },
    ongoingTreatmentAction,
  ],
}
