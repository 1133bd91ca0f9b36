import Type, { type Static } from 'typebox'
import {
  DOWNBEAT_BASE,
  MAX_FAILED,
  MAX_HARDENED,
  POINTS_PER_NOTCH,
  STARTING_HARDENED,
  UPBEAT_BASE,
} from './constants.js'

type Options = { description?: string; default?: unknown }

export const MeterNameSchema = (options: Options = {}) =>
  Type.Union(
    [
      Type.Literal('helplessness'),
      Type.Literal('isolation'),
      Type.Literal('self'),
      Type.Literal('unnatural'),
      Type.Literal('violence'),
    ],
    options,
  )

const AbilityNameSchema = (options: Options = {}) =>
  Type.Union(
    [
      Type.Literal('fitness'),
      Type.Literal('dodge'),
      Type.Literal('status'),
      Type.Literal('pursuit'),
      Type.Literal('knowledge'),
      Type.Literal('lie'),
      Type.Literal('notice'),
      Type.Literal('secrecy'),
      Type.Literal('connect'),
      Type.Literal('struggle'),
    ],
    options,
  )

export const PassionNameSchema = (options: Options = {}) =>
  Type.Union([Type.Literal('fear'), Type.Literal('rage'), Type.Literal('noble')], options)

export const ResponseSchema = (options: Options = {}) =>
  Type.Union([Type.Literal('panic'), Type.Literal('paralysis'), Type.Literal('frenzy')], options)

export const TierSchema = (options: Options = {}) =>
  Type.Union(
    [
      Type.Literal('fumble'),
      Type.Literal('matched-failure'),
      Type.Literal('failure'),
      Type.Literal('success'),
      Type.Literal('matched-success'),
      Type.Literal('critical'),
    ],
    options,
  )

/** What immediate assistance does to the patient, by the tier of the therapist's roll. */
export const AssistanceEffectSchema = (options: Options = {}) =>
  Type.Union(
    [
      Type.Literal('self-check'),
      Type.Literal('relationship-drop'),
      Type.Literal('none'),
      Type.Literal('declined'),
      Type.Literal('notch-hardened'),
      Type.Literal('notch-erased'),
    ],
    options,
  )

export const RatingSchema = (options: Options = {}) => Type.Integer({ minimum: 0, maximum: 99, ...options })
export const NameSchema = (options: Options = {}) => Type.String({ minLength: 1, maxLength: 200, ...options })
export const TextSchema = (options: Options = {}) => Type.String({ maxLength: 2000, ...options })

const MeterGaugeSchema = (meter: string) =>
  Type.Object(
    {
      hardened: Type.Integer({
        minimum: 0,
        maximum: MAX_HARDENED,
        default: STARTING_HARDENED,
        description: `Hardened notches in ${meter} (0–9); a new character starts with 1.`,
      }),
      failed: Type.Integer({
        minimum: 0,
        maximum: MAX_FAILED,
        default: 0,
        description: `Failed notches in ${meter} (0–5); the fifth brings a mental disorder.`,
      }),
    },
    { additionalProperties: false, default: {}, description: `The ${meter} shock meter.` },
  )

const AbilityValueSchema = (ability: string, base: number, direction: string) =>
  Type.Integer({
    minimum: 0,
    maximum: 99,
    readOnly: true,
    default: base,
    description: `${ability}: derived, ${direction} (recomputed from the gauge; never typed in).`,
  })

const upbeat = (ability: string, meter: string) =>
  AbilityValueSchema(ability, UPBEAT_BASE - POINTS_PER_NOTCH * STARTING_HARDENED, `65 − 5 × hardened ${meter}`)
const downbeat = (ability: string, meter: string) =>
  AbilityValueSchema(ability, DOWNBEAT_BASE + POINTS_PER_NOTCH * STARTING_HARDENED, `15 + 5 × hardened ${meter}`)

const IdentityFeatureSchema = Type.Union(
  [
    Type.Object(
      {
        type: Type.Literal('resists-shock'),
        meter: MeterNameSchema({ description: 'The meter this identity defends in stress checks.' }),
      },
      {
        additionalProperties: false,
        description: 'Defends stress checks against one meter, even if lower than the fallback ability.',
      },
    ),
    Type.Object(
      { type: Type.Literal('therapeutic') },
      { additionalProperties: false, description: 'May give therapy (immediate assistance, ongoing treatment).' },
    ),
    Type.Object(
      {
        type: Type.Literal('substitutes'),
        ability: AbilityNameSchema({ description: 'The ability this identity may be used in place of.' }),
      },
      {
        additionalProperties: false,
        description: 'Stands in for an ability in ordinary rolls; never defends a stress check.',
      },
    ),
    Type.Object(
      {
        type: Type.Literal('other'),
        description: TextSchema({ description: 'Any other feature, in the table’s words.' }),
      },
      { additionalProperties: false, description: 'A feature with no effect on stress checks.' },
    ),
  ],
  { description: 'One feature of an identity.' },
)

