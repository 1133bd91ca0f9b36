import fc from 'fast-check'
import t from 'tap'
import { Value } from 'typebox/value'
import { oddsOf, type Resolved } from '../../../src/rules/rule-set.js'
import { resolveChecked } from '../resolve-checked.js'
import { shockMeters, type ShockMetersSheet } from '../../../src/rules/shock-meters/index.js'
import { fraction, times } from '../../../src/rules/fraction.js'
import { disagreements, enumerate, refusalOf, tally, type Leaf } from '../enumerate.js'
import { meters, passions, resists, sheetOf } from './helpers.js'

const action = (name: string) => shockMeters.actions.find((candidate) => candidate.name === name)!

type Odds = Record<string, any>

function oddsFor(name: string, sheet: unknown, request: unknown): Odds {
  const odds = oddsOf(shockMeters, action(name), { sheet, request })
  if (!Value.Check(action(name).odds!.schema, odds)) {
    throw new Error(
      `${name} odds do not fit their schema: ${JSON.stringify([...Value.Errors(action(name).odds!.schema, odds)][0])}`,
    )
  }
  return odds
}

function resolve(
  name: string,
  sheet: unknown,
  request: unknown,
  faces: number[],
): Resolved<ShockMetersSheet> & { outcome: any } {
  return resolveChecked(shockMeters, action(name), { sheet, request, dice: { source: 'provided', faces } })
}

/** The key the odds list a check's ending under: avoided, an automatic failure, or the tier rolled. */
const endingOf = (check: { result: string; tier: string | null }) =>
  check.result === 'avoided' || check.result === 'automatic-failure' ? check.result : check.tier!

const listedAs = (entries: { probability: { fraction: string } }[], key: string) =>
  entries.map((entry) => ({
    key: (entry as unknown as Record<string, string>)[key]!,
    fraction: entry.probability.fraction,
  }))

/** Pass, fail and the fifth failed notch, as the resolver's checks show them, against what the odds state. */
function notchDisagreements(leaves: Leaf<any>[], odds: Odds, what: string): string[] {
  const passed = tally(leaves, (check) => String(check.result === 'passed'))
  const failed = tally(leaves, (check) => String(check.result === 'failed' || check.result === 'automatic-failure'))
  const fifth = tally(leaves, (check) => String(check.trauma))
  return [
    ...disagreements([{ key: 'true', fraction: odds.pass.fraction }], passed, `${what} pass`),
    ...disagreements([{ key: 'true', fraction: odds.fail.fraction }], failed, `${what} fail`),
    ...disagreements([{ key: 'true', fraction: odds.fifthFailedNotch.fraction }], fifth, `${what} fifth failed notch`),
  ].filter((problem) => !problem.includes(' false:'))
}

function requireNone(problems: string[]): void {
  if (problems.length > 0) throw new Error(problems.join('\n'))
}

/** Odds and resolver refuse alike — same code, status kind, pointer and words — or both go ahead. */
function refusedAlike(odds: () => unknown, resolver: () => unknown): 'both refuse' | 'both go ahead' {
  const fromOdds = refusalOf(odds)
  const fromResolver = refusalOf(resolver)
  if (JSON.stringify(fromOdds) !== JSON.stringify(fromResolver)) {
    throw new Error(
      `odds refusal ${JSON.stringify(fromOdds)} differs from the resolver's ${JSON.stringify(fromResolver)}`,
    )
  }
  return fromOdds === null ? 'both go ahead' : 'both refuse'
}

// ---------------------------------------------------------------- arbitraries

const meterArb = fc.constantFrom('helplessness', 'isolation', 'self', 'unnatural', 'violence')
const gaugeArb = fc.record({ hardened: fc.integer({ min: 0, max: 9 }), failed: fc.integer({ min: 0, max: 5 }) })

/** `value` once in `every` draws, otherwise nothing (`absent`). */
const sometimes = <T, A>(value: fc.Arbitrary<T>, every: number, absent: A) =>
  fc.oneof({ arbitrary: fc.constant(absent), weight: every - 1 }, { arbitrary: value, weight: 1 })

const passionArb = sometimes(fc.record({ text: fc.constant('A passion'), flipFlopUsed: fc.boolean() }), 4, null).map(
  (passion) => passion,
)

