import { Value } from 'typebox/value'
import { type Resolved } from '../../../src/rules/rule-set.js'
import { resolveChecked } from '../resolve-checked.js'
import type { DiceRequest } from '../../../src/rules/dice.js'
import { shockMeters, type ShockMetersSheet } from '../../../src/rules/shock-meters/index.js'

export const sheetOf = (input: unknown = {}): ShockMetersSheet => shockMeters.normalizeSheet(input)

function actionNamed(name: string) {
  const action = shockMeters.actions.find((candidate) => candidate.name === name)
  if (action === undefined) throw new Error(`no action ${name}`)
  return action
}

/**
 * Resolves an action through the shared `resolveAction` with provided faces (or any dice
 * request), and checks the result against the published sheet and outcome schemas.
 */
export function run(
  name: string,
  sheet: unknown,
  request: unknown,
  dice: number[] | DiceRequest = [],
): Omit<Resolved<ShockMetersSheet>, 'outcome'> & { outcome: any } {
  const action = actionNamed(name)
  const diceRequest: DiceRequest = Array.isArray(dice) ? { source: 'provided', faces: dice } : dice
  const resolved = resolveChecked(shockMeters, action, { sheet, request, dice: diceRequest })
  if (!Value.Check(action.outcome, resolved.outcome)) {
    throw new Error(
      `${name} outcome does not match its schema: ${JSON.stringify([...Value.Errors(action.outcome, resolved.outcome)][0])}`,
    )
  }
  if (!Value.Check(shockMeters.sheet, resolved.sheet)) {
    throw new Error(
      `${name} sheet does not match the sheet schema: ${JSON.stringify([...Value.Errors(shockMeters.sheet, resolved.sheet)][0])}`,
    )
  }
  return resolved
}

/** Runs and expects a RuleError; returns it for assertions on code, kind and pointer. */
export function failure(
  name: string,
  sheet: unknown,
  request: unknown,
  dice: number[] = [],
): { code: string; kind: string; pointer?: string; message: string } {
  try {
    run(name, sheet, request, dice)
  } catch (error) {
    if (error instanceof Error && error.name === 'RuleError') return error as never
    throw error
  }
  throw new Error(`${name} was expected to fail`)
}

export const resists = (name: string, rating: number, meter: string) => ({
  name,
  rating,
  features: [{ type: 'resists-shock', meter }],
})

export const passions = {
  fear: { text: 'Being forgotten' },
  rage: { text: 'Bullies' },
  noble: { text: 'Protect my sister' },
}

/** Hardened notches for every meter at once, e.g. gauge(3) or gauge(1, { self: { hardened: 0, failed: 4 } }). */
export function meters(hardened: number, overrides: Record<string, { hardened?: number; failed?: number }> = {}) {
  const all = ['helplessness', 'isolation', 'self', 'unnatural', 'violence']
  return Object.fromEntries(all.map((meter) => [meter, { hardened, failed: 0, ...overrides[meter] }]))
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}