const IdentitySchema = Type.Object(
  {
    name: NameSchema({ description: 'Identity name, unique on the sheet, e.g. "Soldier".' }),
    rating: RatingSchema({ description: 'Identity rating, 0–99%.' }),
    features: Type.Array(IdentityFeatureSchema, { default: [], maxItems: 20, description: 'Its features.' }),
  },
  { additionalProperties: false },
)

const PassionSchema = Type.Object(
  {
    text: TextSchema({ description: 'What the passion is, e.g. "Fear: being forgotten".' }),
    flipFlopUsed: Type.Boolean({
      default: false,
      description: 'True once this passion has flip-flopped a roll this session (reset by new-session).',
    }),
  },
  { additionalProperties: false },
)

const NullablePassionSchema = (name: string) =>
  Type.Union([PassionSchema, Type.Null()], {
    default: null,
    description: `The ${name} passion, or null if the character has none.`,
  })

const RelationshipSchema = Type.Object(
  {
    name: NameSchema({ description: 'Who the relationship is with, unique on the sheet.' }),
    rating: RatingSchema({ description: 'Relationship rating, 0–99%.' }),
  },
  { additionalProperties: false },
)

export const StressedSchema = Type.Object(
  {
    meter: MeterNameSchema({ description: 'The meter whose failed check left the character stressed.' }),
    response: Type.Union([ResponseSchema(), Type.Literal('pending')], {
      description:
        'panic (flight), paralysis (freeze), frenzy (fight), or pending until the player chooses with stress-response.',
    }),
    cause: Type.Union([TextSchema(), Type.Null()], { default: null, description: 'What set it off.' }),
  },
  { additionalProperties: false },
)

export const DisorderSchema = Type.Object(
  {
    name: Type.Union([NameSchema(), Type.Null()], {
      description: 'The disorder, or null while it is pending: the GM names it with record-disorder.',
    }),
    meter: MeterNameSchema({ description: 'The meter whose fifth failed notch brought it.' }),
    cause: Type.Union([TextSchema(), Type.Null()], { default: null, description: 'The trigger situation.' }),
    check: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      default: null,
      description: 'Number of the stress check that caused it (see stressChecks), or null when the GM added it.',
    }),
  },
  { additionalProperties: false },
)

export const DefenceSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('identity'), Type.Literal('ability')], {
      description: 'A resisting identity, or the fallback ability.',
    }),
    name: NameSchema({ description: 'Identity name or ability name.' }),
    rating: RatingSchema({ description: 'The rating rolled against.' }),
  },
  { additionalProperties: false },
)

