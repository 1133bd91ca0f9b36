import { createHash, randomInt } from 'node:crypto'
import Type, { type Static } from 'typebox'
import { RuleError } from './errors.js'

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the type below is derived from it
const DiceSourceKinds = ['server', 'seeded', 'provided'] as const
export type DiceSourceKind = (typeof DiceSourceKinds)[number]

const DiceSourceKindSchema = (options: { description?: string; default?: DiceSourceKind } = {}) =>
  Type.Union([Type.Literal('server'), Type.Literal('seeded'), Type.Literal('provided')], options)

export const DiceRequestSchema = Type.Object(
  {
    source: DiceSourceKindSchema({
      description:
        '`server`: Nerve rolls with crypto-grade randomness. `seeded`: the same seed always gives the same faces. `provided`: the caller rolled and sends the faces in the order they are asked for.',
      default: 'server',
    }),
    seed: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Required when source is `seeded`.' }),
    ),
    faces: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 100 }), {
        maxItems: 100,
        description:
          'Required when source is `provided`: the faces, in the order the dice are asked for. Faces left over once the resolution ends (a d100 rolled for a check that turns out to be avoided) are recorded as `unusedFaces` and change nothing. Too few is 422 `DICE_COUNT`, whose `needed` lists the dice still to roll: roll them, append their faces and send the same request again.',
      }),
    ),
  },
  {
    $id: 'DiceRequest',
    additionalProperties: false,
    description: 'Where the dice come from. Defaults to `server`.',
    examples: [{ source: 'seeded', seed: 'session-12-scene-3' }],
  },
)
export type DiceRequest = Static<typeof DiceRequestSchema>

export const DieRollSchema = Type.Object(
  {
    sides: Type.Integer({ minimum: 2, description: 'Number of sides of the die.' }),
    face: Type.Integer({ minimum: 1, description: 'The face rolled; on a d100, 100 reads "00".' }),
    purpose: Type.String({ description: 'What the die was rolled for, e.g. `defence`, `reroll`, `health-loss`.' }),
    source: DiceSourceKindSchema(),
  },
  { $id: 'DieRoll', additionalProperties: false },
)
export type DieRoll = Static<typeof DieRollSchema>

/** A die a resolution is about to roll; `exploding`: one die, and another each time it shows its highest face. */
export interface PlannedDie {
  sides: number
  purpose: string
  exploding?: boolean
}

/** What a resolver rolls with: it asks for a die and gets a face, and every face is recorded. */
export interface Dice {
  roll(sides: number, purpose: string): number
  /**
   * Announces the dice the resolution will certainly roll next, in order, before rolling them,
   * so a caller who provided too few faces is told every die still needed, not just the first.
   * Optional: a source that does not care (a test's fake) leaves it out.
   */
  plan?(dice: readonly PlannedDie[]): void
}

/**
 * Dice still needed by a resolution with provided faces, in order: each entry is `count` dice of
 * one kind, or one exploding die (roll it, then another each time it shows its highest face;
 * every die counts). Only dice the resolution rolls whatever the missing faces show are listed:
 * what depends on them (the effects of the trauma row a d100 finds, the Self check a therapist's
 * fumble brings) is named by the next answer, once their faces are sent.
 */
export interface NeededDice {
  count: number
  sides: number
  purpose: string
  exploding: boolean
}

/** Provided faces ran out: 422 `DICE_COUNT`, naming every die still needed so the caller can roll them and resend. */
export class DiceNeededError extends RuleError {
  constructor(
    readonly needed: NeededDice[],
    readonly facesProvided: number,
  ) {
    super('DICE_COUNT', describeNeeded(needed, facesProvided), 'invalid', `/dice/faces/${facesProvided}`)
  }
}

