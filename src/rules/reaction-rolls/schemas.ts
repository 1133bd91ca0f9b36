import Type, { type Static } from 'typebox'

/** Upper bound of the campaign setting `emotionTopStage`, so a sheet schema can bound stages on its own. */
const MAX_TOP_STAGE = 20
/** Upper bound of the campaign setting `xpTrackLength`. */
const MAX_XP_TRACK_LENGTH = 20

export const ReactionRollsSettingsSchema = Type.Object(
  {
    emotionTopStage: Type.Integer({
      minimum: 1,
      maximum: MAX_TOP_STAGE,
      default: 5,
      description: 'Highest stage an emotion can reach (stages run from 0). An emotion at this stage cannot be raised.',
    }),
    xpTrackLength: Type.Integer({
      minimum: 1,
      maximum: MAX_XP_TRACK_LENGTH,
      default: 5,
      description: "Segments on each ability's XP track. A full track takes no more marks.",
    }),
  },
  {
    $id: 'ReactionRollsSettings',
    additionalProperties: false,
    description: 'Campaign settings of the reaction-rolls rule set.',
    examples: [{ emotionTopStage: 5, xpTrackLength: 5 }],
  },
)
export type ReactionRollsSettings = Static<typeof ReactionRollsSettingsSchema>

const DiceClassSchema = (description: string) =>
  Type.Union([Type.Literal('d4'), Type.Literal('d6'), Type.Literal('d8'), Type.Literal('d10'), Type.Literal('d12')], {
    description,
  })

const EmotionSchema = (description: string) =>
  Type.Union([Type.Literal('anger'), Type.Literal('fear'), Type.Literal('sadness'), Type.Literal('guilt')], {
    description,
  })

const PressureSchema = (description: string) =>
  Type.Union([Type.Literal(4), Type.Literal(6), Type.Literal(8)], { description })

const ABILITY_NAME_PATTERN = '^[a-z][a-z0-9-]{0,39}$'

const AbilitySchema = Type.Object(
  {
    dice: DiceClassSchema('Dice class: the die rolled for this ability.'),
    xp: Type.Integer({
      minimum: 0,
      maximum: MAX_XP_TRACK_LENGTH,
      default: 0,
      description: "Marked segments of the XP track (at most the campaign's `xpTrackLength`).",
    }),
    maxedOut: Type.Boolean({
      default: false,
      description: 'A maxed-out ability marks no XP when a roll is retrieved.',
    }),
    crippled: Type.Boolean({ default: false, description: 'A crippled ability marks no XP when a roll is retrieved.' }),
  },
  { additionalProperties: false, description: 'One ability of the character.' },
)
type Ability = Static<typeof AbilitySchema>

const stage = (emotion: string) =>
  Type.Integer({
    minimum: 0,
    maximum: MAX_TOP_STAGE,
    default: 0,
    description: `Stage of ${emotion}, from 0 up to the campaign's \`emotionTopStage\`.`,
  })

const PendingRetrievalSchema = Type.Object(
  {
    ability: Type.String({ pattern: ABILITY_NAME_PATTERN, description: 'Ability that was rolled.' }),
    dice: DiceClassSchema('Dice class that was rolled.'),
    pressure: PressureSchema('Pressure of the roll.'),
    result: Type.Integer({ description: 'Kept die plus modifiers: inside the retrievable band of the pressure.' }),
  },
  {
    additionalProperties: false,
    description:
      'A retrievable reaction roll waiting for the player: settle it with `reaction-retrieval` (raise an emotion or decline).',
  },
)

const DEFAULT_ABILITIES = {
  agility: { dice: 'd6', xp: 0, maxedOut: false, crippled: false },
  dexterity: { dice: 'd6', xp: 0, maxedOut: false, crippled: false },
  insight: { dice: 'd6', xp: 0, maxedOut: false, crippled: false },
  composure: { dice: 'd6', xp: 0, maxedOut: false, crippled: false },
  endurance: { dice: 'd6', xp: 0, maxedOut: false, crippled: false },
} as const satisfies Record<string, Ability>

