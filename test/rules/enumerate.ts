import { DiceNeededError, type NeededDice } from '../../src/rules/dice.js'
import { RuleError } from '../../src/rules/errors.js'
import { fraction, ONE, plus, times, ZERO, type Fraction } from '../../src/rules/fraction.js'

export interface Leaf<Result> {
  faces: number[]
  chance: Fraction
  result: Result
}

/**
 * Every sequence of faces the real resolver can consume, each with its chance. `run` resolves
 * with the faces given as provided dice; whenever it asks for one more die (422 `DICE_COUNT`),
 * each face of that die is tried in turn. `pin` may hold a die to one face (the effect dice of a
 * trauma row, which come after the row is found and cannot change it); it then counts as certain.
 */
export function enumerate<Result>(
  run: (faces: number[]) => Result,
  pin: (die: NeededDice) => number | undefined = () => undefined,
): Leaf<Result>[] {
  const leaves: Leaf<Result>[] = []
  const visit = (faces: number[], chance: Fraction) => {
    let result: Result
    try {
      result = run(faces)
    } catch (error) {
      if (!(error instanceof DiceNeededError)) throw error
      const [die] = error.needed
      if (die === undefined) throw error
      const pinned = pin(die)
      if (pinned !== undefined) return visit([...faces, pinned], chance)
      for (let face = 1; face <= die.sides; face++) visit([...faces, face], times(chance, fraction(1, die.sides)))
      return
    }
    leaves.push({ faces, chance, result })
  }
  visit([], ONE)
  return leaves
}

/** The chance of each key over the leaves, as `n/d` strings in lowest terms (as the API writes them). */
export function tally<Result>(leaves: readonly Leaf<Result>[], keyOf: (result: Result) => string): Map<string, string> {
  const chances = new Map<string, Fraction>()
  for (const leaf of leaves) {
    const key = keyOf(leaf.result)
    chances.set(key, plus(chances.get(key) ?? ZERO, leaf.chance))
  }
  return new Map([...chances].map(([key, chance]) => [key, `${chance.numerator}/${chance.denominator}`]))
}

/** Stated chances that differ from the tally, for an assertion message; empty when every one agrees. */
export function disagreements(
  stated: readonly { key: string; fraction: string }[],
  tallied: Map<string, string>,
  what: string,
): string[] {
  const wrong = stated
    .filter(({ key, fraction: chance }) => (tallied.get(key) ?? '0/1') !== chance)
    .map(({ key, fraction: chance }) => `${what} ${key}: stated ${chance}, resolver ${tallied.get(key) ?? '0/1'}`)
  const unlisted = [...tallied.keys()]
    .filter((key) => !stated.some((entry) => entry.key === key))
    .map((key) => `${what} ${key}: the resolver gives ${tallied.get(key)}, the odds do not list it`)
  return [...wrong, ...unlisted]
}

/** The RuleError a call throws, as the API would answer it, or null when it throws none. */
export function refusalOf(
  call: () => unknown,
): { code: string; kind: string; pointer?: string; message: string } | null {
  try {
    call()
    return null
  } catch (error) {
    if (!(error instanceof RuleError)) throw error
    return {
      code: error.code,
      kind: error.kind,
      message: error.message,
      ...(error.pointer === undefined ? {} : { pointer: error.pointer }),
    }
  }
}
