import AjvCompiler from '@fastify/ajv-compiler'
import fastJsonStringify, { type Schema } from 'fast-json-stringify'
import type { FastifyServerOptions } from 'fastify'
import { createHash } from 'node:crypto'

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>
type ValidatorFactory = NonNullable<CompilersFactory['buildValidator']>
type SerializerFactory = NonNullable<CompilersFactory['buildSerializer']>

/**
 * Defaults sit inside records (sheet meters, abilities), where Ajv cannot apply them and its
 * strict schema mode would refuse the schema; the rules layer fills those itself.
 */
const AJV_OPTIONS = { removeAdditional: false, useDefaults: true, allErrors: true, strictSchema: false } as const

const ajv = AjvCompiler()

/**
 * Compiling a route's schema checks every shared schema again, and most routes validate and
 * answer with the same few (the problem details above all): each distinct schema is compiled
 * once per process for the same shared schemas and options, and the compiled function is
 * shared by every route and every app built (tests build hundreds). Compiled validators and
 * serializers keep no state between calls.
 */
function compiledOnce<Route extends { schema?: unknown }, Compiled>(
  externalSchemas: unknown,
  options: unknown,
  build: (route: Route) => Compiled,
): (route: Route) => Compiled {
  // Fastify hands every app its own copies of the shared schemas: they are told apart by content.
  const context = createHash('sha1')
    .update(JSON.stringify([externalSchemas ?? null, options ?? null]))
    .digest('base64')
  return (route) => {
    const key = context + JSON.stringify(route.schema)
    let compiled = cache.get(key) as Compiled | undefined
    if (compiled === undefined) cache.set(key, (compiled = build(route)))
    return compiled
  }
}
const cache = new Map<string, unknown>()

/**
 * Bodies are validated strictly (no type coercion, unknown fields refused) so a typo is an
 * error, not a silently ignored field; path and query strings need coercion from text.
 */
const buildValidator: ValidatorFactory = (externalSchemas) => {
  const strict = { customOptions: { ...AJV_OPTIONS, coerceTypes: false } }
  const lenient = { customOptions: { ...AJV_OPTIONS, coerceTypes: 'array' as const } }
  const body = compiledOnce(externalSchemas, strict, ajv(externalSchemas, strict))
  const coercing = ajv(externalSchemas, lenient)
  const other = compiledOnce(externalSchemas, lenient, (route: Parameters<typeof coercing>[0]) =>
    finiteOnly(coercing(route), route.schema),
  )
  return (route) => (route.httpPart === 'body' ? body(route) : other(route))
}

type Validate = ReturnType<ReturnType<ValidatorFactory>>
interface Issue {
  instancePath: string
  schemaPath: string
  keyword: string
  params: Record<string, unknown>
  message: string
}

/**
 * Ajv checks that a number is finite before coercing text, not after: `1e309`, `-1e309` and
 * `Infinity` become ±Infinity, pass `type: integer` and skip `minimum`/`maximum`, which only
 * look at finite numbers. Text cannot carry a number any other way, so a path, query or header
 * value that is not finite after coercion is refused here, once for every route, as the bad
 * value it is (NaN never gets this far: Ajv refuses it).
 */
function finiteOnly(validate: Validate, schema: unknown): Validate {
  const checked = ((data: unknown) => {
    const valid = validate(data)
    if (valid !== true) {
      checked.errors = validate.errors
      return valid
    }
    const issues = nonFiniteNumbers(data, schema)
    checked.errors = issues.length > 0 ? (issues as typeof validate.errors) : null
    return issues.length === 0
  }) as Validate
  return checked
}

function nonFiniteNumbers(data: unknown, schema: unknown): Issue[] {
  if (typeof data !== 'object' || data === null) return []
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {}
  const issues: Issue[] = []
  for (const [name, value] of Object.entries(data)) {
    const values: unknown[] = Array.isArray(value) ? value : [value]
    if (values.every((item) => typeof item !== 'number' || Number.isFinite(item))) continue
    const type = properties[name]?.type === 'integer' ? 'integer' : 'number'
    issues.push({
      instancePath: `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
      schemaPath: `#/properties/${name}/type`,
      keyword: 'type',
      params: { type },
      message: `must be a finite ${type}`,
    })
  }
  return issues
}

