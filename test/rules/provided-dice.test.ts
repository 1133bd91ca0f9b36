import fc from 'fast-check'
import t from 'tap'
import { DiceNeededError, type NeededDice } from '../../src/rules/dice.js'
import { type Resolved } from '../../src/rules/rule-set.js'
import { resolveChecked } from './resolve-checked.js'
import { reactionRolls } from '../../src/rules/reaction-rolls/index.js'
import { shockMeters } from '../../src/rules/shock-meters/index.js'
import { traumaTable } from '../../src/rules/trauma-table/index.js'

/*
 * A VTT can roll first and report after: faces it rolled that the rules never ask for are kept
 * aside as `unusedFaces`, and when faces are missing the answer names every die still needed.
 */

type RuleSetOf = typeof shockMeters | typeof traumaTable | typeof reactionRolls

function resolveWith(ruleSet: RuleSetOf, name: string, sheet: unknown, request: unknown, faces: number[]) {
  const action = ruleSet.actions.find((candidate) => candidate.name === name)!
  const resolved = resolveChecked(ruleSet as never, action as never, {
    sheet,
    request,
    dice: { source: 'provided', faces },
  })
  return resolved as Omit<Resolved<any>, 'outcome'> & { outcome: any }
}

function neededBy(ruleSet: RuleSetOf, name: string, sheet: unknown, request: unknown, faces: number[]) {
  try {
    resolveWith(ruleSet, name, sheet, request, faces)
  } catch (error) {
    if (error instanceof DiceNeededError) return { needed: error.needed, facesProvided: error.facesProvided }
    throw error
  }
  throw new Error(`${name} with faces [${faces}] needed no more dice`)
}

const die = (count: number, sides: number, purpose: string, exploding = false): NeededDice => ({
  count,
  sides,
  purpose,
  exploding,
})

t.test(
  'Hardened: "automatically avoids a stress check when they have at least as many hardened notches as the stress rank" — a d100 rolled beforehand is unused',
  async (t) => {
    const sheet = { meters: { violence: { hardened: 4, failed: 0 } } }
    const request = { meter: 'violence', rank: 4 }
    const rolledFirst = resolveWith(shockMeters, 'stress-check', sheet, request, [85])
    const told = resolveWith(shockMeters, 'stress-check', sheet, request, [])
    t.equal(rolledFirst.outcome.result, 'avoided', 'the check is avoided')
    t.same(rolledFirst.dice, [], 'no die is used')
    t.same(rolledFirst.unusedFaces, [85], 'the d100 the VTT rolled is kept as unused')
    t.same({ ...rolledFirst, unusedFaces: [] }, told, 'and the result is the one without it, field for field')
  },
)

t.test(
  'Stressed: "automatically avoids stress checks while they are in the middle of dealing with a prior stress check" — the d100 is unused',
  async (t) => {
    const sheet = { stressed: { meter: 'self', response: 'panic' } }
    const resolved = resolveWith(shockMeters, 'stress-check', sheet, { meter: 'violence', rank: 3 }, [12])
    t.equal(resolved.outcome.result, 'avoided', 'avoided while stressed')
    t.same(resolved.unusedFaces, [12], 'the face is unused')
  },
)

t.test('Defend the stress check: a check that is not avoided needs its d100 defence die', async (t) => {
  t.same(
    neededBy(shockMeters, 'stress-check', {}, { meter: 'violence', rank: 4 }, []),
    { needed: [die(1, 100, 'defence')], facesProvided: 0 },
    'one d100 for defence, none provided',
  )
})

t.test(
  'Therapy: "when a therapist fumbles while providing immediate assistance (Self, Rank 2-3)" — the fumble asks for the patient’s Self check die',
  async (t) => {
    const patient = {
      identities: [{ name: 'Stoic', rating: 30, features: [{ type: 'resists-shock', meter: 'self' }] }],
    }
    const failed = resolveWith(
      shockMeters,
      'stress-check',
      patient,
      { meter: 'violence', rank: 4, response: 'panic' },
      [73],
    ).sheet
    const calm = { ...failed, stressed: null }
    const assist = { identity: 'Psychiatrist', rating: 55 }
    t.same(
      neededBy(shockMeters, 'therapy-assistance', calm, assist, []),
      { needed: [die(1, 100, 'therapy')], facesProvided: 0 },
      'first the therapist’s d100',
    )
    t.same(
      neededBy(shockMeters, 'therapy-assistance', calm, assist, [100]),
      { needed: [die(1, 100, 'defence')], facesProvided: 1 },
      'after a fumble (00), the d100 the patient defends the Self check with',
    )
    const settled = resolveWith(shockMeters, 'therapy-assistance', calm, assist, [100, 60])
    t.equal(settled.outcome.selfCheck?.result, 'failed', 'sent again with it, the Self check is resolved')
    const success = resolveWith(shockMeters, 'therapy-assistance', calm, assist, [40, 60])
    t.same(success.unusedFaces, [60], 'a die rolled for a fumble that did not happen is unused')
  },
)

