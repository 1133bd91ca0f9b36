import fc from 'fast-check'
import t from 'tap'
import Type, { type TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { Settings } from 'typebox/system'
import { Value } from 'typebox/value'
import { explainIssues, type FieldIssue } from '../../src/lib/schema-issues.js'
import { cloneJson, compileDefaults, fillKeepsValid } from '../../src/rules/defaults.js'
import { DiceRequestSchema } from '../../src/rules/dice.js'
import { RuleError } from '../../src/rules/errors.js'
import { RULE_SETS } from '../../src/rules/index.js'
import { resolveChecked } from './resolve-checked.js'
import { parseWith, passesAsIs } from '../../src/rules/parse.js'
import { exampleSheets } from '../../src/rules/shock-meters/index.js'
import { ShockMetersSheetSchema } from '../../src/rules/shock-meters/sheet-schema.js'
import { TraumaResponseRequestSchema } from '../../src/rules/trauma-table/schemas.js'

// The compiled defaults and the parse shortcut stand in for TypeBox's interpreted walk on every
// request; these properties pin them to it over every schema the rule sets publish.

const RUNS = 300
const CODE = 'TEST_INVALID'

type Root = '/request' | '/sheet' | '/settings'
type Json = Record<string, unknown>

interface Case {
  label: string
  schema: TSchema
  root: Root
  /** Values to start from: the schema's examples, example sheets, and sheets as Nerve returns them. */
  seeds: unknown[]
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null
const examplesOf = (schema: TSchema): unknown[] => (schema as { examples?: unknown[] }).examples ?? []
const idOf = (schema: TSchema): string => (schema as { $id?: string }).$id ?? 'schema'
const show = (value: unknown): string => JSON.stringify(value) ?? String(value)

function normalised(normalize: (input: unknown) => unknown, inputs: unknown[]): unknown[] {
  return inputs.flatMap((input) => {
    try {
      return [normalize(structuredClone(input))]
    } catch {
      return []
    }
  })
}

function casesOf(): Case[] {
  const cases: Case[] = []
  const requests = new Map<TSchema, Case>()
  for (const ruleSet of RULE_SETS) {
    const sheets = [
      {},
      ...examplesOf(ruleSet.sheet),
      ...ruleSet.actions.flatMap((action) => (action.exampleSheet === undefined ? [] : [action.exampleSheet])),
      ...(ruleSet.id === 'shock-meters' ? Object.values(exampleSheets) : []),
    ]
    cases.push({
      label: idOf(ruleSet.sheet),
      schema: ruleSet.sheet,
      root: '/sheet',
      seeds: [...sheets, ...normalised((sheet) => ruleSet.normalizeSheet(sheet), sheets)],
    })
    const settings = [{}, ...examplesOf(ruleSet.settings)]
    cases.push({
      label: idOf(ruleSet.settings),
      schema: ruleSet.settings,
      root: '/settings',
      seeds: [...settings, ...normalised((input) => ruleSet.normalizeSettings(input), settings)],
    })
    for (const action of ruleSet.actions) {
      if (requests.has(action.request)) continue
      requests.set(action.request, {
        label: idOf(action.request),
        schema: action.request,
        root: '/request',
        seeds: [{}, ...examplesOf(action.request)],
      })
    }
  }
  cases.push(...requests.values())
  cases.push({
    label: idOf(DiceRequestSchema),
    schema: DiceRequestSchema,
    root: '/request',
    seeds: [{}, ...examplesOf(DiceRequestSchema), { source: 'provided', faces: [1, 100] }],
  })
  return cases
}

// ---------------------------------------------------------------- comparing values

/** The same JSON data: own keys and values alike, wherever the objects' prototypes differ. */
function sameJson(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (!isObject(a) || !isObject(b) || Array.isArray(a) !== Array.isArray(b)) return false
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
}

function objectsIn(value: unknown, found = new Set<object>()): Set<object> {
  if (!isObject(value) || found.has(value)) return found
  found.add(value)
  for (const key of Object.keys(value)) objectsIn(value[key], found)
  return found
}

/** The first object or array of `value` that is also one of `others`, as a path. */
function sharedPath(value: unknown, others: Set<object>, path = ''): string | undefined {
  if (!isObject(value)) return undefined
  if (others.has(value)) return path || '/'
  for (const key of Object.keys(value)) {
    const shared = sharedPath(value[key], others, `${path}/${key}`)
    if (shared !== undefined) return shared
  }
  return undefined
}

function expectSame(actual: unknown, expected: unknown, what: string): void {
  if (!sameJson(actual, expected)) throw new Error(`${what}: got ${show(actual)}, expected ${show(expected)}`)
}

// ---------------------------------------------------------------- inputs

interface Keywords {
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  minItems?: number
  maxItems?: number
  minProperties?: number
  maxProperties?: number
}

/** Values the schema accepts, as far as its own keywords say; optional properties come and go. */
function valueOf(schema: TSchema): fc.Arbitrary<unknown> {
  const keywords = schema as TSchema & Keywords
  if (Type.IsUnion(schema)) return fc.oneof(...schema.anyOf.map(valueOf))
  if (Type.IsLiteral(schema)) return fc.constant(schema.const)
  if (Type.IsInteger(schema)) return fc.integer({ min: keywords.minimum ?? -1000, max: keywords.maximum ?? 1000 })
  if (Type.IsNumber(schema)) {
    return fc.double({ min: keywords.minimum ?? -1000, max: keywords.maximum ?? 1000, noNaN: true })
  }
  if (Type.IsString(schema)) {
    const minLength = keywords.minLength ?? 0
    const maxLength = keywords.maxLength ?? Infinity
    if (keywords.pattern !== undefined) {
      return fc
        .stringMatching(new RegExp(keywords.pattern))
        .filter((text) => text.length >= minLength && text.length <= maxLength)
    }
    return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(maxLength, 12)) })
  }
  if (Type.IsBoolean(schema)) return fc.boolean()
  if (Type.IsNull(schema)) return fc.constant(null)
  if (Type.IsArray(schema)) {
    const minLength = keywords.minItems ?? 0
    return fc.array(valueOf(schema.items), {
      minLength,
      maxLength: Math.max(minLength, Math.min(keywords.maxItems ?? 4, 4)),
    })
  }
  if (Type.IsObject(schema)) {
    const properties = schema.properties as Record<string, TSchema>
    const keys = Object.keys(properties)
    return fc.record(Object.fromEntries(keys.map((key) => [key, valueOf(properties[key]!)])), {
      requiredKeys: keys.filter((key) => !Type.IsOptional(properties[key])),
    })
  }
  if (Type.IsRecord(schema)) {
    const record = schema
    const minKeys = keywords.minProperties ?? 0
    const entry: TSchema = Type.RecordValue(record)
    return fc.dictionary(fc.stringMatching(new RegExp(Type.RecordPattern(record))), valueOf(entry), {
      minKeys,
      maxKeys: Math.max(minKeys, Math.min(keywords.maxProperties ?? 4, 4)),
      noNullPrototype: true,
    })
  }
  return fc.jsonValue({ maxDepth: 2 })
}