/**
 * fast-json-stringify checks every shared schema it is given against the JSON Schema
 * meta-schema, for every response it compiles: it is given only those the response refers to.
 */
const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const shared = (externalSchemas ?? {}) as Record<string, Schema>
  return compiledOnce(externalSchemas, options, ({ schema }: { schema?: unknown }) => {
    const referenced = Object.fromEntries(
      Object.entries(referencedBy(schema, shared)).map(([id, one]) => [id, forSerializing(one) as Schema]),
    )
    return fastJsonStringify(forSerializing(schema) as Schema, { ...(options as object), schema: referenced })
  })
}

type SchemaNode = Record<string, unknown>

/** Keywords whose values are data, not schemas. */
const DATA_KEYWORDS = new Set(['const', 'default', 'enum', 'examples'])
const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null'])
const COMBINATORS = ['$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'if']

const isSchemaNode = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** An object of any properties (`FreeObject`): a sheet, a request, an outcome. */
const isFreeObject = (node: SchemaNode) =>
  node.type === 'object' &&
  node.additionalProperties === true &&
  (node.properties === undefined || (isSchemaNode(node.properties) && Object.keys(node.properties).length === 0)) &&
  !['patternProperties', 'required', 'minProperties', 'maxProperties'].some((key) => key in node)

const isAny = (node: SchemaNode) => !COMBINATORS.some((key) => key in node) && node.type === undefined

/**
 * A response schema as fast-json-stringify is given it, for the same JSON with less work per
 * answer. It serialises a union by running an Ajv check of each branch until one matches (a
 * command's answer has a dozen nullable fields), and an object of any properties key by key,
 * each value through `JSON.stringify`. Here a union of plain types (a nullable value, a choice of
 * literals) becomes a list of types, told apart by `typeof`, and an object of any properties is
 * written by one `JSON.stringify`: every answer the schema allows comes out byte for byte the
 * same. Answers are not validated by their serialiser: what the server sends is checked where it
 * is made, and the contract tests hold every answer to the document. The served OpenAPI document
 * is built from the routes' own schemas, which this copy leaves as they are.
 */
export function forSerializing(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forSerializing)
  if (!isSchemaNode(schema)) return schema
  const node: SchemaNode = {}
  for (const [key, value] of Object.entries(schema)) node[key] = DATA_KEYWORDS.has(key) ? value : forSerializing(value)
  if (isFreeObject(node)) return {}
  return Array.isArray(node.anyOf) ? plainUnion(node, node.anyOf as unknown[]) : node
}

/** A union of plain types as one schema with a list of types, or the union as it is. */
function plainUnion(node: SchemaNode, branches: unknown[]): SchemaNode {
  if (!branches.every(isSchemaNode)) return node
  const { anyOf: _branches, ...siblings } = node
  if (COMBINATORS.some((key) => key in siblings)) return node
  const valued = branches.filter((branch) => branch.type !== 'null')
  if (valued.some(isAny)) return valued.length === 1 ? {} : node
  const plain = branches.every((branch) => !COMBINATORS.some((key) => key in branch) && typeof branch.type === 'string')
  if (!plain) return node
  const types = [...new Set(branches.map((branch) => branch.type as string))]
  if (valued.length === 1) return { ...siblings, ...valued[0], type: types }
  // Several values of plain types (literals): only their types decide how each is written.
  const scalar = valued.every((branch) => SCALAR_TYPES.has(branch.type as string) && branch.format === undefined)
  return scalar ? { ...siblings, type: types } : node
}

/** The shared schemas a schema refers to (`"$ref": "Problem#"`), and those they refer to in turn. */
function referencedBy(schema: unknown, shared: Record<string, Schema>): Record<string, Schema> {
  const found: Record<string, Schema> = {}
  const pending: unknown[] = [schema]
  while (pending.length > 0) {
    const node = pending.pop()
    if (typeof node !== 'object' || node === null) continue
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const id = value.split('#')[0] ?? ''
        const target = shared[id]
        if (target && !(id in found)) {
          found[id] = target
          pending.push(target)
        }
      } else pending.push(value)
    }
  }
  return found
}

export const schemaCompilers: CompilersFactory = { buildValidator, buildSerializer }