export const ReactionRollsSheetSchema = Type.Object(
  {
    abilities: Type.Record(Type.String({ pattern: ABILITY_NAME_PATTERN }), AbilitySchema, {
      propertyNames: { pattern: ABILITY_NAME_PATTERN },
      minProperties: 1,
      maxProperties: 50,
      default: DEFAULT_ABILITIES,
      description: 'Abilities by lower-case name (e.g. `agility`), each with its dice class and XP track.',
    }),
    emotions: Type.Object(
      { anger: stage('anger'), fear: stage('fear'), sadness: stage('sadness'), guilt: stage('guilt') },
      { additionalProperties: false, default: {}, description: 'Emotion stages.' },
    ),
    pendingRetrieval: Type.Union([Type.Null(), PendingRetrievalSchema], {
      default: null,
      description: "Set while a retrievable roll waits for the player's decision; null otherwise.",
    }),
  },
  {
    $id: 'ReactionRollsSheet',
    additionalProperties: false,
    description: 'Character sheet for reaction rolls: abilities, emotions and a retrieval awaiting a decision.',
    examples: [
      {
        abilities: DEFAULT_ABILITIES,
        emotions: { anger: 0, fear: 0, sadness: 0, guilt: 0 },
        pendingRetrieval: null,
      },
    ],
  },
)
export type ReactionRollsSheet = Static<typeof ReactionRollsSheetSchema>

const ModifierSchema = Type.Object(
  {
    source: Type.Union(
      [Type.Literal('environment'), Type.Literal('actors'), Type.Literal('means'), Type.Literal('condition')],
      { description: 'Where the modifier comes from; at most one modifier per source.' },
    ),
    weight: Type.Union([Type.Literal(-2), Type.Literal(-1), Type.Literal(1), Type.Literal(2)], {
      description: "±1 mild impact, ±2 defining impact on the character's capacity to react.",
    }),
    reason: Type.Optional(Type.String({ maxLength: 200, description: 'What in the fiction grants it.' })),
  },
  { additionalProperties: false, description: 'A context modifier added to the kept die.' },
)
export type Modifier = Static<typeof ModifierSchema>

const retrievalFields = {
  decision: Type.Union([Type.Literal('raise'), Type.Literal('decline')], {
    description: '`raise`: raise one emotion by one stage and succeed. `decline`: the roll fails.',
  }),
  emotion: Type.Optional(EmotionSchema('Emotion raised by one stage; required with `raise`, absent with `decline`.')),
}

const RetrievalPolicySchema = Type.Object(retrievalFields, {
  additionalProperties: false,
  description:
    'What to do if the roll lands in the retrievable band. Without it, a retrievable roll stays pending until `reaction-retrieval` settles it.',
})
export type RetrievalChoice = Static<typeof RetrievalPolicySchema>

export const ReactionRollRequestSchema = Type.Object(
  {
    ability: Type.Optional(
      Type.String({
        description: 'Ability on the sheet whose dice class is rolled. Required when resisting.',
        examples: ['agility'],
      }),
    ),
    pressure: PressureSchema('Strain on the character: 4 standard, 6 intense, 8 extreme.'),
    advantage: Type.Optional(Type.Boolean({ default: false, description: 'Roll two dice, keep the highest.' })),
    disadvantage: Type.Optional(
      Type.Boolean({ default: false, description: 'Roll two dice, keep the lowest. With advantage too, both cancel.' }),
    ),
    modifiers: Type.Optional(
      Type.Array(ModifierSchema, {
        maxItems: 4,
        default: [],
        description: 'Context modifiers, at most one per source, added to the kept die.',
      }),
    ),
    resist: Type.Optional(
      Type.Boolean({
        default: true,
        description: '`false`: the player lets the event unfold — a failure, no roll, no XP.',
      }),
    ),
    retrieve: Type.Optional(RetrievalPolicySchema),
  },
  {
    $id: 'ReactionRollRequest',
    additionalProperties: false,
    description: 'A reaction roll called by the GM to withstand an event.',
    examples: [
      { ability: 'agility', pressure: 4 },
      {
        ability: 'agility',
        pressure: 6,
        advantage: true,
        modifiers: [{ source: 'environment', weight: 2, reason: 'behind good cover' }],
        retrieve: { decision: 'raise', emotion: 'fear' },
      },
      { ability: 'composure', pressure: 8, resist: false },
    ],
  },
)
type ReactionRollRequest = Static<typeof ReactionRollRequestSchema>

