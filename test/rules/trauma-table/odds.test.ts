import fc from 'fast-check'
import t from 'tap'
import { Value } from 'typebox/value'
import { oddsOf } from '../../../src/rules/rule-set.js'
import { TRAUMA_TABLE } from '../../../src/rules/trauma-table/table.js'
import { disagreements, enumerate, refusalOf, tally } from '../enumerate.js'
import { run, sheetOf, traumaTable } from './helpers.js'

const traumaRoll = traumaTable.actions.find((action) => action.name === 'trauma-roll')!

type Odds = Record<string, any>

function oddsFor(sheet: unknown, request: unknown): Odds {
  const odds = oddsOf(traumaTable, traumaRoll, { sheet, request })
  if (!Value.Check(traumaRoll.odds!.schema, odds)) {
    throw new Error(
      `the odds do not fit their schema: ${JSON.stringify([...Value.Errors(traumaRoll.odds!.schema, odds)][0])}`,
    )
  }
  return odds
}

const chanceOf = (odds: Odds, row: string) => odds.rows.find((entry: Odds) => entry.row === row).probability.fraction

const sufferable = TRAUMA_TABLE.filter((row) => row.countsAsTrauma).map((row) => row.id)

const sheetArb = fc.record({
  scars: fc.integer({ min: 0, max: 6 }),
  traits: fc.record({ composure: fc.boolean(), poise: fc.boolean(), stoic: fc.boolean() }),
  encounterTraumas: fc.uniqueArray(fc.constantFrom(...sufferable), { maxLength: 8 }),
  pendingTrauma: fc.oneof(
    { arbitrary: fc.constant(null), weight: 9 },
    {
      arbitrary: fc.constant({
        face: 65,
        modifier: 0,
        total: 65,
        baseRow: 'depleted',
        shifts: [],
        netShift: 0,
        shiftedRow: 'depleted',
        clamped: null,
        repeats: [],
        finalRow: 'depleted',
      }),
      weight: 1,
    },
  ),
})

const extra = fc.array(fc.record({ steps: fc.integer({ min: 1, max: 4 }), reason: fc.constant('extra') }), {
  maxLength: 2,
})
const requestArb = fc
  .record({
    modifier: fc.oneof(fc.integer({ min: -120, max: 220 }), fc.integer({ min: -10, max: 10 })),
    source: fc.constantFrom('none', 'stressful', 'traumatic', 'maddening', 'deadly'),
    upgrades: extra,
    downgrades: extra,
    response: fc.constantFrom(undefined, 'accept', { ability: 'Not Today!' }),
  })
  .map((request) => Object.fromEntries(Object.entries(request).filter(([, value]) => value !== undefined)))

t.test(
  'Property: the stated chance of every row and status is the resolver’s over all 100 faces of the d100, and it refuses what the resolver refuses',
  async (t) => {
    const seen = { refused: 0, compared: 0, repeats: 0 }
    fc.assert(
      fc.property(sheetArb, requestArb, (input, request) => {
        const sheet = sheetOf(input as never)
        const fromOdds = refusalOf(() => oddsFor(sheet, request))
        const fromRoll = refusalOf(() => run('trauma-roll', sheet, request, { source: 'seeded', seed: 'odds' }))
        if (JSON.stringify(fromOdds) !== JSON.stringify(fromRoll))
          throw new Error(`odds refuse ${JSON.stringify(fromOdds)}, the roll ${JSON.stringify(fromRoll)}`)
        if (fromOdds !== null) {
          seen.refused++
          return
        }
        const odds = oddsFor(sheet, request)
        // The effect dice come after the row is found and cannot move it: each is held to a 1.
        const leaves = enumerate(
          (faces) => run('trauma-roll', sheet, request, faces).outcome as Odds,
          (die) => (die.purpose === 'trauma' ? undefined : 1),
        )
        if (leaves.length !== 100) throw new Error(`${leaves.length} face sequences, not one per face of the d100`)
        if (leaves.some((leaf) => leaf.result.roll.repeats.length > 0)) seen.repeats++
        seen.compared++
        const problems = [
          ...disagreements(
            odds.rows.map((entry: Odds) => ({ key: entry.row, fraction: entry.probability.fraction })),
            tally(leaves, (outcome) => outcome.roll.finalRow),
            'row',
          ),
          ...disagreements(
            odds.statuses.map((entry: Odds) => ({ key: entry.status, fraction: entry.probability.fraction })),
            tally(leaves, (outcome) => outcome.status),
            'status',
          ),
        ]
        if (problems.length > 0) throw new Error(problems.join('\n'))
        if (odds.netShift !== leaves[0]!.result.roll.netShift) throw new Error('the net shift is not the roll’s')
      }),
      { numRuns: 300 },
    )
    t.ok(seen.compared > 100 && seen.refused > 20 && seen.repeats > 20, `every path met: ${JSON.stringify(seen)}`)
  },
)