/** Every property name the schema mentions: extra fields with these names land where defaults live. */
function propertyNamesOf(schema: unknown, names = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const part of schema) propertyNamesOf(part, names)
  else if (isObject(schema)) {
    if (isObject(schema.properties)) for (const name of Object.keys(schema.properties)) names.add(name)
    for (const part of Object.values(schema)) propertyNamesOf(part, names)
  }
  return names
}

interface Mutation {
  op: 'delete' | 'null' | 'replace' | 'move' | 'extra' | 'empty'
  at: number
  from: number
  key: string
  value: unknown
}

interface Slot {
  parent: Json | unknown[]
  key: string
}

function slotsOf(value: unknown, slots: Slot[] = []): Slot[] {
  if (!isObject(value)) return slots
  for (const key of Object.keys(value)) {
    slots.push({ parent: value, key })
    slotsOf(value[key], slots)
  }
  return slots
}

function containersOf(value: unknown, containers: (Json | unknown[])[] = []): (Json | unknown[])[] {
  if (!isObject(value)) return containers
  containers.push(value)
  for (const key of Object.keys(value)) containersOf(value[key], containers)
  return containers
}

const read = (slot: Slot): unknown => (slot.parent as Json)[slot.key]

// A plain assignment to `__proto__` would set the prototype rather than add the field.
function put(parent: Json | unknown[], key: string, value: unknown): void {
  Object.defineProperty(parent, key, { value, enumerable: true, writable: true, configurable: true })
}

