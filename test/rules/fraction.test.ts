import fc from 'fast-check'
import t from 'tap'
import { fraction, gcd, ONE, plus, probability, sum, times, ZERO } from '../../src/rules/fraction.js'

t.test('gcd: the greatest common divisor, whatever the order; gcd(n, 0) is n', async (t) => {
  t.equal(gcd(12, 18), 6, 'gcd(12, 18) = 6')
  t.equal(gcd(18, 12), 6, 'order does not matter')
  t.equal(gcd(7, 36), 1, '7 and 36 share nothing')
  t.equal(gcd(0, 100), 100, 'gcd(0, 100) = 100')
})

t.test('fraction: kept in lowest terms, 0 as 0/1', async (t) => {
  t.same(fraction(45, 100), { numerator: 9, denominator: 20 }, '45/100 is 9/20')
  t.same(fraction(0, 100), { numerator: 0, denominator: 1 }, 'never is 0/1')
  t.same(fraction(100, 100), ONE, 'certain is 1/1')
  t.throws(() => fraction(1, 0), RangeError, 'no zero denominator')
  t.throws(() => fraction(-1, 2), RangeError, 'no negative chance')
  t.throws(() => fraction(0.5, 2), RangeError, 'integers only')
})

t.test('plus, times and sum are exact: 1/100 + 1/25 = 1/20, 11/20 × 11/20 = 121/400', async (t) => {
  t.same(plus(fraction(1, 100), fraction(1, 25)), fraction(1, 20), '1/100 + 4/100 = 5/100')
  t.same(times(fraction(11, 20), fraction(11, 20)), fraction(121, 400), 'both rolls fail')
  t.same(sum([]), ZERO, 'nothing sums to 0')
  t.same(sum(Array.from({ length: 36 }, () => fraction(1, 36))), ONE, '36 pairs of two d6 make certainty')
})

t.test(
  'Property: a sum of fractions over any denominators is the exact rational (checked by cross-multiplying)',
  async (t) => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 144 }), fc.integer({ min: 1, max: 144 })), { maxLength: 6 }),
        (parts) => {
          const total = sum(parts.map(([numerator, denominator]) => fraction(numerator, denominator)))
          const common = parts.reduce((product, [, denominator]) => product * denominator, 1)
          const expected = parts.reduce((acc, [numerator, denominator]) => acc + (numerator * common) / denominator, 0)
          return (
            total.numerator * common === expected * total.denominator && gcd(total.numerator, total.denominator) === 1
          )
        },
      ),
    )
    t.pass('sums are exact and in lowest terms')
  },
)

t.test('probability: the exact fraction and the percent rounded to 2 decimals for display', async (t) => {
  t.same(probability(fraction(7, 36)), { fraction: '7/36', percent: 19.44 }, '7/36 is 19.44 %')
  t.same(probability(fraction(1, 8)), { fraction: '1/8', percent: 12.5 }, '1/8 is 12.5 %')
  t.same(probability(fraction(2, 3)), { fraction: '2/3', percent: 66.67 }, '2/3 rounds up to 66.67 %')
  t.same(probability(fraction(1, 400)), { fraction: '1/400', percent: 0.25 }, '1/400 is 0.25 %')
  t.same(probability(fraction(1, 800)), { fraction: '1/800', percent: 0.13 }, '0.125 % rounds half up to 0.13 %')
  t.same(probability(ZERO), { fraction: '0/1', percent: 0 }, 'never')
  t.same(probability(ONE), { fraction: '1/1', percent: 100 }, 'certain')
})
