import { RuleError } from '../errors.js'
import {
  BURN_OUT_FULL_METERS,
  BURN_OUT_TOTAL,
  DOWNBEAT_BASE,
  MAX_HARDENED,
  MeterAbilities,
  Meters,
  POINTS_PER_NOTCH,
  UPBEAT_BASE,
  type Ability,
  type Meter,
} from './constants.js'
import {
  ShockMetersSettingsSchema,
  ShockMetersSheetSchema,
  type ShockMetersSettings,
  type ShockMetersSheet,
} from './sheet-schema.js'
import { parseWith, passesAsIs } from '../parse.js'

const DerivedFields = ['abilities', 'totalHardened', 'burnedOut'] as const

/** Fills defaults, checks the sheet, and recomputes abilities, total hardened and burn-out. */
export function normalizeSheet(input: unknown): ShockMetersSheet {
  // Derived fields are recomputed, so whatever a caller sent back in them is not checked; a
  // complete sheet whose derived fields are in range (as Nerve returns it) is taken as it is,
  // not copied: nothing changes a sheet in place (the rules build a new one from what they change).
  const sheet = passesAsIs(ShockMetersSheetSchema, input)
    ? (input as ShockMetersSheet)
    : parseWith(ShockMetersSheetSchema, withoutDerived(input), '/sheet', 'SHEET_INVALID')
  requireUniqueNames(sheet.identities, '/sheet/identities', 'identity')
  requireUniqueNames(sheet.relationships, '/sheet/relationships', 'relationship')
  if (sheet.lastCheck !== null && sheet.lastCheck.number > sheet.stressChecks) {
    throw new RuleError(
      'SHEET_INVALID',
      `sheet/lastCheck/number ${sheet.lastCheck.number} is higher than stressChecks (${sheet.stressChecks})`,
      'invalid',
      '/sheet/lastCheck/number',
    )
  }
  return derive(sheet)
}

function withoutDerived(input: unknown): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input
  return Object.fromEntries(
    Object.entries(input).filter(([key]) => !(DerivedFields as readonly string[]).includes(key)),
  )
}

export function normalizeSettings(input: unknown): ShockMetersSettings {
  return parseWith(ShockMetersSettingsSchema, input, '/settings', 'SETTINGS_INVALID')
}

/** A new sheet with every derived field recomputed from the meters. */
export function derive(sheet: ShockMetersSheet): ShockMetersSheet {
  const abilities = {} as Record<Ability, number>
  for (const meter of Meters) {
    const { upbeat, downbeat } = MeterAbilities[meter]
    const hardened = sheet.meters[meter].hardened
    abilities[upbeat] = UPBEAT_BASE - POINTS_PER_NOTCH * hardened
    abilities[downbeat] = DOWNBEAT_BASE + POINTS_PER_NOTCH * hardened
  }
  return {
    ...sheet,
    abilities: abilities,
    totalHardened: totalHardened(sheet),
    burnedOut: isBurnedOut(sheet),
  }
}

function totalHardened(sheet: Pick<ShockMetersSheet, 'meters'>): number {
  return Meters.reduce((sum, meter) => sum + sheet.meters[meter].hardened, 0)
}

/** Burned out: 25 hardened notches in all, or two meters hardened to the full 9. */
function isBurnedOut(sheet: Pick<ShockMetersSheet, 'meters'>): boolean {
  const fullMeters = Meters.filter((meter) => sheet.meters[meter].hardened === MAX_HARDENED).length
  return totalHardened(sheet) >= BURN_OUT_TOTAL || fullMeters >= BURN_OUT_FULL_METERS
}

export function withMeter(
  sheet: ShockMetersSheet,
  meter: Meter,
  gauge: { hardened: number; failed: number },
): ShockMetersSheet {
  return { ...sheet, meters: { ...sheet.meters, [meter]: gauge } }
}

function requireUniqueNames(items: readonly { name: string }[], pointer: string, what: string): void {
  const seen = new Set<string>()
  items.forEach((item, index) => {
    if (seen.has(item.name)) {
      throw new RuleError(
        'SHEET_INVALID',
        `${pointer.slice(1)}/${index}/name: ${what} "${item.name}" appears twice`,
        'invalid',
        `${pointer}/${index}/name`,
      )
    }
    seen.add(item.name)
  })
}
