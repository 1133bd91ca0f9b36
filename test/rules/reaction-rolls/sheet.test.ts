import t from 'tap'
import { Value } from 'typebox/value'
import { reactionRolls } from '../../../src/rules/reaction-rolls/index.js'
import { ruleErrorOf, schemaMeta } from './helpers.js'

t.test(
  'A new sheet gets agility, dexterity, insight, composure and endurance at d6, emotions at 0, nothing pending',
  (t) => {
    const sheet = reactionRolls.normalizeSheet({})
    t.same(
      Object.keys(sheet.abilities),
      ['agility', 'dexterity', 'insight', 'composure', 'endurance'],
      'default abilities',
    )
    t.ok(
      Object.values(sheet.abilities).every((a) => a.dice === 'd6' && a.xp === 0 && !a.maxedOut && !a.crippled),
      'd6, no XP, no flags',
    )
    t.same(sheet.emotions, { anger: 0, fear: 0, sadness: 0, guilt: 0 }, 'emotions at stage 0')
    t.equal(sheet.pendingRetrieval, null, 'nothing pending')
    t.ok(Value.Check(reactionRolls.sheet, sheet), 'the normalized sheet matches the published schema')
    t.end()
  },
)

t.test('An ability needs only its dice class; xp and flags default', (t) => {
  const sheet = reactionRolls.normalizeSheet({ abilities: { 'sixth-sense': { dice: 'd10' } }, emotions: { fear: 2 } })
  t.same(sheet.abilities['sixth-sense'], { dice: 'd10', xp: 0, maxedOut: false, crippled: false }, 'defaults filled')
  t.same(sheet.emotions, { anger: 0, fear: 2, sadness: 0, guilt: 0 }, 'missing emotions filled')
  t.end()
})

t.test('normalizeSheet is idempotent and does not touch its input', (t) => {
  const input = { abilities: { agility: { dice: 'd8' } } }
  const once = reactionRolls.normalizeSheet(input)
  t.same(reactionRolls.normalizeSheet(once), once, 'normalizing twice changes nothing')
  t.same(input, { abilities: { agility: { dice: 'd8' } } }, 'input untouched')
  t.end()
})

t.test('A bad sheet is a SHEET_INVALID naming the first bad field', (t) => {
  const cases: [unknown, string][] = [
    [{ abilities: { agility: { dice: 'd7' } } }, '/sheet/abilities/agility/dice'],
    [{ abilities: { agility: { dice: 'd6', xp: -1 } } }, '/sheet/abilities/agility/xp'],
    [{ emotions: { anger: 21 } }, '/sheet/emotions/anger'],
    [{ emotions: { joy: 1 } }, '/sheet/emotions/joy'],
    [{ abilities: { Agility: { dice: 'd6' } } }, '/sheet/abilities/Agility'],
    [{ abilities: {} }, '/sheet/abilities'],
    [{ extra: true }, '/sheet/extra'],
    [
      { pendingRetrieval: { ability: 'stealth', dice: 'd6', pressure: 4, result: 3 } },
      '/sheet/pendingRetrieval/ability',
    ],
  ]
  for (const [input, pointer] of cases) {
    const error = ruleErrorOf(() => reactionRolls.normalizeSheet(input))
    t.equal(error?.code, 'SHEET_INVALID', `${JSON.stringify(input)} is invalid`)
    t.equal(error?.pointer, pointer, `pointer ${pointer}`)
  }
  t.end()
})

t.test('Settings: emotionTopStage defaults to 5 and xpTrackLength to 5, both within 1..20', (t) => {
  t.same(reactionRolls.normalizeSettings({}), { emotionTopStage: 5, xpTrackLength: 5 }, 'defaults')
  t.same(
    reactionRolls.normalizeSettings({ emotionTopStage: 8 }).emotionTopStage,
    8,
    'a campaign may raise the top stage',
  )
  for (const bad of [{ emotionTopStage: 0 }, { emotionTopStage: 21 }, { xpTrackLength: 0 }, { emotionTopStage: 2.5 }]) {
    const error = ruleErrorOf(() => reactionRolls.normalizeSettings(bad))
    t.equal(error?.pointer, `/settings/${Object.keys(bad)[0]}`, `${JSON.stringify(bad)} is refused`)
  }
  t.end()
})

t.test('Every reaction-roll example in the schema works against the default sheet', (t) => {
  const action = reactionRolls.actions.find((a) => a.name === 'reaction-roll')!
  const examples = schemaMeta(action.request).examples ?? []
  t.ok(examples.length > 0, 'has examples')
  for (const example of examples) {
    t.ok(Value.Check(action.request, example), `${JSON.stringify(example)} matches the request schema`)
    t.doesNotThrow(
      () =>
        action.resolve(
          reactionRolls.normalizeSheet({}),
          example,
          { roll: () => 1 },
          reactionRolls.normalizeSettings({}),
        ),
      'resolves',
    )
  }
  t.end()
})

t.test('Every reaction-retrieval example settles a pending retrieval', (t) => {
  const action = reactionRolls.actions.find((a) => a.name === 'reaction-retrieval')!
  const pending = reactionRolls.normalizeSheet({
    pendingRetrieval: { ability: 'agility', dice: 'd6', pressure: 4, result: 3 },
  })
  for (const example of schemaMeta(action.request).examples ?? []) {
    t.ok(Value.Check(action.request, example), `${JSON.stringify(example)} matches the request schema`)
    const result = action.resolve(pending, example, { roll: () => 1 }, reactionRolls.normalizeSettings({}))
    t.equal(result.sheet.pendingRetrieval, null, 'settled')
  }
  t.end()
})

t.test('Published schemas carry unique $ids and refuse unknown fields', (t) => {
  const schemas = [
    reactionRolls.sheet,
    reactionRolls.settings,
    ...reactionRolls.actions.flatMap((a) => [a.request, a.outcome]),
  ]
  const ids = schemas.map((schema) => schemaMeta(schema).$id)
  t.same(
    ids,
    [
      'ReactionRollsSheet',
      'ReactionRollsSettings',
      'ReactionRollRequest',
      'ReactionRollOutcome',
      'ReactionRetrievalRequest',
      'ReactionRetrievalOutcome',
    ],
    '$ids',
  )
  t.ok(
    schemas.every((schema) => schemaMeta(schema).additionalProperties === false),
    'additionalProperties: false everywhere',
  )
  t.end()
})
