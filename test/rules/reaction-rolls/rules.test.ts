import t from 'tap'
import { createDice } from '../../../src/rules/dice.js'
import { reactionRolls } from '../../../src/rules/reaction-rolls/index.js'
import { retrievalAction, roll, rollAction, ruleErrorOf, schemaMeta, settle, sheetWith } from './helpers.js'

const agility = (dice: string, extra: Record<string, unknown> = {}) => ({
  abilities: { agility: { dice, ...extra } },
})

t.test('Example: Finn (d6 agility, pressure 4) rolls 3, raises anger to retrieve, and marks one agility XP', (t) => {
  const finn = sheetWith({ abilities: { agility: { dice: 'd6', xp: 0 } } })
  const rolled = roll({ ability: 'agility', pressure: 4 }, [3], finn)
  t.equal(rolled.dice.length, 1, 'Finn rolls 1d6')
  t.equal(rolled.dice[0]?.sides, 6, 'the die is a d6')
  t.equal(rolled.outcome.result, 3, 'result 3')
  t.equal(rolled.outcome.band, 'retrievable', 'a 3 against pressure 4 is retrievable')
  t.equal(rolled.outcome.verdict, 'pending', 'the player decides whether to retrieve')
  t.equal(
    rolled.pending.map((decision) => decision.action)[0],
    'reaction-retrieval',
    'the pending decision is settled by reaction-retrieval',
  )
  t.same(
    rolled.sheet.pendingRetrieval,
    { ability: 'agility', dice: 'd6', pressure: 4, result: 3 },
    'pending lives on the sheet',
  )

  const retrieved = settle(rolled.sheet, { decision: 'raise', emotion: 'anger' })
  t.equal(retrieved.outcome.verdict, 'success', 'Finn evades the attack')
  t.equal(retrieved.sheet.emotions.anger, 1, 'anger rises one stage, 0 → 1')
  t.equal(retrieved.sheet.abilities.agility?.xp, 1, 'one segment marked on the agility XP track')
  t.equal(retrieved.sheet.pendingRetrieval, null, 'nothing pending any more')
  t.end()
})

t.test('Let the event unfold: "the player may choose to let the event unfold" — failure, no roll, no XP', (t) => {
  const sheet = sheetWith()
  const result = roll({ ability: 'agility', pressure: 4, resist: false }, [], sheet)
  t.equal(result.outcome.verdict, 'failure', 'the character suffers the event')
  t.equal(result.outcome.resisted, false, 'recorded as not resisted')
  t.same(result.dice, [], 'no die is rolled')
  t.same(result.sheet, sheet, 'no XP, no emotion: the sheet is unchanged')
  t.same(result.pending, [], 'nothing pending')

  const noAbility = roll({ pressure: 6, resist: false }, [])
  t.equal(noAbility.outcome.ability, null, 'no ability is needed when the player does not resist')

  const extraFace = roll({ ability: 'agility', pressure: 4, resist: false }, [3])
  t.same(extraFace.dice, [], 'a face the VTT rolled beforehand is not used: nothing is rolled')
  t.same(extraFace.unusedFaces, [3], 'it is kept as unused')
  t.equal(extraFace.outcome.verdict, 'failure', 'and changes nothing')
  t.end()
})

t.test(
  'Ability: "If the player chooses to resist, the GM picks an appropriate Ability" — it must be on the sheet',
  (t) => {
    const unknown = ruleErrorOf(() => roll({ ability: 'stealth', pressure: 4 }, [3]))
    t.equal(unknown?.kind, 'invalid', 'unknown ability is a 422')
    t.equal(unknown?.pointer, '/request/ability', 'pointer names /request/ability')
    t.match(unknown?.message, /stealth/, 'message names the ability')
    t.match(unknown?.message, /agility/, "message lists the sheet's abilities")

    const inherited = ruleErrorOf(() => roll({ ability: 'constructor', pressure: 4 }, [3]))
    t.equal(inherited?.pointer, '/request/ability', 'a name inherited from Object.prototype is not an ability')

    const missing = ruleErrorOf(() => roll({ pressure: 4 }, [3]))
    t.equal(missing?.pointer, '/request/ability', 'resisting without an ability is a 422 on /request/ability')
    t.end()
  },
)

