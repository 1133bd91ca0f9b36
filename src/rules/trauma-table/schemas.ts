import Type, { type Static } from 'typebox'

// Nested schemas carry no `$id`: they are embedded in several top-level schemas, and only the
// top-level ones become OpenAPI components.

export const TraumaRowIdSchema = Type.Union(
  [
    Type.Literal('unharmed'),
    Type.Literal('demoralized'),
    Type.Literal('hazed'),
    Type.Literal('fazed'),
    Type.Literal('dazed'),
    Type.Literal('headache'),
    Type.Literal('fragility'),
    Type.Literal('hesitation'),
    Type.Literal('agreeable'),
    Type.Literal('distracted'),
    Type.Literal('migraine'),
    Type.Literal('flapped'),
    Type.Literal('rocked'),
    Type.Literal('depleted'),
    Type.Literal('over-stimulated'),
    Type.Literal('heart-palpatations'),
    Type.Literal('performance-anxiety'),
    Type.Literal('social-anxiety'),
    Type.Literal('spacers-anxiety'),
    Type.Literal('sleepless-night'),
    Type.Literal('dramatic-stress'),
    Type.Literal('hurtful-experience'),
    Type.Literal('cyberware-feedback'),
    Type.Literal('afraid'),
    Type.Literal('temporary-hysteria'),
    Type.Literal('skin-crawling'),
    Type.Literal('neuro-astral-feedback'),
    Type.Literal('sickened'),
    Type.Literal('insomnia'),
    Type.Literal('terrified'),
    Type.Literal('hysteria'),
    Type.Literal('heart-attack'),
    Type.Literal('painful-experience'),
    Type.Literal('psychosis'),
    Type.Literal('fractured-spirit'),
  ],
  { description: 'A row of the trauma table, by id (the kebab-case of its name).' },
)
export type TraumaRowId = Static<typeof TraumaRowIdSchema>

const ConditionNameSchema = Type.Union(
  [
    Type.Literal('Hazed'),
    Type.Literal('Fazed'),
    Type.Literal('Dazed'),
    Type.Literal('Cyberware Feedback'),
    Type.Literal('Neuro-Astral Feedback'),
    Type.Literal('Psychosis'),
    Type.Literal('Fractured Spirit'),
  ],
  { description: 'A condition a trauma can give.' },
)
export type ConditionName = Static<typeof ConditionNameSchema>

const ConditionDurationSchema = Type.Union(
  [
    Type.Literal('next-check'),
    Type.Literal('next-attack'),
    Type.Literal('next-save'),
    Type.Literal('scene'),
    Type.Literal('next-rest'),
    Type.Literal('encounter'),
    Type.Literal('cycle'),
    Type.Literal('permanent'),
  ],
  {
    description:
      'How long a condition lasts: until it is used on the next check/attack/save, until the end of the scene, until the next rest, until the end of the encounter, until the next cycle, or for good.',
  },
)
export type ConditionDuration = Static<typeof ConditionDurationSchema>

const SaveKindSchema = Type.Union(
  [Type.Literal('fortitude'), Type.Literal('reflex'), Type.Literal('will'), Type.Literal('insight')],
  { description: 'A kind of save.' },
)

const BehaviourSchema = Type.Union(
  [Type.Literal('flee'), Type.Literal('attack-nearest'), Type.Literal('discard-equipped-items')],
  {
    description:
      '`flee`: get as far from the situation as possible; `attack-nearest`: try to kill or destroy the nearest entity; `discard-equipped-items`: aggressively throw off equipped items.',
  },
)

const BehaviourDurationSchema = Type.Union([Type.Literal('next-turn'), Type.Literal('encounter')], {
  description: '`next-turn`: the next turn only; `encounter`: every turn for the rest of the encounter.',
})

