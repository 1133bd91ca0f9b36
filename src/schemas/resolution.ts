import Type, { type Static, type TObject, type TSchema, type TUnsafe } from 'typebox'
import { Compile } from 'typebox/compile'
import { DiceRequestSchema, DieRollSchema } from '../rules/dice.js'
import { oddsOf, type RuleAction, type RuleSet } from '../rules/rule-set.js'
import { FreeObject, VisibilityChoice } from './common.js'
import { ref } from './ref.js'
import { sheetInputSchema } from './sheets.js'

const route = Type.Optional(
  Type.String({
    description:
      'Where to make that action on this character: `POST` it with `{ "request": … }`. Absent from stateless resolutions, which have no stored character.',
    examples: [
      '/v1/campaigns/01930000-0000-7000-8000-000000000001/characters/01930000-0000-7000-8000-000000000002/stress-response',
    ],
  }),
)

export const PendingDecisionSchema = Type.Object(
  {
    action: Type.String({ description: 'The action that settles this decision.' }),
    prompt: Type.String({ description: 'What the player or GM has to decide.' }),
    route,
  },
  { $id: 'PendingDecision', additionalProperties: false, description: 'A decision the rules leave open.' },
)

const PENDING_DESCRIPTION =
  'Every decision the rules leave open, in the order they are usually made (a fifth failed notch opens the stress response and the disorder to name). Empty when nothing waits. Settle each with its action, or through `POST …/events/{eventId}/decision` naming the `action`.'
export const PendingDecisionsSchema = Type.Array(ref(PendingDecisionSchema), { description: PENDING_DESCRIPTION })

export const FollowUpSchema = Type.Object(
  {
    trigger: Type.String({
      description: 'The stress-check trigger the result meets (catalogue id, `GET /v1/rulesets/shock-meters`).',
    }),
    because: Type.String({ description: 'What in the result meets it.' }),
    action: Type.String({ description: 'The action that makes the follow-up roll.' }),
    request: FreeObject('A request for it, ready to send, at the lowest rank the trigger allows.'),
    ranks: Type.Object(
      { min: Type.Integer({ minimum: 1 }), max: Type.Integer({ minimum: 1 }) },
      { additionalProperties: false, description: 'The ranks the trigger allows: the GM picks one.' },
    ),
    route,
  },
  {
    $id: 'FollowUp',
    additionalProperties: false,
    description:
      'A roll the result itself calls for, because it meets a trigger of the rules (a relationship fallen to 0% attacks Isolation 4–5). Named, not made: the GM decides whether and at which rank, and makes it in one call by sending `request` (rank adjusted) to `route`.',
  },
)

const FOLLOW_UPS_DESCRIPTION = 'Rolls the result calls for by a trigger of the rules; empty when none.'
export const FollowUpsSchema = Type.Array(ref(FollowUpSchema), { description: FOLLOW_UPS_DESCRIPTION })

/** Where an action on the character is made: the route a decision or a follow-up names. */
const actionRoute = (campaignId: string, characterId: string | null, action: string) =>
  `/v1/campaigns/${campaignId}/characters/${characterId}/${action}`

/** Each decision or follow-up with the route of its action, as `PendingDecisionsSchema` and `FollowUpsSchema` show them. */
export function routed<T extends { action: string }>(
  campaignId: string,
  characterId: string | null,
  items: readonly T[],
) {
  return items.map((item) => ({ ...item, route: actionRoute(campaignId, characterId, item.action) }))
}

export const UnusedFacesSchema = Type.Array(Type.Integer({ minimum: 1, maximum: 100 }), {
  description:
    'Provided faces the resolution did not use, in the order sent (empty when every face was used): a VTT may roll before it knows what the rules will ask for, such as a d100 for a stress check that turns out to be avoided. They change nothing; `dice` holds every face used.',
})

/** `stress-check` → `StressCheck`, for component names and operation ids. */
export function pascalCase(name: string): string {
  return name.replace(/(^|-)([a-z0-9])/g, (_match, _dash, letter: string) => letter.toUpperCase())
}

/** The request of an action's first example (it works on the action's example sheet). */
function exampleRequestOf(action: RuleAction): unknown {
  const [request] = (action.request as { examples?: unknown[] }).examples ?? []
  return request
}

/** Example body of a stateless resolution: the action's own example on a sheet where it works. */
function exampleResolveBody(action: RuleAction) {
  return {
    sheet: action.exampleSheet ?? {},
    request: exampleRequestOf(action),
    dice: { source: 'seeded', seed: 'try-it-out' },
  }
}

/** What a stateless call resolves: a sheet (or a new character's) and the action's request. */
function resolveInput(ruleSet: RuleSet, action: RuleAction) {
  return {
    sheet: Type.Optional(
      ref(sheetInputSchema(ruleSet.sheet), {
        description: "The character's sheet. Leave it out (or send `{}`) for a new character with default values.",
      }),
    ),
    request: ref(action.request),
  }
}

