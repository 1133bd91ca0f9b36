import type { DiceRequest } from '../../../src/rules/dice.js'
import { type Resolved } from '../../../src/rules/rule-set.js'
import { resolveChecked } from '../resolve-checked.js'
import { traumaTable } from '../../../src/rules/trauma-table/index.js'
import type { TraumaTableSheet } from '../../../src/rules/trauma-table/schemas.js'

export { traumaTable }
export type { TraumaTableSheet }

function action(name: string) {
  const found = traumaTable.actions.find((candidate) => candidate.name === name)
  if (!found) throw new Error(`no action ${name}`)
  return found
}

export function run(
  name: string,
  sheet: unknown,
  request: unknown,
  dice: DiceRequest | number[] = [],
): Resolved<TraumaTableSheet> {
  const diceRequest: DiceRequest = Array.isArray(dice) ? { source: 'provided', faces: dice } : dice
  return resolveChecked(traumaTable, action(name), { sheet, request, dice: diceRequest })
}

export function sheetOf(partial: Partial<TraumaTableSheet> = {}): TraumaTableSheet {
  return traumaTable.normalizeSheet(partial)
}

/** Runs and expects a RuleError; returns it for assertions on code, kind, pointer and message. */
export function failure(name: string, sheet: unknown, request: unknown): Error & { code: string; pointer?: string } {
  try {
    run(name, sheet, request)
  } catch (error) {
    if (error instanceof Error && error.name === 'RuleError') return error as never
    throw error
  }
  throw new Error(`${name} was expected to fail`)
}

/** A d100 face and modifier whose total is `total`. */
export function toTotal(total: number): { face: number; modifier: number } {
  if (total >= 1 && total <= 100) return { face: total, modifier: 0 }
  return { face: 50, modifier: total - 50 }
}

/** Roll with no shifts and return the final row id. */
export function rowForTotal(total: number, sheet: unknown = {}): string {
  const { face, modifier } = toTotal(total)
  const result = run('trauma-roll', sheet, { modifier }, [face])
  return (result.outcome as { roll: { baseRow: string } }).roll.baseRow
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}
