import { RuleError } from '../errors.js'
import {
  TraumaTableSettingsSchema,
  TraumaTableSheetSchema,
  type TraumaTableSettings,
  type TraumaTableSheet,
} from './schemas.js'
import { parseWith } from '../parse.js'

export function normalizeSheet(input: unknown): TraumaTableSheet {
  const sheet = parseWith(TraumaTableSheetSchema, input, '/sheet', 'SHEET_INVALID')
  const unharmedAt = sheet.encounterTraumas.indexOf('unharmed')
  if (unharmedAt !== -1) {
    throw new RuleError(
      'SHEET_INVALID',
      'sheet/encounterTraumas: Unharmed is never a trauma suffered this encounter',
      'invalid',
      `/sheet/encounterTraumas/${unharmedAt}`,
    )
  }
  return derive(sheet)
}

export function normalizeSettings(input: unknown): TraumaTableSettings {
  return parseWith(TraumaTableSettingsSchema, input, '/settings', 'SETTINGS_INVALID')
}

/** Recomputes the read-only fields from the rest of the sheet. */
export function derive(sheet: TraumaTableSheet): TraumaTableSheet {
  const { composure, poise, stoic } = sheet.traits
  // Rebuilt in schema order so every sheet Nerve returns has the same key order.
  const ordered = Object.fromEntries(
    Object.keys(TraumaTableSheetSchema.properties).map((key) => [key, sheet[key as keyof TraumaTableSheet]]),
  ) as TraumaTableSheet
  return {
    ...ordered,
    traumasThisEncounter: sheet.encounterTraumas.length,
    standingUpgrades: sheet.scars + sheet.encounterTraumas.length,
    standingDowngrades: [composure, poise, stoic].filter(Boolean).length,
  }
}
