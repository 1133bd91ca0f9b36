import Type, { type Static } from 'typebox'
import { fraction, probability, ProbabilitySchema, ZERO, type Fraction } from '../fraction.js'
import type { ActionOdds } from '../rule-set.js'
import { readTraumaRoll } from './resolve-trauma.js'
import { ShiftSchema, TraumaRowIdSchema, type TraumaTableSheet } from './schemas.js'
import { TRAUMA_TABLE } from './table.js'
import { moveRow, shiftOf } from './upgrades.js'

const D100 = 100

const StatusSchema = Type.Union(
  [Type.Literal('unharmed'), Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('answered')],
  { description: 'How the roll ends, as the outcome’s `status`.' },
)
type Status = Static<typeof StatusSchema>
const STATUSES: readonly Status[] = ['unharmed', 'pending', 'accepted', 'answered']

const TraumaRollOddsSchema = Type.Object(
  {
    modifier: Type.Integer({ description: 'Added to the d100: the total runs from 1 + modifier to 100 + modifier.' }),
    shifts: Type.Array(ShiftSchema, { description: 'Every upgrade and downgrade that applies, with its reason.' }),
    netShift: Type.Integer({
      description: 'Upgrades minus downgrades: the rows every result moves (clamped to the table).',
    }),
    rows: Type.Array(
      Type.Object(
        {
          row: TraumaRowIdSchema,
          name: Type.String(),
          probability: ProbabilitySchema(
            'The chance of suffering this row: after the modifier, the shift and the upgrades past traumas already suffered this encounter.',
          ),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'Every row of the table, lowest first, each listed even when it cannot come up (0/1). The chances add up to 1.',
      },
    ),
    statuses: Type.Array(
      Type.Object(
        { status: StatusSchema, probability: ProbabilitySchema('The chance of this status.') },
        {
          additionalProperties: false,
        },
      ),
      {
        description:
          'How the roll ends: unharmed, or with this request’s `response` (pending without one, accepted, or answered with an ability). Every status is listed.',
      },
    ),
    summary: Type.String({ description: 'One line a GM can read out.' }),
  },
  {
    additionalProperties: false,
    description:
      'The exact odds of a trauma roll before it is rolled: which row of the table the character suffers, counted over the hundred faces of the d100.',
  },
)
type TraumaRollOdds = Static<typeof TraumaRollOddsSchema>

/**
 * Each row holds a band of totals, so the faces that reach it are the overlap of its band with
 * 1 + modifier … 100 + modifier; every face of a band then moves to the same final row.
 */
function finalRowCounts(sheet: TraumaTableSheet, modifier: number, netShift: number): number[] {
  const suffered = new Set<string>(sheet.encounterTraumas)
  const counts = TRAUMA_TABLE.map(() => 0)
  TRAUMA_TABLE.forEach((row, base) => {
    const lowest = Math.max(1 + modifier, row.min ?? -Infinity)
    const highest = Math.min(D100 + modifier, row.max ?? Infinity)
    if (highest >= lowest) counts[moveRow(base, netShift, suffered).final]! += highest - lowest + 1
  })
  return counts
}

const said = (chance: Fraction) => {
  const { fraction: exact, percent } = probability(chance)
  return `${exact} (${percent}%)`
}

export const traumaRollOdds: ActionOdds<TraumaTableSheet, unknown, unknown> = {
  schema: TraumaRollOddsSchema,
  of(sheet, input): TraumaRollOdds {
    const request = readTraumaRoll(sheet, input)
    const { shifts, netShift } = shiftOf(sheet, request)
    const counts = finalRowCounts(sheet, request.modifier, netShift)
    const chances = counts.map((count) => fraction(count, D100))
    const unharmed = chances[0]!
    const harmed = fraction(D100 - counts[0]!, D100)
    const statuses: Record<Status, Fraction> = { unharmed, pending: ZERO, accepted: ZERO, answered: ZERO }
    statuses[request.response === undefined ? 'pending' : request.response === 'accept' ? 'accepted' : 'answered'] =
      harmed
    const possible = TRAUMA_TABLE.filter((_, index) => counts[index]! > 0)
    const most = Math.max(...counts)
    const likeliest = TRAUMA_TABLE.filter((_, index) => counts[index] === most)
    const modifier = request.modifier === 0 ? '' : ` ${request.modifier > 0 ? '+' : '−'} ${Math.abs(request.modifier)}`
    const moved =
      netShift === 0
        ? ''
        : `, ${Math.abs(netShift)} row${Math.abs(netShift) === 1 ? '' : 's'} ${netShift > 0 ? 'up' : 'down'}`
    const range =
      possible.length === 1 ? `${possible[0]!.name} for certain` : `${possible[0]!.name} to ${possible.at(-1)!.name}`
    const chanceOfMost = said(fraction(most, D100))
    const top =
      likeliest.length === 1
        ? `likeliest ${likeliest[0]!.name} ${chanceOfMost}`
        : `${likeliest.length} rows likeliest at ${chanceOfMost} each`
    return {
      modifier: request.modifier,
      shifts,
      netShift,
      rows: TRAUMA_TABLE.map((row, index) => ({
        row: row.id,
        name: row.name,
        probability: probability(chances[index]!),
      })),
      statuses: STATUSES.map((status) => ({ status, probability: probability(statuses[status]) })),
      summary: `Trauma: d100${modifier}${moved}: ${range}; ${top}, unharmed ${said(unharmed)}`,
    }
  },
}
