import fc from 'fast-check'

/** A JSON Schema as the OpenAPI document holds it. */
export type Schema = Record<string, any>

/**
 * Stands in for a number JSON.stringify cannot write (±Infinity, -0, integers past 2^64);
 * `bodyText` puts the raw token in its place, so the server's JSON parser meets it.
 */
const RAW_NUMBER = 'fuzz-raw-number:'
const RAW_TOKENS = ['1e309', '-1e309', '1e400', '-0', '123456789012345678901234567890', '1e308', '-1e-400']

/** Numbers at the edges of what JSON, JavaScript and PostgreSQL can hold. */
const EDGE_NUMBERS = [0, -1, 1e308, -1e308, 2 ** 53 + 1, 2 ** 63, -(2 ** 63), 2 ** 31, 1e21, 0.5, 5e-324, -0]

/** Text that breaks assumptions: empty, long, right-to-left, astral, combining, NUL, look-alike digits. */
const EDGE_STRINGS = [
  '',
  ' ',
  'x'.repeat(10_000),
  '\u202e\u0645violence',
  '🎲'.repeat(300),
  'e\u0301'.repeat(50),
  '\u0000',
  '\ud800',
  '１０',
  'Ⅳ',
  '__proto__',
  'null',
  '<script>alert(1)</script>',
  "'; DROP TABLE roll_events; --",
]

/** Query and header text that JavaScript reads as numbers at or past the edges, or not quite numbers. */
export const HOSTILE_NUMBERS = [
  'Infinity',
  '-Infinity',
  '+Infinity',
  '1e309',
  '-1e309',
  '1e400',
  'NaN',
  '1e308',
  '-1e308',
  '-0',
  '0x10',
  '1.5',
  '-1',
  '0',
  '9007199254740993',
  '18446744073709551616',
  '99999999999999999999999',
  ' 1',
  '1e2',
  '',
]

/** Query, path and header text that breaks assumptions. */
export const HOSTILE_TEXT = [
  ...HOSTILE_NUMBERS,
  'true',
  '[]',
  'x'.repeat(3000),
  '%00',
  '%E0%A4%A',
  encodeURIComponent('\u202e🎲 é'),
]

const edgeValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...EDGE_NUMBERS, ...EDGE_STRINGS, null, true, false, [], {}),
  fc.constantFrom(...RAW_TOKENS).map((token) => RAW_NUMBER + token),
  fc.double(),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map((value) => RAW_NUMBER + value.toString()),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.jsonValue({ maxDepth: 2 }),
)

/** The text of a JSON body, with the raw numbers written in. */
export function bodyText(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(/"fuzz-raw-number:([^"]*)"/g, '$1')
}

/**
 * fast-check arbitraries drawn from the JSON Schemas of an OpenAPI document: values that fit a
 * schema (so requests reach the rules and the database), and values that fit it but for one
 * part made hostile (so they reach every refusal).
 */
export class SchemaValues {
  readonly #components: Record<string, Schema>
  readonly #cache = new Map<Schema, fc.Arbitrary<unknown>>()

  constructor(components: Record<string, Schema>) {
    this.#components = components
  }

  resolve(schema: Schema | undefined): Schema {
    let resolved = schema ?? {}
    while (typeof resolved.$ref === 'string') {
      const target = this.#components[resolved.$ref.split('/').pop()!]
      if (!target) throw new Error(`unknown $ref ${resolved.$ref}`)
      resolved = target
    }
    return resolved
  }

  /** Values that fit the schema. */
  valid(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
    const resolved = this.resolve(schema)
    let arbitrary = this.#cache.get(resolved)
    if (arbitrary === undefined) {
      arbitrary = this.#build(resolved, depth)
      if (depth === 0) this.#cache.set(resolved, arbitrary)
    }
    return arbitrary
  }

  /** A value that fits the schema, with one part (or the whole) replaced by an edge value, or an unknown field added. */
  hostile(schema: Schema | undefined): fc.Arbitrary<unknown> {
    return fc
      .oneof(
        { weight: 4, arbitrary: fc.tuple(this.valid(schema), fc.array(fc.nat(), { maxLength: 5 }), edgeValue) },
        { weight: 1, arbitrary: fc.tuple(fc.constant({}), fc.constant<number[]>([]), edgeValue) },
      )
      .map(([value, path, replacement]) => replaceAt(value, path, replacement))
  }

