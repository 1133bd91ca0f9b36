import Type, { type Static } from 'typebox'
import type { Edge } from '../dice.js'
import { fraction, plus, probability, ProbabilitySchema, ZERO, type Fraction } from '../fraction.js'
import type { ActionOdds } from '../rule-set.js'
import { readReactionRoll } from './reaction-roll.js'
import { raisableEmotions } from './retrieval.js'
import type { Band, ReactionRollsSettings, ReactionRollsSheet } from './schemas.js'
import { bandOf, DICE_SIDES } from './tables.js'
import { capitalise } from './words.js'

const BANDS: readonly Band[] = ['success', 'retrievable', 'failure']
const VerdictSchema = Type.Union([Type.Literal('success'), Type.Literal('pending'), Type.Literal('failure')], {
  description: 'The outcome’s `verdict`: `pending` while a retrievable roll waits for the player.',
})
type Verdict = Static<typeof VerdictSchema>
const VERDICTS: readonly Verdict[] = ['success', 'pending', 'failure']

const ReactionRollOddsSchema = Type.Object(
  {
    resisted: Type.Boolean({ description: 'False when the player lets the event unfold: a failure, nothing rolled.' }),
    ability: Type.Union([Type.String(), Type.Null()]),
    dice: Type.Union(
      [
        Type.Literal('d4'),
        Type.Literal('d6'),
        Type.Literal('d8'),
        Type.Literal('d10'),
        Type.Literal('d12'),
        Type.Null(),
      ],
      { description: 'The ability’s dice class; null when the request names no ability.' },
    ),
    pressure: Type.Union([Type.Literal(4), Type.Literal(6), Type.Literal(8)]),
    edge: Type.Union([Type.Literal('advantage'), Type.Literal('disadvantage'), Type.Literal('none')], {
      description: 'Two dice keeping the higher (advantage) or the lower (disadvantage); both cancel to `none`.',
    }),
    modifierTotal: Type.Integer({ description: 'Context modifiers added to the kept die.' }),
    bands: Type.Array(
      Type.Object(
        {
          band: Type.Union([Type.Literal('success'), Type.Literal('retrievable'), Type.Literal('failure')]),
          probability: ProbabilitySchema('The chance of this band.'),
        },
        {
          additionalProperties: false,
        },
      ),
      {
        description:
          'The band the result falls in, over every face (one die: N faces; two dice: N² pairs), best first. All 0/1 when nothing is rolled.',
      },
    ),
    verdicts: Type.Array(
      Type.Object(
        { verdict: VerdictSchema, probability: ProbabilitySchema('The chance of this verdict.') },
        {
          additionalProperties: false,
        },
      ),
      {
        description:
          'How the roll ends with this request: a retrievable result succeeds with `retrieve: raise`, fails with `decline` or when no emotion can be raised, and is pending otherwise.',
      },
    ),
    successIfRetrieved: Type.Object(
      {
        possible: Type.Boolean({
          description: 'Whether a retrievable result could be retrieved: some emotion is below its top stage.',
        }),
        because: Type.Union([Type.String(), Type.Null()], { description: 'Why not, when it is not possible.' }),
        probability: ProbabilitySchema(
          'The chance of success if every retrievable result is retrieved by raising an emotion (success plus retrievable when possible).',
        ),
      },
      { additionalProperties: false },
    ),
    summary: Type.String({ description: 'One line a GM can read out.' }),
  },
  {
    additionalProperties: false,
    description:
      'The exact odds of a reaction roll before it is rolled: the band of the result and the verdict, and the chance of success when a retrievable result is retrieved.',
  },
)
type ReactionRollOdds = Static<typeof ReactionRollOddsSchema>

/** The kept die over every face: one die's N faces, or the N² pairs of two, keeping the higher or the lower. */
function keptCounts(sides: number, edge: Edge): { counts: number[]; total: number } {
  const counts = Array.from({ length: sides + 1 }, () => 0)
  if (edge === 'none') {
    for (let face = 1; face <= sides; face++) counts[face]!++
    return { counts, total: sides }
  }
  for (let first = 1; first <= sides; first++) {
    for (let second = 1; second <= sides; second++) {
      counts[edge === 'advantage' ? Math.max(first, second) : Math.min(first, second)]!++
    }
  }
  return { counts, total: sides * sides }
}

const said = (chance: Fraction) => {
  const { fraction: exact, percent } = probability(chance)
  return `${exact} (${percent}%)`
}

export const reactionRollOdds: ActionOdds<ReactionRollsSheet, unknown, ReactionRollsSettings> = {
  schema: ReactionRollOddsSchema,
  of(sheet, input, settings): ReactionRollOdds {
    const { request, resist, abilityName, ability, modifierTotal, edge } = readReactionRoll(sheet, input, settings)
    const raisable = raisableEmotions(sheet, settings)
    const bands: Record<Band, Fraction> = { success: ZERO, retrievable: ZERO, failure: ZERO }
    const rolled = resist && ability !== undefined
    if (rolled) {
      const { counts, total } = keptCounts(DICE_SIDES[ability.dice], edge)
      counts.forEach((count, kept) => {
        if (count === 0) return
        const band = bandOf(request.pressure, kept + modifierTotal)
        bands[band] = plus(bands[band], fraction(count, total))
      })
    }
    const retrieval = request.retrieve?.decision
    const verdicts: Record<Verdict, Fraction> = { success: bands.success, pending: ZERO, failure: bands.failure }
    const retrievableEnds: Verdict =
      retrieval === 'raise' ? 'success' : retrieval === 'decline' || raisable.length === 0 ? 'failure' : 'pending'
    verdicts[retrievableEnds] = plus(verdicts[retrievableEnds], bands.retrievable)
    if (!rolled) verdicts.failure = fraction(1, 1)
    const ifRetrieved = raisable.length > 0 ? plus(bands.success, bands.retrievable) : bands.success
    const edgeWords = edge === 'none' ? '' : ` with ${edge}`
    const modifierWords = modifierTotal === 0 ? '' : ` ${modifierTotal > 0 ? '+' : '−'} ${Math.abs(modifierTotal)}`
    return {
      resisted: rolled,
      ability: abilityName ?? null,
      dice: ability?.dice ?? null,
      pressure: request.pressure,
      edge: rolled ? edge : 'none',
      modifierTotal,
      bands: BANDS.map((band) => ({ band, probability: probability(bands[band]) })),
      verdicts: VERDICTS.map((verdict) => ({ verdict, probability: probability(verdicts[verdict]) })),
      successIfRetrieved: {
        possible: raisable.length > 0,
        because:
          raisable.length > 0
            ? null
            : `every emotion is at its top stage ${settings.emotionTopStage}: none can be raised`,
        probability: probability(ifRetrieved),
      },
      summary: rolled
        ? `${capitalise(abilityName!)} ${ability.dice}${edgeWords}${modifierWords} vs pressure ${request.pressure}: success ${said(bands.success)}, retrievable ${said(bands.retrievable)}, failure ${said(bands.failure)}; success if retrieved ${said(ifRetrieved)}`
        : `Pressure ${request.pressure}: the player lets the event unfold — failure for certain, no roll`,
    }
  },
}
