import fc from 'fast-check'
import t from 'tap'
import { createDice, DiceNeededError, edgeOf, rollExploding, rollMany, rollWithEdge } from '../../src/rules/dice.js'
import { RuleError } from '../../src/rules/errors.js'

const sidesArb = fc.constantFrom(2, 4, 6, 8, 10, 12, 20, 100)

t.test('server dice: every face is between 1 and the number of sides', async (t) => {
  fc.assert(
    fc.property(sidesArb, fc.integer({ min: 1, max: 50 }), (sides, count) => {
      const dice = createDice({ source: 'server' })
      const faces = rollMany(dice, count, sides, 'test')
      return faces.every((face) => Number.isInteger(face) && face >= 1 && face <= sides)
    }),
  )
  t.pass('no server face left 1..sides')
})

t.test('createDice without a request rolls on the server', async (t) => {
  const dice = createDice()
  dice.roll(6, 'test')
  t.equal(dice.source, 'server', 'the default source is server')
  t.equal(dice.finish()[0]?.source, 'server', 'the roll is recorded as a server roll')
})

t.test('seeded dice: every face is between 1 and the number of sides', async (t) => {
  fc.assert(
    fc.property(fc.string({ minLength: 1 }), sidesArb, (seed, sides) => {
      const faces = rollMany(createDice({ source: 'seeded', seed }), 20, sides, 'test')
      return faces.every((face) => Number.isInteger(face) && face >= 1 && face <= sides)
    }),
  )
  t.pass('no seeded face left 1..sides')
})

t.test('seeded dice: the same seed gives the same faces', async (t) => {
  fc.assert(
    fc.property(fc.string({ minLength: 1 }), fc.array(sidesArb, { minLength: 1, maxLength: 30 }), (seed, sides) => {
      const first = createDice({ source: 'seeded', seed })
      const second = createDice({ source: 'seeded', seed })
      const a = sides.map((s) => first.roll(s, 'test'))
      const b = sides.map((s) => second.roll(s, 'test'))
      return a.every((face, i) => face === b[i])
    }),
  )
  t.pass('a seed always re-derives its faces')
})

t.test('seeded dice: different seeds give different faces', async (t) => {
  const faces = (seed: string) => rollMany(createDice({ source: 'seeded', seed }), 200, 100, 'test')
  t.notSame(faces('session-1'), faces('session-2'), 'two seeds give two sequences of 200 d100 faces')
  fc.assert(
    fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (a, b) => {
      fc.pre(a !== b)
      return faces(a).some((face, i) => face !== faces(b)[i])
    }),
    { numRuns: 50 },
  )
  t.pass('any two distinct seeds differ somewhere in 200 faces')
})

t.test('seeded dice: faces are uniform (chi-square over 60 000 d6 faces)', async (t) => {
  const dice = createDice({ source: 'seeded', seed: 'uniformity' })
  const counts = [0, 0, 0, 0, 0, 0]
  const rolls = 60_000
  for (let i = 0; i < rolls; i++) counts[dice.roll(6, 'test') - 1]!++
  const expected = rolls / 6
  const chiSquare = counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0)
  // 5 degrees of freedom: 20.5 is the 0.1% critical value; the bound is looser still.
  t.ok(chiSquare < 30, `chi-square ${chiSquare.toFixed(2)} is below 30 (counts ${counts.join(', ')})`)
  t.ok(
    counts.every((count) => count > 0),
    'every face comes up',
  )
})

t.test('provided dice: faces are returned in the order they were sent', async (t) => {
  const dice = createDice({ source: 'provided', faces: [3, 100, 1, 6] })
  t.same(
    [dice.roll(6, 'a'), dice.roll(100, 'b'), dice.roll(4, 'c'), dice.roll(6, 'd')],
    [3, 100, 1, 6],
    'each roll takes the next face',
  )
  t.same(
    dice.finish().map((roll) => roll.face),
    [3, 100, 1, 6],
    'finish() lists every face in order',
  )
})

t.test('provided dice: too few faces is DICE_COUNT naming the missing die', async (t) => {
  const dice = createDice({ source: 'provided', faces: [4] })
  dice.roll(6, 'first')
  const error = catchRuleError(() => dice.roll(8, 'health-loss'))
  t.equal(error.code, 'DICE_COUNT', 'the code says the count is wrong')
  t.equal(error.kind, 'invalid', 'a wrong count is invalid (422)')
  t.equal(error.pointer, '/dice/faces/1', 'the pointer names the missing face')
  t.type(error, DiceNeededError, 'it says which dice are needed')
  t.same(
    (error as DiceNeededError).needed,
    [{ count: 1, sides: 8, purpose: 'health-loss', exploding: false }],
    'one d8',
  )
  t.equal((error as DiceNeededError).facesProvided, 1, 'after the one face provided')
  t.match(error.message, /1 face was provided/, 'the message says how many faces came')
  t.match(error.message, /1 d8 for health-loss/, 'the message names the die, its size and its purpose')
})