t.test(
  'Jim the Enforcer: "one Trauma in this Encounter … a pre-existing Scar" — two rows up, so 61–65 (Depleted) gives Heart Palpatations',
  async (t) => {
    const odds = oddsFor({ scars: 1, encounterTraumas: ['demoralized'] }, { modifier: 0 })
    t.equal(odds.netShift, 2, 'upgraded twice')
    t.equal(chanceOf(odds, 'heart-palpatations'), '1/20', 'the five faces of Depleted, moved two rows')
    t.equal(chanceOf(odds, 'depleted'), '1/20', 'and Depleted is what 51–55 (Flapped) becomes')
    t.equal(chanceOf(odds, 'unharmed'), '0/1', 'a d100 never totals 0 or less without a modifier')
    t.equal(chanceOf(odds, 'demoralized'), '0/1', 'Demoralized sits below every face moved up two rows')
  },
)

t.test('"One upgrade is the next row, not +5 points": 96–99 and 100 are one step each', async (t) => {
  const odds = oddsFor({ scars: 1 }, { modifier: 0 })
  t.equal(chanceOf(odds, 'dramatic-stress'), '1/20', '91–95 (Sleepless Night) move up to Dramatic Stress')
  t.equal(chanceOf(odds, 'hurtful-experience'), '1/25', '96–99 (Dramatic Stress) move up to Hurtful Experience')
  t.equal(chanceOf(odds, 'cyberware-feedback'), '1/100', '100 (Hurtful Experience) moves up to Cyberware Feedback')
})

t.test(
  '"Should you suffer a Trauma you have already received in the current Encounter, Upgrade it": Fazed is skipped for Dazed',
  async (t) => {
    const odds = oddsFor({ encounterTraumas: ['fazed'] }, { modifier: 0 })
    t.equal(odds.netShift, 1, 'one upgrade for the earlier trauma')
    t.equal(chanceOf(odds, 'fazed'), '0/1', 'Fazed, already suffered, cannot come up')
    t.equal(chanceOf(odds, 'dazed'), '1/10', 'Hazed and Fazed faces (6–15) both end on Dazed')
  },
)

t.test(
  '"Downgrade once from the Composure, Poise and Stoic Traits": three rows down, clamped at Unharmed',
  async (t) => {
    const odds = oddsFor({ traits: { composure: true, poise: true, stoic: true } }, { modifier: 0 })
    t.equal(odds.netShift, -3, 'three downgrades')
    t.equal(chanceOf(odds, 'unharmed'), '3/20', '1–15 (Demoralized, Hazed, Fazed) fall to Unharmed')
    t.same(
      odds.statuses.find((entry: Odds) => entry.status === 'unharmed').probability,
      { fraction: '3/20', percent: 15 },
      'Unharmed needs no answer',
    )
    t.equal(
      odds.statuses.find((entry: Odds) => entry.status === 'pending').probability.fraction,
      '17/20',
      'every other row waits for trauma-response (no `response` sent)',
    )
  },
)

t.test('The ends of the table: "0 or lower" is Unharmed for certain, "200+" Fractured Spirit', async (t) => {
  const low = oddsFor({}, { modifier: -100 })
  t.equal(chanceOf(low, 'unharmed'), '1/1', 'a total of 0 or less whatever the face')
  t.match(low.summary, /Unharmed for certain/, 'the summary says so')
  const high = oddsFor({ scars: 3 }, { modifier: 200, response: 'accept' })
  t.equal(chanceOf(high, 'fractured-spirit'), '1/1', 'upgrades past the last row stay on it')
  t.equal(
    high.statuses.find((entry: Odds) => entry.status === 'accepted').probability.fraction,
    '1/1',
    'accepted, as the request says',
  )
})

t.test(
  'A trauma roll while one waits for an answer is refused by the odds as by the roll: 409 TRAUMA_PENDING',
  async (t) => {
    const pending = run('trauma-roll', {}, { modifier: 0 }, [65]).sheet
    t.match(
      refusalOf(() => oddsFor(pending, { modifier: 0 })),
      { code: 'TRAUMA_PENDING', kind: 'conflict' },
      'refused',
    )
  },
)

t.test('The rows are listed in table order, every one, and add up to 1', async (t) => {
  const odds = oddsFor({ scars: 2 }, { modifier: 37 })
  t.same(
    odds.rows.map((entry: Odds) => entry.row),
    TRAUMA_TABLE.map((row) => row.id),
    'every row, lowest first',
  )
  const total = odds.rows.reduce((sum: number, entry: Odds) => sum + entry.probability.percent, 0)
  t.ok(Math.abs(total - 100) < 0.5, `the percents add up to 100 (${total})`)
  t.equal(
    odds.summary,
    'Trauma: d100 + 37, 2 rows up: Migraine to Heart Attack; 18 rows likeliest at 1/20 (5%) each, unharmed 0/1 (0%)',
    'summary',
  )
})