const sheetArb = fc.record({
  meters: fc.record({
    helplessness: gaugeArb,
    isolation: gaugeArb,
    self: gaugeArb,
    unnatural: gaugeArb,
    violence: gaugeArb,
  }),
  identities: fc.uniqueArray(
    fc.record({
      name: fc.constantFrom('Cop', 'Monk', 'Nurse'),
      rating: fc.integer({ min: 0, max: 99 }),
      features: fc.array(
        fc.oneof(
          meterArb.map((meter) => ({ type: 'resists-shock', meter })),
          fc.constantFrom('status', 'fitness').map((ability) => ({ type: 'substitutes', ability })),
          fc.constant({ type: 'therapeutic' }),
        ),
        { maxLength: 2 },
      ),
    }),
    { selector: (identity) => identity.name, maxLength: 3 },
  ),
  passions: fc.record({ fear: passionArb, rage: passionArb, noble: passionArb }),
  relationships: fc.constant([
    { name: 'Dr. Okafor', rating: 4 },
    { name: 'Sam', rating: 60 },
  ]),
  stressed: sometimes(
    fc.record({
      meter: meterArb,
      response: fc.constantFrom('panic', 'paralysis', 'frenzy', 'pending'),
      cause: fc.constant(null),
    }),
    8,
    null,
  ),
})

const withoutAbsent = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined))

/** Mostly checks the rules accept (low ranks, few named identities), sometimes ones they refuse. */
const requestArb = fc
  .record({
    meter: meterArb,
    rank: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 5, max: 10 })),
    identity: sometimes(fc.constantFrom('Cop', 'Monk', 'Ghost'), 6, undefined),
    passion: sometimes(fc.constantFrom('fear', 'rage', 'noble'), 3, undefined),
    trigger: sometimes(fc.constantFrom('kill-in-fight', 'Conflagration'), 8, undefined),
    response: sometimes(fc.constantFrom('panic', 'frenzy'), 3, undefined),
  })
  .map(withoutAbsent)

// ---------------------------------------------------------------- properties: the odds are the resolver's, face by face

t.test(
  'Property: a stress check’s stated odds are exactly the resolver’s outcomes over all 100 faces, and it refuses what the resolver refuses',
  async (t) => {
    const seen = { refused: 0, avoided: 0, automatic: 0, rolled: 0 }
    fc.assert(
      fc.property(sheetArb, requestArb, (input, request) => {
        const sheet = sheetOf(input)
        const alike = refusedAlike(
          () => oddsFor('stress-check', sheet, request),
          () =>
            resolveChecked(shockMeters, action('stress-check'), {
              sheet,
              request,
              dice: { source: 'seeded', seed: 's' },
            }),
        )
        if (alike === 'both refuse') {
          seen.refused++
          return
        }
        const odds = oddsFor('stress-check', sheet, request)
        const leaves = enumerate((faces) => resolve('stress-check', sheet, request, faces).outcome)
        if (odds.avoidedBecause !== null) seen.avoided++
        else if (odds.automaticFailure) seen.automatic++
        else seen.rolled++
        requireNone([
          ...disagreements(listedAs(odds.outcomes, 'outcome'), tally(leaves, endingOf), 'outcome'),
          ...notchDisagreements(leaves, odds, 'check'),
        ])
      }),
      { numRuns: 400 },
    )
    t.ok(seen.rolled > 50 && seen.avoided > 20 && seen.refused > 20, `every path was met: ${JSON.stringify(seen)}`)
  },
)

/**
 * A character a passion can help: every passion on the sheet (a flip-flop sometimes spent), a
 * meter hardened below the rank so the check is rolled, and now and then burned out.
 */
const passionateArb = fc
  .record({
    hardened: fc.integer({ min: 0, max: 5 }),
    failed: fc.integer({ min: 0, max: 4 }),
    burnedOut: sometimes(fc.constant(true), 3, false),
    spent: fc.record({ fear: fc.boolean(), rage: fc.boolean(), noble: fc.boolean() }),
    rating: fc.integer({ min: 0, max: 99 }),
  })
  .map(({ hardened, failed, burnedOut, spent, rating }) =>
    sheetOf({
      meters: meters(burnedOut ? 7 : 1, { violence: { hardened, failed } }),
      identities: [resists('Soldier', rating, 'violence')],
      passions: Object.fromEntries(
        Object.entries(spent).map(([passion, flipFlopUsed]) => [passion, { text: 'A passion', flipFlopUsed }]),
      ),
    }),
  )
