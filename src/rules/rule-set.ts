import type { TObject, TSchema } from 'typebox'
import { createDice, type Dice, type DiceRequest, type DiceRoller, type DieRoll, type SurplusFaces } from './dice.js'

/** Who may perform an action on a character: its player (or the GM), or the GM alone. */
type ActionActor = 'player' | 'gm'

/**
 * A decision the rules leave open. The sheet itself records it (so a stateless caller can
 * settle it by sending the sheet back); `action` names the action that settles it.
 */
export interface PendingDecision {
  action: string
  prompt: string
}

/**
 * A roll that a result itself calls for, because it meets a trigger of the rules (a relationship
 * fallen to 0% attacks Isolation): named, not made. The GM decides whether and at which rank;
 * `request` is ready to send to `action`, at the lowest rank the trigger allows.
 */
export interface FollowUp {
  trigger: string
  because: string
  action: string
  request: Record<string, unknown>
  ranks: { min: number; max: number }
}

/** Words a rule set's summaries once used, and what they say there now. */
export interface Rewording {
  before: string
  now: string
}

export interface Resolution<Sheet> {
  sheet: Sheet
  outcome: Record<string, unknown>
  /** One line a GM can read aloud, e.g. "Violence 4 vs Fitness 45: rolled 33, success — hardened 2 → 3". */
  summary: string
  followUps?: FollowUp[]
}

export interface Resolved<Sheet> extends Resolution<Sheet> {
  dice: DieRoll[]
  /** Provided faces after the last one used (a d100 sent for a check that was avoided), in the order sent. */
  unusedFaces: number[]
  /** What the sheet after waits for: always the rule set's `pendingOf`, so the event and the sheet agree. */
  pending: PendingDecision[]
  followUps: FollowUp[]
}

/**
 * The exact chance of every outcome of a roll, before rolling: counted over the faces of the
 * dice, never simulated, and without resolving once per face. The request is read and checked
 * by the resolver's own code, so it is refused exactly as the roll would be.
 */
