import Type, { type Static } from 'typebox'
import {
  MeterNameSchema,
  NameSchema,
  PassionNameSchema,
  RatingSchema,
  ResponseSchema,
  TextSchema,
} from './sheet-schema.js'

export const StressCheckRequestSchema = Type.Object(
  {
    meter: MeterNameSchema({ description: 'The shock meter under attack.' }),
    rank: Type.Integer({ minimum: 1, maximum: 10, description: 'Stress rank, 1–10.' }),
    trigger: Type.Optional(
      NameSchema({
        description:
          'Trigger from the catalog (GET /v1/rulesets/shock-meters, tables.triggers), by id or by one of its aliases such as the rulebook’s name ("Conflagration" for `set-on-fire`); the outcome records the id. Meter and rank must then fit it.',
      }),
    ),
    identity: Type.Optional(
      NameSchema({
        description:
          'Identity that resists shock to this meter to defend with. Default: the highest-rated such identity, else the fallback ability.',
      }),
    ),
    passion: Type.Optional(
      PassionNameSchema({ description: 'The passion in play, which may later re-roll or flip-flop this check.' }),
    ),
    response: Type.Optional(
      ResponseSchema({
        description: 'Response chosen in advance if the check fails; otherwise it is left pending for stress-response.',
      }),
    ),
    disorder: Type.Optional(
      NameSchema({
        description:
          'Disorder to record if this check brings mental trauma; otherwise the GM names it with record-disorder.',
      }),
    ),
    cause: Type.Optional(TextSchema({ description: 'What happened, in the table’s words.' })),
  },
  {
    $id: 'StressCheckRequest',
    additionalProperties: false,
    description: 'Face a stress check against one shock meter.',
    examples: [
      { meter: 'violence', rank: 4, trigger: 'kill-in-fight', cause: 'Shot the cultist on the stairs' },
      { meter: 'unnatural', rank: 5, trigger: 'specific-harm', response: 'panic', disorder: 'Hemophobia' },
    ],
  },
)
export type StressCheckRequest = Static<typeof StressCheckRequestSchema>

const passionRequest = ($id: string, description: string) =>
  Type.Object(
    {
      passion: Type.Optional(
        PassionNameSchema({ description: 'The passion in play; defaults to the passion named by the stress check.' }),
      ),
    },
    { $id, additionalProperties: false, description, examples: [{ passion: 'fear' }] },
  )

export const PassionRerollRequestSchema = passionRequest(
  'PassionRerollRequest',
  'Re-roll the latest stress check with a passion in play; the new roll replaces it.',
)
export type PassionRerollRequest = Static<typeof PassionRerollRequestSchema>

export const PassionFlipFlopRequestSchema = passionRequest(
  'PassionFlipFlopRequest',
  'Swap the digits of the latest stress check’s roll with a passion in play (once per passion per session).',
)
export type PassionFlipFlopRequest = Static<typeof PassionFlipFlopRequestSchema>

export const StressResponseRequestSchema = Type.Object(
  { response: ResponseSchema({ description: 'panic (flight), paralysis (freeze) or frenzy (fight).' }) },
  {
    $id: 'StressResponseRequest',
    additionalProperties: false,
    description: 'Choose the pending response of a stressed character.',
    examples: [{ response: 'paralysis' }],
  },
)
export type StressResponseRequest = Static<typeof StressResponseRequestSchema>

export const RecordDisorderRequestSchema = Type.Object(
  {
    name: NameSchema({ description: 'The disorder.' }),
    meter: Type.Optional(
      MeterNameSchema({
        description: 'Needed to add a disorder when none is pending; must match the pending one otherwise.',
      }),
    ),
    cause: Type.Optional(TextSchema({ description: 'The trigger situation; replaces the recorded cause when given.' })),
  },
  {
    $id: 'RecordDisorderRequest',
    additionalProperties: false,
    description: 'Name the pending disorder, or add one.',
    examples: [{ name: 'Nyctophobia', meter: 'helplessness', cause: 'Left for dead in the flooded cellar' }],
  },
)
export type RecordDisorderRequest = Static<typeof RecordDisorderRequestSchema>

export const ClearStressedRequestSchema = Type.Object(
  { reason: Type.Optional(TextSchema({ description: 'How the threat went away.' })) },
  {
    $id: 'ClearStressedRequest',
    additionalProperties: false,
    description: 'The source of the threat is gone: the character is no longer stressed.',
    examples: [{ reason: 'The gunman fled into the night' }],
  },
)
export type ClearStressedRequest = Static<typeof ClearStressedRequestSchema>

export const NewSessionRequestSchema = Type.Object(
  {},
  {
    $id: 'NewSessionRequest',
    additionalProperties: false,
    description: 'A new session starts: every passion may flip-flop again.',
    examples: [{}],
  },
)
export type NewSessionRequest = Static<typeof NewSessionRequestSchema>

export const TherapyAssistanceRequestSchema = Type.Object(
  {
    identity: NameSchema({
      description: 'The therapist’s identity with the Therapeutic feature, e.g. "Trauma Nurse".',
    }),
    rating: RatingSchema({ description: 'That identity’s rating, rolled against.' }),
    relationship: Type.Optional(
      NameSchema({
        description:
          'The patient’s relationship with the therapist, on the patient’s sheet; it drops 5 on a matched failure.',
      }),
    ),
    consent: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'On a plain success, whether the patient agrees to turn the failed notch into a hardened one.',
      }),
    ),
    selfCheckRank: Type.Optional(
      Type.Union([Type.Literal(2), Type.Literal(3)], {
        default: 2,
        description: 'Rank of the Self check the patient faces if the therapist fumbles (2 or 3).',
      }),
    ),
    selfCheckResponse: Type.Optional(
      ResponseSchema({ description: 'Response in advance should that Self check fail.' }),
    ),
  },
  {
    $id: 'TherapyAssistanceRequest',
    additionalProperties: false,
    description: 'Immediate assistance from a therapist on the failed notch the latest stress check just marked.',
    examples: [{ identity: 'Trauma Nurse', rating: 55 }],
  },
)
export type TherapyAssistanceRequest = Static<typeof TherapyAssistanceRequestSchema>

export const OngoingTreatmentRequestSchema = Type.Object(
  {
    meter: Type.Optional(MeterNameSchema({ description: 'The meter whose notches the treatment removes.' })),
    failed: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 5, description: 'Failed notches to remove from the meter.' }),
    ),
    hardened: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 9, description: 'Hardened notches to remove from the meter.' }),
    ),
    disorder: Type.Optional(NameSchema({ description: 'A disorder the character recovers from.' })),
    reason: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'The course of treatment, recorded with the outcome.',
    }),
  },
  {
    $id: 'OngoingTreatmentRequest',
    additionalProperties: false,
    description: 'Ongoing treatment removes failed or hardened notches, or a disorder.',
    examples: [{ meter: 'self', hardened: 1, reason: 'Six weeks of sessions with Dr. Okafor' }],
  },
)
export type OngoingTreatmentRequest = Static<typeof OngoingTreatmentRequestSchema>
