import Type, { type Static, type TProperties } from 'typebox'
import { ProbabilitySchema } from '../fraction.js'
import {
  AssistanceEffectSchema,
  DefenceSchema,
  MeterNameSchema,
  NameSchema,
  PassionNameSchema,
  RatingSchema,
  TierSchema,
} from './sheet-schema.js'

// Nested schemas carry no `$id`: the routes name the top-level ones (`StressCheckOdds`, …).

const CheckOutcomeSchema = Type.Union(
  [
    Type.Literal('avoided'),
    Type.Literal('automatic-failure'),
    Type.Literal('critical'),
    Type.Literal('matched-success'),
    Type.Literal('success'),
    Type.Literal('failure'),
    Type.Literal('matched-failure'),
    Type.Literal('fumble'),
  ],
  {
    description:
      'How the check ends: avoided (no roll, nothing marked), an automatic failure (five failed notches, no roll), or the tier of the defence roll.',
  },
)
export type CheckOutcome = Static<typeof CheckOutcomeSchema>

const TierOddsSchema = Type.Array(
  Type.Object(
    { tier: TierSchema(), probability: ProbabilitySchema('The chance of this tier.') },
    { additionalProperties: false },
  ),
  { description: 'Every tier of the d100, best first, listed even when it cannot happen (0/1).' },
)

const notchOdds = () => ({
  pass: ProbabilitySchema('The check is passed: a hardened notch (unless the meter is already full).'),
  fail: ProbabilitySchema('The check fails, with or without a roll: a failed notch and a stressed response.'),
  fifthFailedNotch: ProbabilitySchema(
    'The failed notch is the fifth of the meter: mental trauma and a disorder (a meter already at five marks no new one).',
  ),
})

const checkOddsProperties = () => ({
  meter: MeterNameSchema(),
  rank: Type.Integer({ minimum: 1, maximum: 10 }),
  avoidedBecause: Type.Union([Type.Literal('hardened'), Type.Literal('stressed'), Type.Null()], {
    description: 'Why the check is avoided for certain (hardened notches at the rank, or already stressed), or null.',
  }),
  automaticFailure: Type.Boolean({
    description: 'True when the check fails for certain without a roll: five failed notches in the meter.',
  }),
  defence: Type.Union([DefenceSchema, Type.Null()], {
    description: 'What the d100 is rolled against; null when no die is rolled.',
  }),
  outcomes: Type.Array(
    Type.Object(
      { outcome: CheckOutcomeSchema, probability: ProbabilitySchema('The chance of this outcome.') },
      { additionalProperties: false },
    ),
    {
      description:
        'Every way the check can end, in a fixed order (avoided, automatic failure, then the tiers best first), each listed even when it cannot happen (0/1). The chances add up to 1.',
    },
  ),
  ...notchOdds(),
})

const CheckOddsSchema = (description: string) =>
  Type.Object(checkOddsProperties(), { additionalProperties: false, description })

const ChangeOddsSchema = (description: string) =>
  Type.Object({ outcomes: TierOddsSchema, ...notchOdds() }, { additionalProperties: false, description })

const PassionUseSchema = (description: string) =>
  Type.Object(
    {
      usable: Type.Boolean({ description: 'Whether the rules would allow it after a failed roll.' }),
      because: Type.Union([Type.String(), Type.Null()], {
        description:
          'Why it cannot be used, as the rules would refuse it (burned out, flip-flop spent…); null when usable.',
      }),
      odds: Type.Union([ChangeOddsSchema('The check as it ends with this policy.'), Type.Null()], {
        description: 'Null when it cannot be used.',
      }),
    },
    { additionalProperties: false, description },
  )

const PassionOddsSchema = Type.Object(
  {
    passion: PassionNameSchema(),
    named: Type.Boolean({ description: 'True for the passion the request names as in play.' }),
    reroll: PassionUseSchema(
      'The check with this passion’s re-roll spent whenever the first roll fails (a re-roll of a pass could only lose it): the first roll’s passes stand, each failure is rolled again.',
    ),
    flipFlop: PassionUseSchema(
      'The check with this passion’s flip-flop spent whenever swapping the digits turns a failed roll into a pass (the player sees the roll first); any other roll stands.',
    ),
  },
  { additionalProperties: false },
)