const passionateCheckArb = fc
  .record({ rank: fc.integer({ min: 6, max: 10 }), passion: sometimes(fc.constantFrom('fear', 'rage'), 2, undefined) })
  .map((request) => withoutAbsent({ meter: 'violence', ...request }))
const passionArb3 = fc.constantFrom('fear', 'rage', 'noble')

/** The rules' answer to a change made after a failed roll (00 fails against any rating) must be the stated `because`. */
function requireSameRefusal(
  sheet: ShockMetersSheet,
  request: unknown,
  change: string,
  passion: string,
  because: string,
) {
  const afterFailure = resolve('stress-check', sheet, request, [100]).sheet
  const answer = refusalOf(() => resolve(change, afterFailure, { passion }, [50]))
  if (answer?.message !== because)
    throw new Error(`because ${JSON.stringify(because)}, the rules say ${JSON.stringify(answer)}`)
}

t.test(
  'Property: the odds after a passion re-roll are the resolver’s over every first roll and every re-roll (re-rolling each failure)',
  async (t) => {
    const seen = { compared: 0, refused: 0 }
    fc.assert(
      fc.property(passionateArb, passionateCheckArb, passionArb3, (sheet, request, passion) => {
        const entry = oddsFor('stress-check', sheet, request).passions.find((each: Odds) => each.passion === passion)
        if (!entry.reroll.usable) {
          requireSameRefusal(sheet, request, 'passion-reroll', passion, entry.reroll.because)
          seen.refused++
          return
        }
        // The first roll is resolved once per face; every re-roll after it goes through the resolver.
        const firsts = new Map<number, ReturnType<typeof resolve>>()
        const leaves = enumerate((faces) => {
          const face = faces[0]
          const first =
            face === undefined
              ? resolve('stress-check', sheet, request, faces)
              : (firsts.get(face) ?? resolve('stress-check', sheet, request, [face]))
          if (face !== undefined) firsts.set(face, first)
          if (first.outcome.result !== 'failed') return first.outcome
          return resolve('passion-reroll', first.sheet, { passion }, faces.slice(first.dice.length)).outcome.check
        })
        seen.compared++
        requireNone([
          ...disagreements(listedAs(entry.reroll.odds.outcomes, 'tier'), tally(leaves, endingOf), 're-roll tier'),
          ...notchDisagreements(leaves, entry.reroll.odds, 're-roll'),
        ])
      }),
      { numRuns: 24 },
    )
    t.ok(
      seen.compared >= 8 && seen.refused >= 1,
      `re-rolls compared face by face, refusals matched: ${JSON.stringify(seen)}`,
    )
  },
)

t.test(
  'Property: the odds after a flip-flop are the resolver’s over all 100 faces (flip-flopping each failure the swap would pass)',
  async (t) => {
    const seen = { compared: 0, refused: 0 }
    fc.assert(
      fc.property(passionateArb, passionateCheckArb, passionArb3, (sheet, request, passion) => {
        const entry = oddsFor('stress-check', sheet, request).passions.find((each: Odds) => each.passion === passion)
        if (!entry.flipFlop.usable) {
          requireSameRefusal(sheet, request, 'passion-flip-flop', passion, entry.flipFlop.because)
          seen.refused++
          return
        }
        const leaves = enumerate((faces) => {
          const first = resolve('stress-check', sheet, request, faces)
          if (first.outcome.result !== 'failed') return first.outcome
          const swapped = resolve('passion-flip-flop', first.sheet, { passion }, []).outcome.check
          return swapped.result === 'passed' ? swapped : first.outcome
        })
        seen.compared++
        requireNone([
          ...disagreements(listedAs(entry.flipFlop.odds.outcomes, 'tier'), tally(leaves, endingOf), 'flip-flop tier'),
          ...notchDisagreements(leaves, entry.flipFlop.odds, 'flip-flop'),
        ])
      }),
      { numRuns: 200 },
    )
    t.ok(
      seen.compared > 35 && seen.refused > 20,
      `flip-flops compared face by face, refusals matched: ${JSON.stringify(seen)}`,
    )
  },
)