t.test('provided dice: faces a resolution does not use are kept aside as unused, in the order sent', async (t) => {
  const dice = createDice({ source: 'provided', faces: [4, 5, 6] })
  t.equal(dice.roll(6, 'only'), 4, 'the first face is used')
  t.same(
    dice.finish().map((roll) => roll.face),
    [4],
    'the record holds the face used',
  )
  t.same(dice.unusedFaces(), [5, 6], 'the two others are unused')
  t.same(createDice({ source: 'seeded', seed: 's' }).unusedFaces(), [], 'other sources have none')
})

t.test('provided dice replayed exactly: too many faces is DICE_COUNT from finish()', async (t) => {
  const dice = createDice({ source: 'provided', faces: [4, 5, 6] }, { surplus: 'refuse' })
  dice.roll(6, 'only')
  const error = catchRuleError(() => dice.finish())
  t.equal(error.code, 'DICE_COUNT', 'unused faces are refused')
  t.equal(error.kind, 'invalid', 'a wrong count is invalid (422)')
  t.equal(error.pointer, '/dice/faces/1', 'the pointer names the first unused face')
  t.match(error.message, /3 faces were provided/, 'the message says how many were sent')
})

t.test('provided dice: a group announced together is needed together, counted by kind', async (t) => {
  const needed = (faces: number[], roll: (dice: ReturnType<typeof createDice>) => unknown) => {
    const error = catchRuleError(() => roll(createDice({ source: 'provided', faces })))
    t.type(error, DiceNeededError, `faces [${faces}]: DICE_COUNT with the dice needed`)
    return [(error as DiceNeededError).needed, (error as DiceNeededError).facesProvided] as const
  }
  t.same(
    needed([], (dice) => rollMany(dice, 3, 8, 'experience')),
    [[{ count: 3, sides: 8, purpose: 'experience', exploding: false }], 0],
    'three d8 asked for at once are all needed',
  )
  t.same(
    needed([2], (dice) => rollMany(dice, 3, 8, 'experience')),
    [[{ count: 2, sides: 8, purpose: 'experience', exploding: false }], 1],
    'after one face, the two others',
  )
  t.same(
    needed([], (dice) => rollWithEdge(dice, 10, 'advantage', 'reaction')),
    [
      [
        { count: 1, sides: 10, purpose: 'reaction', exploding: false },
        { count: 1, sides: 10, purpose: 'advantage', exploding: false },
      ],
      0,
    ],
    'advantage needs both dice',
  )
  t.same(
    needed([6, 6], (dice) => rollExploding(dice, 6, 'health-loss')),
    [[{ count: 1, sides: 6, purpose: 'health-loss', exploding: true }], 2],
    'an exploding die that showed 6 twice needs one more, which may explode again',
  )
  t.same(
    needed([9], (dice) => [dice.roll(100, 'defence'), dice.roll(100, 'defence')]),
    [[{ count: 1, sides: 100, purpose: 'defence', exploding: false }], 1],
    'an unannounced die is needed alone',
  )
  t.same(
    needed([], (dice) => {
      dice.plan?.([{ sides: 4, purpose: 'a' }])
      return dice.roll(6, 'b')
    }),
    [[{ count: 1, sides: 6, purpose: 'b', exploding: false }], 0],
    'a roll the plan did not announce is needed alone: the plan no longer says what follows',
  )
})

t.test('provided dice: exactly the right count finishes cleanly', async (t) => {
  const dice = createDice({ source: 'provided', faces: [] })
  t.same(dice.finish(), [], 'no faces, no dice')
})

t.test('provided dice: a face out of range is DICE_FACE_OUT_OF_RANGE at /dice/faces/<i>', async (t) => {
  for (const [faces, index] of [
    [[7], 0],
    [[3, 0], 1],
    [[3, 2, 2.5], 2],
  ] as const) {
    const dice = createDice({ source: 'provided', faces: [...faces] })
    const error = catchRuleError(() => faces.forEach(() => dice.roll(6, 'test')))
    t.equal(error.code, 'DICE_FACE_OUT_OF_RANGE', `faces ${faces.join(',')}: out of range`)
    t.equal(error.pointer, `/dice/faces/${index}`, `faces ${faces.join(',')}: the pointer names face ${index}`)
    t.match(error.message, /between 1 and 6/, 'the message gives the range')
  }
})

