import t from 'tap'
import { Value } from 'typebox/value'
import { nameKey } from '../../../src/rules/names.js'
import { findTrigger, StressTriggers, StressTriggerSchema } from '../../../src/rules/shock-meters/triggers.js'
import { shockMeters } from '../../../src/rules/shock-meters/index.js'
import { failure, run } from './helpers.js'

const ANY = ['helplessness', 'isolation', 'self', 'unnatural', 'violence']

/**
 * Written from the rules text line by line, independently of the catalog:
 * [id, meters, choice, min rank, max rank, rank rule, book, page].
 * 16 mundane (fear 1, noble 2, coercion 1, relationships 1, combat 5, medicine 1, therapy 1,
 * madness 2, conflagration 1, riots 1) + 32 unnatural (supernatural identity 4, avatars 18,
 * magick 9, the Unnatural 1) = 48.
 */
const expected: [string, string[], string, number, number, string, string | null, number | null][] = [
  ['fear-passion', ANY, 'relevant', 1, 10, 'gm-sets', null, null],
  ['noble-held-back', ['self'], 'single', 4, 6, 'range', null, null],
  ['noble-betrayed', ['self'], 'single', 7, 10, 'range', null, null],
  ['coercion', ANY, 'relevant', 1, 10, 'coercion', 'Play', 56],
  ['relationship-at-zero', ['isolation'], 'single', 4, 5, 'range', 'Play', 39],
  ['shot-at-random', ['violence'], 'single', 2, 4, 'range', 'Play', 20],
  ['kill-in-fight', ['violence'], 'single', 3, 5, 'range', 'Play', 20],
  ['defy-suppressive-fire', ['violence'], 'single', 2, 4, 'range', 'Play', 66],
  ['execute-point-blank', ['violence'], 'single', 7, 8, 'range', 'Play', 67],
  ['witness-execution', ['violence'], 'single', 3, 4, 'range', 'Play', 67],
  ['golden-hour-matched-failure', ['violence'], 'single', 2, 3, 'range', 'Play', 74],
  ['therapist-fumble', ['self'], 'single', 2, 3, 'range', 'Play', 75],
  ['trauma-bond', ANY, 'relevant', 1, 10, 'gm-sets', 'Play', 26],
  ['obsession-destroyed', ['helplessness'], 'single', 10, 10, 'range', 'Play', 27],
  ['set-on-fire', ['violence'], 'single', 4, 5, 'range', 'Play', 72],
  ['caught-in-riot', ['helplessness', 'violence'], 'both', 4, 4, 'range', 'Run', 96],
  ['vague-information-fumble', ['helplessness', 'violence'], 'either', 4, 4, 'range', 'Play', 45],
  ['vague-harm-critical', ['helplessness'], 'single', 3, 4, 'range', 'Play', 47],
  ['specific-harm', ['unnatural'], 'single', 4, 5, 'range', 'Play', 47],
  ['influence-fumbled', ['unnatural'], 'single', 4, 5, 'range', 'Play', 48],
  ['artist-turn-away', ['helplessness'], 'single', 5, 5, 'range', 'Expose', 70],
  ['artist-lose-artwork', ['isolation'], 'single', 10, 10, 'range', 'Expose', 70],
  ['captain-order-crew', ['helplessness', 'self'], 'either', 6, 7, 'range', 'Play', 98],
  ['captain-order-non-crew', ['helplessness', 'self'], 'either', 2, 3, 'range', 'Play', 98],
  ['collector-summons', ['isolation'], 'single', 7, 8, 'range', 'Expose', 72],
  ['collector-summons-matched', ['isolation'], 'single', 8, 9, 'range', 'Expose', 72],
  ['collector-summons-critical', ['isolation'], 'single', 10, 10, 'range', 'Expose', 72],
  ['messenger-truth-denied', ['helplessness', 'self'], 'either', 6, 6, 'range', 'Play', 107],
  ['muse-ecstatic-work-abandoned', ['isolation'], 'single', 5, 5, 'range', 'Expose', 74],
  ['muse-other-direction', ['self'], 'single', 7, 7, 'range', 'Expose', 74],
  ['naked-goddess-presumption', ['self'], 'single', 4, 4, 'range', 'Play', 110],
  ['pilgrim-true-quest', ['self'], 'single', 1, 9, 'tens-of-identity-rating', 'Mine', 83],
  ['salesman-resist-sale', ['self', 'unnatural'], 'either', 1, 10, 'coercion', 'Mine', 86],
  ['salesman-forgo-payment', ['unnatural'], 'single', 1, 9, 'tens-of-identity-rating', 'Mine', 87],
  ['star-performance', ['helplessness'], 'single', 1, 9, 'tens-of-identity-rating', 'Play', 114],
  ['tamer-injure', ['helplessness'], 'single', 7, 9, 'range', 'Expose', 79],
  ['two-faced-crowd-disappointed', ['self'], 'single', 1, 9, 'ones-of-failed-avatar-roll', 'Mine', 88],
  ['two-faced-caught-angry', ['violence'], 'single', 3, 3, 'range', 'Mine', 89],
  ['minor-stress-spell', ANY, 'relevant', 3, 3, 'range', 'Play', 133],
  ['significant-stress-spell-individual', ANY, 'relevant', 1, 10, 'sum-of-dice-up-to-10', 'Play', 137],
  ['significant-stress-spell-group', ANY, 'relevant', 3, 4, 'range', 'Play', 137],
  ['minor-compulsion-spell', ANY, 'relevant', 4, 4, 'range', 'Play', 133],
  ['significant-compulsion-directive', ANY, 'relevant', 1, 10, 'spell-roll', 'Play', 136],
  ['significant-compulsion-possession', ['helplessness'], 'single', 6, 7, 'range', 'Play', 136],
  ['minor-blast', ['unnatural'], 'single', 5, 5, 'range', null, null],
  ['significant-blast', ['violence'], 'single', 5, 5, 'range', null, null],
  ['ward-crossed', ['helplessness'], 'single', 3, 4, 'range', 'Run', 20],
  ['unnatural-encounter', ANY, 'relevant', 1, 10, 'gm-sets', null, null],
]