/** A sheet after a stress check whose face is chosen, and perhaps what came after it: what passions and therapy act on. */
const afterCheckArb = fc
  .tuple(
    passionateArb,
    passionateCheckArb,
    fc.integer({ min: 1, max: 100 }),
    fc.constantFrom('nothing', 'nothing', 'new-session', 'passion-reroll', 'therapy-assistance', 'stress-response'),
  )
  .map(([sheet, request, face, then]) => {
    const after = resolve('stress-check', sheet, request, [face]).sheet
    const next: Record<string, unknown> = {
      'new-session': {},
      'passion-reroll': { passion: 'noble' },
      'therapy-assistance': { identity: 'Trauma Nurse', rating: 50 },
      'stress-response': { response: 'panic' },
    }
    if (then === 'nothing' || refusalOf(() => resolve(then, after, next[then], [face])) !== null) return after
    return resolve(then, after, next[then], [face]).sheet
  })

t.test(
  'Property: the passion-reroll action’s odds are the resolver’s over all 100 faces, refusals alike',
  async (t) => {
    const seen = { refused: 0, compared: 0 }
    fc.assert(
      fc.property(
        afterCheckArb,
        fc.option(fc.constantFrom('fear', 'rage', 'noble'), { nil: undefined }),
        (sheet, passion) => {
          const request = passion === undefined ? {} : { passion }
          if (
            refusedAlike(
              () => oddsFor('passion-reroll', sheet, request),
              () => resolve('passion-reroll', sheet, request, [50]),
            ) === 'both refuse'
          ) {
            seen.refused++
            return
          }
          const odds = oddsFor('passion-reroll', sheet, request)
          const leaves = enumerate((faces) => resolve('passion-reroll', sheet, request, faces).outcome.check)
          seen.compared++
          requireNone([
            ...disagreements(listedAs(odds.outcomes, 'tier'), tally(leaves, endingOf), 'tier'),
            ...notchDisagreements(leaves, odds, 're-roll'),
          ])
        },
      ),
      { numRuns: 300 },
    )
    t.ok(seen.compared > 20 && seen.refused > 20, `both paths met: ${JSON.stringify(seen)}`)
  },
)

t.test('Property: the passion-flip-flop action’s odds are certain, and what the resolver does', async (t) => {
  const seen = { refused: 0, compared: 0 }
  fc.assert(
    fc.property(
      afterCheckArb,
      fc.option(fc.constantFrom('fear', 'rage', 'noble'), { nil: undefined }),
      (sheet, passion) => {
        const request = passion === undefined ? {} : { passion }
        if (
          refusedAlike(
            () => oddsFor('passion-flip-flop', sheet, request),
            () => resolve('passion-flip-flop', sheet, request, []),
          ) === 'both refuse'
        ) {
          seen.refused++
          return
        }
        const odds = oddsFor('passion-flip-flop', sheet, request)
        const leaves = enumerate((faces) => resolve('passion-flip-flop', sheet, request, faces).outcome.check)
        seen.compared++
        if (leaves.length !== 1) throw new Error(`a flip-flop rolls no die, yet ${leaves.length} face sequences`)
        if (odds.flipped.face !== leaves[0]!.result.face) throw new Error('the flipped face is not the resolver’s')
        requireNone([
          ...disagreements(listedAs(odds.outcomes, 'tier'), tally(leaves, endingOf), 'tier'),
          ...notchDisagreements(leaves, odds, 'flip-flop'),
        ])
      },
    ),
    { numRuns: 300 },
  )
  t.ok(seen.compared > 20 && seen.refused > 20, `both paths met: ${JSON.stringify(seen)}`)
})