function describeNeeded(needed: readonly NeededDice[], provided: number): string {
  const dice = needed.map((entry) =>
    entry.exploding
      ? `1 exploding d${entry.sides} for ${entry.purpose} (roll another each time it shows ${entry.sides}; all count)`
      : `${entry.count} d${entry.sides} for ${entry.purpose}`,
  )
  const list = dice.length > 1 ? `${dice.slice(0, -1).join(', ')}, then ${dice.at(-1)}` : dice[0]!
  const sent =
    provided === 0 ? 'no faces were provided' : `${provided} ${provided === 1 ? 'face was' : 'faces were'} provided`
  const after = provided === 0 ? '' : `, after the ${provided} already sent`
  return `${sent} and the resolution needs more: ${list}. Roll them and send the same request again with their faces${after}`
}

/** Consecutive dice of one kind as one entry with a count; an exploding die stays an entry of its own. */
function grouped(dice: readonly PlannedDie[]): NeededDice[] {
  const needed: NeededDice[] = []
  for (const die of dice) {
    const last = needed.at(-1)
    const exploding = die.exploding === true
    if (last && !exploding && !last.exploding && last.sides === die.sides && last.purpose === die.purpose) last.count++
    else needed.push({ count: 1, sides: die.sides, purpose: die.purpose, exploding })
  }
  return needed
}

type FaceSource = (sides: number, index: number, purpose: string) => number

/** What to do with provided faces a resolution never uses: `unused` keeps them aside, `refuse` is 422. */
export type SurplusFaces = 'unused' | 'refuse'

export class DiceRoller implements Dice {
  readonly #rolled: DieRoll[] = []
  /** The dice announced and not rolled yet (`plan`), in order. */
  #plan: PlannedDie[] = []

  constructor(
    readonly source: DiceSourceKind,
    private readonly next: FaceSource,
    private readonly provided?: readonly number[],
    private readonly surplus: SurplusFaces = 'unused',
  ) {}