t.test('Trigger catalog: every trigger in the rules text is there, none missing and none extra', async (t) => {
  t.equal(StressTriggers.length, 48, '48 triggers: 16 mundane + 32 unnatural')
  t.equal(expected.length, 48, 'the expectation lists 48 too')
  t.same(
    StressTriggers.map((trigger) => trigger.id),
    expected.map(([id]) => id),
    'same ids, same order as the text',
  )
  t.equal(new Set(StressTriggers.map((trigger) => trigger.id)).size, 48, 'ids are unique')
  t.equal(StressTriggers.filter((trigger) => trigger.category === 'mundane').length, 16, '16 mundane')
  t.equal(StressTriggers.filter((trigger) => trigger.category === 'unnatural').length, 32, '32 unnatural')
  t.same(shockMeters.tables.triggers, StressTriggers, 'published in the rule set tables')
})

for (const [id, meters, choice, min, max, rule, book, page] of expected) {
  t.test(
    `Trigger ${id}: ${meters.length === 5 ? 'relevant meter' : meters.join(choice === 'both' ? ' and ' : ' or ')}, rank ${min === max ? min : `${min}–${max}`}`,
    async (t) => {
      const trigger = StressTriggers.find((candidate) => candidate.id === id)
      if (trigger === undefined) return t.fail(`${id} is missing`)
      t.ok(Value.Check(StressTriggerSchema, trigger), 'entry matches the StressTrigger schema')
      t.same([...trigger.meters].sort(), [...meters].sort(), 'meters')
      t.equal(trigger.meterChoice, choice, 'meter choice')
      t.same(trigger.rank, { rule, min, max }, 'rank rule and range')
      t.same(trigger.source, book === null ? null : { book, page }, 'book and page')
      t.ok(trigger.label.length > 10, 'has a label')

      // Every meter and rank in the entry is accepted; a meter outside it or a rank just outside is 422.
      const low = run(
        'stress-check',
        { meters: { [meters[0]!]: { hardened: 0 } } },
        { meter: meters[0], rank: min, trigger: id },
        [50],
      )
      t.equal(low.outcome.trigger, id, 'the check records its trigger')
      for (const meter of meters) run('stress-check', {}, { meter, rank: max, trigger: id }, max <= 1 ? [] : [50])
      const outside = ANY.find((meter) => !meters.includes(meter))
      if (outside !== undefined) {
        const error = failure('stress-check', {}, { meter: outside, rank: min, trigger: id })
        t.equal(error.pointer, '/request/meter', `${outside} does not fit`)
        t.equal(error.kind, 'invalid', 'as 422')
      }
      if (min > 1)
        t.equal(
          failure('stress-check', {}, { meter: meters[0], rank: min - 1, trigger: id }).pointer,
          '/request/rank',
          `rank ${min - 1} is too low`,
        )
      if (max < 10)
        t.equal(
          failure('stress-check', {}, { meter: meters[0], rank: max + 1, trigger: id }).pointer,
          '/request/rank',
          `rank ${max + 1} is too high`,
        )
    },
  )
}