const withSummary = <Properties extends TProperties>(properties: Properties) => ({
  ...properties,
  summary: Type.String({ description: 'One line a GM can read out.' }),
})

export const StressCheckOddsSchema = Type.Object(
  withSummary({
    ...checkOddsProperties(),
    passions: Type.Array(PassionOddsSchema, {
      description:
        'For each passion on the sheet (fear, rage, noble), how a re-roll or a flip-flop would change the odds; empty when the sheet has none.',
    }),
  }),
  {
    additionalProperties: false,
    description:
      'The exact odds of a stress check before it is rolled: every outcome, the chance of a hardened or failed notch and of the fifth failed notch, and what each passion could do about a failure.',
  },
)

const RollSchema = (description: string) =>
  Type.Object(
    {
      face: Type.Integer({ minimum: 1, maximum: 100, description: 'd100 face; 100 reads "00".' }),
      reading: Type.String({ pattern: '^[0-9]{2}$', description: 'The face as read on the dice, "01"–"00".' }),
      tier: TierSchema(),
    },
    { additionalProperties: false, description },
  )

const changeProperties = () => ({
  passion: PassionNameSchema(),
  defence: DefenceSchema,
  replaces: RollSchema('The roll of the latest stress check that the change replaces.'),
  outcomes: TierOddsSchema,
  ...notchOdds(),
})

export const PassionRerollOddsSchema = Type.Object(withSummary(changeProperties()), {
  additionalProperties: false,
  description: 'The exact odds of re-rolling the latest stress check: a fresh d100 against the same defence.',
})

export const PassionFlipFlopOddsSchema = Type.Object(
  withSummary({
    ...changeProperties(),
    flipped: RollSchema('The roll with its digits swapped, which would replace it: certain, no die is rolled.'),
  }),
  {
    additionalProperties: false,
    description: 'What flip-flopping the latest stress check gives: certain, since swapping the digits rolls nothing.',
  },
)

export const TherapyAssistanceOddsSchema = Type.Object(
  withSummary({
    identity: NameSchema({ description: 'The therapist’s Therapeutic identity.' }),
    rating: RatingSchema({ description: 'Its rating, rolled against.' }),
    meter: MeterNameSchema({ description: 'Meter of the failed check being treated.' }),
    tiers: TierOddsSchema,
    effects: Type.Array(
      Type.Object(
        {
          effect: AssistanceEffectSchema({
            description: 'What immediate assistance does (see the therapy-assistance outcome).',
          }),
          probability: ProbabilitySchema('The chance of this effect.'),
        },
        { additionalProperties: false },
      ),
      { description: 'Every effect, each listed even when it cannot happen (0/1). The chances add up to 1.' },
    ),
    relationshipFallsToZero: ProbabilitySchema(
      'The relationship with the therapist drops to 0%, which calls for the Isolation check named in `followUps`.',
    ),
    selfCheck: CheckOddsSchema(
      'If the therapist fumbles: the odds of the Self check the patient then faces (chances given the fumble).',
    ),
  }),
  {
    additionalProperties: false,
    description: 'The exact odds of immediate assistance on the failed notch the latest stress check just marked.',
  },
)

export type CheckOdds = Static<ReturnType<typeof CheckOddsSchema>>
export type ChangeOdds = Static<ReturnType<typeof ChangeOddsSchema>>
export type PassionOdds = Static<typeof PassionOddsSchema>
export type StressCheckOdds = Static<typeof StressCheckOddsSchema>
export type PassionRerollOdds = Static<typeof PassionRerollOddsSchema>
export type PassionFlipFlopOdds = Static<typeof PassionFlipFlopOddsSchema>
export type TherapyAssistanceOdds = Static<typeof TherapyAssistanceOddsSchema>
