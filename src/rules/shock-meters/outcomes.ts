import Type, { type Static } from 'typebox'
import {
  AssistanceEffectSchema,
  DefenceSchema,
  DisorderSchema,
  MeterNameSchema,
  NameSchema,
  PassionNameSchema,
  RatingSchema,
  ResponseSchema,
  StressedSchema,
  TierSchema,
} from './sheet-schema.js'

const Change = (max: number, description: string) =>
  Type.Object(
    { before: Type.Integer({ minimum: 0, maximum: max }), after: Type.Integer({ minimum: 0, maximum: max }) },
    { additionalProperties: false, description },
  )

const Face = () =>
  Type.Union([Type.Integer({ minimum: 1, maximum: 100 }), Type.Null()], { description: 'd100 face; 100 reads "00".' })
const Reading = () =>
  Type.Union([Type.String({ pattern: '^[0-9]{2}$' }), Type.Null()], {
    description: 'The face as read on the dice, "01"–"00".',
  })

/** The effect of one stress check; embedded (without `$id`) wherever a check is resolved. */
const checkOutcomeProperties = () => ({
  meter: MeterNameSchema(),
  rank: Type.Integer({ minimum: 1, maximum: 10 }),
  trigger: Type.Union([NameSchema(), Type.Null()]),
  result: Type.Union([
    Type.Literal('avoided'),
    Type.Literal('automatic-failure'),
    Type.Literal('passed'),
    Type.Literal('failed'),
  ]),
  avoidedBecause: Type.Union([Type.Literal('hardened'), Type.Literal('stressed'), Type.Null()]),
  defence: Type.Union([DefenceSchema, Type.Null()], { description: 'What the check was defended with, when rolled.' }),
  face: Face(),
  reading: Reading(),
  tier: Type.Union([TierSchema(), Type.Null()]),
  hardened: Change(9, 'Hardened notches of the meter.'),
  failed: Change(5, 'Failed notches of the meter.'),
  stressed: Type.Union([StressedSchema, Type.Null()], { description: 'The stressed state the check set, if any.' }),
  trauma: Type.Boolean({ description: 'True when the check marked the fifth failed notch.' }),
  disorder: Type.Union([DisorderSchema, Type.Null()], {
    description: 'The disorder the trauma brought (name null while pending).',
  }),
  burnedOut: Type.Boolean({ description: 'Burned out after the check.' }),
})

const CheckOutcome = (description: string) =>
  Type.Object(checkOutcomeProperties(), { additionalProperties: false, description })

export const StressCheckOutcomeSchema = Type.Object(checkOutcomeProperties(), {
  $id: 'StressCheckOutcome',
  additionalProperties: false,
})
export type StressCheckOutcome = Static<typeof StressCheckOutcomeSchema>

export const PassionChangeOutcomeSchema = Type.Object(
  {
    action: Type.Union([Type.Literal('passion-reroll'), Type.Literal('passion-flip-flop')]),
    passion: PassionNameSchema(),
    originalFace: Type.Integer({ minimum: 1, maximum: 100 }),
    originalTier: TierSchema(),
    undone: Type.Object(
      {
        marked: Type.Union([Type.Literal('hardened'), Type.Literal('failed'), Type.Literal('none')]),
        setStressed: Type.Boolean(),
        trauma: Type.Boolean(),
      },
      { additionalProperties: false, description: 'The effects of the original roll, taken back.' },
    ),
    check: CheckOutcome('The check as it now stands, with the new roll.'),
  },
  { $id: 'PassionChangeOutcome', additionalProperties: false },
)
export type PassionChangeOutcome = Static<typeof PassionChangeOutcomeSchema>

export const StressResponseOutcomeSchema = Type.Object(
  { meter: MeterNameSchema(), response: ResponseSchema() },
  { $id: 'StressResponseOutcome', additionalProperties: false },
)

export const RecordDisorderOutcomeSchema = Type.Object(
  {
    disorder: DisorderSchema,
    added: Type.Boolean({ description: 'True when a new disorder was added rather than a pending one named.' }),
  },
  { $id: 'RecordDisorderOutcome', additionalProperties: false },
)

export const ClearStressedOutcomeSchema = Type.Object(
  { cleared: StressedSchema, reason: Type.Union([Type.String(), Type.Null()]) },
  { $id: 'ClearStressedOutcome', additionalProperties: false },
)

export const NewSessionOutcomeSchema = Type.Object(
  {
    flipFlopsRestored: Type.Array(PassionNameSchema(), { description: 'Passions that had used their flip-flop.' }),
    lastCheckClosed: Type.Boolean({ description: 'True when the latest stress check can no longer be changed.' }),
  },
  { $id: 'NewSessionOutcome', additionalProperties: false },
)

export const TherapyAssistanceOutcomeSchema = Type.Object(
  {
    identity: NameSchema({ description: 'The therapist’s Therapeutic identity.' }),
    rating: RatingSchema(),
    face: Type.Integer({ minimum: 1, maximum: 100 }),
    reading: Type.String({ pattern: '^[0-9]{2}$' }),
    tier: TierSchema(),
    effect: AssistanceEffectSchema({
      description:
        'fumble → self-check; matched failure → relationship-drop; failure → none; success → notch-hardened (or declined without consent); matched success / critical → notch-erased.',
    }),
    meter: MeterNameSchema({ description: 'Meter of the failed check being treated.' }),
    hardened: Change(9, 'Hardened notches of that meter.'),
    failed: Change(5, 'Failed notches of that meter.'),
    relationship: Type.Union(
      [
        Type.Object(
          { name: NameSchema(), before: RatingSchema(), after: RatingSchema() },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'The relationship with the therapist, when it dropped.' },
    ),
    disorderRemoved: Type.Union([DisorderSchema, Type.Null()], {
      description: 'The disorder the treated notch had brought, gone with the notch.',
    }),
    selfCheck: Type.Union([CheckOutcome('The Self check a fumble brings.'), Type.Null()]),
  },
  { $id: 'TherapyAssistanceOutcome', additionalProperties: false },
)

export const OngoingTreatmentOutcomeSchema = Type.Object(
  {
    reason: Type.String(),
    meter: Type.Union([MeterNameSchema(), Type.Null()]),
    hardened: Type.Union([Change(9, 'Hardened notches of the meter.'), Type.Null()]),
    failed: Type.Union([Change(5, 'Failed notches of the meter.'), Type.Null()]),
    disorderRemoved: Type.Union([DisorderSchema, Type.Null()]),
    burnedOut: Type.Object({ before: Type.Boolean(), after: Type.Boolean() }, { additionalProperties: false }),
  },
  { $id: 'OngoingTreatmentOutcome', additionalProperties: false },
)