  #build(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    if ('const' in schema) return fc.constant(schema.const)
    if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum)
    const branches = schema.anyOf ?? schema.oneOf
    if (Array.isArray(branches)) return fc.oneof(...branches.map((branch: Schema) => this.valid(branch, depth + 1)))
    if (Array.isArray(schema.allOf)) return this.#build(this.#merged(schema.allOf), depth)
    if (Array.isArray(schema.type)) {
      return fc.oneof(...schema.type.map((type: string) => this.#build({ ...schema, type }, depth)))
    }
    switch (schema.type) {
      case 'string':
        return this.#string(schema)
      case 'integer':
        return fc.integer({
          min: Math.max(lowerBound(schema) ?? -1_000_000, Number.MIN_SAFE_INTEGER),
          max: Math.min(upperBound(schema) ?? 1_000_000, Number.MAX_SAFE_INTEGER),
        })
      case 'number':
        return fc.double({
          min: lowerBound(schema) ?? -1e6,
          max: upperBound(schema) ?? 1e6,
          noNaN: true,
          noDefaultInfinity: true,
        })
      case 'boolean':
        return fc.boolean()
      case 'null':
        return fc.constant(null)
      case 'array': {
        if (depth > 6) return fc.constant([])
        const minLength = Math.min(schema.minItems ?? 0, 8)
        return fc.array(this.valid(schema.items, depth + 1), {
          minLength,
          maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 3, 3)),
        })
      }
      default:
        if (schema.type === 'object' || schema.properties) return this.#object(schema, depth)
        return fc.jsonValue({ maxDepth: 2 })
    }
  }

  #string(schema: Schema): fc.Arbitrary<unknown> {
    if (schema.format === 'uuid') return fc.uuid({ version: 7 })
    if (schema.format === 'date-time') {
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((date) => date.toISOString())
    }
    if (schema.format === 'uri') return fc.webUrl()
    const minLength = schema.minLength ?? 0
    const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40))
    if (typeof schema.pattern === 'string') {
      return fc
        .stringMatching(new RegExp(schema.pattern))
        .filter((text) => text.length >= minLength && text.length <= (schema.maxLength ?? Infinity))
    }
    return fc.oneof(
      fc.string({ minLength, maxLength }),
      fc.string({ unit: 'grapheme', minLength, maxLength }),
      ...(Array.isArray(schema.examples) ? [fc.constantFrom(...schema.examples)] : []),
    )
  }

  #object(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    const properties = (schema.properties ?? {}) as Record<string, Schema>
    const names = Object.keys(properties)
    if (names.length === 0) {
      if (schema.additionalProperties === false || depth > 4) return fc.constant({})
      const values =
        typeof schema.additionalProperties === 'object'
          ? this.valid(schema.additionalProperties, depth + 1)
          : fc.jsonValue({ maxDepth: 1 })
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), values, { maxKeys: 3 })
    }
    if (depth > 6) return fc.constant({})
    const required = new Set<string>(schema.required ?? [])
    const record = Object.fromEntries(names.map((name) => [name, this.valid(properties[name], depth + 1)]))
    return fc.record(record, { requiredKeys: names.filter((name) => required.has(name)) })
  }

  #merged(schemas: Schema[]): Schema {
    const parts = schemas.map((part) => this.resolve(part))
    return {
      ...Object.assign({}, ...parts),
      properties: Object.assign({}, ...parts.map((part) => part.properties ?? {})),
      required: parts.flatMap((part) => part.required ?? []),
    }
  }
}

const lowerBound = (schema: Schema): number | undefined =>
  schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : schema.minimum

const upperBound = (schema: Schema): number | undefined =>
  schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : schema.maximum

/** The value with the leaf (or a new field) that `path` leads to replaced. */
function replaceAt(value: unknown, path: number[], replacement: unknown): unknown {
  if (value === null || typeof value !== 'object' || path.length === 0) return replacement
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value)
  const index = path[0]! % (entries.length + 1)
  const copy: any = Array.isArray(value) ? [...value] : { ...value }
  if (index === entries.length) {
    if (Array.isArray(copy)) copy.push(replacement)
    else copy[`unknownField${path.length}`] = replacement
    return copy
  }
  const [key, inner] = entries[index]!
  copy[key] = replaceAt(inner, path.slice(1), replacement)
  return copy
}