t.test(
  'Heart Attack: "Lose exploding D6 health, and a wound for every die rolled" — each highest face asks for one more die',
  async (t) => {
    // 50 + 98 = 148: Heart Attack (146–149).
    const rolled = resolveWith(traumaTable, 'trauma-roll', {}, { modifier: 98 }, [50]).sheet
    t.equal(rolled.pendingTrauma?.finalRow, 'heart-attack', 'a Heart Attack awaits its response')
    t.same(
      neededBy(traumaTable, 'trauma-response', rolled, { response: 'accept' }, []),
      { needed: [die(1, 6, 'health-loss', true)], facesProvided: 0 },
      'one exploding D6',
    )
    t.same(
      neededBy(traumaTable, 'trauma-response', rolled, { response: 'accept' }, [6, 6]),
      { needed: [die(1, 6, 'health-loss', true)], facesProvided: 2 },
      'two sixes: one more, which may explode again',
    )
    const accepted = resolveWith(traumaTable, 'trauma-response', rolled, { response: 'accept' }, [6, 6, 2])
    t.same(
      accepted.dice.map((roll) => roll.face),
      [6, 6, 2],
      'the chain ends on the 2',
    )
    t.equal(accepted.sheet.wounds, 3, 'a wound for each of the three dice')
  },
)

t.test(
  'Sickened: "Gain 2D6 instances of Nauseated" — once the d100 finds the row, both dice are asked for at once',
  async (t) => {
    // 50 + 78 = 128: Sickened (126–130).
    t.same(
      neededBy(traumaTable, 'trauma-roll', {}, { modifier: 78, response: 'accept' }, []),
      { needed: [die(1, 100, 'trauma')], facesProvided: 0 },
      'first the d100: the row, and so its effect dice, depend on it',
    )
    t.same(
      neededBy(traumaTable, 'trauma-roll', {}, { modifier: 78, response: 'accept' }, [50]),
      { needed: [die(2, 6, 'instances')], facesProvided: 1 },
      'then the row’s 2D6',
    )
    t.same(
      neededBy(traumaTable, 'trauma-roll', {}, { modifier: 78, response: 'accept' }, [50, 4]),
      { needed: [die(1, 6, 'instances')], facesProvided: 2 },
      'one of them sent: the other',
    )
  },
)

t.test('Advantage: "two dice, keep the highest" — both dice are asked for', async (t) => {
  t.same(
    neededBy(reactionRolls, 'reaction-roll', {}, { ability: 'agility', pressure: 4, advantage: true }, []),
    {
      needed: [die(1, 6, 'reaction'), die(1, 6, 'advantage')],
      facesProvided: 0,
    },
    'the die and the advantage die, d6 each for a d6 ability',
  )
})

t.test('surplus faces never change the outcome (property)', async (t) => {
  const extras = fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 5 })
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 9 }),
      fc.integer({ min: 1, max: 10 }),
      fc.constantFrom('helplessness', 'isolation', 'self', 'unnatural', 'violence'),
      fc.integer({ min: 1, max: 100 }),
      extras,
      (hardened, rank, meter, face, surplus) => {
        const sheet = { meters: { [meter]: { hardened, failed: 0 } } }
        const request = { meter, rank, response: 'panic' }
        const exact = resolveWith(shockMeters, 'stress-check', sheet, request, hardened >= rank ? [] : [face])
        const withSurplus = resolveWith(shockMeters, 'stress-check', sheet, request, [
          ...exact.dice.map((roll) => roll.face),
          ...surplus,
        ])
        const same = JSON.stringify({ ...withSurplus, unusedFaces: [] }) === JSON.stringify(exact)
        return same && JSON.stringify(withSurplus.unusedFaces) === JSON.stringify(surplus)
      },
    ),
  )
  fc.assert(
    fc.property(
      fc.constantFrom(4, 6, 8),
      fc.boolean(),
      fc.boolean(),
      fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 2, maxLength: 2 }),
      extras,
      (pressure, advantage, resist, faces, surplus) => {
        const request = { ability: 'agility', pressure, advantage, resist }
        const used = resist ? faces.slice(0, advantage ? 2 : 1) : []
        const exact = resolveWith(reactionRolls, 'reaction-roll', {}, request, used)
        const withSurplus = resolveWith(reactionRolls, 'reaction-roll', {}, request, [...used, ...surplus])
        return (
          JSON.stringify({ ...withSurplus, unusedFaces: [] }) === JSON.stringify(exact) &&
          JSON.stringify(withSurplus.unusedFaces) === JSON.stringify(surplus)
        )
      },
    ),
  )
  t.pass('the same faces used, the same outcome, sheet and dice; the rest listed as unused in the order sent')
})

t.test('the same request with the same faces gives the same resolution, missing or surplus faces alike', async (t) => {
  const request = { modifier: 78, response: 'accept' }
  t.same(
    neededBy(traumaTable, 'trauma-roll', {}, request, [50]),
    neededBy(traumaTable, 'trauma-roll', {}, request, [50]),
    'the same dice are asked for',
  )
  t.same(
    resolveWith(traumaTable, 'trauma-roll', {}, request, [50, 3, 4, 99]),
    resolveWith(traumaTable, 'trauma-roll', {}, request, [50, 3, 4, 99]),
    'the same resolution, with the same unused face',
  )
})
