import t from 'tap'
import { resolveAction, type RuleSet } from '../../src/rules/rule-set.js'
import { reactionRolls } from '../../src/rules/reaction-rolls/index.js'
import { shockMeters } from '../../src/rules/shock-meters/index.js'
import { traumaTable } from '../../src/rules/trauma-table/index.js'
import { revealedOn, sameSummary } from '../../src/services/replay.js'

// Summaries once named the API's ids ("waiting for trauma-response", "Hazed (next-rest)"). What
// was recorded then keeps its words; a replay that compares summaries reads them in today's.

function resolved(ruleSet: RuleSet, name: string, request: unknown, faces: number[], sheet: unknown = {}) {
  const action = ruleSet.actions.find((candidate) => candidate.name === name)!
  return resolveAction(ruleSet, action, { sheet, request, dice: { source: 'provided', faces } })
}

t.test('a summary recorded in the words used before a rewording is the same summary', async (t) => {
  const cases: [RuleSet, string, string][] = [
    [
      traumaTable,
      resolved(traumaTable, 'trauma-roll', {}, [22]).summary,
      'Trauma: d100 22 = 22 → Headache; waiting for trauma-response',
    ],
    [
      traumaTable,
      resolved(traumaTable, 'trauma-roll', { response: 'accept' }, [53]).summary,
      'Trauma: d100 53 = 53 → Flapped; Flapped accepted: Hazed (next-rest)',
    ],
    [
      traumaTable,
      resolved(traumaTable, 'trauma-roll', { modifier: 40, response: 'accept' }, [98]).summary,
      'Trauma: d100 98 + 40 = 138 → Terrified; Terrified accepted: 1 scar, flee (encounter)',
    ],
    [
      reactionRolls,
      resolved(
        reactionRolls,
        'reaction-roll',
        { ability: 'agility', pressure: 4, retrieve: { decision: 'raise', emotion: 'fear' } },
        [3],
        { abilities: { agility: { dice: 'd6', xp: 5 } } },
      ).summary,
      'Agility d6 vs pressure 4: rolled 3, retrievable — raised fear 0 → 1, success; no agility XP (track-full)',
    ],
  ]
  for (const [ruleSet, now, before] of cases) {
    t.not(now, before, `reworded: ${now}`)
    t.ok(sameSummary(ruleSet, now, before), `"${before}" says the same`)
    t.ok(sameSummary(ruleSet, now, now), 'as today’s words do')
  }
})

t.test('a summary that says something else is not the same, in whatever words', async (t) => {
  const now = resolved(traumaTable, 'trauma-roll', {}, [22]).summary
  t.notOk(sameSummary(traumaTable, now, 'Trauma: d100 23 = 23 → Headache; waiting for trauma-response'), 'another roll')
  t.notOk(sameSummary(traumaTable, undefined, now), 'nothing rebuilt')
  const check = resolved(shockMeters, 'stress-check', { meter: 'self', rank: 3 }, [23]).summary
  t.notOk(sameSummary(shockMeters, check, `${check} (next-rest)`), 'another rule set’s old words are not its own')
})

t.test('a GM-only trauma roll recorded in the earlier words can still be revealed', async (t) => {
  const request = { modifier: 0 }
  const roll = resolved(traumaTable, 'trauma-roll', request, [28])
  const recorded = {
    id: '0193a5e2-7c1d-7000-8000-000000000003',
    seq: 3,
    type: 'trauma-roll',
    request,
    dice: roll.dice,
    outcome: roll.outcome,
    summary: roll.summary.replace(/; waiting for .*$/, '; waiting for trauma-response'),
    followUps: [],
  }
  t.not(recorded.summary, roll.summary, 'in the words of its time')
  t.ok(revealedOn(traumaTable, recorded, {}, traumaTable.normalizeSheet({})), 'it replays on the sheet players know')
  t.notOk(
    revealedOn(
      traumaTable,
      { ...recorded, summary: `${recorded.summary}, and more` },
      {},
      traumaTable.normalizeSheet({}),
    ),
    'while a summary that says more still stops the reveal',
  )
})
