import t from 'tap'
import { Value } from 'typebox/value'
import { exampleSheets, shockMeters } from '../../../src/rules/shock-meters/index.js'
import { run } from './helpers.js'

t.test('The rule set is exported as shockMeters with id shock-meters and the nine actions', async (t) => {
  t.equal(shockMeters.id, 'shock-meters', 'id')
  t.same(
    shockMeters.actions.map((action) => [action.name, action.actor, action.kind]),
    [
      ['stress-check', 'player', 'roll'],
      ['passion-reroll', 'player', 'roll'],
      ['passion-flip-flop', 'player', 'roll'],
      ['stress-response', 'player', 'decision'],
      ['record-disorder', 'gm', 'decision'],
      ['clear-stressed', 'gm', 'gm'],
      ['new-session', 'gm', 'gm'],
      ['therapy-assistance', 'player', 'roll'],
      ['ongoing-treatment', 'gm', 'gm'],
    ],
    'names, actors and kinds',
  )
})

t.test('Every schema has a unique $id and closed objects', async (t) => {
  const ids = [
    shockMeters.sheet,
    shockMeters.settings,
    ...shockMeters.actions.flatMap((action) => [action.request, action.outcome]),
  ].map((schema) => (schema as { $id?: string }).$id)
  const distinct = new Set(ids)
  t.ok(
    ids.every((id) => typeof id === 'string' && /^[A-Z][A-Za-z]+$/.test(id)),
    'PascalCase $ids',
  )
  t.equal(distinct.size, ids.length - 1, 'unique, except the passion outcome shared by re-roll and flip-flop')
  for (const action of shockMeters.actions) {
    t.equal(
      (action.request as { additionalProperties?: boolean }).additionalProperties,
      false,
      `${action.name} request is closed`,
    )
  }
})

t.test('The default sheet is valid against the published sheet schema', async (t) => {
  t.ok(Value.Check(shockMeters.sheet, shockMeters.normalizeSheet({})), 'valid')
})

for (const action of shockMeters.actions) {
  t.test(
    `Request examples of ${action.name} work (on the default sheet, or the example sheet for follow-ups)`,
    async (t) => {
      const examples = (action.request as { examples?: unknown[] }).examples ?? []
      t.ok(examples.length > 0, 'has an example')
      for (const example of examples) {
        t.ok(Value.Check(action.request, example), 'the example matches its schema')
        t.same(
          action.exampleSheet ?? {},
          action.exampleSheet === undefined ? {} : exampleSheets[action.name],
          'the action carries its example sheet',
        )
        const resolved = run(action.name, action.exampleSheet ?? {}, example, { source: 'seeded', seed: 'swagger' })
        t.ok(resolved.summary.length > 0, `resolves: ${resolved.summary}`)
      }
    },
  )
}

t.test('Examples that need no prior state work on the default sheet itself', async (t) => {
  for (const name of ['stress-check', 'record-disorder', 'new-session', 'ongoing-treatment']) {
    const action = shockMeters.actions.find((candidate) => candidate.name === name)!
    for (const example of (action.request as { examples: unknown[] }).examples) {
      t.doesNotThrow(() => run(name, {}, example, { source: 'seeded', seed: 'swagger' }), `${name} example on {}`)
    }
  }
})
