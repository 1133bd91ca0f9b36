import t from 'tap'
import { reactionRolls } from '../../../src/rules/reaction-rolls/index.js'
import { roll } from './helpers.js'

// Written out from the rules text's resolution table, independently of the rule set's data.
const expectedBands = [
  { pressure: 4, band: 'failure', results: [1, 2] },
  { pressure: 4, band: 'retrievable', results: [3] },
  { pressure: 4, band: 'success', results: [4, 5, 6, 7, 8, 9, 10, 11, 12] },
  { pressure: 6, band: 'failure', results: [1, 2, 3] },
  { pressure: 6, band: 'retrievable', results: [4, 5] },
  { pressure: 6, band: 'success', results: [6, 7, 8, 9, 10, 11, 12] },
  { pressure: 8, band: 'failure', results: [1, 2, 3, 4] },
  { pressure: 8, band: 'retrievable', results: [5, 6, 7] },
  { pressure: 8, band: 'success', results: [8, 9, 10, 11, 12] },
] as const

const d12 = { abilities: { endurance: { dice: 'd12' } } }

for (const { pressure, band, results } of expectedBands) {
  t.test(
    `Resolution table: pressure ${pressure}, ${band} for ${results.length > 3 ? `${results[0]}..${results.at(-1)}` : results.join(', ')}`,
    (t) => {
      for (const face of results) {
        const outcome = roll({ ability: 'endurance', pressure }, [face], d12).outcome
        t.equal(outcome.band, band, `a d12 showing ${face} against pressure ${pressure} is ${band}`)
      }
      const nudged = roll(
        { ability: 'endurance', pressure, modifiers: [{ source: 'means', weight: 1 }] },
        [results[0] - 1 || 1],
        d12,
      )
      t.ok(nudged.outcome.result !== null, 'modifiers give a result the bands classify too')
      t.end()
    },
  )
}

t.test('Pressure examples: 4 Standard, 6 Intense, 8 Extreme, with the band limits as data', (t) => {
  const rows = reactionRolls.tables.pressures as {
    pressure: number
    label: string
    failureAtMost: number
    successAtLeast: number
  }[]
  t.same(
    rows.map((row) => [row.pressure, row.label, row.failureAtMost, row.successAtLeast]),
    [
      [4, 'Standard', 2, 4],
      [6, 'Intense', 3, 6],
      [8, 'Extreme', 4, 8],
    ],
    'failure at most pressure/2, success from the pressure',
  )
  t.end()
})

for (const [emotion, label] of [
  ['anger', 'Anger'],
  ['fear', 'Fear'],
  ['sadness', 'Sadness'],
  ['guilt', 'Guilt'],
] as const) {
  t.test(`Emotion table: ${label}`, (t) => {
    const rows = reactionRolls.tables.emotions as { emotion: string; label: string; description: string }[]
    const row = rows.find((candidate) => candidate.emotion === emotion)
    t.equal(row?.label, label, 'label')
    t.ok((row?.description.length ?? 0) > 0, 'has a description in our own words')
    t.end()
  })
}

for (const source of ['environment', 'actors', 'means', 'condition']) {
  t.test(`Modifier source: ${source}`, (t) => {
    const rows = reactionRolls.tables.modifierSources as { source: string; examples: string[] }[]
    const row = rows.find((candidate) => candidate.source === source)
    t.ok(row, `${source} is listed`)
    t.ok((row?.examples.length ?? 0) > 0, 'with examples')
    t.end()
  })
}

t.test('Modifier weights: ±1 mild, ±2 defining', (t) => {
  t.same(
    (reactionRolls.tables.modifierWeights as { weights: number[]; impact: string }[]).map((row) => [
      row.weights,
      row.impact,
    ]),
    [
      [[-1, 1], 'mild'],
      [[-2, 2], 'defining'],
    ],
    'weights and impacts',
  )
  t.end()
})

t.test('Tables are plain JSON', (t) => {
  t.same(JSON.parse(JSON.stringify(reactionRolls.tables)), reactionRolls.tables, 'survive a JSON round trip')
  t.end()
})
