import Type, { type TSchema } from 'typebox'
import { BUILT_IN, eventTypesOf, type EventType } from '../history/event-types.js'
import { eventFields } from '../history/event.js'
import { findAction, RULE_SETS } from '../rules/index.js'
import type { RuleSet } from '../rules/rule-set.js'
import { CampaignSchema, UpdateCampaignSchema } from './campaigns.js'
import { CharacterSchema, CreateCharacterSchema, PatchCharacterSchema } from './characters.js'
import { FreeObject, Uuid } from './common.js'
import { ref } from './ref.js'
import { sheetInputSchema, sheetSchema } from './sheets.js'

/**
 * The API's resources as the OpenAPI document shows them: unions told apart by `ruleset` (a
 * campaign, a character and its bodies: each rule set's sheet and settings) and by `type` (an
 * event: each type's request, outcome and sheets), built from the rule sets and the registry of
 * event types, so a typed client narrows `character.sheet` after `character.ruleset === …`.
 *
 * The server itself validates and serialises these resources with the loose schemas they
 * replace (`Character`, `Event`… in characters.ts and event.ts, whose sheets, requests and
 * outcomes are any JSON object), for three reasons:
 * - fast-json-stringify serialises a `oneOf` by running an Ajv check of each branch on every
 *   object until one matches: a history page of 100 events would be checked against up to 24
 *   event schemas (each with a whole sheet schema, twice) instead of copied;
 * - sheets, requests and outcomes are already checked where they are made (the rules layer
 *   parses every sheet and request with compiled TypeBox checks, with errors that name the field);
 * - a character's body may leave its `ruleset` out, which a discriminated union cannot.
 * The precise schemas are what those checks enforce; the contract tests hold every answer of
 * the server to them (test/contract, test/openapi-contract.test.ts).
 */

const pascal = (name: string) =>
  name
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')

/** `ShockMeters` for `shock-meters`: the prefix of each rule set's components. */
const prefixOf = (ruleSet: RuleSet) => pascal(ruleSet.id)

interface Union {
  /** The component it replaces in the document (`Character`). */
  id: string
  description: string
  discriminator: 'ruleset' | 'type'
  /**
   * `oneOf` with a `discriminator` where the discriminating property is always there; `anyOf`
   * without one where a body may leave it out (a character's body takes the campaign's rule set).
   */
  keyword: 'oneOf' | 'anyOf'
  branches: { value: string; schema: TSchema }[]
  /** Components its branches share, written before them. */
  shared?: TSchema[]
  /** The union's own examples, where one fits every branch (Swagger UI's "Try it out" body). */
  examples?: unknown[]
}

const descriptionOf = (schema: unknown): string | undefined =>
  (schema as { description?: string } | undefined)?.description

const RULESET_DESCRIPTION = 'The rule set, which decides the shape of the sheet and settings.'

function byRuleSet(
  base: TSchema & { properties: Record<string, TSchema> },
  name: (prefix: string) => string,
  properties: (ruleSet: RuleSet) => Record<string, TSchema>,
  {
    optionalRuleSet = false,
    example,
  }: { optionalRuleSet?: boolean; example?: (ruleSet: RuleSet) => Record<string, unknown> } = {},
): Union {
  const id = (base as unknown as { $id: string }).$id
  const baseExamples = (base as { examples?: Record<string, unknown>[] }).examples
  return {
    id,
    description:
      `${(base as { description?: string }).description ?? ''} One schema per rule set, told apart by \`ruleset\`.`.trim(),
    discriminator: 'ruleset',
    keyword: optionalRuleSet ? 'anyOf' : 'oneOf',
    // A body that leaves `ruleset` out takes the campaign's: its example fits every campaign.
    ...(optionalRuleSet && baseExamples ? { examples: baseExamples } : {}),
    branches: RULE_SETS.map((ruleSet) => {
      const literal = Type.Literal(ruleSet.id, {
        description: descriptionOf(base.properties.ruleset) ?? RULESET_DESCRIPTION,
      })
      const examples = example ? [example(ruleSet)] : baseExamples?.map((one) => ({ ruleset: ruleSet.id, ...one }))
      return {
        value: ruleSet.id,
        schema: Type.Object(
          {
            ...base.properties,
            ruleset: optionalRuleSet ? Type.Optional(literal) : literal,
            ...properties(ruleSet),
          },
          {
            $id: name(prefixOf(ruleSet)),
            additionalProperties: false,
            description: `${id} in a \`${ruleSet.id}\` campaign.`,
            ...(examples ? { examples } : {}),
          },
        ),
      }
    }),
  }
}

const sheetRef = (ruleSet: RuleSet) => ref(sheetSchema(ruleSet.sheet))
const sheetInputRef = (ruleSet: RuleSet) => ref(sheetInputSchema(ruleSet.sheet))