t.test(
  'Property: therapy-assistance odds are the resolver’s over every therapy face and, after a fumble, every face of the Self check',
  async (t) => {
    const seen = { refused: 0, compared: 0, selfCheckRolled: 0 }
    const requestArb = fc
      .record({
        identity: fc.constant('Trauma Nurse'),
        rating: fc.integer({ min: 0, max: 99 }),
        relationship: sometimes(fc.constantFrom('Dr. Okafor', 'Sam', 'Nobody'), 2, undefined),
        consent: sometimes(fc.boolean(), 2, undefined),
        selfCheckRank: sometimes(fc.constantFrom(2, 3), 2, undefined),
        selfCheckResponse: sometimes(fc.constant('panic'), 2, undefined),
      })
      .map(withoutAbsent)
    fc.assert(
      fc.property(afterCheckArb, fc.boolean(), requestArb, (after, calm, request) => {
        // Without the stressed state the fumble's Self check is rolled rather than avoided.
        const sheet = calm ? sheetOf({ ...after, stressed: null }) : after
        if (
          refusedAlike(
            () => oddsFor('therapy-assistance', sheet, request),
            () => resolve('therapy-assistance', sheet, request, [50]),
          ) === 'both refuse'
        ) {
          seen.refused++
          return
        }
        const odds = oddsFor('therapy-assistance', sheet, request)
        const leaves = enumerate((faces) => resolve('therapy-assistance', sheet, request, faces))
        seen.compared++
        const fumbles = leaves.filter((leaf) => leaf.result.outcome.effect === 'self-check')
        const selfChecks = fumbles.map((leaf) => ({ ...leaf, chance: times(leaf.chance, fraction(100, 1)) }))
        if (odds.selfCheck.defence !== null) seen.selfCheckRolled++
        requireNone([
          ...disagreements(
            listedAs(odds.tiers, 'tier'),
            tally(leaves, (resolved) => resolved.outcome.tier),
            'tier',
          ),
          ...disagreements(
            listedAs(odds.effects, 'effect'),
            tally(leaves, (resolved) => resolved.outcome.effect),
            'effect',
          ),
          ...disagreements(
            [{ key: 'true', fraction: odds.relationshipFallsToZero.fraction }],
            tally(leaves, (resolved) => String(resolved.followUps.length > 0)),
            'relationship at 0%',
          ).filter((problem) => !problem.includes(' false:')),
          // Given the fumble (1 face in 100), the Self check's own chances.
          ...disagreements(
            listedAs(odds.selfCheck.outcomes, 'outcome'),
            tally(selfChecks, (resolved) => endingOf(resolved.outcome.selfCheck)),
            'Self check',
          ),
        ])
      }),
      { numRuns: 400 },
    )
    t.ok(
      seen.compared > 30 && seen.refused > 30 && seen.selfCheckRolled >= 3,
      `every path met: ${JSON.stringify(seen)}`,
    )
  },
)

// ---------------------------------------------------------------- named rules

const soldier = { passions, identities: [resists('Soldier', 45, 'violence')] }
const chanceOf = (odds: Odds, outcome: string) =>
  odds.outcomes.find((entry: Odds) => (entry.outcome ?? entry.tier) === outcome)?.probability.fraction

t.test(
  '"Succeeds when roll ≤ rating; 01 is a critical, 00 a fumble, doubles are matched": a rating of 45 passes on 45 faces of 100',
  async (t) => {
    const odds = oddsFor('stress-check', soldier, { meter: 'violence', rank: 4 })
    t.same(
      odds.defence,
      { kind: 'identity', name: 'Soldier', rating: 45 },
      'defended by the identity that resists Violence',
    )
    t.equal(chanceOf(odds, 'critical'), '1/100', '01 is the one critical')
    t.equal(chanceOf(odds, 'matched-success'), '1/25', '11, 22, 33, 44: four matched successes')
    t.equal(chanceOf(odds, 'success'), '2/5', '02–45 less the four doubles: 40 plain successes')
    t.equal(chanceOf(odds, 'matched-failure'), '1/20', '55 … 99: five matched failures')
    t.equal(chanceOf(odds, 'fumble'), '1/100', '00 is the one fumble')
    t.equal(chanceOf(odds, 'failure'), '49/100', '46–99 less the five doubles: 49 plain failures')
    t.equal(odds.pass.fraction, '9/20', 'pass: 45 faces of 100')
    t.same(odds.pass, { fraction: '9/20', percent: 45 }, 'and 45 % for display')
    t.equal(odds.fifthFailedNotch.fraction, '0/1', 'no failed notch yet: a failure cannot be the fifth')
    t.equal(
      odds.summary,
      'Violence 4 vs Soldier 45: passes 9/20 (45%), fails 11/20 (55%); with a re-roll on a failure (Fear, Rage, Noble), passes 279/400 (69.75%)',
      'summary',
    )
  },
)