export interface ActionOdds<Sheet, Request, Settings> {
  /** TypeBox schema of the answer, without `$id`: the routes add who the sheet is seen by and name it. */
  schema: TObject
  of(sheet: Sheet, request: Request, settings: Settings): Record<string, unknown>
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one registry holds rule sets of different sheets; their parameters are contravariant, so only `any` admits them all
export interface RuleAction<Sheet = any, Request = any, Settings = any> {
  /** kebab-case, used as the URL segment; unique across all rule sets. */
  name: string
  actor: ActionActor
  /** `decision` actions settle a pending decision of an earlier roll. */
  kind: 'roll' | 'decision' | 'gm'
  /**
   * What a GM calls an event of the action, in the rulebook's words and lower case, for the
   * summaries that name it ("Reverted stress check #8: …"): "stress check", not `stress-check`.
   */
  title: string
  summary: string
  description: string
  /** TypeBox schema of the request, with an `$id` and at least one working example. */
  request: TSchema
  /** TypeBox schema of `outcome`. */
  outcome: TSchema
  /**
   * A sheet on which the request's first example works, when the default sheet will not do
   * (a decision needs something pending). Used for the API's examples.
   */
  exampleSheet?: unknown
  /**
   * Actions whose latest event this one changes (a passion re-roll changes the stress check):
   * a stored character's event of this action is linked to that event by its `causationId`.
   */
  amends?: readonly string[]
  resolve(sheet: Sheet, request: Request, dice: Dice, settings: Settings): Resolution<Sheet>
  /** Present on every action that rolls dice: the odds of its outcomes for a sheet and request. */
  odds?: ActionOdds<Sheet, Request, Settings>
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one registry holds rule sets of different sheets; their parameters are contravariant, so only `any` admits them all
export interface RuleSet<Sheet = any, Settings = any> {
  id: string
  version: string
  title: string
  description: string
  /** Full sheet schema, derived fields marked readOnly; defaults fill what a caller leaves out. */
  sheet: TSchema
  /** Campaign settings for this rule set, with defaults. */
  settings: TSchema
  /**
   * Fills defaults and recomputes every derived field; the only way a sheet enters the rules.
   * Settings bound what the sheet may hold (e.g. an emotion's top stage).
   */
  normalizeSheet(input: unknown, settings?: Settings): Sheet
  normalizeSettings(input: unknown): Settings
  /** Every decision a (normalised) sheet is waiting for: what the sheet records, in the words of the rules. */
  pendingOf(sheet: Sheet, settings: Settings): PendingDecision[]
  /**
   * The words its summaries used before a rewording, with today's: a summary recorded or archived
   * before it is compared with a replay's once they are replaced (a reveal, an import), since the
   * same result in new words is no different result.
   */
  rewordings: readonly Rewording[]
  /** Reference tables published by GET /v1/rulesets/{ruleset}. */
  tables: Record<string, unknown>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one registry holds rule sets of different sheets; their parameters are contravariant, so only `any` admits them all
  actions: readonly RuleAction<Sheet, any, Settings>[]
}

/**
 * Runs one action with a fresh dice source and returns the outcome with every die rolled.
 * Provided faces it does not use are returned as `unusedFaces`; a replay of recorded dice,
 * which must match exactly, passes `surplus: 'refuse'`.
 */
export function resolveAction<Sheet, Settings>(
  ruleSet: RuleSet<Sheet, Settings>,
  action: RuleAction<Sheet, unknown, Settings>,
  input: { sheet: unknown; request: unknown; dice?: DiceRequest; settings?: unknown; surplus?: SurplusFaces },
): Resolved<Sheet> {
  const dice = createDice(input.dice, { surplus: input.surplus ?? 'unused' })
  const settings = ruleSet.normalizeSettings(input.settings ?? {})
  return settle(ruleSet, action, ruleSet.normalizeSheet(input.sheet, settings), input.request, dice, settings)
}

/**
 * `resolveAction` for a sheet and settings that already came out of the rule set's
 * `normalizeSheet` and `normalizeSettings` (with these settings), so the sheet is not checked twice.
 */
export function resolveNormalized<Sheet, Settings>(
  ruleSet: RuleSet<Sheet, Settings>,
  action: RuleAction<Sheet, unknown, Settings>,
  input: { sheet: Sheet; settings: Settings; request: unknown; dice?: DiceRequest },
): Resolved<Sheet> {
  return settle(ruleSet, action, input.sheet, input.request, createDice(input.dice), input.settings)
}

/** The odds of an action's outcomes, with the sheet and settings normalised as `resolveAction` normalises them. */
export function oddsOf<Sheet, Settings>(
  ruleSet: RuleSet<Sheet, Settings>,
  action: RuleAction<Sheet, unknown, Settings>,
  input: { sheet: unknown; request: unknown; settings?: unknown },
): Record<string, unknown> {
  const settings = ruleSet.normalizeSettings(input.settings ?? {})
  return oddsOfNormalized(action, {
    sheet: ruleSet.normalizeSheet(input.sheet, settings),
    settings,
    request: input.request,
  })
}

/** `oddsOf` for a sheet and settings that already came out of the rule set's normalisers, as for `resolveNormalized`. */
export function oddsOfNormalized<Sheet, Settings>(
  action: RuleAction<Sheet, unknown, Settings>,
  input: { sheet: Sheet; settings: Settings; request: unknown },
): Record<string, unknown> {
  if (action.odds === undefined) throw new Error(`${action.name} rolls no dice: it has no odds`)
  return action.odds.of(input.sheet, input.request, input.settings)
}

function settle<Sheet, Settings>(
  ruleSet: RuleSet<Sheet, Settings>,
  action: RuleAction<Sheet, unknown, Settings>,
  sheet: Sheet,
  request: unknown,
  dice: DiceRoller,
  settings: Settings,
): Resolved<Sheet> {
  const resolution = action.resolve(sheet, request, dice, settings)
  // Not normalised again: every action builds its sheet from a normal one and re-derives what it
  // changes, and the rules tests hold every action to that (test/rules/resolve-checked.ts). A
  // second pass over the whole sheet on every roll would cost ~7 % of a stateless resolve.
  const after = resolution.sheet
  const rolled = dice.finish()
  // Written out rather than spread: on V8, adding a field to a spread copy is slow.
  return {
    outcome: resolution.outcome,
    dice: rolled,
    unusedFaces: dice.unusedFaces(),
    sheet: after,
    summary: resolution.summary,
    pending: ruleSet.pendingOf(after, settings),
    followUps: resolution.followUps ?? [],
  }
}
