import Type, { type Static } from 'typebox'
import { RuleError } from '../errors.js'
import { didYouMean } from '../../lib/did-you-mean.js'
import { nameIndex } from '../names.js'
import { Meters, type Meter } from './constants.js'
import { MeterNameSchema } from './sheet-schema.js'

const RankRuleSchema = Type.Union(
  [
    Type.Literal('range'),
    Type.Literal('gm-sets'),
    Type.Literal('coercion'),
    Type.Literal('tens-of-identity-rating'),
    Type.Literal('ones-of-failed-avatar-roll'),
    Type.Literal('sum-of-dice-up-to-10'),
    Type.Literal('spell-roll'),
  ],
  {
    description:
      '`range`: the book gives the ranks min..max. Otherwise the caller works the rank out and sends it: `gm-sets` (GM judges), `coercion` (coercion formula), `tens-of-identity-rating` (tens digit of the avatar’s identity rating), `ones-of-failed-avatar-roll`, `sum-of-dice-up-to-10`, `spell-roll`.',
  },
)

export const StressTriggerSchema = Type.Object(
  {
    id: Type.String({ description: 'Stable kebab-case id to name in a stress-check request.' }),
    aliases: Type.Array(Type.String(), {
      description:
        'Other names a stress-check request may give instead of the id: the rulebook’s own names and common wordings. Case, spaces and hyphens do not matter, for the id either.',
    }),
    category: Type.Union([Type.Literal('mundane'), Type.Literal('unnatural')]),
    group: Type.String({
      description: 'Which family of triggers it belongs to, e.g. `combat`, `avatar-collector`, `magick`.',
    }),
    label: Type.String({ description: 'What sets it off, in our words.' }),
    meters: Type.Array(MeterNameSchema(), { description: 'Meters it may attack.' }),
    meterChoice: Type.Union(
      [Type.Literal('single'), Type.Literal('either'), Type.Literal('both'), Type.Literal('relevant')],
      {
        description:
          '`single`: one meter. `either`: the GM picks one of them. `both`: one check on each. `relevant`: whichever meter fits the situation (any).',
      },
    ),
    rank: Type.Object(
      {
        rule: RankRuleSchema,
        min: Type.Integer({ minimum: 1, maximum: 10 }),
        max: Type.Integer({ minimum: 1, maximum: 10 }),
      },
      { additionalProperties: false },
    ),
    note: Type.Union([Type.String(), Type.Null()], { description: 'Anything else the GM should know.' }),
    source: Type.Union(
      [
        Type.Object(
          {
            book: Type.Union([Type.Literal('Play'), Type.Literal('Run'), Type.Literal('Expose'), Type.Literal('Mine')]),
            page: Type.Integer({ minimum: 1 }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'Book and page, where the rules text gives one.' },
    ),
  },
  { $id: 'StressTrigger', additionalProperties: false },
)
export type StressTrigger = Static<typeof StressTriggerSchema>
type RankRule = StressTrigger['rank']['rule']
type Book = NonNullable<StressTrigger['source']>['book']

const ALL = [...Meters]

/** The rulebook's names for triggers, and wordings a GM is likely to type, by trigger id. */
const ALIASES: Readonly<Record<string, readonly string[]>> = {
  'fear-passion': ['Fear'],
  'relationship-at-zero': ['Relationships', 'Relationship'],
  'shot-at-random': ['Get shot at random'],
  'kill-in-fight': ['Kill someone in a fight'],
  'defy-suppressive-fire': ['Suppressive fire'],
  'execute-point-blank': ['Execution', 'Executing someone at point blank range'],
  'witness-execution': ['Watching an execution'],
  'golden-hour-matched-failure': ['Medicine', 'Golden hour'],
  'therapist-fumble': ['Therapy'],
  'obsession-destroyed': ['Philia destroyed'],
  'set-on-fire': ['Conflagration', 'On fire'],
  'caught-in-riot': ['Riots', 'Riot'],
  'vague-information-fumble': ['Vague Information'],
  'vague-harm-critical': ['Vague Harm'],
  'influence-fumbled': ['Influence'],
  'messenger-truth-denied': ['Messenger'],
  'naked-goddess-presumption': ['Naked Goddess', 'Presumption'],
  'pilgrim-true-quest': ['Pilgrim'],
  'star-performance': ['Star'],
  'tamer-injure': ['Tamer'],
  'minor-stress-spell': ['Minor Stress Check spell'],
  'significant-compulsion-directive': ['Compulsion directive'],
  'significant-compulsion-possession': ['Possession', 'Body taken over'],
  'ward-crossed': ['Wards', 'Ward'],
  'unnatural-encounter': ['The Unnatural'],
}

function entry(
  category: StressTrigger['category'],
  group: string,
  id: string,
  label: string,
  meters: { only: Meter } | { either: Meter[] } | { both: Meter[] } | 'relevant',
  rank: [number, number] | [RankRule, number, number],
  source: [Book, number] | null,
  note: string | null = null,
): StressTrigger {
  const [meterList, meterChoice]: [Meter[], StressTrigger['meterChoice']] =
    meters === 'relevant'
      ? [ALL, 'relevant']
      : 'only' in meters
        ? [[meters.only], 'single']
        : 'either' in meters
          ? [meters.either, 'either']
          : [meters.both, 'both']
  const [rule, min, max] = rank.length === 2 ? (['range', rank[0], rank[1]] as const) : rank
  return {
    id,
    aliases: [...(ALIASES[id] ?? [])],
    category,
    group,
    label,
    meters: meterList,
    meterChoice,
    rank: { rule, min, max },
    note,
    source: source === null ? null : { book: source[0], page: source[1] },
  }
}

const mundane = (...args: Parameters<typeof entry> extends [unknown, ...infer Rest] ? Rest : never) =>
  entry('mundane', ...args)
const unnatural = (...args: Parameters<typeof entry> extends [unknown, ...infer Rest] ? Rest : never) =>
  entry('unnatural', ...args)

/** Every stress-check trigger the rules text names, as data. Labels are our own words. */
export const StressTriggers: readonly StressTrigger[] = [
  mundane(
    'fear',
    'fear-passion',
    'The character’s fear passion comes true in front of them',
    'relevant',
    ['gm-sets', 1, 10],
    null,
    'Checked against whichever meter the fear relates to.',
  ),
  mundane(
    'noble',
    'noble-held-back',
    'Holding back from a noble-passion impulse because acting would be too dangerous',
    { only: 'self' },
    [4, 6],
    null,
  ),
  mundane('noble', 'noble-betrayed', 'Acting on purpose against the noble passion', { only: 'self' }, [7, 10], null),
  mundane(
    'coercion',
    'coercion',
    'Someone sets up a clear, believable threat against the character',
    'relevant',
    ['coercion', 1, 10],
    ['Play', 56],
    'Attacks the meter the threat targets; the coercion formula gives the rank.',
  ),
  mundane(
    'relationships',
    'relationship-at-zero',
    'A relationship rating falls to 0%',
    { only: 'isolation' },
    [4, 5],
    ['Play', 39],
  ),
  mundane('combat', 'shot-at-random', 'Being shot at out of nowhere', { only: 'violence' }, [2, 4], ['Play', 20]),
  mundane('combat', 'kill-in-fight', 'Killing someone in a fight', { only: 'violence' }, [3, 5], ['Play', 20]),
  mundane(
    'combat',
    'defy-suppressive-fire',
    'Leaving cover, refusing to take cover, or dropping flat in the open under suppressive fire',
    { only: 'violence' },
    [2, 4],
    ['Play', 66],
  ),
  mundane(
    'combat',
    'execute-point-blank',
    'Executing someone at point-blank range',
    { only: 'violence' },
    [7, 8],
    ['Play', 67],
    'Self checks may follow as well.',
  ),
  mundane(
    'combat',
    'witness-execution',
    'Watching someone be executed at point-blank range',
    { only: 'violence' },
    [3, 4],
    ['Play', 67],
    'Self checks may follow as well.',
  ),
  mundane(
    'medicine',
    'golden-hour-matched-failure',
    'The person giving golden-hour care rolls a matched failure',
    { only: 'violence' },
    [2, 3],
    ['Play', 74],
  ),
  mundane(
    'therapy',
    'therapist-fumble',
    'A therapist fumbles immediate assistance or ongoing treatment',
    { only: 'self' },
    [2, 3],
    ['Play', 75],
  ),
  mundane('madness', 'trauma-bond', 'A trauma bond is set off', 'relevant', ['gm-sets', 1, 10], ['Play', 26]),
  mundane(
    'madness',
    'obsession-destroyed',
    'The object of a philia or obsession is destroyed',
    { only: 'helplessness' },
    [10, 10],
    ['Play', 27],
  ),
  mundane('conflagration', 'set-on-fire', 'Being set on fire', { only: 'violence' }, [4, 5], ['Play', 72]),
  mundane(
    'riots',
    'caught-in-riot',
    'Being swept up in a riot',
    { both: ['helplessness', 'violence'] },
    [4, 4],
    ['Run', 96],
    'Repeats every hour in the riot.',
  ),

  unnatural(
    'supernatural-identity',
    'vague-information-fumble',
    'Fumbling the use of a supernatural identity with Vague Information',
    { either: ['helplessness', 'violence'] },
    [4, 4],
    ['Play', 45],
  ),
  unnatural(
    'supernatural-identity',
    'vague-harm-critical',
    'Taking a critical attack from a supernatural identity with Vague Harm',
    { only: 'helplessness' },
    [3, 4],
    ['Play', 47],
  ),
  unnatural(
    'supernatural-identity',
    'specific-harm',
    'Being attacked by a supernatural identity with Specific Harm',
    { only: 'unnatural' },
    [4, 5],
    ['Play', 47],
  ),
  unnatural(
    'supernatural-identity',
    'influence-fumbled',
    'Being the target of a fumbled supernatural influence attempt',
    { only: 'unnatural' },
    [4, 5],
    ['Play', 48],
  ),

  unnatural(
    'avatar-artist',
    'artist-turn-away',
    'Turning away while thunderstruck by an artwork',
    { only: 'helplessness' },
    [5, 5],
    ['Expose', 70],
  ),
  unnatural(
    'avatar-artist',
    'artist-lose-artwork',
    'Failing to acquire an artwork made specifically for you',
    { only: 'isolation' },
    [10, 10],
    ['Expose', 70],
  ),
  unnatural(
    'avatar-captain',
    'captain-order-crew',
    'A crew member refuses a Captain’s order',
    { either: ['helplessness', 'self'] },
    [6, 7],
    ['Play', 98],
  ),
  unnatural(
    'avatar-captain',
    'captain-order-non-crew',
    'Someone outside the crew refuses a Captain’s order',
    { either: ['helplessness', 'self'] },
    [2, 3],
    ['Play', 98],
  ),
  unnatural(
    'avatar-collector',
    'collector-summons',
    'Resisting a Collector’s summons',
    { only: 'isolation' },
    [7, 8],
    ['Expose', 72],
  ),
  unnatural(
    'avatar-collector',
    'collector-summons-matched',
    'Resisting a Collector’s summons made with a matched avatar roll',
    { only: 'isolation' },
    [8, 9],
    ['Expose', 72],
  ),
  unnatural(
    'avatar-collector',
    'collector-summons-critical',
    'Resisting a Collector’s summons made with a critical avatar roll',
    { only: 'isolation' },
    [10, 10],
    ['Expose', 72],
  ),
  unnatural(
    'avatar-messenger',
    'messenger-truth-denied',
    'Refusing to accept the truth a Messenger brings',
    { either: ['helplessness', 'self'] },
    [6, 6],
    ['Play', 107],
  ),
  unnatural(
    'avatar-muse-patron',
    'muse-ecstatic-work-abandoned',
    'Failing to work on an ecstatic piece of art',
    { only: 'isolation' },
    [5, 5],
    ['Expose', 74],
  ),
  unnatural(
    'avatar-muse-patron',
    'muse-other-direction',
    'Working on the art in some other direction',
    { only: 'self' },
    [7, 7],
    ['Expose', 74],
  ),
  unnatural(
    'avatar-naked-goddess',
    'naked-goddess-presumption',
    'Resisting Presumption, the ideal image seen when gazing at the Naked Goddess',
    { only: 'self' },
    [4, 4],
    ['Play', 110],
  ),
  unnatural(
    'avatar-pilgrim',
    'pilgrim-true-quest',
    'Resisting the idea of the one true quest',
    { only: 'self' },
    ['tens-of-identity-rating', 1, 9],
    ['Mine', 83],
    'Rank is the tens digit of the Pilgrim’s avatar identity rating.',
  ),
  unnatural(
    'avatar-salesman',
    'salesman-resist-sale',
    'Resisting a sale or swap offered with a matched or critical avatar roll',
    { either: ['self', 'unnatural'] },
    ['coercion', 1, 10],
    ['Mine', 86],
    'Rank as for coercion.',
  ),
  unnatural(
    'avatar-salesman',
    'salesman-forgo-payment',
    'Going without payment',
    { only: 'unnatural' },
    ['tens-of-identity-rating', 1, 9],
    ['Mine', 87],
    'Rank is the tens digit of the Salesman’s avatar identity rating.',
  ),
  unnatural(
    'avatar-star',
    'star-performance',
    'Resisting a Star’s performance',
    { only: 'helplessness' },
    ['tens-of-identity-rating', 1, 9],
    ['Play', 114],
    'Rank is the tens digit of the Star’s identity rating.',
  ),
  unnatural(
    'avatar-tamer',
    'tamer-injure',
    'Trying to injure a high-ranking Tamer',
    { only: 'helplessness' },
    [7, 9],
    ['Expose', 79],
  ),
  unnatural(
    'avatar-two-faced-man',
    'two-faced-crowd-disappointed',
    'Failing to tell a crowd what it wants to hear',
    { only: 'self' },
    ['ones-of-failed-avatar-roll', 1, 9],
    ['Mine', 88],
    'Rank is the ones digit of the failed avatar identity roll.',
  ),
  unnatural(
    'avatar-two-faced-man',
    'two-faced-caught-angry',
    'Getting angry when caught by the enemy',
    { only: 'violence' },
    [3, 3],
    ['Mine', 89],
  ),

  unnatural(
    'magick',
    'minor-stress-spell',
    'Targeted by a minor stress-check spell',
    'relevant',
    [3, 3],
    ['Play', 133],
    'Traditions may give their spells specific triggers.',
  ),
  unnatural(
    'magick',
    'significant-stress-spell-individual',
    'Targeted alone by a significant stress-check spell',
    'relevant',
    ['sum-of-dice-up-to-10', 1, 10],
    ['Play', 137],
    'Rank is the sum of the spell’s dice, 10 at most.',
  ),
  unnatural(
    'magick',
    'significant-stress-spell-group',
    'Targeted as one of a group by a significant stress-check spell',
    'relevant',
    [3, 4],
    ['Play', 137],
  ),
  unnatural(
    'magick',
    'minor-compulsion-spell',
    'Targeted by a minor compulsion spell',
    'relevant',
    [4, 4],
    ['Play', 133],
  ),
  unnatural(
    'magick',
    'significant-compulsion-directive',
    'Resisting the directive of a significant compulsion spell',
    'relevant',
    ['spell-roll', 1, 10],
    ['Play', 136],
    'Rank comes from the spell roll.',
  ),
  unnatural(
    'magick',
    'significant-compulsion-possession',
    'Having your body taken over by a significant compulsion spell',
    { only: 'helplessness' },
    [6, 7],
    ['Play', 136],
  ),
  unnatural('magick', 'minor-blast', 'Attacked with magick (minor blast)', { only: 'unnatural' }, [5, 5], null),
  unnatural(
    'magick',
    'significant-blast',
    'Attacked with serious magick (significant blast)',
    { only: 'violence' },
    [5, 5],
    null,
  ),
  unnatural(
    'magick',
    'ward-crossed',
    'Crossing into an area warded against you',
    { only: 'helplessness' },
    [3, 4],
    ['Run', 20],
  ),
  unnatural(
    'the-unnatural',
    'unnatural-encounter',
    'Meeting unnatural creatures, places, phenomena or rituals',
    'relevant',
    ['gm-sets', 1, 10],
    null,
    'The GM sets meter and rank for each encounter.',
  ),
]

const catalogue = nameIndex(StressTriggers)

/** The trigger an id or alias names. */
export function findTrigger(name: string): StressTrigger | undefined {
  return catalogue.find(name)
}

/** A named trigger fixes which meters and ranks a check may use. */
export function requireTriggerFits(name: string, meter: Meter, rank: number): StressTrigger {
  const trigger = catalogue.find(name)
  if (trigger === undefined) {
    throw new RuleError(
      'UNKNOWN_TRIGGER',
      `request/trigger "${name}" is not in the trigger catalog (GET /v1/rulesets/shock-meters, tables.triggers)${didYouMean(catalogue.closest(name))}`,
      'invalid',
      '/request/trigger',
    )
  }
  const id = trigger.id
  if (!trigger.meters.includes(meter)) {
    throw new RuleError(
      'TRIGGER_METER_MISMATCH',
      `request/meter ${meter} does not fit trigger "${id}", which attacks ${trigger.meters.join(trigger.meterChoice === 'both' ? ' and ' : ' or ')}`,
      'invalid',
      '/request/meter',
    )
  }
  if (rank < trigger.rank.min || rank > trigger.rank.max) {
    const range =
      trigger.rank.min === trigger.rank.max ? `${trigger.rank.min}` : `${trigger.rank.min}–${trigger.rank.max}`
    throw new RuleError(
      'TRIGGER_RANK_MISMATCH',
      `request/rank ${rank} does not fit trigger "${id}", whose rank is ${range}`,
      'invalid',
      '/request/rank',
    )
  }
  return trigger
}