function emptied(value: unknown): unknown {
  if (Array.isArray(value)) return []
  if (isObject(value)) return {}
  return typeof value === 'string' ? '' : 0
}

/** A copy of `seed` with fields deleted, nulled, given wrong types, added, emptied or moved elsewhere. */
function mutate(seed: unknown, mutations: Mutation[]): unknown {
  let root = structuredClone(seed)
  for (const mutation of mutations) {
    const value = structuredClone(mutation.value)
    if (mutation.op === 'extra') {
      const containers = containersOf(root)
      const target = containers[mutation.at % Math.max(containers.length, 1)]
      if (target === undefined) root = value
      else if (Array.isArray(target)) target.push(value)
      else put(target, mutation.key, value)
      continue
    }
    const slots = slotsOf(root)
    const slot = slots[mutation.at % Math.max(slots.length, 1)]
    if (slot === undefined) {
      root = mutation.op === 'null' ? null : value
      continue
    }
    const { parent, key } = slot
    if (mutation.op === 'delete') {
      if (Array.isArray(parent)) parent.splice(Number(key), 1)
      else delete parent[key]
    } else if (mutation.op === 'null') put(parent, key, null)
    else if (mutation.op === 'replace') put(parent, key, value)
    else if (mutation.op === 'empty') put(parent, key, emptied(read(slot)))
    else put(parent, key, structuredClone(read(slots[mutation.from % slots.length]!)))
  }
  return root
}

const unsafeKeys = ['__proto__', 'constructor', 'prototype']

/** Whether a field named like an Object.prototype member sits anywhere below the top level. */
function hasUnsafeKeyBelowTop(value: unknown): boolean {
  if (!isObject(value)) return false
  return Object.keys(value).some((key) => {
    const part = value[key]
    return (
      isObject(part) && (Object.keys(part).some((inner) => unsafeKeys.includes(inner)) || hasUnsafeKeyBelowTop(part))
    )
  })
}

const wrongValue = fc.oneof(
  fc.constantFrom<unknown>(null, 0, -1, 1.5, 101, '', 'x', true, false, [], {}),
  fc.jsonValue({ maxDepth: 2 }),
)

function arbitrariesOf({ schema, seeds }: Case) {
  const keys = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('extra', 'agility', ...propertyNamesOf(schema)) },
    { weight: 2, arbitrary: fc.string({ maxLength: 6 }) },
    // JSON.parse makes these own fields, which a copy must keep as such.
    { weight: 1, arbitrary: fc.constantFrom(...unsafeKeys) },
  )
  const mutation: fc.Arbitrary<Mutation> = fc.record({
    op: fc.constantFrom('delete', 'null', 'replace', 'move', 'extra', 'empty'),
    at: fc.nat(),
    from: fc.nat(),
    key: keys,
    value: wrongValue,
  })
  const start = fc.oneof(fc.constantFrom(...seeds), valueOf(schema))
  const mutated = fc
    .tuple(start, fc.array(mutation, { minLength: 1, maxLength: 4 }))
    .map(([seed, mutations]) => mutate(seed, mutations))
  return {
    /**
     * Valid values, near-valid ones, and any JSON at all; none with an unsafe field below the
     * top level, where a union may meet it (see the todo test at the end).
     */
    inputs: fc
      .oneof(
        { weight: 3, arbitrary: start },
        { weight: 8, arbitrary: mutated },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
        { weight: 1, arbitrary: fc.dictionary(keys, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }) },
        { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null) },
      )
      .filter((input) => !hasUnsafeKeyBelowTop(input)),
    /** Mostly values that pass: generated from the schema, seeds, and mutations with their defaults filled. */
    passing: fc.oneof(
      { weight: 3, arbitrary: start },
      { weight: 2, arbitrary: mutated.map((value) => Value.Default(schema, structuredClone(value))) },
    ),
  }
}

// ---------------------------------------------------------------- the interpreted pipeline

type Parsed = { value: unknown } | { error: { code: string; pointer: string | undefined } }

const depth = (path: string): number => (path === '' ? 0 : path.split('/').length)

/**
 * What parseWith was before anything was compiled: TypeBox's walk and check, then every error
 * explained, and the first of the deepest (a missing field as deep as the object lacking it).
 */