/*
 * Whole examples of a campaign and a character of each rule set, its settings and sheet as the
 * rules fill them in: Swagger UI shows the example of a union's first branch, and drawn from the
 * schema alone it would leave `ruleset` out (it looks the value up in the discriminator's mapping
 * by the wrong name).
 */
const EXAMPLE_CAMPAIGN_ID = '0193a5e2-7c1d-7000-8000-000000000001'
const EXAMPLE_TIME = '2026-12-04T18:30:00.000Z'
const settingsOf = (ruleSet: RuleSet): Record<string, unknown> =>
  ruleSet.normalizeSettings({}) as Record<string, unknown>

const characters = [
  byRuleSet(
    CampaignSchema,
    (prefix) => `${prefix}Campaign`,
    (ruleSet) => ({ settings: ref(ruleSet.settings) }),
    {
      example: (ruleSet) => ({
        id: EXAMPLE_CAMPAIGN_ID,
        name: 'The Mercy Street Irregulars',
        ruleset: ruleSet.id,
        settings: settingsOf(ruleSet),
        eventCount: 3,
        createdAt: EXAMPLE_TIME,
        updatedAt: EXAMPLE_TIME,
      }),
    },
  ),
  byRuleSet(
    CharacterSchema,
    (prefix) => `${prefix}Character`,
    (ruleSet) => ({ sheet: sheetRef(ruleSet) }),
    {
      example: (ruleSet) => ({
        id: '0193a5e2-7c1d-7000-8000-000000000002',
        campaignId: EXAMPLE_CAMPAIGN_ID,
        name: 'Vera Okafor',
        ruleset: ruleSet.id,
        sheet: ruleSet.normalizeSheet({}, ruleSet.normalizeSettings({})) as Record<string, unknown>,
        pending: [],
        version: 1,
        createdAt: EXAMPLE_TIME,
        updatedAt: EXAMPLE_TIME,
        archivedAt: null,
      }),
    },
  ),
  byRuleSet(
    CreateCharacterSchema,
    (prefix) => `Create${prefix}Character`,
    (ruleSet) => ({ sheet: Type.Optional(sheetInputRef(ruleSet)) }),
    { optionalRuleSet: true },
  ),
  byRuleSet(
    PatchCharacterSchema,
    (prefix) => `Patch${prefix}Character`,
    // A merge patch of the sheet: what is given replaces what is stored (a sheet as sent, each part optional).
    (ruleSet) => ({ sheet: Type.Optional(sheetInputRef(ruleSet)) }),
    { optionalRuleSet: true },
  ),
]

/** Any rule set's sheet, where an event type is recorded in every rule set (`character.created`…). */
const anySheet = () => Type.Union(RULE_SETS.map(sheetRef))
const anyRuleSet = () =>
  Type.Union(
    RULE_SETS.map((ruleSet) => Type.Literal(ruleSet.id)),
    { description: RULESET_DESCRIPTION },
  )
const nullable = (schema: TSchema) => Type.Union([schema, Type.Null()])

/**
 * Every event type, by name: each rule set's actions, then the built-in ones. The first is what
 * Swagger UI draws as an event's example: a stress check says more than a creation.
 */
const EVENT_TYPES: { entry: EventType; ruleSet: RuleSet | null }[] = [
  ...RULE_SETS.flatMap((ruleSet) =>
    eventTypesOf(ruleSet)
      .filter((entry) => findAction(ruleSet, entry.type))
      .map((entry) => ({ entry, ruleSet })),
  ),
  ...eventTypesOf(undefined).map((entry) => ({ entry, ruleSet: null })),
]

const EventTypeName = Type.Union(
  EVENT_TYPES.map(({ entry }) => Type.Literal(entry.type)),
  { description: 'The event’s type.' },
)

const RevealedEventSchema = Type.Object(
  {
    id: Uuid('The revealed event.'),
    seq: Type.Integer(),
    type: EventTypeName,
    request: nullable(FreeObject('Its request.')),
    dice: eventFields.dice,
    outcome: nullable(FreeObject('Its outcome.')),
    summary: Type.String(),
    followUps: eventFields.followUps,
  },
  { additionalProperties: false },
)

const CampaignState = Type.Object(
  { name: Type.String(), settings: FreeObject('The rule-set settings.') },
  { additionalProperties: false },
)

/**
 * What the built-in event types record besides the sheets, by their name in the registry: a
 * type added to `BUILT_IN` without its shapes here does not compile.
 */
