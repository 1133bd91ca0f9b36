import Type, { type Static } from 'typebox'

/**
 * An exact probability, numerator over denominator in lowest terms. Odds are counted over the
 * faces of the dice (100 for a d100, N² pairs for two dN, 100 × 100 for a roll and its re-roll),
 * so both parts stay far below 2^53 and plain integers are exact.
 */
export interface Fraction {
  readonly numerator: number
  readonly denominator: number
}

export function gcd(a: number, b: number): number {
  let x = Math.abs(a)
  let y = Math.abs(b)
  while (y !== 0) {
    const rest = x % y
    x = y
    y = rest
  }
  return x
}

/** `numerator / denominator` in lowest terms (0 is 0/1): never negative, as a chance. */
export function fraction(numerator: number, denominator: number): Fraction {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || numerator < 0 || denominator <= 0) {
    throw new RangeError(`${numerator}/${denominator} is not a chance: safe integers, at least 0 over more than 0`)
  }
  const divisor = gcd(numerator, denominator)
  return { numerator: numerator / divisor, denominator: denominator / divisor }
}

export const ZERO = fraction(0, 1)
export const ONE = fraction(1, 1)

export function plus(a: Fraction, b: Fraction): Fraction {
  const divisor = gcd(a.denominator, b.denominator)
  const denominator = (a.denominator / divisor) * b.denominator
  return fraction(
    a.numerator * (denominator / a.denominator) + b.numerator * (denominator / b.denominator),
    denominator,
  )
}

export function times(a: Fraction, b: Fraction): Fraction {
  return fraction(a.numerator * b.numerator, a.denominator * b.denominator)
}

export function sum(fractions: Iterable<Fraction>): Fraction {
  let total = ZERO
  for (const each of fractions) total = plus(total, each)
  return total
}

export const ProbabilitySchema = (description: string) =>
  Type.Object(
    {
      fraction: Type.String({
        pattern: '^[0-9]+/[1-9][0-9]*$',
        description: 'Exact, in lowest terms: `0/1` never, `1/1` certain, e.g. `7/36`.',
      }),
      percent: Type.Number({
        minimum: 0,
        maximum: 100,
        description: 'The same chance in percent, rounded to 2 decimals (half up) for display; `fraction` is exact.',
      }),
    },
    { additionalProperties: false, description },
  )
export type Probability = Static<ReturnType<typeof ProbabilitySchema>>

/** A fraction as the API shows it: exact, and in percent for display. */
export function probability(chance: Fraction): Probability {
  return {
    fraction: `${chance.numerator}/${chance.denominator}`,
    percent: Math.round((chance.numerator * 10_000) / chance.denominator) / 100,
  }
}
