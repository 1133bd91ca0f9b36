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
  const other = compiledOnce(externalSchemas, lenient, ajv(externalSchemas, lenient))
  return (route) => (route.httpPart === 'body' ? body(route) : other(route))
}

/**
 * fast-json-stringify checks every shared schema it is given against the JSON Schema
 * meta-schema, for every response it compiles: it is given only those the response refers to.
 */
const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const shared = (externalSchemas ?? {}) as Record<string, Schema>
  return compiledOnce(externalSchemas, options, ({ schema }: { schema?: unknown }) =>
    fastJsonStringify(schema as Schema, { ...(options as object), schema: referencedBy(schema, shared) }),
  )
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
