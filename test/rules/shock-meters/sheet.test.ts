import t from 'tap'
import { RuleError } from '../../../src/rules/errors.js'
import { shockMeters } from '../../../src/rules/shock-meters/index.js'
import { meters, sheetOf } from './helpers.js'

const METERS = ['helplessness', 'isolation', 'self', 'unnatural', 'violence'] as const

t.test('New character: "starts with 1 hardened notch in each meter" and no failed notches', async (t) => {
  const sheet = sheetOf({})
  for (const meter of METERS) {
    t.same(sheet.meters[meter], { hardened: 1, failed: 0 }, `${meter} starts at 1 hardened, 0 failed`)
  }
  t.equal(sheet.totalHardened, 5, 'total hardened of a new character is 5')
  t.equal(sheet.burnedOut, false, 'a new character is not burned out')
  t.equal(sheet.stressed, null, 'not stressed')
  t.same(sheet.disorders, [], 'no disorders')
  t.same(sheet.passions, { fear: null, rage: null, noble: null }, 'no passions until written down')
  t.equal(sheet.lastCheck, null, 'no stress check yet')
})

// Upbeat = 65 − 5 × hardened, downbeat = 15 + 5 × hardened (DESIGN.md), written out per meter.
const abilityPairs = [
  ['helplessness', 'fitness', 'dodge'],
  ['isolation', 'status', 'pursuit'],
  ['self', 'knowledge', 'lie'],
  ['unnatural', 'notice', 'secrecy'],
  ['violence', 'connect', 'struggle'],
] as const
const expectedAt = { 0: [65, 15], 1: [60, 20], 4: [45, 35], 9: [20, 60] } as const

for (const [meter, upbeat, downbeat] of abilityPairs) {
  t.test(
    `Hardened notch: "upbeat ability diminished by 5%, downbeat increased by 5%" — ${meter} → ${upbeat}/${downbeat}`,
    async (t) => {
      for (const [hardened, [up, down]] of Object.entries(expectedAt)) {
        const sheet = sheetOf({ meters: meters(1, { [meter]: { hardened: Number(hardened) } }) })
        t.equal(sheet.abilities[upbeat], up, `${upbeat} at ${hardened} hardened ${meter} is ${up}`)
        t.equal(sheet.abilities[downbeat], down, `${downbeat} at ${hardened} hardened ${meter} is ${down}`)
      }
    },
  )
}

t.test('Derived fields are recomputed, whatever the caller sent back in them', async (t) => {
  const sheet = sheetOf({ meters: meters(2), abilities: { fitness: 999 }, totalHardened: -3, burnedOut: true })
  t.equal(sheet.abilities.fitness, 55, 'fitness recomputed from 2 hardened helplessness')
  t.equal(sheet.totalHardened, 10, 'total hardened recomputed')
  t.equal(sheet.burnedOut, false, 'burned out recomputed')
})

t.test('Burn-out: "25 hardened notches across all meters" — 24 is not, 25 is', async (t) => {
  t.equal(sheetOf({ meters: meters(5, { violence: { hardened: 4 } }) }).burnedOut, false, '24 hardened: not burned out')
  t.equal(sheetOf({ meters: meters(5) }).burnedOut, true, '25 hardened: burned out')
})

t.test('Burn-out: two meters fully hardened at 9 (DESIGN.md), one is not enough', async (t) => {
  const one = sheetOf({ meters: meters(0, { self: { hardened: 9 } }) })
  t.equal(one.burnedOut, false, 'one full meter (total 9) is not burned out')
  const two = sheetOf({ meters: meters(0, { self: { hardened: 9 }, violence: { hardened: 9 } }) })
  t.equal(two.totalHardened, 18, 'total is under 25')
  t.equal(two.burnedOut, true, 'two full meters: burned out')
})

t.test('Sheet bounds: hardened 0..9 and failed 0..5, a bad field is named with its pointer', async (t) => {
  const cases = [
    [{ meters: { self: { hardened: 10 } } }, '/sheet/meters/self/hardened'],
    [{ meters: { violence: { failed: 6 } } }, '/sheet/meters/violence/failed'],
    [{ identities: [{ name: 'X', rating: 100 }] }, '/sheet/identities/0/rating'],
    [{ stressed: { meter: 'self', response: 'cry' } }, '/sheet/stressed/response'],
    [{ colour: 'blue' }, '/sheet/colour'],
  ] as const
  for (const [input, pointer] of cases) {
    try {
      sheetOf(input)
      t.fail(`${pointer} should be refused`)
    } catch (error) {
      t.ok(error instanceof RuleError, 'a RuleError')
      const ruleError = error as RuleError
      t.equal(ruleError.code, 'SHEET_INVALID', 'code SHEET_INVALID')
      t.equal(ruleError.kind, 'invalid', '422')
      t.equal(ruleError.pointer, pointer, `pointer ${pointer}`)
    }
  }
})

t.test('Identity and relationship names are unique on a sheet', async (t) => {
  t.throws(
    () =>
      sheetOf({
        identities: [
          { name: 'Cop', rating: 30 },
          { name: 'Cop', rating: 40 },
        ],
      }),
    { code: 'SHEET_INVALID', pointer: '/sheet/identities/1/name' },
    'duplicate identity refused',
  )
  t.throws(
    () =>
      sheetOf({
        relationships: [
          { name: 'Ma', rating: 30 },
          { name: 'Ma', rating: 40 },
        ],
      }),
    { code: 'SHEET_INVALID', pointer: '/sheet/relationships/1/name' },
    'duplicate relationship refused',
  )
})

t.test('Settings: the rule set has none, an empty object is fine and anything else is refused', async (t) => {
  t.same(shockMeters.normalizeSettings({}), {}, 'empty settings')
  t.throws(
    () => shockMeters.normalizeSettings({ x: 1 }),
    { code: 'SETTINGS_INVALID', pointer: '/settings/x' },
    'unknown setting refused',
  )
})

t.test('normalizeSheet does not mutate its input', async (t) => {
  const input = { meters: { self: { hardened: 3 } } }
  const copy = structuredClone(input)
  sheetOf(input)
  t.same(input, copy, 'input untouched')
})
