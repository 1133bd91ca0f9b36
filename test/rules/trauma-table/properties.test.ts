import fc from 'fast-check'
import t from 'tap'
import { Value } from 'typebox/value'
import type { TraumaRollRecord, TraumaTableSheet } from '../../../src/rules/trauma-table/schemas.js'
import { TRAUMA_TABLE } from '../../../src/rules/trauma-table/table.js'
import { deepFreeze, run, traumaTable } from './helpers.js'

const sufferable = TRAUMA_TABLE.filter((row) => row.countsAsTrauma).map((row) => row.id)
const index = (id: string) => TRAUMA_TABLE.findIndex((row) => row.id === id)

const arbitrarySheet: fc.Arbitrary<Partial<TraumaTableSheet>> = fc.record({
  scars: fc.integer({ min: 0, max: 6 }),
  wounds: fc.integer({ min: 0, max: 6 }),
  traits: fc.record({ composure: fc.boolean(), poise: fc.boolean(), stoic: fc.boolean() }),
  encounterTraumas: fc.uniqueArray(fc.constantFrom(...sufferable), { maxLength: 6 }),
  lastingTraumas: fc.subarray([
    { id: 'over-stimulated' as const, name: 'Over-Stimulated', severity: 30, restHeals: true },
    { id: 'performance-anxiety' as const, name: 'Performance Anxiety', severity: 80, restHeals: false },
    { id: 'social-anxiety' as const, name: 'Social Anxiety', severity: 12, restHeals: false },
  ]),
  insomnia: fc.boolean(),
  sleeplessNight: fc.boolean(),
})

const arbitraryRoll = fc.record({
  modifier: fc.integer({ min: -120, max: 160 }),
  source: fc.constantFrom('none', 'stressful', 'traumatic', 'maddening'),
  upgrades: fc.array(fc.record({ steps: fc.integer({ min: 1, max: 3 }), reason: fc.constant('extra') }), {
    maxLength: 2,
  }),
  downgrades: fc.array(fc.record({ steps: fc.integer({ min: 1, max: 3 }), reason: fc.constant('extra') }), {
    maxLength: 2,
  }),
  response: fc.constantFrom('accept' as const, { ability: 'Not Today!' }),
})

const arbitraryStep = fc.oneof(
  arbitraryRoll.map((request) => ['trauma-roll', request] as const),
  fc.constant(['end-scene', {}] as const),
  fc.constant(['end-encounter', {}] as const),
  fc.constant(['end-cycle', {}] as const),
  fc
    .record({ health: fc.integer({ min: 0, max: 20 }), severity: fc.integer({ min: 0, max: 100 }) })
    .map((request) => ['rest', request] as const),
  fc
    .record({
      trauma: fc.constantFrom('performance-anxiety', 'social-anxiety', 'spacers-anxiety'),
      amount: fc.integer({ min: 1, max: 100 }),
    })
    .map((request) => ['socialise-ritual', request] as const),
)

t.test('Same seed, same result: a seeded trauma roll is reproducible', async (t) => {
  fc.assert(
    fc.property(arbitrarySheet, arbitraryRoll, fc.string({ minLength: 1, maxLength: 20 }), (sheet, request, seed) => {
      const first = run('trauma-roll', sheet, request, { source: 'seeded', seed })
      const second = run('trauma-roll', sheet, request, { source: 'seeded', seed })
      t.same(second, first, `seed ${seed} repeats`)
    }),
  )
})

t.test('Provided dice replay a server roll exactly', async (t) => {
  fc.assert(
    fc.property(arbitrarySheet, arbitraryRoll, (sheet, request) => {
      const server = run('trauma-roll', sheet, request, { source: 'server' })
      const replay = run(
        'trauma-roll',
        sheet,
        request,
        server.dice.map((die) => die.face),
      )
      t.same(
        [replay.outcome, replay.sheet, replay.summary],
        [server.outcome, server.sheet, server.summary],
        'same outcome, sheet and summary',
      )
    }),
  )
})

t.test('Resolvers never mutate their input', async (t) => {
  fc.assert(
    fc.property(arbitrarySheet, arbitraryStep, fc.string({ minLength: 1 }), (sheet, [name, request], seed) => {
      const frozenSheet = deepFreeze(structuredClone(sheet))
      const frozenRequest = deepFreeze(structuredClone(request))
      const normalized = deepFreeze(traumaTable.normalizeSheet(sheet))
      run(name, frozenSheet, frozenRequest, { source: 'seeded', seed })
      const action = traumaTable.actions.find((candidate) => candidate.name === name)!
      action.resolve(normalized, frozenRequest, { roll: (sides) => Math.ceil(sides / 2) }, {})
      t.same(frozenSheet, sheet, `${name} leaves the sheet alone`)
      t.same(frozenRequest, request, `${name} leaves the request alone`)
    }),
  )
})

t.test('Over any sequence of actions: counts never negative, severity never below 0, sheet always valid', async (t) => {
  fc.assert(
    fc.property(
      arbitrarySheet,
      fc.array(arbitraryStep, { maxLength: 12 }),
      fc.string({ minLength: 1 }),
      (start, steps, seed) => {
        let sheet = traumaTable.normalizeSheet(start)
        for (const [i, [name, request]] of steps.entries()) {
          sheet = run(name, sheet, request, { source: 'seeded', seed: `${seed}-${i}` }).sheet
          if (!Value.Check(traumaTable.sheet, sheet)) return false
          const counts = [sheet.scars, sheet.wounds, sheet.experience, sheet.healthLost, sheet.nauseatedInstances]
          if (counts.some((count) => count < 0)) return false
          if (sheet.lastingTraumas.some((trauma) => trauma.severity < 0)) return false
          if (sheet.encounterTraumas.includes('unharmed')) return false
        }
        return true
      },
    ),
  )
  t.pass('held for every generated sequence')
})

t.test('Scars and wounds only ever grow through traumas', async (t) => {
  fc.assert(
    fc.property(arbitrarySheet, arbitraryRoll, fc.string({ minLength: 1 }), (sheet, request, seed) => {
      const before = traumaTable.normalizeSheet(sheet)
      const after = run('trauma-roll', sheet, request, { source: 'seeded', seed }).sheet
      return after.scars >= before.scars && after.wounds >= before.wounds
    }),
  )
  t.pass('never lowered')
})

t.test(
  'The final row never leaves the table and is never a trauma already suffered (except the last row)',
  async (t) => {
    fc.assert(
      fc.property(arbitrarySheet, arbitraryRoll, fc.string({ minLength: 1 }), (sheet, request, seed) => {
        const normalized = traumaTable.normalizeSheet(sheet)
        const { response: _settledLater, ...pendingRequest } = request
        const result = run('trauma-roll', sheet, pendingRequest, { source: 'seeded', seed })
        const roll = (result.outcome as { roll: TraumaRollRecord }).roll
        const final = index(roll.finalRow)
        const expectedShifted = Math.min(TRAUMA_TABLE.length - 1, Math.max(0, index(roll.baseRow) + roll.netShift))
        return (
          final >= 0 &&
          index(roll.shiftedRow) === expectedShifted &&
          final >= expectedShifted &&
          (final === TRAUMA_TABLE.length - 1 || !normalized.encounterTraumas.includes(roll.finalRow))
        )
      }),
    )
    t.pass('held')
  },
)
