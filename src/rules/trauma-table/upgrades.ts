import type { Shift, TraumaRollRecord, TraumaRollRequest, TraumaTableSheet } from './schemas.js'
import { LAST_ROW, rowAt, rowIndex, rowIndexForTotal } from './table.js'

const SOURCE_TRAIT_UPGRADES = { none: 0, stressful: 1, traumatic: 2, maddening: 3 } as const
const SOURCE_TRAIT_NAMES = {
  none: 'None',
  stressful: 'Stressful',
  traumatic: 'Traumatic',
  maddening: 'Maddening',
} as const
const DOWNGRADING_TRAITS = [
  ['composure', 'Composure'],
  ['poise', 'Poise'],
  ['stoic', 'Stoic'],
] as const

/** The common upgrades and downgrades, in the order the rules list them, then the caller's. */
function shiftsFor(sheet: TraumaTableSheet, request: TraumaRollRequest): Shift[] {
  const shifts: Shift[] = []
  if (sheet.scars > 0) {
    shifts.push({
      direction: 'upgrade',
      steps: sheet.scars,
      cause: 'scars',
      reason: `${sheet.scars} scar${sheet.scars === 1 ? '' : 's'}`,
    })
  }
  for (const previous of sheet.encounterTraumas) {
    shifts.push({
      direction: 'upgrade',
      steps: 1,
      cause: 'previous-trauma',
      reason: `already suffered ${rowAt(rowIndex(previous)).name} this encounter`,
    })
  }
  const sourceSteps = SOURCE_TRAIT_UPGRADES[request.source]
  if (sourceSteps > 0) {
    shifts.push({
      direction: 'upgrade',
      steps: sourceSteps,
      cause: 'source-trait',
      reason: `inflicted by something ${SOURCE_TRAIT_NAMES[request.source]}`,
    })
  }
  for (const extra of request.upgrades) {
    shifts.push({ direction: 'upgrade', steps: extra.steps, cause: 'extra', reason: extra.reason })
  }
  for (const [trait, name] of DOWNGRADING_TRAITS) {
    if (sheet.traits[trait]) shifts.push({ direction: 'downgrade', steps: 1, cause: 'character-trait', reason: name })
  }
  for (const extra of request.downgrades) {
    shifts.push({ direction: 'downgrade', steps: extra.steps, cause: 'extra', reason: extra.reason })
  }
  return shifts
}

/** The upgrades and downgrades that apply to a roll, and the move they make together, in rows. */
export function shiftOf(sheet: TraumaTableSheet, request: TraumaRollRequest): { shifts: Shift[]; netShift: number } {
  const shifts = shiftsFor(sheet, request)
  const netShift = shifts.reduce((sum, shift) => sum + (shift.direction === 'upgrade' ? shift.steps : -shift.steps), 0)
  return { shifts, netShift }
}

/**
 * From the row the total finds to the trauma suffered: moved by the net shift (in rows,
 * clamped to the table), then upgraded past any trauma already suffered this encounter.
 */
export function moveRow(base: number, netShift: number, suffered: ReadonlySet<string>) {
  const unclamped = base + netShift
  const shifted = Math.min(LAST_ROW, Math.max(0, unclamped))
  const clamped: TraumaRollRecord['clamped'] = unclamped > LAST_ROW ? 'top' : unclamped < 0 ? 'bottom' : null
  const repeats: TraumaRollRecord['repeats'] = []
  let final = shifted
  // Unharmed is never in the suffered list, and the last row has nowhere further to go.
  while (suffered.has(rowAt(final).id) && final < LAST_ROW) {
    repeats.push({ from: rowAt(final).id, to: rowAt(final + 1).id })
    final += 1
  }
  return { shifted, clamped, repeats, final }
}

/** From the d100 face to the trauma suffered: the row by total, then moved (`moveRow`). */
export function findTrauma(sheet: TraumaTableSheet, request: TraumaRollRequest, face: number): TraumaRollRecord {
  const total = face + request.modifier
  const base = rowIndexForTotal(total)
  const { shifts, netShift } = shiftOf(sheet, request)
  const { shifted, clamped, repeats, final } = moveRow(base, netShift, new Set(sheet.encounterTraumas))
  return {
    face,
    modifier: request.modifier,
    total,
    baseRow: rowAt(base).id,
    shifts,
    netShift,
    shiftedRow: rowAt(shifted).id,
    clamped,
    repeats,
    finalRow: rowAt(final).id,
  }
}