export const ReactionRetrievalRequestSchema = Type.Object(retrievalFields, {
  $id: 'ReactionRetrievalRequest',
  additionalProperties: false,
  description: 'Settles the retrievable reaction roll pending on the sheet.',
  examples: [{ decision: 'raise', emotion: 'anger' }, { decision: 'decline' }],
})

const BandSchema = Type.Union([Type.Literal('failure'), Type.Literal('retrievable'), Type.Literal('success')], {
  description: 'Band of the pressure the result falls in.',
})

const VerdictSchema = Type.Union([Type.Literal('success'), Type.Literal('failure'), Type.Literal('pending')], {
  description: 'Final outcome: `pending` while a retrievable roll waits for the player.',
})

const XpMarkSchema = Type.Object(
  {
    marked: Type.Boolean({ description: 'Whether a segment was marked.' }),
    before: Type.Integer({ minimum: 0 }),
    after: Type.Integer({ minimum: 0 }),
    reason: Type.Union(
      [Type.Literal('marked'), Type.Literal('maxed-out'), Type.Literal('crippled'), Type.Literal('track-full')],
      { description: 'Why a segment was or was not marked.' },
    ),
  },
  { additionalProperties: false, description: 'XP marked on the ability for retrieving the roll.' },
)

const RetrievalOutcomeSchema = Type.Object(
  {
    decision: Type.Union([Type.Literal('raise'), Type.Literal('decline')]),
    emotion: Type.Union([EmotionSchema('Emotion raised.'), Type.Null()]),
    stageBefore: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    stageAfter: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    xp: Type.Union([XpMarkSchema, Type.Null()]),
  },
  { additionalProperties: false, description: 'How a retrievable roll was settled.' },
)
export type RetrievalOutcome = Static<typeof RetrievalOutcomeSchema>

export const ReactionRollOutcomeSchema = Type.Object(
  {
    resisted: Type.Boolean({ description: 'False when the player let the event unfold (no roll).' }),
    ability: Type.Union([Type.String(), Type.Null()]),
    dice: Type.Union([DiceClassSchema('Dice class rolled.'), Type.Null()]),
    pressure: PressureSchema('Pressure of the roll.'),
    edge: Type.Union([Type.Literal('advantage'), Type.Literal('disadvantage'), Type.Literal('none')], {
      description: 'Advantage and disadvantage together cancel to `none`.',
    }),
    faces: Type.Array(Type.Integer({ minimum: 1 }), { description: 'Faces rolled: one, or two with an edge.' }),
    kept: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'The die kept, before modifiers.' }),
    modifiers: Type.Array(ModifierSchema),
    modifierTotal: Type.Integer(),
    result: Type.Union([Type.Integer(), Type.Null()], { description: 'Kept die plus modifiers.' }),
    band: Type.Union([BandSchema, Type.Null()]),
    retrieval: Type.Union([RetrievalOutcomeSchema, Type.Null()], {
      description: "How a retrievable roll was settled by the request's policy; null otherwise.",
    }),
    verdict: VerdictSchema,
  },
  { $id: 'ReactionRollOutcome', additionalProperties: false },
)
export type ReactionRollOutcome = Static<typeof ReactionRollOutcomeSchema>

export const ReactionRetrievalOutcomeSchema = Type.Object(
  {
    ability: Type.String(),
    dice: DiceClassSchema('Dice class that was rolled.'),
    pressure: PressureSchema('Pressure of the roll.'),
    result: Type.Integer({ description: 'Result of the roll being settled.' }),
    retrieval: RetrievalOutcomeSchema,
    verdict: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
  },
  { $id: 'ReactionRetrievalOutcome', additionalProperties: false },
)
export type ReactionRetrievalOutcome = Static<typeof ReactionRetrievalOutcomeSchema>

export type Emotion = keyof ReactionRollsSheet['emotions']
export type Pressure = ReactionRollRequest['pressure']
export type DiceClass = Ability['dice']
export type Band = NonNullable<ReactionRollOutcome['band']>