const BUILT_IN_SHAPES: Record<keyof typeof BUILT_IN, { request: TSchema; outcome: TSchema }> = {
  created: { request: ref(CreateCharacterSchema), outcome: Type.Null() },
  updated: { request: ref(PatchCharacterSchema), outcome: Type.Null() },
  archived: { request: Type.Null(), outcome: Type.Null() },
  revert: {
    request: Type.Object({ eventId: Uuid('The event taken back.') }, { additionalProperties: false }),
    outcome: Type.Object(
      {
        reverted: Type.Object(
          { id: Uuid('The event taken back.'), seq: Type.Integer(), type: EventTypeName },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  reveal: {
    request: Type.Object({ eventId: Uuid('The event revealed.') }, { additionalProperties: false }),
    outcome: Type.Object({ revealed: RevealedEventSchema }, { additionalProperties: false }),
  },
  campaignUpdated: {
    request: ref(UpdateCampaignSchema),
    outcome: Type.Object({ before: CampaignState, after: CampaignState }, { additionalProperties: false }),
  },
}

const builtInShapes = new Map<string, { request: TSchema; outcome: TSchema }>(
  Object.entries(BUILT_IN_SHAPES).map(([key, shapes]) => [BUILT_IN[key as keyof typeof BUILT_IN].type, shapes]),
)

const isNull = (schema: TSchema) => (schema as { type?: unknown }).type === 'null'

/** The parts of an event that depend on its type: its request, outcome, rule set and sheets. */
function eventParts({ entry, ruleSet }: (typeof EVENT_TYPES)[number]) {
  const type = Type.Literal(entry.type, { description: entry.description })
  if (ruleSet) {
    const action = findAction(ruleSet, entry.type)!
    return {
      type,
      ruleset: Type.Literal(ruleSet.id, { description: RULESET_DESCRIPTION }),
      // Null where players see the event without its request and result (docs/guides/hidden-rolls.md).
      request: nullable(ref(action.request)),
      outcome: nullable(ref(action.outcome)),
      sheetBefore: sheetRef(ruleSet),
      sheetAfter: sheetRef(ruleSet),
    }
  }
  const shapes = builtInShapes.get(entry.type)!
  const campaign = entry.scope === 'campaign'
  /*
   * What is always null is typed as null or an object: openapi-fetch's types drop a property of
   * an answer whose only value is null (`Readable` in openapi-typescript-helpers 0.1), which would
   * leave a client's event without it.
   */
  const alwaysNull = (field: string) =>
    nullable(FreeObject(`Always null in a \`${entry.type}\` event, which has no ${field}.`))
  const orNull = (schema: TSchema, field: string) => (isNull(schema) ? alwaysNull(field) : nullable(schema))
  return {
    type,
    ruleset: anyRuleSet(),
    request: orNull(shapes.request, 'request'),
    outcome: orNull(shapes.outcome, 'outcome'),
    sheetBefore: campaign || entry.type === BUILT_IN.created.type ? alwaysNull('sheet before it') : anySheet(),
    sheetAfter: campaign
      ? Type.Object({}, { additionalProperties: false, description: 'Empty: the event is about no character.' })
      : anySheet(),
  }
}

/**
 * The fields every event has that take room to describe, as components (`EventVisibility`…)
 * that the 48 event schemas refer to instead of repeating them.
 */
const SHARED_EVENT_FIELDS = ['characterName', 'visibility', 'actor', 'unusedFaces', 'pending', 'followUps'] as const
const sharedEventFields = Object.fromEntries(
  SHARED_EVENT_FIELDS.map((field) => [field, { ...eventFields[field], $id: `Event${pascal(field)}` }]),
)
const commonEventFields = {
  ...eventFields,
  ...Object.fromEntries(Object.entries(sharedEventFields).map(([field, schema]) => [field, ref(schema)])),
}

function eventUnion(id: 'Event' | 'ListedEvent', description: string): Union {
  return {
    id,
    description,
    discriminator: 'type',
    keyword: 'oneOf',
    ...(id === 'Event' ? { shared: Object.values(sharedEventFields) } : {}),
    branches: EVENT_TYPES.map((item) => {
      const { sheetBefore, sheetAfter, ...parts } = eventParts(item)
      const listed = id === 'ListedEvent'
      return {
        value: item.entry.type,
        schema: Type.Object(
          {
            ...commonEventFields,
            ...parts,
            sheetBefore: listed ? Type.Optional(sheetBefore) : sheetBefore,
            sheetAfter: listed ? Type.Optional(sheetAfter) : sheetAfter,
          },
          {
            $id: `${listed ? 'Listed' : ''}${pascal(item.entry.type)}Event`,
            additionalProperties: false,
            description: `A \`${item.entry.type}\` event${listed ? ' in a history page (its sheets are absent with `sheets=none`)' : ''}.`,
          },
        ),
      }
    }),
  }
}

const UNIONS: Union[] = [
  ...characters,
  eventUnion('Event', 'An event of the history. One schema per event type, told apart by `type`.'),
  eventUnion(
    'ListedEvent',
    'An event in a history page: its sheets are absent when the page was read with `sheets=none`. One schema per event type, told apart by `type`.',
  ),
]

type Node = Record<string, unknown>

/** A TypeBox schema as an OpenAPI component, as @fastify/swagger writes the app's own. */
function component(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(component)
  if (typeof schema !== 'object' || schema === null) return schema
  const node = schema as Node
  if (typeof node.$ref === 'string') return { $ref: componentRef(node.$ref.split('#')[0]!) }
  const copy: Node = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === '$id') continue
    if (key === 'const') copy.enum = [value]
    else copy[key] = key === 'examples' || key === 'default' || key === 'enum' ? value : component(value)
  }
  return copy
}

const componentRef = (id: string) => `#/components/schemas/${id}`

function unionComponent(union: Union): unknown {
  const branches = union.branches.map(({ schema }) => ({ $ref: componentRef((schema as { $id: string }).$id) }))
  // A discriminator promises its property in every value: only where `ruleset` or `type` is always there.
  const discriminator = union.keyword === 'oneOf' && {
    discriminator: {
      propertyName: union.discriminator,
      mapping: Object.fromEntries(
        union.branches.map(({ value, schema }) => [value, componentRef((schema as { $id: string }).$id)]),
      ),
    },
  }
  return {
    [union.keyword]: branches,
    ...discriminator,
    description: union.description,
    ...(union.examples ? { examples: union.examples } : {}),
  }
}

/** Every event type's name, once (an action of two rule sets is one type). */
const eventTypeNames = (which: (entry: EventType) => boolean) => [
  ...new Set(EVENT_TYPES.filter(({ entry }) => which(entry)).map(({ entry }) => entry.type)),
]
const asEnum = (loose: Node, names: string[]): Node => ({ ...loose, type: 'string', enum: names })

/**
 * Fields of the webhooks' components that name event types, as enums: what a webhook may carry
 * (every type, and the test delivery's `webhook.ping`), and what an endpoint may subscribe to.
 * The server checks `eventTypes` itself, against the campaign's rule set, with a message that
 * names the types it knows, so the loose components keep them strings.
 */
const WEBHOOK_TYPE = (loose: Node) => asEnum(loose, [...eventTypeNames(() => true), 'webhook.ping'])
const SUBSCRIBABLE_TYPES = (loose: Node) => ({
  ...loose,
  items: asEnum(
    loose.items as Node,
    eventTypeNames((entry) => entry.subscribable),
  ),
})
const ENUM_FIELDS: Record<string, Record<string, (loose: Node) => Node>> = {
  WebhookPayload: { type: WEBHOOK_TYPE },
  WebhookDelivery: { eventType: WEBHOOK_TYPE },
  WebhookEndpoint: { eventTypes: SUBSCRIBABLE_TYPES },
  CreatedWebhookEndpoint: { eventTypes: SUBSCRIBABLE_TYPES },
  CreateWebhookEndpoint: { eventTypes: SUBSCRIBABLE_TYPES },
  UpdateWebhookEndpoint: { eventTypes: SUBSCRIBABLE_TYPES },
}

function withEnumFields(id: string, schema: unknown): unknown {
  const fields = ENUM_FIELDS[id]
  if (!fields) return schema
  const { properties, ...rest } = schema as Node & { properties: Record<string, Node> }
  const typed = Object.fromEntries(
    Object.entries(properties).map(([name, loose]) => [name, fields[name]?.(loose) ?? loose]),
  )
  return { ...rest, properties: typed }
}

/**
 * The document with its resources typed: each loose component replaced by its union, followed
 * by the union's branches, and the webhooks' event types as enums. For @fastify/swagger's
 * `transformObject`.
 */
export function withTypedSchemas<Document extends { components?: { schemas?: Record<string, unknown> } }>(
  document: Document,
): Document {
  const schemas = document.components?.schemas
  if (!schemas) return document
  const unions = new Map(UNIONS.map((union) => [union.id, union]))
  const typed: Record<string, unknown> = {}
  for (const [id, schema] of Object.entries(schemas)) {
    const union = unions.get(id)
    if (!union) {
      typed[id] = withEnumFields(id, schema)
      continue
    }
    for (const shared of union.shared ?? []) typed[(shared as { $id: string }).$id] = component(shared)
    typed[id] = unionComponent(union)
    for (const branch of union.branches) typed[(branch.schema as { $id: string }).$id] = component(branch.schema)
  }
  return { ...document, components: { ...document.components, schemas: typed } }
}