t.test('"A rating of 0": only 01, a critical, passes', async (t) => {
  const odds = oddsFor('stress-check', { identities: [resists('Wreck', 0, 'self')] }, { meter: 'self', rank: 3 })
  t.equal(odds.pass.fraction, '1/100', 'one face in a hundred')
  t.equal(chanceOf(odds, 'critical'), '1/100', 'and it is the critical')
})

t.test('"Hardened: at least as many hardened notches as the stress rank" — avoided for certain', async (t) => {
  const odds = oddsFor(
    'stress-check',
    { meters: meters(1, { violence: { hardened: 4 } }) },
    { meter: 'violence', rank: 4 },
  )
  t.equal(odds.avoidedBecause, 'hardened', 'avoided by hardening')
  t.equal(chanceOf(odds, 'avoided'), '1/1', 'probability 1')
  t.equal(odds.defence, null, 'nothing is rolled')
  t.same([odds.pass.fraction, odds.fail.fraction], ['0/1', '0/1'], 'neither passed nor failed')
  t.match(odds.summary, /avoided for certain/, 'the summary says so')
})

t.test('"A rank-10 check is never avoided by hardening": nine hardened notches still roll', async (t) => {
  const odds = oddsFor(
    'stress-check',
    { meters: meters(1, { violence: { hardened: 9 } }) },
    { meter: 'violence', rank: 10 },
  )
  t.equal(odds.avoidedBecause, null, 'not avoided')
  t.equal(chanceOf(odds, 'avoided'), '0/1', 'avoided is listed, at 0')
})

t.test(
  '"Stressed: automatically avoids stress checks while dealing with a prior one" — avoided for certain',
  async (t) => {
    const odds = oddsFor(
      'stress-check',
      { stressed: { meter: 'self', response: 'panic', cause: null } },
      { meter: 'violence', rank: 4 },
    )
    t.equal(odds.avoidedBecause, 'stressed', 'avoided, already stressed')
    t.equal(chanceOf(odds, 'avoided'), '1/1', 'probability 1')
  },
)

t.test(
  '"Broken: five failed notches … automatically fail it" — a failure for certain, and no fifth notch again',
  async (t) => {
    const odds = oddsFor(
      'stress-check',
      { passions, meters: meters(1, { violence: { hardened: 1, failed: 5 } }) },
      { meter: 'violence', rank: 4 },
    )
    t.equal(odds.automaticFailure, true, 'automatic failure')
    t.equal(chanceOf(odds, 'automatic-failure'), '1/1', 'probability 1')
    t.equal(odds.fail.fraction, '1/1', 'fails for certain')
    t.equal(odds.fifthFailedNotch.fraction, '0/1', 'the meter already holds five: no new trauma')
    t.ok(
      odds.passions.every((entry: Odds) => !entry.reroll.usable && /no roll to change/.test(entry.reroll.because)),
      'no passion can change a check that was not rolled',
    )
  },
)

t.test(
  '"When a character reaches five failed notches … mental trauma": at four, every failure is the fifth',
  async (t) => {
    const odds = oddsFor(
      'stress-check',
      { meters: meters(1, { violence: { hardened: 1, failed: 4 } }) },
      { meter: 'violence', rank: 4 },
    )
    t.equal(odds.fifthFailedNotch.fraction, odds.fail.fraction, 'the chance of trauma is the chance of failing')
    t.equal(odds.fail.fraction, '2/5', 'Fitness 60 fails on 40 faces')
  },
)

t.test(
  '"They cannot bring their passions into play … until therapy" — burned out, no re-roll or flip-flop',
  async (t) => {
    const odds = oddsFor('stress-check', { passions, meters: meters(5) }, { meter: 'violence', rank: 6 })
    t.equal(odds.passions.length, 3, 'every passion on the sheet is listed')
    for (const entry of odds.passions) {
      t.equal(entry.reroll.usable, false, `${entry.passion}: no re-roll`)
      t.match(entry.reroll.because, /burned out/, `${entry.passion}: says burned out`)
      t.equal(entry.reroll.odds, null, `${entry.passion}: no odds for it`)
      t.equal(entry.flipFlop.usable, false, `${entry.passion}: no flip-flop`)
    }
  },
)