const AnxietyIdSchema = Type.Union(
  [Type.Literal('performance-anxiety'), Type.Literal('social-anxiety'), Type.Literal('spacers-anxiety')],
  { description: 'One of the anxieties, the lasting traumas only a socialise ritual lowers.' },
)
export type AnxietyId = Static<typeof AnxietyIdSchema>

const LastingTraumaIdSchema = Type.Union(
  [
    Type.Literal('over-stimulated'),
    Type.Literal('performance-anxiety'),
    Type.Literal('social-anxiety'),
    Type.Literal('spacers-anxiety'),
  ],
  { description: 'A lasting trauma, by id.' },
)

const DiceSpecSchema = Type.Object(
  {
    count: Type.Integer({ minimum: 1, description: 'How many dice.' }),
    sides: Type.Union([Type.Literal(4), Type.Literal(6), Type.Literal(8), Type.Literal(12)], {
      description: 'Sides of each die.',
    }),
  },
  { additionalProperties: false, description: 'Dice such as D4 (count 1, sides 4) or 2D6.' },
)

const SituationSchema = Type.Union([Type.Literal('combat'), Type.Literal('social'), Type.Literal('spacing')])

const TraumaEffectSchema = Type.Object(
  {
    healthLoss: Type.Optional(
      Type.Object(
        {
          dice: DiceSpecSchema,
          exploding: Type.Boolean({ description: 'Every highest face rolls another die, and every die counts.' }),
          woundPerDieRolled: Type.Boolean({ description: 'A wound is gained for every die rolled.' }),
        },
        { additionalProperties: false },
      ),
    ),
    experience: Type.Optional(
      Type.Object(
        {
          fixed: Type.Optional(Type.Integer({ minimum: 1, description: 'Experience gained, when it is not rolled.' })),
          dice: Type.Optional(DiceSpecSchema),
          halfAsWounds: Type.Boolean({
            description: 'Half of the experience gained, rounded down but at least 1, is gained as wounds.',
          }),
        },
        { additionalProperties: false },
      ),
    ),
    wounds: Type.Optional(Type.Integer({ minimum: 1, description: 'Wounds gained.' })),
    scars: Type.Optional(Type.Integer({ minimum: 1, description: 'Scars gained.' })),
    conditions: Type.Optional(
      Type.Array(
        Type.Object({ name: ConditionNameSchema, duration: ConditionDurationSchema }, { additionalProperties: false }),
      ),
    ),
    saveDisadvantage: Type.Optional(
      Type.Object(
        { save: SaveKindSchema, until: Type.Literal('end-of-scene') },
        { additionalProperties: false, description: 'Every save of that kind is made at a disadvantage.' },
      ),
    ),
    morale: Type.Optional(
      Type.Object(
        {
          downgrade: Type.Integer({ minimum: 1, description: 'Morale steps lost.' }),
          loseUnspentPriorityAtNeutralOrLower: Type.Boolean(),
        },
        { additionalProperties: false },
      ),
    ),
    lastingTrauma: Type.Optional(
      Type.Object(
        {
          id: LastingTraumaIdSchema,
          name: Type.String(),
          severity: Type.Union([Type.Literal(30), Type.Literal(80)]),
          restHeals: Type.Boolean({ description: 'Whether a rest lowers its severity.' }),
          healedBy: Type.Union([Type.Literal('rest'), Type.Literal('socialise-ritual')]),
          tiring: Type.Optional(
            Type.Literal('non-simple-actions-and-checks', {
              description: 'What is done under the Tiring trait while it lasts.',
            }),
          ),
          anxietyAtStartOf: Type.Optional(
            Type.Object(
              { situation: SituationSchema, dice: DiceSpecSchema },
              { additionalProperties: false, description: 'Instances of Anxiety gained when such a situation starts.' },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    behaviour: Type.Optional(
      Type.Object({ behaviour: BehaviourSchema, duration: BehaviourDurationSchema }, { additionalProperties: false }),
    ),
    miscast: Type.Optional(Type.Literal(true, { description: 'A miscast is suffered at once.' })),
    instances: Type.Optional(
      Type.Object(
        { condition: Type.Literal('Nauseated'), dice: DiceSpecSchema },
        { additionalProperties: false, description: 'Instances of a condition gained at once.' },
      ),
    ),
    insomnia: Type.Optional(
      Type.Object(
        {
          until: Type.Literal('next-cycle'),
          restRecovery: Type.Literal('half-rounded-down'),
          restsCountForOtherRules: Type.Literal(false),
        },
        { additionalProperties: false },
      ),
    ),
    sleeplessNight: Type.Optional(Type.Literal(true, { description: 'The next rest gives no benefit at all.' })),
  },
  { additionalProperties: false, description: 'What the trauma does, as data.' },
)
export type TraumaEffect = Static<typeof TraumaEffectSchema>

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the type below is derived from it
const TraumaRowSchema = Type.Object(
  {
    id: TraumaRowIdSchema,
    name: Type.String({ description: 'The name as printed in the rules text.' }),
    aliases: Type.Array(Type.String(), {
      description:
        'Other spellings accepted where a row is named, beside the id and the name (e.g. "Heart Palpitations"). Case, spaces and hyphens do not matter.',
    }),
    min: Type.Union([Type.Integer(), Type.Null()], { description: 'Lowest total of the band; null when open.' }),
    max: Type.Union([Type.Integer(), Type.Null()], { description: 'Highest total of the band; null when open.' }),
    countsAsTrauma: Type.Boolean({ description: 'False only for Unharmed, which is as if no trauma happened.' }),
    label: Type.String({ description: 'A short summary in our own words.' }),
    effect: TraumaEffectSchema,
  },
  { additionalProperties: false },
)
export type TraumaRow = Static<typeof TraumaRowSchema>

// ---------------------------------------------------------------- the roll record

export const ShiftSchema = Type.Object(
  {
    direction: Type.Union([Type.Literal('upgrade'), Type.Literal('downgrade')]),
    steps: Type.Integer({ minimum: 1, description: 'Rows moved by this cause.' }),
    cause: Type.Union(
      [
        Type.Literal('scars'),
        Type.Literal('previous-trauma'),
        Type.Literal('source-trait'),
        Type.Literal('character-trait'),
        Type.Literal('extra'),
      ],
      { description: 'Which rule gives this upgrade or downgrade.' },
    ),
    reason: Type.String({ description: 'Readable reason, e.g. "1 scar" or "Composure".' }),
  },
  { additionalProperties: false },
)
export type Shift = Static<typeof ShiftSchema>

const TraumaRollRecordSchema = Type.Object(
  {
    face: Type.Integer({ minimum: 1, maximum: 100, description: 'The d100 face.' }),
    modifier: Type.Integer(),
    total: Type.Integer({ description: 'Face plus modifier.' }),
    baseRow: TraumaRowIdSchema,
    shifts: Type.Array(ShiftSchema, { description: 'Every upgrade and downgrade, with its reason.' }),
    netShift: Type.Integer({ description: 'Upgrades minus downgrades, in rows.' }),
    shiftedRow: TraumaRowIdSchema,
    clamped: Type.Union([Type.Literal('top'), Type.Literal('bottom'), Type.Null()], {
      description: 'Set when the shift ran past an end of the table.',
    }),
    repeats: Type.Array(
      Type.Object({ from: TraumaRowIdSchema, to: TraumaRowIdSchema }, { additionalProperties: false }),
      { description: 'Upgrades made because the trauma was already suffered this encounter.' },
    ),
    finalRow: TraumaRowIdSchema,
  },
  { additionalProperties: false, description: 'A trauma roll, from the d100 to the row suffered.' },
)
export type TraumaRollRecord = Static<typeof TraumaRollRecordSchema>

// ---------------------------------------------------------------- sheet

const ConditionEntrySchema = Type.Object(
  { name: ConditionNameSchema, duration: ConditionDurationSchema, source: TraumaRowIdSchema },
  { additionalProperties: false },
)
export type ConditionEntry = Static<typeof ConditionEntrySchema>

const SaveDisadvantageEntrySchema = Type.Object(
  { save: SaveKindSchema, until: Type.Literal('end-of-scene'), source: TraumaRowIdSchema },
  { additionalProperties: false },
)

const BehaviourEntrySchema = Type.Object(
  { behaviour: BehaviourSchema, duration: BehaviourDurationSchema, source: TraumaRowIdSchema },
  { additionalProperties: false },
)

const LastingTraumaEntrySchema = Type.Object(
  {
    id: LastingTraumaIdSchema,
    name: Type.String({ minLength: 1, maxLength: 100 }),
    severity: Type.Integer({ minimum: 0, maximum: 1000 }),
    restHeals: Type.Boolean({ description: 'False for the anxieties, which only a socialise ritual lowers.' }),
  },
  { additionalProperties: false },
)
export type LastingTraumaEntry = Static<typeof LastingTraumaEntrySchema>

const count = (description: string) => Type.Integer({ minimum: 0, maximum: 10000, default: 0, description })

/**
 * The most traumas one encounter records: far past any table (each beyond the thirtieth repeats
 * the top row), and a bound on the sheet every later event of the encounter stores. Reached,
 * `trauma-roll` is refused until the GM ends the encounter.
 */
export const MAX_ENCOUNTER_TRAUMAS = 500

export const TraumaTableSheetSchema = Type.Object(
  {
    scars: count('Scars. Each one upgrades every trauma.'),
    wounds: count('Wounds.'),
    experience: count('Experience gained from traumas.'),
    healthLost: count('Health lost to traumas and not yet recovered by a rest.'),
    moraleStepsLost: count('Running total of morale steps lost to traumas.'),
    nauseatedInstances: count('Instances of Nauseated gained from traumas.'),
    traits: Type.Object(
      {
        composure: Type.Boolean({ default: false }),
        poise: Type.Boolean({ default: false }),
        stoic: Type.Boolean({ default: false }),
      },
      { additionalProperties: false, default: {}, description: 'Traits that downgrade every trauma once each.' },
    ),
    conditions: Type.Array(ConditionEntrySchema, { default: [], maxItems: 100 }),
    saveDisadvantages: Type.Array(SaveDisadvantageEntrySchema, {
      default: [],
      maxItems: 100,
      description: 'Saves made at a disadvantage until the end of the scene.',
    }),
    behaviours: Type.Array(BehaviourEntrySchema, {
      default: [],
      maxItems: 100,
      description: 'What the character is compelled to do on coming turns.',
    }),
    lastingTraumas: Type.Array(LastingTraumaEntrySchema, { default: [], maxItems: 10 }),
    encounterTraumas: Type.Array(TraumaRowIdSchema, {
      default: [],
      maxItems: MAX_ENCOUNTER_TRAUMAS,
      description: 'Traumas suffered this encounter, in order (never Unharmed).',
    }),
    insomnia: Type.Boolean({ default: false, description: 'Rests recover half until the next cycle.' }),
    sleeplessNight: Type.Boolean({ default: false, description: 'The next rest gives nothing.' }),
    pendingTrauma: Type.Union([TraumaRollRecordSchema, Type.Null()], {
      default: null,
      description: 'A trauma rolled but not yet accepted or answered; settle it with `trauma-response`.',
    }),
    traumasThisEncounter: Type.Integer({ minimum: 0, default: 0, readOnly: true, description: 'Derived.' }),
    standingUpgrades: Type.Integer({
      minimum: 0,
      default: 0,
      readOnly: true,
      description: 'Derived: upgrades the next trauma takes before any source trait (scars + traumas this encounter).',
    }),
    standingDowngrades: Type.Integer({
      minimum: 0,
      default: 0,
      readOnly: true,
      description: 'Derived: downgrades the next trauma takes (Composure, Poise, Stoic).',
    }),
  },
  {
    $id: 'TraumaTableSheet',
    additionalProperties: false,
    description: 'What the trauma table tracks about a character.',
  },
)
export type TraumaTableSheet = Static<typeof TraumaTableSheetSchema>

export const TraumaTableSettingsSchema = Type.Object(
  {},
  {
    $id: 'TraumaTableSettings',
    additionalProperties: false,
    description: 'The trauma table has no campaign settings.',
  },
)
export type TraumaTableSettings = Static<typeof TraumaTableSettingsSchema>

// ---------------------------------------------------------------- requests

const ResponseSchema = Type.Union(
  [
    Type.Literal('accept', { description: 'Take the trauma and its effects.' }),
    Type.Object(
      {
        ability: Type.String({
          minLength: 1,
          maxLength: 100,
          description: 'The ability used to answer the trauma instead, e.g. "Not Today!".',
        }),
      },
      { additionalProperties: false },
    ),
  ],
  { description: '`accept`, or `{ "ability": "Not Today!" }` to answer the trauma with an ability.' },
)
export type TraumaResponse = Static<typeof ResponseSchema>

const ExtraShiftSchema = Type.Object(
  {
    steps: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 50, default: 1, description: 'Rows to move (default 1).' }),
    ),
    reason: Type.String({ minLength: 1, maxLength: 200, description: 'Why, e.g. the ability or item.' }),
  },
  { additionalProperties: false },
)

export const TraumaRollRequestSchema = Type.Object(
  {
    modifier: Type.Optional(
      Type.Integer({ minimum: -1000, maximum: 1000, default: 0, description: 'Added to the d100.' }),
    ),
    source: Type.Optional(
      Type.Union(
        [Type.Literal('none'), Type.Literal('stressful'), Type.Literal('traumatic'), Type.Literal('maddening')],
        {
          default: 'none',
          description:
            'Trait of the ability or item inflicting the trauma: Stressful, Traumatic, Maddening upgrade 1, 2, 3.',
        },
      ),
    ),
    upgrades: Type.Optional(
      Type.Array(ExtraShiftSchema, { default: [], maxItems: 20, description: 'Further upgrades.' }),
    ),
    downgrades: Type.Optional(
      Type.Array(ExtraShiftSchema, { default: [], maxItems: 20, description: 'Further downgrades.' }),
    ),
    response: Type.Optional(ResponseSchema),
  },
  {
    $id: 'TraumaRollRequest',
    additionalProperties: false,
    description: 'Roll on the trauma table. Without `response` the trauma waits for `trauma-response`.',
    examples: [
      { modifier: 0, source: 'none' },
      { modifier: 10, source: 'stressful', upgrades: [{ steps: 1, reason: 'Dangerous Property' }], response: 'accept' },
    ],
  },
)
type TraumaRollInput = Static<typeof TraumaRollRequestSchema>
type ExtraShift = NonNullable<TraumaRollInput['upgrades']>[number]
/** A trauma roll request once its defaults are filled in. */
export type TraumaRollRequest = Omit<Required<TraumaRollInput>, 'response' | 'upgrades' | 'downgrades'> &
  Pick<TraumaRollInput, 'response'> & {
    upgrades: Required<ExtraShift>[]
    downgrades: Required<ExtraShift>[]
  }

export const TraumaResponseRequestSchema = Type.Object(
  { response: ResponseSchema },
  {
    $id: 'TraumaResponseRequest',
    additionalProperties: false,
    description: 'Settle the pending trauma: accept it, or answer it with an ability.',
    examples: [{ response: 'accept' }, { response: { ability: 'Not Today!' } }],
  },
)

export const EndSceneRequestSchema = Type.Object(
  {},
  { $id: 'TraumaEndSceneRequest', additionalProperties: false, description: 'No fields.', examples: [{}] },
)
export const EndEncounterRequestSchema = Type.Object(
  {},
  { $id: 'TraumaEndEncounterRequest', additionalProperties: false, description: 'No fields.', examples: [{}] },
)
export const EndCycleRequestSchema = Type.Object(
  {},
  { $id: 'TraumaEndCycleRequest', additionalProperties: false, description: 'No fields.', examples: [{}] },
)

const restAmount = (maximum: number, description: string) =>
  Type.Optional(Type.Integer({ minimum: 0, maximum, default: 0, description }))

export const RestRequestSchema = Type.Object(
  {
    health: restAmount(10000, 'Health a normal rest recovers (before Insomnia or Sleepless Night).'),
    severity: restAmount(
      1000,
      'Severity a normal rest takes off each rest-healable lasting trauma (before Insomnia or Sleepless Night).',
    ),
    recovery: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000,
        deprecated: true,
        description: 'Deprecated: the former name of `severity`, still read as it. Send `severity` instead.',
      }),
    ),
  },
  {
    $id: 'TraumaRestRequest',
    additionalProperties: false,
    description:
      'A rest, with what a normal rest recovers (the GM’s call): health and lasting-trauma severity, each 0 by default.',
    examples: [{ health: 6, severity: 10 }],
  },
)

