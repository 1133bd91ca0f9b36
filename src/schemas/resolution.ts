import Type, { type Static, type TSchema, type TUnsafe } from 'typebox'
import { Compile } from 'typebox/compile'
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

/**
 * How the resolution schema names the schemas it is made of: by reference (`ref`, for the
 * OpenAPI document), or by the schema itself, typed as `ref` types it, to compile a check.
 */
type Link = <T extends TSchema>(schema: T, options?: { description?: string }) => TUnsafe<Static<T>>

export function resolutionSchema(ruleSet: RuleSet, action: RuleAction, link: Link = ref) {
  return Type.Object(
    {
      outcome: link(action.outcome as TSchema),
      dice: Type.Array(link(DieRollSchema), {
        description: 'Every die rolled, in order, with its purpose and source.',
      }),
      sheet: link(ruleSet.sheet),
      summary: Type.String({ description: 'One line a GM can read out.' }),
      pending: Type.Union([Type.Null(), link(PendingDecisionSchema)], {
        description: 'Set when the rules leave a decision open; settle it with the named action.',
      }),
    },
    { $id: `${pascalCase(action.name)}Resolution`, additionalProperties: false },
  )
}

/**
 * A compiled check that a resolution fits the action's response schema exactly: nothing
 * missing, extra or out of range. A resolution that passes can be sent as `JSON.stringify`
 * writes it, instead of through Fastify's schema serialiser, which picks each union's branch
 * by running Ajv on it: for a sheet, mostly unions, that cost more than resolving the roll.
 * The sheet itself is not checked again here: it has just been checked on its way out of the
 * rules (`normalizeSheet`), which is what makes it fit the sheet schema.
 */
export function resolutionCheck(ruleSet: RuleSet, action: RuleAction): (resolution: unknown) => boolean {
  const checked: Link = (schema) =>
    (schema === ruleSet.sheet ? Type.Unknown() : schema) as unknown as TUnsafe<Static<typeof schema>>
  const validator = Compile(resolutionSchema(ruleSet, action, checked))
  return (resolution) => validator.Check(resolution)
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