function interpreted(schema: TSchema, input: unknown, root: Root): Parsed {
  const value = Value.Default(schema, structuredClone(input ?? {}))
  if (Value.Check(schema, value)) return { value }
  const { maxErrors } = Settings.Get()
  Settings.Set({ maxErrors: Number.MAX_SAFE_INTEGER })
  const issues = explainIssues(Value.Errors(schema, value), value)
  Settings.Set({ maxErrors })
  if (issues.length === 0) return { value }
  const level = (issue: FieldIssue) => depth(issue.path) - (issue.missing ? 1 : 0)
  const first = issues.reduce((deepest, issue) => (level(issue) > level(deepest) ? issue : deepest))
  return { error: { code: CODE, pointer: `${root}${first.path}` } }
}

function parsed(schema: TSchema, input: unknown, root: Root): Parsed {
  try {
    return { value: parseWith(schema, input, root, CODE) }
  } catch (error) {
    if (!(error instanceof RuleError)) throw error
    if (error.kind !== 'invalid') throw new Error(`parseWith threw a ${error.kind} error`, { cause: error })
    if (!error.message.startsWith(`${error.pointer?.slice(1)} `)) {
      throw new Error(`the message "${error.message}" does not start with the field ${error.pointer}`, { cause: error })
    }
    return { error: { code: error.code, pointer: error.pointer } }
  }
}

// ---------------------------------------------------------------- the properties

for (const testCase of casesOf()) {
  const { label, schema, root } = testCase
  const { inputs, passing } = arbitrariesOf(testCase)

  t.test(
    `compileDefaults(${label}) fills a value in place exactly as Value.Default does, copying the schema's defaults`,
    async (t) => {
      const fill = compileDefaults(schema)
      const schemaText = JSON.stringify(schema)
      const schemaObjects = objectsIn(schema)
      fc.assert(
        fc.property(inputs, (input) => {
          const expectedInput = structuredClone(input)
          const expected = Value.Default(schema, expectedInput)
          const actualInput = structuredClone(input)
          const actual = fill(actualInput)
          expectSame(actual, expected, 'the filled value')
          expectSame(actualInput, expectedInput, 'the input after filling in place')
          if (isObject(input) && Type.IsObject(schema) && actual !== actualInput) {
            throw new Error('an object is not filled in place')
          }
          const shared = sharedPath(actual, schemaObjects)
          if (shared !== undefined) throw new Error(`the filled value shares ${shared} with the schema's defaults`)
        }),
        { numRuns: RUNS },
      )
      t.equal(JSON.stringify(schema), schemaText, 'the schema, its defaults included, is unchanged')
    },
  )

  t.test(`fillKeepsValid(${label}): where it holds, filling defaults changes no value that passes`, async (t) => {
    if (!fillKeepsValid(schema)) {
      t.pass(`fillKeepsValid is false for ${label}: nothing is claimed`)
      return
    }
    const fill = compileDefaults(schema)
    const validator = Compile(schema)
    let passed = 0
    fc.assert(
      fc.property(passing, (value) => {
        if (!validator.Check(value)) return
        passed++
        expectSame(fill(structuredClone(value)), value, 'a passing value after filling')
      }),
      { numRuns: RUNS },
    )
    t.ok(passed >= RUNS / 4, `${passed} of ${RUNS} generated values passed the check, so the property was tried`)
  })

  t.test(`parseWith(${label}) gives what Value.Default, Value.Check and the deepest error give`, async (t) => {
    const schemaObjects = objectsIn(schema)
    let errors = 0
    fc.assert(
      fc.property(inputs, (original) => {
        const input = structuredClone(original)
        const expected = interpreted(schema, input, root)
        const actual = parsed(schema, input, root)
        expectSame(input, original, 'the input after parsing (parseWith works on a copy)')
        if ('error' in expected) {
          errors++
          if (!('error' in actual)) throw new Error(`accepted ${show(actual.value)}; expected ${show(expected.error)}`)
          expectSame(actual.error, expected.error, 'the error')
          return
        }
        if (!('value' in actual))
          throw new Error(`refused with ${show(actual.error)}; expected ${show(expected.value)}`)
        expectSame(actual.value, expected.value, 'the parsed value')
        const shared = sharedPath(actual.value, objectsIn(input, new Set(schemaObjects)))
        if (shared !== undefined) throw new Error(`the parsed value shares ${shared} with the input or the schema`)
      }),
      { numRuns: RUNS },
    )
    t.ok(errors > 0 && errors < RUNS, `both outcomes were tried: ${errors} of ${RUNS} inputs refused`)
  })

  t.test(`passesAsIs(${label}): a value it lets through is already what parseWith would make of it`, async (t) => {
    let through = 0
    fc.assert(
      fc.property(fc.oneof(passing, inputs), (original) => {
        const input = structuredClone(original)
        if (!passesAsIs(schema, input)) return
        through++
        expectSame(input, original, 'the input after passesAsIs')
        const expected = interpreted(schema, input, root)
        if (!('value' in expected)) throw new Error(`let through, but refused with ${show(expected.error)}`)
        expectSame(input, expected.value, 'a value let through, against the interpreted parse')
        expectSame(parseWith(schema, input, root, CODE), input, 'a value let through, against parseWith')
      }),
      { numRuns: RUNS },
    )
    t.ok(through > 0 || !fillKeepsValid(schema), `${through} of ${RUNS} values were let through`)
  })
}

