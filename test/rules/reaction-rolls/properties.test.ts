import fc from 'fast-check'
import t from 'tap'
import { createDice } from '../../../src/rules/dice.js'
import { RuleError } from '../../../src/rules/errors.js'
import { reactionRolls } from '../../../src/rules/reaction-rolls/index.js'
import type { ReactionRollOutcome } from '../../../src/rules/reaction-rolls/schemas.js'
import { deepFreeze, retrievalAction, roll, rollAction, settle } from './helpers.js'

const diceClass = fc.constantFrom('d4', 'd6', 'd8', 'd10', 'd12')
const emotion = fc.constantFrom('anger', 'fear', 'sadness', 'guilt')
const sources = ['environment', 'actors', 'means', 'condition'] as const

const settingsArb = fc.record({
  emotionTopStage: fc.integer({ min: 1, max: 20 }),
  xpTrackLength: fc.integer({ min: 1, max: 20 }),
})

const sheetFor = (settings: { emotionTopStage: number; xpTrackLength: number }) =>
  fc.record({
    abilities: fc.record({
      agility: fc.record({
        dice: diceClass,
        xp: fc.integer({ min: 0, max: settings.xpTrackLength }),
        maxedOut: fc.boolean(),
        crippled: fc.boolean(),
      }),
    }),
    emotions: fc.record({
      anger: fc.integer({ min: 0, max: settings.emotionTopStage }),
      fear: fc.integer({ min: 0, max: settings.emotionTopStage }),
      sadness: fc.integer({ min: 0, max: settings.emotionTopStage }),
      guilt: fc.integer({ min: 0, max: settings.emotionTopStage }),
    }),
  })

const modifiersArb = fc
  .subarray([...sources])
  .chain((chosen) =>
    fc.tuple(
      ...chosen.map((source) => fc.record({ source: fc.constant(source), weight: fc.constantFrom(-2, -1, 1, 2) })),
    ),
  )

const requestArb = fc.record(
  {
    ability: fc.constant('agility'),
    pressure: fc.constantFrom(4, 6, 8),
    advantage: fc.boolean(),
    disadvantage: fc.boolean(),
    modifiers: modifiersArb,
    retrieve: fc.oneof(fc.record({ decision: fc.constant('raise'), emotion }), fc.constant({ decision: 'decline' })),
  },
  { requiredKeys: ['ability', 'pressure'] },
)

const scenario = settingsArb.chain((settings) =>
  fc.record({
    settings: fc.constant(settings),
    sheet: sheetFor(settings),
    request: requestArb,
    seed: fc.string({ minLength: 1 }),
  }),
)

/** Runs a roll, and settles it with `choice` if it ends pending; refusals the rules call for count as "nothing happened". */
function play(
  input: { settings: Record<string, unknown>; sheet: unknown; request: Record<string, unknown>; seed: string },
  choice?: Record<string, unknown>,
) {
  try {
    const first = resolveSeeded(rollAction, input)
    if (first.sheet.pendingRetrieval === null || choice === undefined) return first.sheet
    return settle(first.sheet, choice, input.settings).sheet
  } catch (error) {
    if (error instanceof RuleError && error.kind === 'invalid' && error.code === 'EMOTION_AT_TOP_STAGE') return null
    throw error
  }
}

function resolveSeeded(
  action: typeof rollAction,
  input: { settings: unknown; sheet: unknown; request: unknown; seed: string },
) {
  const dice = createDice({ source: 'seeded', seed: input.seed })
  const resolution = action.resolve(
    reactionRolls.normalizeSheet(input.sheet),
    input.request,
    dice,
    reactionRolls.normalizeSettings(input.settings),
  )
  return { ...resolution, dice: dice.finish() }
}

t.test('Property: emotion stages stay within 0..top stage and XP within 0..track length', (t) => {
  fc.assert(
    fc.property(scenario, fc.record({ decision: fc.constant('raise'), emotion }), (input, choice) => {
      const after = play(input, choice)
      if (after === null) return
      const { emotionTopStage, xpTrackLength } = input.settings
      for (const [name, stage] of Object.entries(after.emotions)) {
        if (stage < 0 || stage > emotionTopStage)
          throw new Error(`${name} stage ${stage} outside 0..${emotionTopStage}`)
      }
      const xp = after.abilities.agility!.xp
      if (xp < 0 || xp > xpTrackLength) throw new Error(`xp ${xp} outside 0..${xpTrackLength}`)
    }),
    { numRuns: 500 },
  )
  t.pass('bounds held over 500 random rolls and retrievals')
  t.end()
})

t.test('Property: a roll changes at most one emotion by one stage and XP by at most one', (t) => {
  fc.assert(
    fc.property(scenario, (input) => {
      const before = reactionRolls.normalizeSheet(input.sheet)
      const after = play(input)
      if (after === null) return
      const steps = Object.entries(after.emotions).map(
        ([name, stage]) => stage - before.emotions[name as keyof typeof before.emotions],
      )
      const total = steps.reduce((sum, step) => sum + step, 0)
      if (!steps.every((step) => step === 0 || step === 1) || total > 1) throw new Error(`emotion steps ${steps}`)
      const xpStep = after.abilities.agility!.xp - before.abilities.agility!.xp
      if (xpStep !== 0 && xpStep !== 1) throw new Error(`xp moved by ${xpStep}`)
      if (xpStep === 1 && total !== 1) throw new Error('XP marked without raising an emotion')
    }),
    { numRuns: 300 },
  )
  t.pass('each retrieval raises one emotion one stage, and XP only comes with it')
  t.end()
})

