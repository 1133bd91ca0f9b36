import t from 'tap'
import { readFile } from 'node:fs/promises'
import { BUILT_IN, eventTypeOf, eventTypesOf } from '../../src/history/event-types.js'
import { RuleError } from '../../src/rules/errors.js'
import { RULE_SETS } from '../../src/rules/index.js'

const OPENAPI = new URL('../../openapi/openapi.json', import.meta.url)

t.test('every rule set records the built-in types and each of its actions, each declared once', async (t) => {
  for (const ruleSet of RULE_SETS) {
    const types = eventTypesOf(ruleSet).map((entry) => entry.type)
    t.same(
      types,
      [...Object.values(BUILT_IN).map((entry) => entry.type), ...ruleSet.actions.map((action) => action.name)],
      `${ruleSet.id}: the built-in types, then its actions`,
    )
    t.equal(new Set(types).size, types.length, `${ruleSet.id}: no type is declared twice`)
    for (const type of types) t.equal(eventTypeOf(ruleSet, type).type, type, `${ruleSet.id}: ${type} is found by name`)
  }
})

t.test('a type the campaign’s rule set does not record is refused as an unknown action', async (t) => {
  const [shockMeters, traumaTable] = RULE_SETS.filter((ruleSet) => ruleSet.id !== 'reaction-rolls')
  t.throws(() => eventTypeOf(shockMeters!, 'no-such-action'), RuleError, 'an unknown type is a rules refusal')
  t.throws(
    () => eventTypeOf(shockMeters!, traumaTable!.actions[0]!.name),
    { code: 'UNKNOWN_ACTION' },
    'another rule set’s action is not a type of this one',
  )
})

t.test('the API document describes every built-in type and names those a webhook may subscribe to', async (t) => {
  const document = JSON.parse(await readFile(OPENAPI, 'utf8'))
  const schemas = document.components.schemas
  const webhookFilter: string = schemas.WebhookEndpoint.properties.eventTypes.description
  for (const entry of Object.values(BUILT_IN)) {
    // `Event` is a union by type (src/schemas/typed.ts): each type's schema describes its `type`.
    const branch = schemas.Event.discriminator.mapping[entry.type].split('/').at(-1)
    t.equal(schemas[branch].properties.type.description, entry.description, `Event.type describes ${entry.type}`)
    t.equal(webhookFilter.includes(`\`${entry.type}\``), entry.subscribable, `the webhook filter names ${entry.type}`)
  }
})

t.test(
  'only events that show something of their own can be revealed; only a reveal and the campaign’s own events are always public',
  async (t) => {
    const revealable = Object.values(BUILT_IN)
      .filter((entry) => entry.revealable)
      .map((entry) => entry.type)
    t.same(revealable, ['character.updated'], 'of the built-in types, a GM’s edit alone')
    for (const ruleSet of RULE_SETS) {
      for (const action of ruleSet.actions) t.ok(eventTypeOf(ruleSet, action.name).revealable, `${action.name}`)
    }
    t.same(
      Object.values(BUILT_IN)
        .filter((entry) => entry.visibility === 'public')
        .map((entry) => entry.type),
      ['reveal', 'campaign.updated'],
      'the reveal, and a change of the campaign’s name and settings (which every key reads), are public by their type',
    )
  },
)

t.test(
  'campaign.updated is about the campaign; every other type, each action included, about a character',
  async (t) => {
    for (const ruleSet of RULE_SETS) {
      t.same(
        eventTypesOf(ruleSet)
          .filter((entry) => entry.scope === 'campaign')
          .map((entry) => entry.type),
        ['campaign.updated'],
        `${ruleSet.id}: one campaign-level type`,
      )
    }
    t.equal(BUILT_IN.campaignUpdated.subscribable, true, 'webhooks may subscribe to it')
    t.equal(BUILT_IN.campaignUpdated.revealable, false, 'there is nothing hidden of it to reveal')
  },
)

t.test('every type has one name in words, lower case, that summaries use: never its id', async (t) => {
  for (const ruleSet of RULE_SETS) {
    for (const entry of eventTypesOf(ruleSet)) {
      t.match(entry.title, /^[a-z][a-z' -]*[a-z]$/, `${entry.type}: "${entry.title}" in words`)
      if (/[-.]/.test(entry.type)) t.not(entry.title, entry.type, `${entry.type}: not its id`)
    }
  }
  const shockMeters = RULE_SETS.find((ruleSet) => ruleSet.id === 'shock-meters')!
  t.equal(eventTypeOf(shockMeters, 'stress-check').title, 'stress check', 'an action’s is its own title')
  t.equal(eventTypeOf(shockMeters, 'revert').title, 'undo', 'a revert is an undo, as the console calls it')
})