t.test('A flip-flop "once per passion per session": a spent one is not offered, the re-roll still is', async (t) => {
  const odds = oddsFor(
    'stress-check',
    { ...soldier, passions: { ...passions, rage: { text: 'Bullies', flipFlopUsed: true } } },
    { meter: 'violence', rank: 4, passion: 'rage' },
  )
  const rage = odds.passions.find((entry: Odds) => entry.passion === 'rage')
  t.equal(rage.named, true, 'rage is the passion in play')
  t.equal(rage.flipFlop.usable, false, 'its flip-flop is spent')
  t.match(rage.flipFlop.because, /already flip-flopped a roll this session/, 'and the rules’ words say why')
  t.equal(rage.reroll.usable, true, 'a re-roll is still allowed')
  const fear = odds.passions.find((entry: Odds) => entry.passion === 'fear')
  t.equal(fear.flipFlop.usable, true, 'fear still has its flip-flop')
  t.equal(
    fear.flipFlop.odds.pass.fraction,
    '33/50',
    'against 45, swapping the digits passes 21 more faces (e.g. 73 → 37)',
  )
})

t.test(
  'A stress check while a response is pending is refused by the odds as by the roll: 409 RESPONSE_PENDING',
  async (t) => {
    const sheet = resolve('stress-check', soldier, { meter: 'violence', rank: 4 }, [88]).sheet
    const answer = refusalOf(() => oddsFor('stress-check', sheet, { meter: 'self', rank: 3 }))
    t.match(answer, { code: 'RESPONSE_PENDING', kind: 'conflict' }, 'refused as a conflict, naming the decision')
  },
)

t.test('A passion re-roll is a fresh d100 against the same defence; the roll it replaces is named', async (t) => {
  const sheet = resolve('stress-check', soldier, { meter: 'violence', rank: 4, passion: 'fear' }, [73]).sheet
  const odds = oddsFor('passion-reroll', sheet, {})
  t.same(odds.replaces, { face: 73, reading: '73', tier: 'failure' }, 'the failed 73')
  t.equal(odds.pass.fraction, '9/20', 'passes on 45 faces of 100, like the first roll')
  t.equal(
    odds.summary,
    'Fear passion re-rolls 73 (failure) vs Soldier 45: passes 9/20 (45%), fails 11/20 (55%)',
    'summary',
  )
})

t.test('A flip-flop "swaps the digits, 73 → 37": a pass for certain', async (t) => {
  const sheet = resolve('stress-check', soldier, { meter: 'violence', rank: 4, passion: 'fear' }, [73]).sheet
  const odds = oddsFor('passion-flip-flop', sheet, {})
  t.same(odds.flipped, { face: 37, reading: '37', tier: 'success' }, '37 against 45')
  t.equal(chanceOf(odds, 'success'), '1/1', 'certain')
  t.equal(odds.pass.fraction, '1/1', 'passes for certain')
})

t.test(
  'Therapy, immediate assistance: success hardens the notch, matched or critical erases it, fumble brings a Self check',
  async (t) => {
    const sheet = resolve('stress-check', soldier, { meter: 'violence', rank: 4 }, [73]).sheet
    const odds = oddsFor('therapy-assistance', sheet, { identity: 'Trauma Nurse', rating: 55, consent: false })
    const effect = (name: string) => odds.effects.find((entry: Odds) => entry.effect === name).probability.fraction
    t.equal(effect('notch-erased'), '3/50', '01 and 11–55 doubles: 6 faces erase the notch')
    t.equal(effect('declined'), '49/100', 'a plain success the patient declines')
    t.equal(effect('notch-hardened'), '0/1', 'so nothing hardens')
    t.equal(effect('none'), '11/25', 'failures, and matched failures without a relationship named')
    t.equal(effect('self-check'), '1/100', '00: the patient faces a Self check')
    t.equal(odds.selfCheck.avoidedBecause, 'stressed', 'which the stressed patient avoids')
  },
)