t.test('Catalog alternatives are separate entries: executing 7–8 vs watching 3–4', async (t) => {
  const execute = StressTriggers.find((trigger) => trigger.id === 'execute-point-blank')
  const watch = StressTriggers.find((trigger) => trigger.id === 'witness-execution')
  t.same(
    [execute?.rank.min, execute?.rank.max, watch?.rank.min, watch?.rank.max],
    [7, 8, 3, 4],
    'two entries, two ranges',
  )
})

t.test('A trigger id that is not in the catalog is refused at /request/trigger', async (t) => {
  const error = failure('stress-check', {}, { meter: 'self', rank: 3, trigger: 'stubbed-toe' })
  t.equal(error.code, 'UNKNOWN_TRIGGER', 'code')
  t.equal(error.pointer, '/request/trigger', 'pointer')
  t.match(error.message, /stubbed-toe/, 'the message names the trigger')
})

t.test('"Conflagration: the character is set on fire": the rulebook\'s name is accepted for set-on-fire', async (t) => {
  const resolved = run('stress-check', {}, { meter: 'violence', rank: 4, trigger: 'conflagration' }, [10])
  t.equal(resolved.outcome.trigger, 'set-on-fire', 'the outcome records the id')
  t.equal(resolved.sheet.lastCheck?.trigger, 'set-on-fire', 'and so does the sheet')
  t.ok(
    StressTriggers.find((trigger) => trigger.id === 'set-on-fire')?.aliases.includes('Conflagration'),
    'the alias is published with the entry',
  )
  const typed = run('stress-check', {}, { meter: 'violence', rank: 4, trigger: 'Set On Fire' }, [10])
  t.equal(typed.outcome.trigger, 'set-on-fire', 'case and spaces do not matter, for ids either')
  const error = failure('stress-check', {}, { meter: 'self', rank: 4, trigger: 'Conflagration' })
  t.equal(error.code, 'TRIGGER_METER_MISMATCH', 'an alias fixes meter and rank like the id')
  t.match(error.message, /set-on-fire/, 'and the message names the id')
})

t.test('Every rulebook heading that names one trigger is an alias of it', async (t) => {
  const named: [string, string][] = [
    ['Relationships', 'relationship-at-zero'],
    ['Medicine', 'golden-hour-matched-failure'],
    ['Therapy', 'therapist-fumble'],
    ['Riots', 'caught-in-riot'],
    ['Vague Information', 'vague-information-fumble'],
    ['Vague Harm', 'vague-harm-critical'],
    ['Influence', 'influence-fumbled'],
    ['Naked Goddess', 'naked-goddess-presumption'],
    ['Wards', 'ward-crossed'],
    ['The Unnatural', 'unnatural-encounter'],
  ]
  for (const [name, id] of named) t.equal(findTrigger(name)?.id, id, `"${name}" → ${id}`)
})

t.test('No name in the catalog names two triggers', async (t) => {
  const keys = StressTriggers.flatMap((trigger) => [trigger.id, ...trigger.aliases].map(nameKey))
  t.equal(new Set(keys).size, keys.length, 'ids and aliases are unique, whatever the case or spacing')
})

t.test('An unknown trigger is answered with the closest ids and names: "did you mean …?"', async (t) => {
  const typo = failure('stress-check', {}, { meter: 'violence', rank: 4, trigger: 'conflagaration' })
  t.match(typo.message, /did you mean set-on-fire \("Conflagration"\)\?/, 'a misspelt rulebook name')
  const word = failure('stress-check', {}, { meter: 'isolation', rank: 7, trigger: 'collector' })
  t.match(
    word.message,
    /did you mean collector-summons, collector-summons-matched or collector-summons-critical\?/,
    'a word of several ids lists them',
  )
  const nothing = failure('stress-check', {}, { meter: 'self', rank: 3, trigger: 'stubbed-toe' })
  t.notMatch(nothing.message, /did you mean/, 'nothing close, nothing suggested')
})
