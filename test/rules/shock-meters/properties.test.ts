import fc from 'fast-check'
import t from 'tap'
import { RuleError } from '../../../src/rules/errors.js'
import { shockMeters, type ShockMetersSheet } from '../../../src/rules/shock-meters/index.js'
import { deepFreeze, run, sheetOf } from './helpers.js'

const meter = fc.constantFrom('helplessness', 'isolation', 'self', 'unnatural', 'violence')
const response = fc.constantFrom('panic', 'paralysis', 'frenzy')
const gauge = fc.record({ hardened: fc.integer({ min: 0, max: 9 }), failed: fc.integer({ min: 0, max: 5 }) })

const sheetInput = fc.record({
  meters: fc.record({ helplessness: gauge, isolation: gauge, self: gauge, unnatural: gauge, violence: gauge }),
  identities: fc.uniqueArray(
    fc.record({
      name: fc.constantFrom('Cop', 'Monk', 'Nurse', 'Thief'),
      rating: fc.integer({ min: 0, max: 99 }),
      features: fc.array(
        fc.oneof(
          meter.map((m) => ({ type: 'resists-shock', meter: m })),
          fc.constant({ type: 'therapeutic' }),
          fc.constantFrom('status', 'fitness', 'notice').map((ability) => ({ type: 'substitutes', ability })),
        ),
        { maxLength: 2 },
      ),
    }),
    { selector: (identity) => identity.name, maxLength: 3 },
  ),
  passions: fc.constant({ fear: { text: 'Dark' }, rage: { text: 'Liars' }, noble: { text: 'Family' } }),
  relationships: fc.constant([{ name: 'Dr. Okafor', rating: 12 }]),
})

const step = fc.oneof(
  fc.record({
    name: fc.constant('stress-check'),
    request: fc.record(
      { meter, rank: fc.integer({ min: 1, max: 10 }), response: fc.option(response, { nil: undefined }) },
      { requiredKeys: ['meter', 'rank'] },
    ),
  }),
  fc.record({
    name: fc.constant('passion-reroll'),
    request: fc.record({ passion: fc.constantFrom('fear', 'rage', 'noble') }),
  }),
  fc.record({
    name: fc.constant('passion-flip-flop'),
    request: fc.record({ passion: fc.constantFrom('fear', 'rage', 'noble') }),
  }),
  fc.record({ name: fc.constant('stress-response'), request: fc.record({ response }) }),
  fc.record({ name: fc.constant('record-disorder'), request: fc.constant({ name: 'Phobia' }) }),
  fc.record({ name: fc.constant('clear-stressed'), request: fc.constant({}) }),
  fc.record({ name: fc.constant('new-session'), request: fc.constant({}) }),
  fc.record({
    name: fc.constant('therapy-assistance'),
    request: fc.record({
      identity: fc.constant('Nurse'),
      rating: fc.integer({ min: 0, max: 99 }),
      relationship: fc.constant('Dr. Okafor'),
      selfCheckRank: fc.constantFrom(2, 3),
    }),
  }),
)

function applyAll(start: ShockMetersSheet, steps: { name: string; request: unknown }[], seed: string) {
  let sheet = start
  const log: unknown[] = []
  steps.forEach((entry, index) => {
    try {
      const resolved = run(entry.name, sheet, entry.request, { source: 'seeded', seed: `${seed}-${index}` })
      sheet = resolved.sheet
      log.push([resolved.outcome, resolved.dice, resolved.summary])
    } catch (error) {
      if (!(error instanceof RuleError)) throw error
      log.push(['refused', error.code])
    }
  })
  return { sheet, log }
}

function requireConsistent(sheet: ShockMetersSheet): void {
  for (const [name, value] of Object.entries(sheet.meters)) {
    if (value.hardened < 0 || value.hardened > 9) throw new Error(`${name} hardened ${value.hardened} out of 0..9`)
    if (value.failed < 0 || value.failed > 5) throw new Error(`${name} failed ${value.failed} out of 0..5`)
  }
  if (sheet.abilities.fitness + sheet.abilities.dodge !== 80) throw new Error('upbeat + downbeat must stay 80')
  if (
    sheet.burnedOut !==
    (sheet.totalHardened >= 25 || Object.values(sheet.meters).filter((m) => m.hardened === 9).length >= 2)
  ) {
    throw new Error('burned out does not match the gauge')
  }
}

t.test('Property: notches never leave 0..9 hardened / 0..5 failed, whatever sequence of actions', async (t) => {
  fc.assert(
    fc.property(sheetInput, fc.array(step, { maxLength: 12 }), fc.string(), (input, steps, seed) => {
      const { sheet } = applyAll(sheetOf(input), steps, seed)
      requireConsistent(sheet)
    }),
    { numRuns: 300 },
  )
  t.pass('300 random sequences stayed in bounds with consistent derived fields')
})