t.test('Dice class: "The Ability\'s Dice Class then determines which die is rolled"', async (t) => {
  const expected = { d4: 4, d6: 6, d8: 8, d10: 10, d12: 12 }
  for (const [dice, sides] of Object.entries(expected)) {
    t.test(`${dice} rolls a ${sides}-sided die`, (t) => {
      const result = roll({ ability: 'agility', pressure: 4 }, [1], agility(dice))
      t.equal(result.dice[0]?.sides, sides, `${dice} asks for a d${sides}`)
      t.equal(result.outcome.dice, dice, 'outcome names the dice class')
      const tooHigh = ruleErrorOf(() => roll({ ability: 'agility', pressure: 4 }, [sides + 1], agility(dice)))
      t.equal(tooHigh?.code, 'DICE_FACE_OUT_OF_RANGE', `a face of ${sides + 1} is refused on a ${dice}`)
      t.end()
    })
  }
})

t.test('Pressure: "The GM also sets a Pressure" of 4, 6 or 8 — nothing else', (t) => {
  for (const pressure of [4, 6, 8]) {
    t.equal(roll({ ability: 'agility', pressure }, [1]).outcome.pressure, pressure, `pressure ${pressure} is accepted`)
  }
  for (const pressure of [0, 5, 10]) {
    const error = ruleErrorOf(() => roll({ ability: 'agility', pressure }, [1]))
    t.equal(error?.pointer, '/request/pressure', `pressure ${pressure} is a 422 on /request/pressure`)
  }
  t.end()
})

t.test('Success: "the character withstands the event" — nothing else changes', (t) => {
  const sheet = sheetWith()
  const result = roll({ ability: 'agility', pressure: 4 }, [5], sheet)
  t.equal(result.outcome.verdict, 'success', 'verdict success')
  t.same(result.sheet, sheet, 'no emotion raised and no XP marked on a plain success')
  t.match(result.summary, /Agility d6 vs pressure 4: rolled 5, success/, 'summary reads the roll')
  t.end()
})

t.test('Failure: "the character suffers the event" — nothing changes, no XP', (t) => {
  const sheet = sheetWith()
  const result = roll({ ability: 'agility', pressure: 6, retrieve: { decision: 'raise', emotion: 'fear' } }, [2], sheet)
  t.equal(result.outcome.verdict, 'failure', 'verdict failure')
  t.equal(result.outcome.retrieval, null, 'a retrieve policy does not apply to a failure')
  t.same(result.sheet, sheet, 'the sheet is unchanged')
  t.end()
})

t.test('Retrievable: "may raise an Emotion by one stage to succeed" — decided later with reaction-retrieval', (t) => {
  const pending = roll({ ability: 'agility', pressure: 6 }, [4]).sheet
  for (const emotion of ['anger', 'fear', 'sadness', 'guilt'] as const) {
    const settled = settle(pending, { decision: 'raise', emotion })
    t.equal(settled.outcome.verdict, 'success', `raising ${emotion} succeeds`)
    t.equal(settled.sheet.emotions[emotion], 1, `${emotion} rises by exactly one stage`)
    const others = Object.entries(settled.sheet.emotions).filter(([name]) => name !== emotion)
    t.ok(
      others.every(([, stage]) => stage === 0),
      'no other emotion moves',
    )
  }
  t.end()
})

t.test('Retrievable: "else the roll fails" — declining is a failure without emotion or XP', (t) => {
  const pending = roll({ ability: 'agility', pressure: 4 }, [3]).sheet
  const declined = settle(pending, { decision: 'decline' })
  t.equal(declined.outcome.verdict, 'failure', 'declining fails the roll')
  t.same(declined.sheet.emotions, { anger: 0, fear: 0, sadness: 0, guilt: 0 }, 'no emotion raised')
  t.equal(declined.sheet.abilities.agility?.xp, 0, 'no XP marked')
  t.equal(declined.sheet.pendingRetrieval, null, 'the pending retrieval is settled')

  const upFront = roll({ ability: 'agility', pressure: 4, retrieve: { decision: 'decline' } }, [3])
  t.equal(upFront.outcome.verdict, 'failure', 'a decline policy in the request fails the roll at once')
  t.same(upFront.pending, [], 'nothing left pending')
  t.end()
})

t.test('Retrieve policy in the request settles a retrievable roll at once', (t) => {
  const result = roll(
    { ability: 'agility', pressure: 8, retrieve: { decision: 'raise', emotion: 'guilt' } },
    [6],
    agility('d8'),
  )
  t.equal(result.outcome.band, 'retrievable', '6 vs 8 is retrievable')
  t.equal(result.outcome.verdict, 'success', 'the policy retrieves it')
  t.equal(result.sheet.emotions.guilt, 1, 'guilt raised')
  t.equal(result.sheet.abilities.agility?.xp, 1, 'XP marked')
  t.same(result.pending, [], 'no decision left open')
  t.match(result.summary, /retrievable — raised guilt 0 → 1, success; agility XP 0 → 1/, 'summary tells the story')
  t.end()
})