const LastCheckSchema = Type.Object(
  {
    number: Type.Integer({ minimum: 1, description: 'Which stress check this was on this sheet (1, 2, …).' }),
    meter: MeterNameSchema(),
    rank: Type.Integer({ minimum: 1, maximum: 10 }),
    trigger: Type.Union([NameSchema(), Type.Null()], { default: null, description: 'Trigger id from the catalog.' }),
    cause: Type.Union([TextSchema(), Type.Null()], { default: null }),
    passion: Type.Union([PassionNameSchema(), Type.Null()], {
      default: null,
      description: 'The passion in play, if any.',
    }),
    response: Type.Union([ResponseSchema(), Type.Null()], {
      default: null,
      description: 'Response decided in advance by the request, if any.',
    }),
    disorder: Type.Union([NameSchema(), Type.Null()], {
      default: null,
      description: 'Disorder name given in advance by the request, if any.',
    }),
    result: Type.Union(
      [Type.Literal('avoided'), Type.Literal('automatic-failure'), Type.Literal('passed'), Type.Literal('failed')],
      { description: 'What happened.' },
    ),
    avoidedBecause: Type.Union([Type.Literal('hardened'), Type.Literal('stressed'), Type.Null()], { default: null }),
    defence: Type.Union([DefenceSchema, Type.Null()], {
      default: null,
      description: 'What it was defended with (rolled checks only).',
    }),
    face: Type.Union([Type.Integer({ minimum: 1, maximum: 100 }), Type.Null()], {
      default: null,
      description: 'The d100 face standing now (after any re-roll or flip-flop); 100 reads "00".',
    }),
    tier: Type.Union([TierSchema(), Type.Null()], { default: null }),
    marked: Type.Union([Type.Literal('hardened'), Type.Literal('failed'), Type.Literal('none')], {
      description: 'The notch this check marked.',
    }),
    setStressed: Type.Boolean({ description: 'Whether it left the character stressed.' }),
    trauma: Type.Boolean({ description: 'Whether it brought mental trauma (fifth failed notch).' }),
    changedBy: Type.Union(
      [
        Type.Object(
          {
            action: Type.Union([Type.Literal('passion-reroll'), Type.Literal('passion-flip-flop')]),
            passion: PassionNameSchema(),
            originalFace: Type.Integer({ minimum: 1, maximum: 100 }),
            originalTier: TierSchema(),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { default: null, description: 'The passion re-roll or flip-flop that replaced the first roll, if any.' },
    ),
    therapy: Type.Union([TierSchema(), Type.Null()], {
      default: null,
      description: 'Tier of the immediate-assistance roll made on this check, if any.',
    }),
    closed: Type.Boolean({
      default: false,
      description:
        'True once a new session or ongoing treatment came after it: no passion or immediate assistance can change it any more.',
    }),
  },
  {
    additionalProperties: false,
    description: 'What the latest stress check did, so a passion or immediate therapy can act on it.',
  },
)

export const ShockMetersSheetSchema = Type.Object(
  {
    meters: Type.Object(
      {
        helplessness: MeterGaugeSchema('Helplessness'),
        isolation: MeterGaugeSchema('Isolation'),
        self: MeterGaugeSchema('Self'),
        unnatural: MeterGaugeSchema('Unnatural'),
        violence: MeterGaugeSchema('Violence'),
      },
      { additionalProperties: false, default: {}, description: 'The five shock meters.' },
    ),
    abilities: Type.Object(
      {
        fitness: upbeat('Fitness', 'Helplessness'),
        dodge: downbeat('Dodge', 'Helplessness'),
        status: upbeat('Status', 'Isolation'),
        pursuit: downbeat('Pursuit', 'Isolation'),
        knowledge: upbeat('Knowledge', 'Self'),
        lie: downbeat('Lie', 'Self'),
        notice: upbeat('Notice', 'Unnatural'),
        secrecy: downbeat('Secrecy', 'Unnatural'),
        connect: upbeat('Connect', 'Violence'),
        struggle: downbeat('Struggle', 'Violence'),
      },
      {
        additionalProperties: false,
        readOnly: true,
        default: {},
        description: 'Derived from the meters: upbeat = 65 − 5 × hardened, downbeat = 15 + 5 × hardened.',
      },
    ),
    totalHardened: Type.Integer({
      minimum: 0,
      maximum: 45,
      readOnly: true,
      default: 5,
      description: 'Derived: hardened notches across all meters.',
    }),
    burnedOut: Type.Boolean({
      readOnly: true,
      default: false,
      description:
        'Derived: 25 or more hardened notches in all, or two meters fully hardened. Passions cannot re-roll or flip-flop.',
    }),
    identities: Type.Array(IdentitySchema, {
      default: [],
      maxItems: 50,
      description: 'Identities and their features.',
    }),
    passions: Type.Object(
      {
        fear: NullablePassionSchema('fear'),
        rage: NullablePassionSchema('rage'),
        noble: NullablePassionSchema('noble'),
      },
      { additionalProperties: false, default: {}, description: 'Fear, rage and noble passions.' },
    ),
    relationships: Type.Array(RelationshipSchema, {
      default: [],
      maxItems: 50,
      description: 'Relationships and their ratings.',
    }),
    stressed: Type.Union([StressedSchema, Type.Null()], {
      default: null,
      description:
        'Set by a failed check until the GM clears it (clear-stressed); stress checks are avoided meanwhile.',
    }),
    disorders: Type.Array(DisorderSchema, { default: [], maxItems: 50, description: 'Permanent mental disorders.' }),
    stressChecks: Type.Integer({ minimum: 0, default: 0, description: 'How many stress checks this sheet has faced.' }),
    lastCheck: Type.Union([LastCheckSchema, Type.Null()], { default: null }),
  },
  {
    $id: 'ShockMetersSheet',
    additionalProperties: false,
    description: 'An Unknown Armies (3rd edition) character as far as stress checks are concerned.',
  },
)
export type ShockMetersSheet = Static<typeof ShockMetersSheetSchema>
export type Defence = Static<typeof DefenceSchema>
export type LastCheck = Static<typeof LastCheckSchema>
export type Stressed = Static<typeof StressedSchema>
export type Disorder = Static<typeof DisorderSchema>

export const ShockMetersSettingsSchema = Type.Object(
  {},
  {
    $id: 'ShockMetersSettings',
    additionalProperties: false,
    description: 'No campaign settings for this rule set yet.',
  },
)
export type ShockMetersSettings = Static<typeof ShockMetersSettingsSchema>