t.test('Property: the same seed gives the same result', async (t) => {
  fc.assert(
    fc.property(sheetInput, fc.array(step, { maxLength: 8 }), fc.string(), (input, steps, seed) => {
      const first = applyAll(sheetOf(input), steps, seed)
      const second = applyAll(sheetOf(input), steps, seed)
      return JSON.stringify(first) === JSON.stringify(second)
    }),
    { numRuns: 150 },
  )
  t.pass('seeded runs are reproducible')
})

t.test('Property: provided dice replaying a server roll’s faces reproduce its outcome', async (t) => {
  fc.assert(
    fc.property(sheetInput, step, (input, entry) => {
      let server
      try {
        server = run(entry.name, input, entry.request, { source: 'server' })
      } catch (error) {
        if (error instanceof RuleError) return true
        throw error
      }
      const replay = run(
        entry.name,
        input,
        entry.request,
        server.dice.map((die) => die.face),
      )
      return (
        JSON.stringify([replay.outcome, replay.sheet, replay.summary]) ===
          JSON.stringify([server.outcome, server.sheet, server.summary]) &&
        replay.dice.every(
          (die, index) => die.face === server.dice[index]?.face && die.purpose === server.dice[index]?.purpose,
        )
      )
    }),
    { numRuns: 300 },
  )
  t.pass('replayed faces give the same outcome')
})

t.test('Property: resolvers never mutate their input (deep-frozen sheet and request)', async (t) => {
  fc.assert(
    fc.property(sheetInput, fc.array(step, { minLength: 1, maxLength: 6 }), fc.string(), (input, steps, seed) => {
      // Reach a varied state first, then freeze it and apply one more action.
      const { sheet } = applyAll(sheetOf(input), steps.slice(0, -1), seed)
      const last = steps.at(-1)!
      const frozenSheet = deepFreeze(structuredClone(sheet))
      const frozenRequest = deepFreeze(structuredClone(last.request))
      const before = JSON.stringify([frozenSheet, frozenRequest])
      for (const action of shockMeters.actions) {
        if (action.name !== last.name) continue
        try {
          action.resolve(frozenSheet, frozenRequest, { roll: (sides) => Math.ceil(sides / 3) }, {})
        } catch (error) {
          if (!(error instanceof RuleError)) throw error
        }
      }
      return JSON.stringify([frozenSheet, frozenRequest]) === before
    }),
    { numRuns: 200 },
  )
  t.pass('inputs untouched')
})

t.test('Property: an avoided check changes no notch, stressed state, disorder or passion', async (t) => {
  fc.assert(
    fc.property(sheetInput, meter, fc.integer({ min: 1, max: 10 }), (input, m, rank) => {
      const sheet = sheetOf({ ...input, stressed: { meter: 'self', response: 'panic' } })
      const resolved = run('stress-check', sheet, { meter: m, rank }, [])
      return (
        resolved.outcome.result === 'avoided' &&
        JSON.stringify([
          resolved.sheet.meters,
          resolved.sheet.stressed,
          resolved.sheet.disorders,
          resolved.sheet.passions,
        ]) === JSON.stringify([sheet.meters, sheet.stressed, sheet.disorders, sheet.passions])
      )
    }),
    { numRuns: 200 },
  )
  t.pass('avoided checks leave the gauge alone')
})

t.test('Property: a passion re-roll or flip-flop leaves the sheet as if the new roll had been the first', async (t) => {
  fc.assert(
    fc.property(
      sheetInput,
      meter,
      fc.integer({ min: 1, max: 10 }),
      fc.integer({ min: 1, max: 100 }),
      fc.integer({ min: 1, max: 100 }),
      (input, m, rank, first, second) => {
        const sheet = sheetOf({
          ...input,
          meters: { ...input.meters, [m]: { hardened: 0, failed: Math.min(4, input.meters[m].failed) } },
          stressed: null,
        })
        if (sheet.burnedOut) return true
        const request = { meter: m, rank, passion: 'fear', response: 'panic', disorder: 'Phobia' }
        const rolled = run('stress-check', sheet, request, [first])
        if (rolled.sheet.burnedOut) return true
        const rerolled = run('passion-reroll', rolled.sheet, {}, [second])
        const direct = run('stress-check', sheet, request, [second])
        const strip = (s: ShockMetersSheet) => JSON.stringify({ ...s, lastCheck: null })
        return strip(rerolled.sheet) === strip(direct.sheet)
      },
    ),
    { numRuns: 300 },
  )
  t.pass('re-roll replaces the effects exactly')
})