t.test('a seeded source without a seed is DICE_SEED_MISSING', async (t) => {
  const error = catchRuleError(() => createDice({ source: 'seeded' }))
  t.same([error.code, error.kind, error.pointer], ['DICE_SEED_MISSING', 'invalid', '/dice/seed'], 'names the seed')
})

t.test('a provided source without faces is DICE_FACES_MISSING', async (t) => {
  const error = catchRuleError(() => createDice({ source: 'provided' }))
  t.same([error.code, error.kind, error.pointer], ['DICE_FACES_MISSING', 'invalid', '/dice/faces'], 'names the faces')
})

t.test('rollExploding rolls again on the highest face and counts every die', async (t) => {
  const dice = createDice({ source: 'provided', faces: [6, 6, 3, 5] })
  t.same(rollExploding(dice, 6, 'health-loss'), [6, 6, 3], 'two sixes explode, the 3 stops')
  t.same(rollExploding(dice, 6, 'health-loss'), [5], 'a 5 does not explode')
  t.equal(dice.finish().length, 4, 'every die is recorded')
})

t.test('rollExploding never stops on the highest face (property)', async (t) => {
  fc.assert(
    fc.property(fc.string({ minLength: 1 }), fc.constantFrom(2, 4, 6), (seed, sides) => {
      const dice = createDice({ source: 'seeded', seed })
      const faces = rollExploding(dice, sides, 'test')
      const recorded = dice.finish()
      return (
        faces.at(-1) !== sides && faces.slice(0, -1).every((face) => face === sides) && recorded.length === faces.length
      )
    }),
  )
  t.pass('exploding dice end on a non-highest face, and every die is recorded')
})

t.test('rollWithEdge keeps the highest with advantage and the lowest with disadvantage', async (t) => {
  const advantage = rollWithEdge(createDice({ source: 'provided', faces: [2, 5] }), 6, 'advantage', 'reaction')
  t.same(advantage, { faces: [2, 5], kept: 5 }, 'advantage keeps 5 of 2 and 5')
  const disadvantage = rollWithEdge(createDice({ source: 'provided', faces: [2, 5] }), 6, 'disadvantage', 'reaction')
  t.same(disadvantage, { faces: [2, 5], kept: 2 }, 'disadvantage keeps 2 of 2 and 5')
  const none = rollWithEdge(createDice({ source: 'provided', faces: [4] }), 6, 'none', 'reaction')
  t.same(none, { faces: [4], kept: 4 }, 'no edge rolls one die')
})

t.test('edgeOf: advantage and disadvantage together cancel out', async (t) => {
  t.equal(edgeOf(true, false), 'advantage', 'advantage alone')
  t.equal(edgeOf(false, true), 'disadvantage', 'disadvantage alone')
  t.equal(edgeOf(true, true), 'none', 'both cancel')
  t.equal(edgeOf(false, false), 'none', 'neither')
})

t.test('every roll is recorded with its sides, face, purpose and source', async (t) => {
  const seeded = createDice({ source: 'seeded', seed: 'record' })
  const face = seeded.roll(100, 'defence')
  rollWithEdge(seeded, 8, 'advantage', 'reaction')
  const recorded = seeded.finish()
  t.same(recorded[0], { sides: 100, face, purpose: 'defence', source: 'seeded' }, 'the d100 is recorded')
  t.match(recorded[1], { sides: 8, purpose: 'reaction', source: 'seeded' }, 'the first edge die carries the purpose')
  t.match(recorded[2], { sides: 8, purpose: 'advantage', source: 'seeded' }, 'the second edge die says advantage')
  t.equal(recorded.length, 3, 'three dice rolled, three recorded')

  const provided = createDice({ source: 'provided', faces: [12] })
  provided.roll(12, 'health-loss')
  t.same(
    provided.finish(),
    [{ sides: 12, face: 12, purpose: 'health-loss', source: 'provided' }],
    'provided faces are recorded as provided',
  )
})

t.test('finish() returns a copy: later rolls do not change an earlier record', async (t) => {
  const dice = createDice({ source: 'seeded', seed: 'copy' })
  dice.roll(6, 'a')
  const first = dice.finish()
  dice.roll(6, 'b')
  t.equal(first.length, 1, 'the first record still holds one die')
  t.equal(dice.finish().length, 2, 'a new finish() holds both')
})

function catchRuleError(fn: () => unknown): RuleError {
  try {
    fn()
  } catch (error) {
    if (error instanceof RuleError) return error
    throw error
  }
  throw new Error('expected a RuleError')
}