t.test(
  'Emotion stages: "an emotion at its top stage cannot be raised" (top stage is a campaign setting, default 5)',
  (t) => {
    const atTop = { emotions: { anger: 5 } }
    const pending = roll({ ability: 'agility', pressure: 4 }, [3], atTop).sheet
    const refused = ruleErrorOf(() => settle(pending, { decision: 'raise', emotion: 'anger' }))
    t.equal(refused?.kind, 'invalid', 'raising a top-stage emotion is a 422')
    t.equal(refused?.pointer, '/request/emotion', 'pointer names /request/emotion')
    t.match(refused?.message, /anger/, 'message names the emotion')

    const policy = ruleErrorOf(() =>
      roll({ ability: 'agility', pressure: 4, retrieve: { decision: 'raise', emotion: 'anger' } }, [3], atTop),
    )
    t.equal(policy?.pointer, '/request/retrieve/emotion', 'a policy naming a top-stage emotion is refused')
    t.equal(policy?.code, 'EMOTION_AT_TOP_STAGE', 'refused before the die is rolled, not for a dice count')

    const lowTop = { emotionTopStage: 2 }
    const atTwo = roll({ ability: 'agility', pressure: 4 }, [3], { emotions: { fear: 2, anger: 1 } }, lowTop).sheet
    t.equal(
      ruleErrorOf(() => settle(atTwo, { decision: 'raise', emotion: 'fear' }, lowTop))?.pointer,
      '/request/emotion',
      'fear at 2 is at a campaign top of 2',
    )
    t.equal(
      settle(atTwo, { decision: 'raise', emotion: 'anger' }, lowTop).sheet.emotions.anger,
      2,
      'anger 1 → 2 reaches the campaign top',
    )

    const above = ruleErrorOf(() =>
      roll({ ability: 'agility', pressure: 4 }, [3], { emotions: { sadness: 3 } }, lowTop),
    )
    t.equal(above?.pointer, '/sheet/emotions/sadness', 'a sheet above the campaign top stage is invalid')
    t.end()
  },
)

t.test('Retrievable with every emotion at its top stage: nothing can be raised, so the roll fails', (t) => {
  const full = { emotions: { anger: 5, fear: 5, sadness: 5, guilt: 5 } }
  const result = roll({ ability: 'agility', pressure: 4 }, [3], full)
  t.equal(result.outcome.band, 'retrievable', 'the die lands in the retrievable band')
  t.equal(result.outcome.verdict, 'failure', 'but the roll fails')
  t.same(result.pending, [], 'no decision is left open')
  t.equal(result.sheet.pendingRetrieval, null, 'nothing pending on the sheet')
  t.end()
})

t.test(
  'Experience: "marks one XP each time they retrieve a roll, provided the Ability rolled isn\'t already maxed-out or crippled"',
  (t) => {
    const retrieve = { ability: 'agility', pressure: 4, retrieve: { decision: 'raise', emotion: 'fear' } }
    const marked = roll(retrieve, [3], agility('d6', { xp: 2 }))
    t.equal(marked.sheet.abilities.agility?.xp, 3, 'XP 2 → 3')
    t.same(
      marked.outcome.retrieval?.xp,
      { marked: true, before: 2, after: 3, reason: 'marked' },
      'outcome records the mark',
    )

    const maxed = roll(retrieve, [3], agility('d6', { xp: 2, maxedOut: true }))
    t.equal(maxed.sheet.abilities.agility?.xp, 2, 'a maxed-out ability marks no XP')
    t.equal(maxed.outcome.retrieval?.xp?.reason, 'maxed-out', 'reason maxed-out')
    t.equal(maxed.outcome.verdict, 'success', 'the retrieval still succeeds')

    const crippled = roll(retrieve, [3], agility('d6', { xp: 2, crippled: true }))
    t.equal(crippled.sheet.abilities.agility?.xp, 2, 'a crippled ability marks no XP')
    t.equal(crippled.outcome.retrieval?.xp?.reason, 'crippled', 'reason crippled')
    t.equal(crippled.sheet.emotions.fear, 1, 'the emotion is still raised')

    const full = roll(retrieve, [3], agility('d6', { xp: 5 }))
    t.equal(full.sheet.abilities.agility?.xp, 5, 'a full track (5 segments by default) takes no more marks')
    t.equal(full.outcome.retrieval?.xp?.reason, 'track-full', 'reason track-full')
    t.match(full.summary, /; no agility XP \(its track is full\)$/, 'the summary says why in words')
    t.match(maxed.summary, /; no agility XP \(maxed-out\)$/, 'maxed-out, as the rules say it')

    const other = roll(retrieve, [3], { abilities: { agility: { dice: 'd6' }, insight: { dice: 'd6', xp: 1 } } })
    t.equal(other.sheet.abilities.insight?.xp, 1, 'only the rolled ability marks XP')
    t.end()
  },
)

