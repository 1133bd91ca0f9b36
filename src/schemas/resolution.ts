import Type, { type TSchema } from 'typebox'
import { DiceRequestSchema, DieRollSchema } from '../rules/dice.js'
import type { RuleAction, RuleSet } from '../rules/rule-set.js'
import { ref } from './ref.js'

export const PendingDecisionSchema = Type.Object(
  {
    action: Type.String({ description: 'The action that settles this decision.' }),
    prompt: Type.String({ description: 'What the player or GM has to decide.' }),
  },
  { $id: 'PendingDecision', additionalProperties: false, description: 'A decision the rules leave open.' },
)

/** `stress-check` → `StressCheck`, for component names and operation ids. */
export function pascalCase(name: string): string {
  return name.replace(/(^|-)([a-z0-9])/g, (_match, _dash, letter: string) => letter.toUpperCase())
}

/** Example body of a stateless resolution: the action's own example on a sheet where it works. */
export function exampleResolveBody(action: RuleAction) {
  const [request] = (action.request as { examples?: unknown[] }).examples ?? []
  return {
    sheet: action.exampleSheet ?? {},
    request,
    dice: { source: 'seeded', seed: 'try-it-out' },
  }
}

export function resolveBodySchema(ruleSet: RuleSet, action: RuleAction) {
  return Type.Object(
    {
      sheet: Type.Optional(
        ref(ruleSet.sheet, {
          description: "The character's sheet. Leave it out (or send `{}`) for a new character with default values.",
        }),
      ),
      request: ref(action.request as TSchema),
      dice: Type.Optional(ref(DiceRequestSchema)),
      settings: Type.Optional(ref(ruleSet.settings)),
    },
    {
      $id: `${pascalCase(action.name)}ResolveBody`,
      additionalProperties: false,
      examples: [exampleResolveBody(action)],
    },
  )
}

export function resolutionSchema(ruleSet: RuleSet, action: RuleAction) {
  return Type.Object(
    {
      outcome: ref(action.outcome as TSchema),
      dice: Type.Array(ref(DieRollSchema), { description: 'Every die rolled, in order, with its purpose and source.' }),
      sheet: ref(ruleSet.sheet),
      summary: Type.String({ description: 'One line a GM can read out.' }),
      pending: Type.Union([Type.Null(), ref(PendingDecisionSchema)], {
        description: 'Set when the rules leave a decision open; settle it with the named action.',
      }),
    },
    { $id: `${pascalCase(action.name)}Resolution`, additionalProperties: false },
  )
}

/** Body of a stateful action on a stored character: the request, optionally the dice and who may see it. */
export function commandBodySchema(action: RuleAction) {
  const [request] = (action.request as { examples?: unknown[] }).examples ?? []
  return Type.Object(
    {
      request: ref(action.request as TSchema),
      dice: Type.Optional(ref(DiceRequestSchema)),
      visibility: Type.Optional(
        Type.Union([Type.Literal('public'), Type.Literal('gm')], {
          default: 'public',
          description: '`gm` keeps the roll from players and from webhooks that did not opt in (GM keys only).',
        }),
      ),
    },
    { $id: `${pascalCase(action.name)}CommandBody`, additionalProperties: false, examples: [{ request }] },
  )
}