export const SocialiseRitualRequestSchema = Type.Object(
  {
    trauma: Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'The anxiety to ease: `performance-anxiety`, `social-anxiety` or `spacers-anxiety`, or its name as the table prints it ("Social Anxiety") or an alias; case, spaces and hyphens do not matter. The outcome records the id.',
    }),
    amount: Type.Integer({ minimum: 1, maximum: 1000, description: 'Severity removed.' }),
  },
  {
    $id: 'TraumaSocialiseRitualRequest',
    additionalProperties: false,
    description: 'A periodic socialise ritual talking through one anxiety.',
    examples: [{ trauma: 'social-anxiety', amount: 20 }],
  },
)

// ---------------------------------------------------------------- outcomes

const AppliedEffectsSchema = Type.Object(
  {
    healthLoss: Type.Object(
      { faces: Type.Array(Type.Integer()), amount: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false },
    ),
    experience: Type.Object(
      { faces: Type.Array(Type.Integer()), amount: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false },
    ),
    wounds: Type.Integer({ minimum: 0 }),
    scars: Type.Integer({ minimum: 0 }),
    moraleSteps: Type.Integer({ minimum: 0 }),
    nauseatedInstances: Type.Object(
      { faces: Type.Array(Type.Integer()), amount: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false },
    ),
    miscast: Type.Boolean(),
    conditions: Type.Array(ConditionEntrySchema),
    saveDisadvantages: Type.Array(SaveDisadvantageEntrySchema),
    behaviours: Type.Array(BehaviourEntrySchema),
    lastingTrauma: Type.Union([LastingTraumaEntrySchema, Type.Null()]),
    insomnia: Type.Boolean(),
    sleeplessNight: Type.Boolean(),
  },
  { additionalProperties: false, description: 'What accepting the trauma did, with the effect dice.' },
)
export type AppliedEffects = Static<typeof AppliedEffectsSchema>

