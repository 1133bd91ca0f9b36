import { createHash, randomInt } from 'node:crypto'
import Type, { type Static } from 'typebox'
import { RuleError } from './errors.js'

export const DiceSourceKinds = ['server', 'seeded', 'provided'] as const
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
        description: 'Required when source is `provided`: every face, in the order the dice are rolled.',
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

/** What a resolver rolls with: it asks for a die and gets a face, and every face is recorded. */
export interface Dice {
  roll(sides: number, purpose: string): number
}

type FaceSource = (sides: number, index: number, purpose: string) => number

export class DiceRoller implements Dice {
  readonly #rolled: DieRoll[] = []

  constructor(
    readonly source: DiceSourceKind,
    private readonly next: FaceSource,
    private readonly expectedCount?: number,
  ) {}

  roll(sides: number, purpose: string): number {
    const face = this.next(sides, this.#rolled.length, purpose)
    this.#rolled.push({ sides, face, purpose, source: this.source })
    return face
  }

  /** Every die rolled, in order. For provided dice, refuses faces that were sent but never used. */
  finish(): DieRoll[] {
    if (this.expectedCount !== undefined && this.expectedCount > this.#rolled.length) {
      throw new RuleError(
        'DICE_COUNT',
        `${this.expectedCount} faces were provided but this resolution rolls ${this.#rolled.length} ${this.#rolled.length === 1 ? 'die' : 'dice'}`,
        'invalid',
        `/dice/faces/${this.#rolled.length}`,
      )
    }
    return [...this.#rolled]
  }
}

export function createDice(request: DiceRequest = { source: 'server' }): DiceRoller {
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
      return new DiceRoller('provided', providedFaces(faces), faces.length)
    }
  }
}

function providedFaces(faces: readonly number[]): FaceSource {
  return (sides, index, purpose) => {
    const face = faces[index]
    if (face === undefined) {
      throw new RuleError(
        'DICE_COUNT',
        `die #${index + 1} (d${sides}, ${purpose}) is needed but only ${faces.length} faces were provided`,
        'invalid',
        `/dice/faces/${index}`,
      )
    }
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
  const faces = [dice.roll(sides, purpose)]
  while (faces.at(-1) === sides) faces.push(dice.roll(sides, purpose))
  return faces
}

export function rollMany(dice: Dice, count: number, sides: number, purpose: string): number[] {
  return Array.from({ length: count }, () => dice.roll(sides, purpose))
}

export const Edges = ['advantage', 'disadvantage', 'none'] as const
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
  const first = dice.roll(sides, purpose)
  if (edge === 'none') return { faces: [first], kept: first }
  const second = dice.roll(sides, edge)
  const kept = edge === 'advantage' ? Math.max(first, second) : Math.min(first, second)
  return { faces: [first, second], kept }
}
