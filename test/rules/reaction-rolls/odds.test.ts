import fc from 'fast-check'
import t from 'tap'
import { Value } from 'typebox/value'
import { reactionRolls } from '../../../src/rules/reaction-rolls/index.js'
import { oddsOf } from '../../../src/rules/rule-set.js'
import { resolveChecked } from '../resolve-checked.js'
import { disagreements, enumerate, refusalOf, tally } from '../enumerate.js'
import { roll, rollAction } from './helpers.js'

type Odds = Record<string, any>

function oddsFor(sheet: unknown, request: unknown, settings: unknown = {}): Odds {
  const odds = oddsOf(reactionRolls, rollAction, { sheet, request, settings })
  if (!Value.Check(rollAction.odds!.schema, odds)) {
    throw new Error(
      `the odds do not fit their schema: ${JSON.stringify([...Value.Errors(rollAction.odds!.schema, odds)][0])}`,
    )
  }
  return odds
}

const chance = (entries: Odds[], key: string, name: string) =>
  entries.find((entry) => entry[key] === name)?.probability.fraction

const settingsArb = fc.record({ emotionTopStage: fc.integer({ min: 1, max: 4 }), xpTrackLength: fc.constant(5) })

const scenarioArb = settingsArb.chain((settings) =>
  fc.record({
    settings: fc.constant(settings),
    sheet: fc.record({
      abilities: fc.record({
        agility: fc.record({ dice: fc.constantFrom('d4', 'd6', 'd8', 'd10', 'd12') }),
        composure: fc.record({ dice: fc.constantFrom('d4', 'd12') }),
      }),
      emotions: fc.record({
        anger: fc.integer({ min: 0, max: settings.emotionTopStage }),
        fear: fc.integer({ min: 0, max: settings.emotionTopStage }),
        sadness: fc.integer({ min: 0, max: settings.emotionTopStage }),
        guilt: fc.integer({ min: 0, max: settings.emotionTopStage }),
      }),
      pendingRetrieval: fc.oneof(
        { arbitrary: fc.constant(null), weight: 9 },
        { arbitrary: fc.constant({ ability: 'agility', dice: 'd6', pressure: 4, result: 3 }), weight: 1 },
      ),
    }),
    request: fc
      .record({
        ability: fc.constantFrom('agility', 'composure', 'stealth', undefined),
        pressure: fc.constantFrom(4, 6, 8),
        advantage: fc.boolean(),
        disadvantage: fc.boolean(),
        modifiers: fc
          .subarray(['environment', 'actors', 'means', 'condition', 'means'])
          .chain((sources) =>
            fc.tuple(
              ...sources.map((source) =>
                fc.record({ source: fc.constant(source), weight: fc.constantFrom(-2, -1, 1, 2) }),
              ),
            ),
          ),
        resist: fc.constantFrom(true, true, true, false),
        retrieve: fc.constantFrom(
          undefined,
          { decision: 'decline' },
          { decision: 'raise', emotion: 'fear' },
          { decision: 'raise' },
        ),
      })
      .map((request) => Object.fromEntries(Object.entries(request).filter(([, value]) => value !== undefined))),
  }),
)

t.test(
  'Property: the stated bands and verdicts are the resolver’s over every face (N faces, or N² pairs with an edge), and it refuses what the resolver refuses',
  async (t) => {
    const seen = { refused: 0, compared: 0, pairs: 0, unresisted: 0 }
    fc.assert(
      fc.property(scenarioArb, ({ sheet, request, settings }) => {
        const fromOdds = refusalOf(() => oddsFor(sheet, request, settings))
        const fromRoll = refusalOf(() =>
          resolveChecked(reactionRolls, rollAction, {
            sheet,
            request,
            settings,
            dice: { source: 'seeded', seed: 'odds' },
          }),
        )
        if (JSON.stringify(fromOdds) !== JSON.stringify(fromRoll))
          throw new Error(`odds refuse ${JSON.stringify(fromOdds)}, the roll ${JSON.stringify(fromRoll)}`)
        if (fromOdds !== null) {
          seen.refused++
          return
        }
        const odds = oddsFor(sheet, request, settings)
        const leaves = enumerate((faces) => roll(request, faces, sheet, settings))
        seen.compared++
        if (leaves[0]!.faces.length === 2) seen.pairs++
        if (!odds.resisted) seen.unresisted++
        const rolled = leaves.filter((leaf) => leaf.result.outcome.band !== null)
        const problems = [
          ...disagreements(
            odds.verdicts.map((entry: Odds) => ({ key: entry.verdict, fraction: entry.probability.fraction })),
            tally(leaves, (resolved) => resolved.outcome.verdict),
            'verdict',
          ),
          ...(odds.resisted
            ? disagreements(
                odds.bands.map((entry: Odds) => ({ key: entry.band, fraction: entry.probability.fraction })),
                tally(rolled, (resolved) => resolved.outcome.band!),
                'band',
              )
            : odds.bands.some((entry: Odds) => entry.probability.fraction !== '0/1')
              ? ['an event let unfold rolls nothing, yet a band has a chance']
              : []),
        ]
        // Retrieving every retrievable result: the resolver's own retrieval, when an emotion can be
        // raised before the roll (a roll's own `retrieve` may already have raised one in its result).
        const raisable = Object.entries(sheet.emotions)
          .filter(([, stage]) => stage < settings.emotionTopStage)
          .map(([emotion]) => emotion)
        const retrieved = enumerate((faces) =>
          roll(
            {
              ...request,
              retrieve: raisable.length > 0 ? { decision: 'raise', emotion: raisable[0] } : { decision: 'decline' },
            },
            faces,
            sheet,
            settings,
          ),
        )
        if (odds.resisted) {
          problems.push(
            ...disagreements(
              [{ key: 'success', fraction: odds.successIfRetrieved.probability.fraction }],
              tally(retrieved, (resolved) => resolved.outcome.verdict),
              'success if retrieved',
            ).filter((problem) => !problem.includes(' failure:')),
          )
        }
        if (odds.successIfRetrieved.possible !== raisable.length > 0)
          problems.push('`possible` is not whether an emotion can rise')
        if (problems.length > 0) throw new Error(problems.join('\n'))
      }),
      { numRuns: 500 },
    )
    t.ok(
      seen.compared > 60 && seen.refused > 50 && seen.pairs > 15 && seen.unresisted > 10,
      `every path met: ${JSON.stringify(seen)}`,
    )
  },
)