t.test('Advantage: "they keep the highest result of the two"', (t) => {
  const result = roll({ ability: 'agility', pressure: 4, advantage: true }, [2, 5])
  t.same(result.outcome.faces, [2, 5], 'two ability dice are rolled')
  t.equal(result.dice.length, 2, 'two dice recorded')
  t.ok(
    result.dice.every((die) => die.sides === 6),
    'both are the ability die',
  )
  t.equal(result.outcome.kept, 5, 'the highest is kept')
  t.equal(result.outcome.edge, 'advantage', 'edge advantage')
  t.end()
})

t.test('Disadvantage: "they keep the lowest result of the two"', (t) => {
  const result = roll({ ability: 'agility', pressure: 4, disadvantage: true }, [2, 5])
  t.equal(result.outcome.kept, 2, 'the lowest is kept')
  t.equal(result.outcome.verdict, 'failure', '2 vs 4 fails')
  t.end()
})

t.test('Advantage and disadvantage together cancel: one die', (t) => {
  const result = roll({ ability: 'agility', pressure: 4, advantage: true, disadvantage: true }, [3])
  t.equal(result.dice.length, 1, 'a single die is rolled')
  t.equal(result.outcome.edge, 'none', 'edge none')
  t.end()
})

t.test('Context modifiers: "increasing or decreasing the dice result obtained" — result = kept die + weights', (t) => {
  const result = roll(
    {
      ability: 'agility',
      pressure: 6,
      modifiers: [
        { source: 'environment', weight: 2, reason: 'good cover' },
        { source: 'condition', weight: -1, reason: 'exhausted' },
        { source: 'means', weight: 1 },
      ],
    },
    [4],
  )
  t.equal(result.outcome.modifierTotal, 2, '+2 −1 +1 = +2')
  t.equal(result.outcome.result, 6, '4 + 2 = 6')
  t.equal(result.outcome.verdict, 'success', '6 vs pressure 6 succeeds')

  const low = roll({ ability: 'agility', pressure: 4, modifiers: [{ source: 'actors', weight: -2 }] }, [1])
  t.equal(low.outcome.result, -1, 'a result may drop below 1')
  t.equal(low.outcome.verdict, 'failure', 'and fails')
  t.end()
})

t.test('The kept die is chosen first, then modifiers apply', (t) => {
  const result = roll(
    { ability: 'agility', pressure: 4, advantage: true, modifiers: [{ source: 'condition', weight: -2 }] },
    [5, 3],
  )
  t.equal(result.outcome.kept, 5, 'the higher face is kept before any modifier')
  t.equal(result.outcome.result, 3, 'then −2 gives 3')
  t.equal(result.outcome.band, 'retrievable', '3 vs 4 is retrievable')
  t.end()
})

t.test('Modifier weights: "-1 or +1" mild, "-2 or +2" defining — 0 and ±3 are refused', (t) => {
  for (const weight of [-2, -1, 1, 2]) {
    t.equal(
      roll({ ability: 'agility', pressure: 4, modifiers: [{ source: 'means', weight }] }, [3]).outcome.modifierTotal,
      weight,
      `weight ${weight} accepted`,
    )
  }
  for (const weight of [0, 3, -3]) {
    const error = ruleErrorOf(() =>
      roll({ ability: 'agility', pressure: 4, modifiers: [{ source: 'means', weight }] }, [3]),
    )
    t.equal(error?.pointer, '/request/modifiers/0/weight', `weight ${weight} is a 422 on the weight`)
  }
  const source = ruleErrorOf(() =>
    roll({ ability: 'agility', pressure: 4, modifiers: [{ source: 'luck', weight: 1 }] }, [3]),
  )
  t.equal(source?.pointer, '/request/modifiers/0/source', 'an unknown source is a 422 on the source')
  t.end()
})