// A sheet that passes as it is is no longer copied on its way into the rules: the rules and
// everything after them must leave it as it was, and give what they gave on a copy.
for (const ruleSet of RULE_SETS) {
  const sheetCase = casesOf().find((testCase) => testCase.schema === ruleSet.sheet)!
  const { passing } = arbitrariesOf(sheetCase)
  const settings = ruleSet.normalizeSettings({})
  const rolls = ruleSet.actions.flatMap((action) => examplesOf(action.request).map((request) => ({ action, request })))

  t.test(
    `${ruleSet.id}: a valid sheet taken without a copy is left unchanged by the rules, which give what they gave on a copy`,
    async (t) => {
      let taken = 0
      fc.assert(
        fc.property(
          passing,
          fc.nat(),
          fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 100 })),
          (original, pick, face) => {
            const input = structuredClone(original)
            const outcome = (sheet: unknown) => {
              try {
                const normalized = ruleSet.normalizeSheet(sheet, settings)
                const { action, request } = rolls[pick % rolls.length]!
                const dice = { source: 'provided' as const, faces: Array.from({ length: 12 }, () => face) }
                const { sheet: after, outcome } = resolveChecked(ruleSet, action, { sheet: normalized, request, dice })
                return { normalized, after, outcome }
              } catch (error) {
                if (error instanceof RuleError) return { refused: error.code }
                throw error
              }
            }
            const onCopy = outcome(cloneJson(input))
            if (passesAsIs(ruleSet.sheet, input)) taken++
            const asTaken = outcome(input)
            expectSame(input, original, 'the sheet sent, after normalising and resolving on it')
            expectSame(asTaken, onCopy, 'the sheet normalised and resolved, against the same on a copy')
          },
        ),
        { numRuns: RUNS },
      )
      t.ok(taken > 0, `${taken} of ${RUNS} sheets were taken as they are`)
    },
  )
}

// TypeBox tries a union's branches on its own Clone of the value, and Clone leaves out fields
// named `__proto__`, `constructor` or `prototype`: Value.Default silently drops them from any
// value under a union. Nerve does not: such a field is an unknown field like any other, and
// unknown fields are refused with a pointer to them. The shared inputs above leave these names
// out below the top level for that reason; this test pins the difference.
t.test(
  'a field named __proto__, constructor or prototype under a union is refused as unknown, not dropped',
  async (t) => {
    const sheet = { passions: { fear: { text: 'Dark', prototype: [] } } }
    t.same(
      (compileDefaults(ShockMetersSheetSchema)(structuredClone(sheet)) as typeof sheet).passions.fear.prototype,
      [],
      'filling defaults keeps the field (Value.Default would drop it)',
    )
    for (const key of unsafeKeys) {
      const request = JSON.parse(`{"response":{"ability":"Not Today!","${key}":{}}}`)
      const refusal = (() => {
        try {
          parseWith(TraumaResponseRequestSchema, request, '/request', 'REQUEST_INVALID')
          return null
        } catch (error) {
          return error
        }
      })()
      t.ok(refusal instanceof RuleError, `parseWith refuses a ${key} field`)
      t.equal((refusal as RuleError).pointer, `/request/response/${key}`, `pointing at /request/response/${key}`)
    }
  },
)
