/** The five shock meters, in the order the rulebook lists them. */
export const Meters = ['helplessness', 'isolation', 'self', 'unnatural', 'violence'] as const
export type Meter = (typeof Meters)[number]

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the type below is derived from it
const Abilities = [
  'fitness',
  'dodge',
  'status',
  'pursuit',
  'knowledge',
  'lie',
  'notice',
  'secrecy',
  'connect',
  'struggle',
] as const
export type Ability = (typeof Abilities)[number]

export const Passions = ['fear', 'rage', 'noble'] as const
export type Passion = (typeof Passions)[number]

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the type below is derived from it
const Responses = ['panic', 'paralysis', 'frenzy'] as const
export type Response = (typeof Responses)[number]

/** Defence roll tiers, worst first: the index is the order fumble < … < critical. */
export const Tiers = ['fumble', 'matched-failure', 'failure', 'success', 'matched-success', 'critical'] as const
export type Tier = (typeof Tiers)[number]

export const MAX_HARDENED = 9
export const MAX_FAILED = 5
export const STARTING_HARDENED = 1
export const BURN_OUT_TOTAL = 25
export const BURN_OUT_FULL_METERS = 2

/** Each hardened notch takes 5 from the upbeat ability and gives 5 to the downbeat one. */
export const UPBEAT_BASE = 65
export const DOWNBEAT_BASE = 15
export const POINTS_PER_NOTCH = 5

export const MeterAbilities = {
  helplessness: { upbeat: 'fitness', downbeat: 'dodge' },
  isolation: { upbeat: 'status', downbeat: 'pursuit' },
  self: { upbeat: 'knowledge', downbeat: 'lie' },
  unnatural: { upbeat: 'notice', downbeat: 'secrecy' },
  violence: { upbeat: 'connect', downbeat: 'struggle' },
} as const satisfies Record<Meter, { upbeat: Ability; downbeat: Ability }>

/** The ability a stress check falls back on when no identity resists shock to the meter. */
export const FallbackAbility = {
  helplessness: 'status',
  isolation: 'connect',
  self: 'notice',
  unnatural: 'knowledge',
  violence: 'fitness',
} as const satisfies Record<Meter, Ability>

export function titleOf(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1)
}