const settlementProperties = {
  roll: TraumaRollRecordSchema,
  trauma: Type.Object(
    { id: TraumaRowIdSchema, name: Type.String(), label: Type.String() },
    { additionalProperties: false },
  ),
  status: Type.Union(
    [Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('answered'), Type.Literal('unharmed')],
    {
      description:
        '`pending`: waits for `trauma-response`; `accepted`: effects applied; `answered`: an ability answered it, no effect applied; `unharmed`: nothing to decide.',
    },
  ),
  response: Type.Union([ResponseSchema, Type.Null()]),
  effects: Type.Union([AppliedEffectsSchema, Type.Null()]),
  countsThisEncounter: Type.Boolean({ description: "Whether the trauma joined this encounter's list." }),
}

export const TraumaRollOutcomeSchema = Type.Object(settlementProperties, {
  $id: 'TraumaRollOutcome',
  additionalProperties: false,
})
export type TraumaSettlement = Static<typeof TraumaRollOutcomeSchema>

export const TraumaResponseOutcomeSchema = Type.Object(settlementProperties, {
  $id: 'TraumaResponseOutcome',
  additionalProperties: false,
})

export const EndSceneOutcomeSchema = Type.Object(
  {
    conditionsEnded: Type.Array(ConditionEntrySchema),
    saveDisadvantagesEnded: Type.Array(SaveDisadvantageEntrySchema),
  },
  { $id: 'TraumaEndSceneOutcome', additionalProperties: false },
)