export function resolveBodySchema(ruleSet: RuleSet, action: RuleAction) {
  return Type.Object(
    {
      ...resolveInput(ruleSet, action),
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
      outcome: link(action.outcome),
      dice: Type.Array(link(DieRollSchema), {
        description: 'Every die rolled, in order, with its purpose and source.',
      }),
      unusedFaces: UnusedFacesSchema,
      sheet: link(ruleSet.sheet),
      summary: Type.String({ description: 'One line a GM can read out.' }),
      pending: Type.Array(link(PendingDecisionSchema), { description: PENDING_DESCRIPTION }),
      followUps: Type.Array(link(FollowUpSchema), { description: FOLLOW_UPS_DESCRIPTION }),
    },
    { $id: `${pascalCase(action.name)}Resolution`, additionalProperties: false },
  )
}

/**
 * A compiled check that a resolution fits the action's response schema exactly: nothing
 * missing, extra or out of range. A resolution that passes can be sent as `JSON.stringify`
 * writes it, instead of through Fastify's schema serialiser, which picks each union's branch
 * by running Ajv on it: for a sheet, mostly unions, that cost more than resolving the roll.
 * The sheet itself is not checked here: the rules return only normal sheets, which fit the
 * sheet schema (`settle` in src/rules/rule-set.ts says how that is held).
 */
export function resolutionCheck(ruleSet: RuleSet, action: RuleAction): (resolution: unknown) => boolean {
  const checked: Link = (schema) =>
    (schema === ruleSet.sheet ? Type.Unknown() : schema) as unknown as TUnsafe<Static<typeof schema>>
  const validator = Compile(resolutionSchema(ruleSet, action, checked))
  return (resolution) => validator.Check(resolution)
}

/** Body of a stateful action on a stored character: the request, optionally the dice and who may see it. */
export function commandBodySchema(action: RuleAction) {
  const request = exampleRequestOf(action)
  return Type.Object(
    {
      request: ref(action.request),
      dice: Type.Optional(ref(DiceRequestSchema)),
      visibility: Type.Optional(VisibilityChoice),
    },
    { $id: `${pascalCase(action.name)}CommandBody`, additionalProperties: false, examples: [{ request }] },
  )
}

// ---------------------------------------------------------------- odds

const SheetBasisSchema = Type.Union(
  [Type.Literal('as sent'), Type.Literal('as stored'), Type.Literal('as players see it')],
  {
    description:
      'The sheet the odds are counted on: `as sent` (the body’s sheet, or a new character’s when left out), `as stored` (the character’s sheet, for the GM key), or `as players see it` (for a player key: the sheet without what GM-only rolls did to it, so the odds tell nothing they hid).',
  },
)
type SheetBasis = Static<typeof SheetBasisSchema>

const oddsSchemas = new WeakMap<RuleAction, TObject>()

/**
 * An action's odds answer, `${Action}Odds`: the rules' odds and the sheet they were counted on.
 * One object per action, so the routes that answer it and the shared schemas name the same one.
 */
export function oddsSchema(ruleSet: RuleSet, action: RuleAction): TObject {
  const known = oddsSchemas.get(action)
  if (known) return known
  if (action.odds === undefined) throw new Error(`${action.name} rolls no dice: it has no odds`)
  const example = {
    sheet: 'as sent' satisfies SheetBasis,
    ...oddsOf(ruleSet, action, { sheet: action.exampleSheet ?? {}, request: exampleRequestOf(action) }),
  }
  const schema = Type.Object(
    { sheet: SheetBasisSchema, ...action.odds.schema.properties },
    {
      $id: `${pascalCase(action.name)}Odds`,
      additionalProperties: false,
      description: `${(action.odds.schema as { description?: string }).description ?? ''} Every chance is an exact fraction in lowest terms, with its percent rounded to 2 decimals for display; outcomes that cannot happen are listed at 0/1.`,
      examples: [example],
    },
  )
  oddsSchemas.set(action, schema)
  return schema
}

/** Body of a stateless odds call: the resolve body without dice, since nothing is rolled. */
export function oddsResolveBodySchema(ruleSet: RuleSet, action: RuleAction) {
  return Type.Object(
    {
      ...resolveInput(ruleSet, action),
      settings: Type.Optional(ref(ruleSet.settings)),
    },
    {
      $id: `${pascalCase(action.name)}OddsResolveBody`,
      additionalProperties: false,
      examples: [{ sheet: action.exampleSheet ?? {}, request: exampleRequestOf(action) }],
    },
  )
}

/** Body of the odds of an action on a stored character: the action's request, no dice and no visibility. */
export function oddsCommandBodySchema(action: RuleAction) {
  return Type.Object(
    { request: ref(action.request) },
    {
      $id: `${pascalCase(action.name)}CharacterOddsBody`,
      additionalProperties: false,
      examples: [{ request: exampleRequestOf(action) }],
    },
  )
}

/** A compiled check that an odds answer fits its schema exactly, so it can be sent as `JSON.stringify` writes it. */
export function oddsCheck(ruleSet: RuleSet, action: RuleAction): (answer: unknown) => boolean {
  const validator = Compile(oddsSchema(ruleSet, action))
  return (answer) => validator.Check(answer)
}