t.test('"Pressure 4: failure ≤ 2, retrievable 3, success ≥ 4" on a d6: 1/3, 1/6, 1/2', async (t) => {
  const odds = oddsFor({}, { ability: 'agility', pressure: 4 })
  t.equal(chance(odds.bands, 'band', 'failure'), '1/3', 'faces 1 and 2 fail')
  t.equal(chance(odds.bands, 'band', 'retrievable'), '1/6', 'face 3 is retrievable')
  t.equal(chance(odds.bands, 'band', 'success'), '1/2', 'faces 4, 5 and 6 succeed')
  t.equal(chance(odds.verdicts, 'verdict', 'pending'), '1/6', 'without `retrieve`, the 3 waits for the player')
  t.same(odds.successIfRetrieved.probability, { fraction: '2/3', percent: 66.67 }, 'success if the 3 is retrieved')
  t.equal(
    odds.summary,
    'Agility d6 vs pressure 4: success 1/2 (50%), retrievable 1/6 (16.67%), failure 1/3 (33.33%); success if retrieved 2/3 (66.67%)',
    'summary',
  )
})

t.test('"If they roll with Advantage, they keep the highest": two d6 reach 4 or more on 27 pairs of 36', async (t) => {
  const odds = oddsFor({}, { ability: 'agility', pressure: 4, advantage: true })
  t.equal(odds.edge, 'advantage', 'advantage')
  t.equal(chance(odds.bands, 'band', 'success'), '3/4', '36 − 9 pairs with both dice at 3 or less')
  t.equal(chance(odds.bands, 'band', 'failure'), '1/9', 'both dice at 2 or less: 4 pairs')
})

t.test('"With Disadvantage, they keep the lowest": pressure 8 on a d12, a −1 condition', async (t) => {
  const odds = oddsFor(
    { abilities: { endurance: { dice: 'd12' } } },
    { ability: 'endurance', pressure: 8, disadvantage: true, modifiers: [{ source: 'condition', weight: -1 }] },
  )
  t.equal(odds.modifierTotal, -1, 'the modifier is added after the lower die is kept')
  t.equal(chance(odds.bands, 'band', 'success'), '1/9', 'both dice at 9 or more: 4 × 4 = 16 pairs of 144')
})

t.test('Advantage and disadvantage "both cancel": one die', async (t) => {
  const odds = oddsFor({}, { ability: 'agility', pressure: 6, advantage: true, disadvantage: true })
  t.equal(odds.edge, 'none', 'no edge')
  t.equal(chance(odds.bands, 'band', 'success'), '1/6', 'only the 6')
})

t.test(
  '"An emotion at its top stage cannot be raised": with every emotion there, no retrieval, the 3 fails',
  async (t) => {
    const odds = oddsFor(
      { emotions: { anger: 2, fear: 2, sadness: 2, guilt: 2 } },
      { ability: 'agility', pressure: 4 },
      { emotionTopStage: 2 },
    )
    t.equal(odds.successIfRetrieved.possible, false, 'no retrieval possible')
    t.match(odds.successIfRetrieved.because, /top stage 2/, 'and why')
    t.equal(odds.successIfRetrieved.probability.fraction, '1/2', 'success only on 4–6')
    t.equal(chance(odds.verdicts, 'verdict', 'failure'), '1/2', 'the retrievable 3 fails with the 1 and 2')
    t.equal(chance(odds.verdicts, 'verdict', 'pending'), '0/1', 'nothing waits')
  },
)

t.test('"The player may choose to let the event unfold": a failure for certain, nothing rolled', async (t) => {
  const odds = oddsFor({}, { ability: 'composure', pressure: 8, resist: false })
  t.equal(odds.resisted, false, 'not resisted')
  t.equal(chance(odds.verdicts, 'verdict', 'failure'), '1/1', 'failure, certain')
  t.ok(
    odds.bands.every((entry: Odds) => entry.probability.fraction === '0/1'),
    'no band: no die',
  )
})

t.test(
  'A reaction roll while a retrieval is pending is refused by the odds as by the roll: 409 RETRIEVAL_PENDING',
  async (t) => {
    const pending = roll({ ability: 'agility', pressure: 4 }, [3]).sheet
    t.match(
      refusalOf(() => oddsFor(pending, { ability: 'agility', pressure: 4 })),
      { code: 'RETRIEVAL_PENDING', kind: 'conflict' },
      'refused as a conflict',
    )
  },
)