export const EndEncounterOutcomeSchema = Type.Object(
  {
    traumasCleared: Type.Array(TraumaRowIdSchema),
    behavioursEnded: Type.Array(BehaviourEntrySchema),
    conditionsEnded: Type.Array(ConditionEntrySchema, {
      description: 'Conditions lasting the encounter or the scene: the encounter’s end ends its scene too.',
    }),
    saveDisadvantagesEnded: Type.Array(SaveDisadvantageEntrySchema, {
      description: 'Saves at a disadvantage until the end of the scene, which ends with the encounter.',
    }),
  },
  { $id: 'TraumaEndEncounterOutcome', additionalProperties: false },
)

const SeverityChangeSchema = Type.Object(
  {
    id: LastingTraumaIdSchema,
    before: Type.Integer({ minimum: 0 }),
    after: Type.Integer({ minimum: 0 }),
    removed: Type.Boolean({ description: 'Severity reached 0, so the lasting trauma is gone.' }),
  },
  { additionalProperties: false },
)

const RestAmountsSchema = (description: string) =>
  Type.Object(
    { health: Type.Integer({ minimum: 0 }), severity: Type.Integer({ minimum: 0 }) },
    { additionalProperties: false, description },
  )

export const RestOutcomeSchema = Type.Object(
  {
    requested: RestAmountsSchema('What a normal rest recovers, as asked.'),
    recovered: RestAmountsSchema(
      'What this rest recovered: the health regained, and the severity each rest-healable lasting trauma lost.',
    ),
    recovery: Type.Union(
      [Type.Literal('full'), Type.Literal('halved-by-insomnia'), Type.Literal('none-sleepless-night')],
      { description: 'Why the recovery is what it is.' },
    ),
    countsAsRest: Type.Boolean({
      description:
        'False under Insomnia or Sleepless Night: then nothing lasting "until your next Rest" ends (see `conditionsKept`).',
    }),
    sleeplessNightConsumed: Type.Boolean(),
    healthLost: Type.Object(
      { before: Type.Integer({ minimum: 0 }), after: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false, description: 'The sheet’s `healthLost` before and after the rest.' },
    ),
    lastingTraumas: Type.Array(SeverityChangeSchema),
    conditionsEnded: Type.Array(ConditionEntrySchema),
    conditionsKept: Type.Array(ConditionEntrySchema, {
      description: 'Conditions lasting "until your next Rest" that this rest did not end, because it does not count.',
    }),
  },
  { $id: 'TraumaRestOutcome', additionalProperties: false },
)

export const EndCycleOutcomeSchema = Type.Object(
  { insomniaEnded: Type.Boolean(), conditionsEnded: Type.Array(ConditionEntrySchema) },
  { $id: 'TraumaEndCycleOutcome', additionalProperties: false },
)

export const SocialiseRitualOutcomeSchema = Type.Object(
  {
    trauma: AnxietyIdSchema,
    amount: Type.Integer({ minimum: 1 }),
    change: Type.Union([SeverityChangeSchema, Type.Null()], {
      description: 'Null when the character does not have that anxiety: nothing to lower.',
    }),
  },
  { $id: 'TraumaSocialiseRitualOutcome', additionalProperties: false },
)
