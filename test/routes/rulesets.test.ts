import t from 'tap'
import { RULE_SETS } from '../../src/rules/index.js'
import { buildTestApp } from '../helpers/build-app.js'

const PROBLEM = 'application/problem+json'

// Read-only endpoints: one app serves every test.
const app = await buildTestApp(t)

interface ActionSummary {
  name: string
  kind: string
  actor: string
  resolvePath: string
}

t.test('GET /v1/rulesets lists the three rule sets with their actions', async (t) => {
  const res = await app.inject({ url: '/v1/rulesets' })
  t.equal(res.statusCode, 200, '200 OK')
  t.match(res.headers['content-type'], 'application/json', 'JSON')
  const { data } = res.json<{ data: { id: string; actions: ActionSummary[] }[] }>()
  t.same(
    data.map((ruleSet) => ruleSet.id),
    ['shock-meters', 'trauma-table', 'reaction-rolls'],
    'the three rule sets, in order',
  )
  for (const ruleSet of RULE_SETS) {
    const listed = data.find((entry) => entry.id === ruleSet.id)
    t.same(
      listed?.actions.map((action) => action.name),
      ruleSet.actions.map((action) => action.name),
      `${ruleSet.id} lists every action`,
    )
    for (const action of listed?.actions ?? []) {
      t.equal(action.resolvePath, `/v1/resolve/${ruleSet.id}/${action.name}`, `${action.name} names its resolve path`)
      t.ok(['roll', 'decision', 'gm'].includes(action.kind), `${action.name} has a kind`)
      t.ok(['player', 'gm'].includes(action.actor), `${action.name} has an actor`)
    }
  }
  t.ok(
    data.find((entry) => entry.id === 'shock-meters')?.actions.some((action) => action.name === 'stress-check'),
    'shock-meters offers stress-check',
  )
  t.ok(
    data.find((entry) => entry.id === 'trauma-table')?.actions.some((action) => action.name === 'trauma-roll'),
    'trauma-table offers trauma-roll',
  )
  t.ok(
    data.find((entry) => entry.id === 'reaction-rolls')?.actions.some((action) => action.name === 'reaction-roll'),
    'reaction-rolls offers reaction-roll',
  )
})

for (const ruleSet of RULE_SETS) {
  t.test(`GET /v1/rulesets/${ruleSet.id} returns its sheet schema, default sheet, settings and tables`, async (t) => {
    const res = await app.inject({ url: `/v1/rulesets/${ruleSet.id}` })
    t.equal(res.statusCode, 200, '200 OK')
    const body = res.json()
    t.equal(body.id, ruleSet.id, 'the id')
    t.equal(body.version, ruleSet.version, 'the version')
    t.equal(body.actions.length, ruleSet.actions.length, 'every action')
    t.equal(body.sheetSchema.$id, (ruleSet.sheet as { $id?: string }).$id, 'the sheet schema')
    t.equal(body.sheetSchema.type, 'object', 'the sheet schema is a JSON Schema object')
    t.same(body.defaultSheet, ruleSet.normalizeSheet({}), 'the default sheet is normalizeSheet({})')
    t.equal(body.settingsSchema.$id, (ruleSet.settings as { $id?: string }).$id, 'the settings schema')
    t.same(Object.keys(body.tables).sort(), Object.keys(ruleSet.tables).sort(), 'every table')
  })
}

t.test('GET /v1/rulesets/trauma-table publishes the 35 rows, Psychosis at 151–199', async (t) => {
  const { tables } = (await app.inject({ url: '/v1/rulesets/trauma-table' })).json()
  const rows = tables.rows as { id: string; name: string; min: number | null; max: number | null }[]
  t.equal(rows.length, 35, '35 rows from Unharmed to Fractured Spirit')
  t.match(rows[0], { name: 'Unharmed', min: null, max: 0 }, 'Unharmed (≤ 0) first')
  t.match(rows.at(-1), { name: 'Fractured Spirit', min: 200, max: null }, 'Fractured Spirit (≥ 200) last')
  t.match(
    rows.find((row) => row.name === 'Psychosis'),
    { min: 151, max: 199 },
    'Psychosis covers 151–199',
  )
})

t.test('GET /v1/rulesets/shock-meters publishes the stress-check trigger catalog', async (t) => {
  const { tables } = (await app.inject({ url: '/v1/rulesets/shock-meters' })).json()
  const triggers = tables.triggers as { id: string; meters: unknown }[]
  t.ok(Array.isArray(triggers) && triggers.length > 10, `the catalog has its triggers (${triggers.length})`)
  t.ok(
    triggers.some((trigger) => trigger.id === 'kill-in-fight'),
    'the catalog holds the trigger used in the stress-check example',
  )
  for (const trigger of triggers) t.ok(trigger.id && trigger.meters, `${trigger.id} has an id and meters`)
})

t.test('GET /v1/rulesets publishes the names a GM may type: trigger and row aliases', async (t) => {
  const shock = (await app.inject({ url: '/v1/rulesets/shock-meters' })).json()
  t.match(
    (shock.tables.triggers as { id: string }[]).find((trigger) => trigger.id === 'set-on-fire'),
    { aliases: ['Conflagration', 'On fire'] },
    'set-on-fire is also the rulebook’s "Conflagration"',
  )
  const trauma = (await app.inject({ url: '/v1/rulesets/trauma-table' })).json()
  t.match(
    (trauma.tables.rows as { id: string }[]).find((row) => row.id === 'heart-palpatations'),
    { name: 'Heart Palpatations', aliases: ['Heart Palpitations'] },
    'the table’s spelling, and the usual one',
  )
})

t.test('GET /v1/rulesets/reaction-rolls publishes the pressures 4, 6 and 8', async (t) => {
  const { tables } = (await app.inject({ url: '/v1/rulesets/reaction-rolls' })).json()
  t.same(
    tables.pressures.map((row: { pressure: number }) => row.pressure),
    [4, 6, 8],
    'standard, intense, extreme',
  )
  t.match(tables.pressures[1], { pressure: 6, failureAtMost: 3, successAtLeast: 6 }, 'pressure 6 bands')
})

t.test('GET /v1/rulesets/{unknown} is 404 problem+json naming the known ids', async (t) => {
  const res = await app.inject({ url: '/v1/rulesets/call-of-cthulhu' })
  t.equal(res.statusCode, 404, '404 Not Found')
  t.match(res.headers['content-type'], PROBLEM, 'problem+json')
  const body = res.json()
  t.match(body, { status: 404, code: 'NOT_FOUND' }, 'a not-found problem')
  t.match(body.detail, 'call-of-cthulhu', 'the detail repeats the unknown id')
  for (const id of ['shock-meters', 'trauma-table', 'reaction-rolls']) t.match(body.detail, id, `it names ${id}`)
})