  plan(dice: readonly PlannedDie[]): void {
    // An announcement inside a larger one already made (a trauma row's effect dice, then each
    // effect's own roll) keeps the larger one.
    const within = dice.every((die, index) => samePlanned(die, this.#plan[index]))
    if (!within) this.#plan = [...dice]
  }

  roll(sides: number, purpose: string): number {
    const index = this.#rolled.length
    if (this.provided !== undefined && index >= this.provided.length) {
      const [head] = this.#plan
      const rest = head && head.sides === sides && head.purpose === purpose ? this.#plan : [{ sides, purpose }]
      throw new DiceNeededError(grouped(rest), this.provided.length)
    }
    const face = this.next(sides, index, purpose)
    this.#rolled.push({ sides, face, purpose, source: this.source })
    this.#advancePlan(sides, purpose, face)
    return face
  }

  #advancePlan(sides: number, purpose: string, face: number) {
    const [head] = this.#plan
    if (!head || head.sides !== sides || head.purpose !== purpose) {
      // The resolution rolled something it had not announced: the plan no longer says what follows.
      this.#plan = []
      return
    }
    // An exploding die stays planned while it shows its highest face.
    if (!(head.exploding && face === sides)) this.#plan = this.#plan.slice(1)
  }

  /** Every die rolled, in order. Provided faces never used are refused when `surplus` is `refuse`. */
  finish(): DieRoll[] {
    const rolled = this.#rolled.length
    if (this.surplus === 'refuse' && this.provided !== undefined && this.provided.length > rolled) {
      throw new RuleError(
        'DICE_COUNT',
        `${this.provided.length} faces were provided but this resolution rolls ${rolled} ${rolled === 1 ? 'die' : 'dice'}`,
        'invalid',
        `/dice/faces/${rolled}`,
      )
    }
    return [...this.#rolled]
  }

  /** Provided faces after the last one the resolution used, in the order sent (empty for other sources). */
  unusedFaces(): number[] {
    return this.provided === undefined ? [] : this.provided.slice(this.#rolled.length)
  }
}

const samePlanned = (a: PlannedDie, b: PlannedDie | undefined) =>
  b !== undefined && a.sides === b.sides && a.purpose === b.purpose && (a.exploding ?? false) === (b.exploding ?? false)

/**
 * A dice source for one resolution. Provided faces the resolution does not use (a d100 rolled
 * for a stress check that turns out to be avoided) are kept aside as unused, or, with
 * `surplus: 'refuse'` (replaying recorded dice, which must match exactly), refused.
 */
export function createDice(
  request: DiceRequest = { source: 'server' },
  options: { surplus?: SurplusFaces } = {},
): DiceRoller {
  switch (request.source) {
    case 'server':
      return new DiceRoller('server', (sides) => randomInt(1, sides + 1))
    case 'seeded': {
      if (request.seed === undefined) {
        throw new RuleError('DICE_SEED_MISSING', 'a seeded roll needs a seed', 'invalid', '/dice/seed')
      }
      return new DiceRoller('seeded', seededFaces(request.seed))
    }
    case 'provided': {
      const faces = request.faces
      if (faces === undefined) {
        throw new RuleError('DICE_FACES_MISSING', 'provided dice need their faces', 'invalid', '/dice/faces')
      }
      return new DiceRoller('provided', providedFaces(faces), faces, options.surplus)
    }
  }
}

function providedFaces(faces: readonly number[]): FaceSource {
  return (sides, index, purpose) => {
    const face = faces[index]!
    if (!Number.isInteger(face) || face < 1 || face > sides) {
      throw new RuleError(
        'DICE_FACE_OUT_OF_RANGE',
        `die #${index + 1} is a d${sides} (${purpose}); face ${face} is not between 1 and ${sides}`,
        'invalid',
        `/dice/faces/${index}`,
      )
    }
    return face
  }
}

/**
 * Faces derived from SHA-256 of (seed, die index, attempt): stable across Node and library
 * versions, so a stored seed re-derives the same faces forever. Rejection sampling keeps
 * every face equally likely.
 */
function seededFaces(seed: string): FaceSource {
  return (sides, index) => {
    const limit = Math.floor(0x1_0000_0000 / sides) * sides
    for (let attempt = 0; ; attempt++) {
      const value = createHash('sha256').update(`${seed}\u0000${index}\u0000${attempt}`).digest().readUInt32BE(0)
      if (value < limit) return (value % sides) + 1
    }
  }
}

/** Roll one die that explodes: every highest face rolls another die, and every die counts. */
export function rollExploding(dice: Dice, sides: number, purpose: string): number[] {
  dice.plan?.([{ sides, purpose, exploding: true }])
  const faces = [dice.roll(sides, purpose)]
  while (faces.at(-1) === sides) faces.push(dice.roll(sides, purpose))
  return faces
}

export function rollMany(dice: Dice, count: number, sides: number, purpose: string): number[] {
  dice.plan?.(Array.from({ length: count }, () => ({ sides, purpose })))
  return Array.from({ length: count }, () => dice.roll(sides, purpose))
}

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the type below is derived from it
const Edges = ['advantage', 'disadvantage', 'none'] as const
export type Edge = (typeof Edges)[number]

/** Advantage and disadvantage together cancel out to a single die. */
export function edgeOf(advantage: boolean, disadvantage: boolean): Edge {
  if (advantage === disadvantage) return 'none'
  return advantage ? 'advantage' : 'disadvantage'
}

/** One die, or two keeping the highest (advantage) or the lowest (disadvantage). */
export function rollWithEdge(
  dice: Dice,
  sides: number,
  edge: Edge,
  purpose: string,
): { faces: number[]; kept: number } {
  if (edge !== 'none')
    dice.plan?.([
      { sides, purpose },
      { sides, purpose: edge },
    ])
  const first = dice.roll(sides, purpose)
  if (edge === 'none') return { faces: [first], kept: first }
  const second = dice.roll(sides, edge)
  const kept = edge === 'advantage' ? Math.max(first, second) : Math.min(first, second)
  return { faces: [first, second], kept }
}