t.test('Property: the same seed gives the same result', (t) => {
  fc.assert(
    fc.property(scenario, (input) => {
      let first: unknown
      let second: unknown
      try {
        first = resolveSeeded(rollAction, input)
        second = resolveSeeded(rollAction, input)
      } catch (error) {
        if (error instanceof RuleError) return
        throw error
      }
      if (JSON.stringify(first) !== JSON.stringify(second)) throw new Error('same seed, different resolution')
    }),
    { numRuns: 200 },
  )
  t.pass('identical resolutions')
  t.end()
})

t.test('Property: provided dice replay a server roll exactly', (t) => {
  fc.assert(
    fc.property(scenario, (input) => {
      const dice = createDice({ source: 'server' })
      const settings = reactionRolls.normalizeSettings(input.settings)
      let server
      try {
        server = rollAction.resolve(reactionRolls.normalizeSheet(input.sheet), input.request, dice, settings)
      } catch (error) {
        if (error instanceof RuleError) return
        throw error
      }
      const faces = dice.finish().map((die) => die.face)
      const replay = roll(input.request, faces, input.sheet, input.settings)
      if (JSON.stringify(replay.outcome) !== JSON.stringify(server.outcome))
        throw new Error('outcome differs on replay')
      if (JSON.stringify(replay.sheet) !== JSON.stringify(reactionRolls.normalizeSheet(server.sheet)))
        throw new Error('sheet differs on replay')
      if (replay.summary !== server.summary) throw new Error('summary differs on replay')
    }),
    { numRuns: 200 },
  )
  t.pass('replayed faces give the same outcome, sheet and summary')
  t.end()
})

t.test('Property: resolvers never mutate their input', (t) => {
  fc.assert(
    fc.property(scenario, (input) => {
      const settings = deepFreeze(reactionRolls.normalizeSettings(input.settings))
      const sheet = deepFreeze(reactionRolls.normalizeSheet(input.sheet))
      const request = deepFreeze(structuredClone(input.request))
      const snapshot = JSON.stringify([sheet, request, settings])
      try {
        const rolled = rollAction.resolve(sheet, request, createDice({ source: 'seeded', seed: input.seed }), settings)
        if (rolled.sheet.pendingRetrieval !== null) {
          const frozenPending = deepFreeze(rolled.sheet)
          const choice = deepFreeze({ decision: 'decline' })
          retrievalAction.resolve(frozenPending, choice, createDice({ source: 'provided', faces: [] }), settings)
          const raisable = (['anger', 'fear', 'sadness', 'guilt'] as const).find(
            (e) => frozenPending.emotions[e] < settings.emotionTopStage,
          )
          if (raisable)
            retrievalAction.resolve(
              frozenPending,
              deepFreeze({ decision: 'raise', emotion: raisable }),
              createDice(),
              settings,
            )
        }
      } catch (error) {
        if (!(error instanceof RuleError)) throw error
      }
      if (JSON.stringify([sheet, request, settings]) !== snapshot) throw new Error('input changed')
    }),
    { numRuns: 300 },
  )
  t.pass('deep-frozen sheet, request and settings are never written to')
  t.end()
})

t.test('Property: for the same two faces, the advantage die kept is never below the disadvantage die kept', (t) => {
  fc.assert(
    fc.property(diceClass, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), (dice, a, b) => {
      const sheet = { abilities: { agility: { dice } } }
      const withAdvantage = roll(
        { ability: 'agility', pressure: 4, advantage: true, retrieve: { decision: 'decline' } },
        [a, b],
        sheet,
      )
      const withDisadvantage = roll(
        { ability: 'agility', pressure: 4, disadvantage: true, retrieve: { decision: 'decline' } },
        [a, b],
        sheet,
      )
      const high = withAdvantage.outcome.kept!
      const low = withDisadvantage.outcome.kept!
      if (high < low) throw new Error(`advantage kept ${high} < disadvantage kept ${low}`)
      if (high !== Math.max(a, b) || low !== Math.min(a, b)) throw new Error('kept the wrong die')
    }),
  )
  t.pass('advantage ≥ disadvantage')
  t.end()
})

t.test(
  'Property: result is the kept die plus the modifier weights, and its band follows pressure/2 and pressure',
  (t) => {
    fc.assert(
      fc.property(scenario, (input) => {
        let outcome: ReactionRollOutcome
        try {
          outcome = resolveSeeded(rollAction, input).outcome as ReactionRollOutcome
        } catch (error) {
          if (error instanceof RuleError) return
          throw error
        }
        const weights = (input.request.modifiers ?? []).reduce(
          (sum: number, m: { weight: number }) => sum + m.weight,
          0,
        )
        if (outcome.result !== outcome.kept! + weights) throw new Error('result is not kept + weights')
        const pressure = input.request.pressure
        const band = outcome.result <= pressure / 2 ? 'failure' : outcome.result >= pressure ? 'success' : 'retrievable'
        if (outcome.band !== band) throw new Error(`result ${outcome.result} vs ${pressure} should be ${band}`)
      }),
      { numRuns: 300 },
    )
    t.pass('result and band agree with the formula')
    t.end()
  },
)
