import t from 'tap'
import { Value } from 'typebox/value'
import { run, sheetOf, traumaTable } from './helpers.js'

t.test('A fresh sheet: no scars, no traumas, nothing pending', async (t) => {
  const sheet = sheetOf()
  t.same(
    sheet,
    {
      scars: 0,
      wounds: 0,
      experience: 0,
      healthLost: 0,
      moraleStepsLost: 0,
      nauseatedInstances: 0,
      traits: { composure: false, poise: false, stoic: false },
      conditions: [],
      saveDisadvantages: [],
      behaviours: [],
      lastingTraumas: [],
      encounterTraumas: [],
      insomnia: false,
      sleeplessNight: false,
      pendingTrauma: null,
      traumasThisEncounter: 0,
      standingUpgrades: 0,
      standingDowngrades: 0,
    },
    'every field defaulted',
  )
  t.ok(Value.Check(traumaTable.sheet, sheet), 'and valid against the published schema')
})

t.test('Derived fields are recomputed, whatever the caller sends', async (t) => {
  const sheet = sheetOf({
    scars: 2,
    encounterTraumas: ['hazed'],
    traits: { composure: true, poise: false, stoic: true },
    traumasThisEncounter: 9,
    standingUpgrades: 9,
    standingDowngrades: 9,
  })
  t.same(
    [sheet.traumasThisEncounter, sheet.standingUpgrades, sheet.standingDowngrades],
    [1, 3, 2],
    '1 trauma, 2 scars + 1, two traits',
  )
})

t.test('A bad sheet is refused naming the first bad field', async (t) => {
  t.throws(
    () => sheetOf({ scars: -1 }),
    { code: 'SHEET_INVALID', kind: 'invalid', pointer: '/sheet/scars' },
    'negative scars',
  )
  t.throws(
    () => traumaTable.normalizeSheet({ mood: 'grim' }),
    { code: 'SHEET_INVALID', pointer: '/sheet/mood' },
    'unknown field',
  )
  t.throws(
    () =>
      traumaTable.normalizeSheet({
        lastingTraumas: [{ id: 'over-stimulated', name: 'Over-Stimulated', severity: -5, restHeals: true }],
      }),
    { code: 'SHEET_INVALID', pointer: '/sheet/lastingTraumas/0/severity' },
    'negative severity',
  )
  t.throws(
    () => traumaTable.normalizeSheet({ encounterTraumas: ['nope'] }),
    { code: 'SHEET_INVALID', pointer: /^\/sheet\/encounterTraumas\/0/ },
    'unknown row',
  )
})

t.test('Settings: there are none, and unknown ones are refused', async (t) => {
  t.same(traumaTable.normalizeSettings({}), {}, 'empty')
  t.throws(
    () => traumaTable.normalizeSettings({ harsh: true }),
    { code: 'SETTINGS_INVALID', pointer: '/settings/harsh' },
    'unknown setting',
  )
})

t.test('The rule set publishes its actions under the agreed names, actors and kinds', async (t) => {
  t.equal(traumaTable.id, 'trauma-table', 'id')
  t.same(
    traumaTable.actions.map((action) => [action.name, action.actor, action.kind]),
    [
      ['trauma-roll', 'player', 'roll'],
      ['trauma-response', 'player', 'decision'],
      ['end-scene', 'gm', 'gm'],
      ['end-encounter', 'gm', 'gm'],
      ['rest', 'gm', 'gm'],
      ['end-cycle', 'gm', 'gm'],
      ['socialise-ritual', 'gm', 'gm'],
    ],
    'actions',
  )
  const ids = [
    traumaTable.sheet,
    traumaTable.settings,
    ...traumaTable.actions.flatMap((action) => [action.request, action.outcome]),
  ].map((schema) => (schema as { $id?: string }).$id)
  t.equal(new Set(ids).size, ids.length, 'every schema has its own $id')
  t.ok(
    ids.every((id) => typeof id === 'string' && /^[A-Z][A-Za-z]+$/.test(id)),
    'PascalCase $ids',
  )
  t.same(JSON.parse(JSON.stringify(traumaTable.tables)), traumaTable.tables, 'tables are plain JSON')
})

t.test('Every request example works against the default sheet, and every outcome matches its schema', async (t) => {
  for (const action of traumaTable.actions) {
    const examples = (action.request as { examples?: unknown[] }).examples ?? []
    t.ok(examples.length > 0, `${action.name} has examples`)
    for (const example of examples) {
      t.ok(Value.Check(action.request, example), `${action.name} example is a valid request`)
      // A decision needs something to decide: roll first, as a GM would.
      const sheet = action.kind === 'decision' ? run('trauma-roll', {}, {}, [50]).sheet : {}
      const result = run(action.name, sheet, example, { source: 'seeded', seed: `example-${action.name}` })
      t.ok(
        Value.Check(action.outcome, result.outcome),
        `${action.name} outcome matches ${(action.outcome as { $id: string }).$id}`,
      )
      t.ok(Value.Check(traumaTable.sheet, result.sheet), `${action.name} returns a valid sheet`)
      t.ok(result.summary.length > 0, `${action.name} summary: ${result.summary}`)
    }
  }
})