t.test('Sources and stacking: at most one modifier per source — a second is a 422 naming the duplicate', (t) => {
  const error = ruleErrorOf(() =>
    roll(
      {
        ability: 'agility',
        pressure: 4,
        modifiers: [
          { source: 'environment', weight: 1 },
          { source: 'means', weight: 1 },
          { source: 'environment', weight: 2 },
        ],
      },
      [3],
    ),
  )
  t.equal(error?.kind, 'invalid', '422')
  t.equal(error?.code, 'MODIFIER_SOURCE_REPEATED', 'code names the rule')
  t.equal(error?.pointer, '/request/modifiers/2/source', 'pointer names the duplicate, not the first')
  t.match(error?.message, /environment/, 'message names the source')
  t.end()
})

t.test('A pending retrieval blocks further reaction rolls with a 409 that says how to settle it', (t) => {
  const pending = roll({ ability: 'agility', pressure: 4 }, [3]).sheet
  for (const request of [
    { ability: 'insight', pressure: 6 },
    { pressure: 4, resist: false },
  ]) {
    const error = ruleErrorOf(() => roll(request, [3], pending))
    t.equal(error?.kind, 'conflict', 'a conflict (409)')
    t.match(error?.message, /reaction-retrieval/, 'message names the settling action')
  }
  const settled = settle(pending, { decision: 'decline' }).sheet
  t.equal(
    roll({ ability: 'agility', pressure: 4 }, [5], settled).outcome.verdict,
    'success',
    'once settled, rolls resume',
  )
  t.end()
})

t.test('reaction-retrieval with nothing pending is a 409', (t) => {
  const error = ruleErrorOf(() => settle({}, { decision: 'raise', emotion: 'anger' }))
  t.equal(error?.kind, 'conflict', 'conflict')
  t.equal(error?.code, 'NO_RETRIEVAL_PENDING', 'code says nothing is pending')
  t.end()
})

t.test('reaction-retrieval: raise needs an emotion, decline takes none', (t) => {
  const pending = roll({ ability: 'agility', pressure: 4 }, [3]).sheet
  t.equal(
    ruleErrorOf(() => settle(pending, { decision: 'raise' }))?.pointer,
    '/request/emotion',
    'raise without emotion is a 422',
  )
  t.equal(
    ruleErrorOf(() => settle(pending, { decision: 'decline', emotion: 'fear' }))?.pointer,
    '/request/emotion',
    'decline with an emotion is a 422',
  )
  t.equal(
    ruleErrorOf(() => settle(pending, { decision: 'raise', emotion: 'joy' }))?.pointer,
    '/request/emotion',
    'an unknown emotion is a 422',
  )
  t.equal(
    ruleErrorOf(() => settle(pending, { emotion: 'fear' }))?.pointer,
    '/request/decision',
    'the decision is required',
  )
  t.equal(
    ruleErrorOf(() => roll({ ability: 'agility', pressure: 4, retrieve: { decision: 'raise' } }, [3]))?.pointer,
    '/request/retrieve/emotion',
    'a raise policy without emotion is a 422',
  )
  t.end()
})

t.test(
  'The rule set publishes its actions: reaction-roll (player roll) and reaction-retrieval (player decision)',
  (t) => {
    t.equal(reactionRolls.id, 'reaction-rolls', 'id')
    t.same(
      reactionRolls.actions.map((action) => [action.name, action.actor, action.kind]),
      [
        ['reaction-roll', 'player', 'roll'],
        ['reaction-retrieval', 'player', 'decision'],
      ],
      'names, actors and kinds',
    )
    t.equal(schemaMeta(rollAction.request).$id, 'ReactionRollRequest', 'request $id')
    t.equal(schemaMeta(retrievalAction.outcome).$id, 'ReactionRetrievalOutcome', 'outcome $id')
    t.end()
  },
)

t.test('Server dice: a reaction roll asks the dice source for the ability die with purpose "reaction"', (t) => {
  const dice = createDice({ source: 'seeded', seed: 'purpose' })
  rollAction.resolve(
    sheetWith(),
    { ability: 'agility', pressure: 4, advantage: true },
    dice,
    reactionRolls.normalizeSettings({}),
  )
  t.same(
    dice.finish().map((die) => die.purpose),
    ['reaction', 'advantage'],
    'purposes recorded',
  )
  t.end()
})
