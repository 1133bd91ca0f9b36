import type { TSchema } from 'typebox'
import { cloneJson, compileDefaults } from '../rules/defaults.js'

type SchemaNode = Record<string, unknown>

const isNode = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * A copy of a schema for the OpenAPI document in which every `default` is the whole value the
 * rules fill in (`{}` for a meter becomes `{ "hardened": 1, "failed": 0 }`), so each default is
 * valid against its own schema, as a client generator or a linter expects.
 */
function withWholeDefaults(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withWholeDefaults)
  if (!isNode(schema)) return schema
  const copy: SchemaNode = {}
  for (const [key, value] of Object.entries(schema)) {
    copy[key] =
      key === 'default' || key === 'examples' || key === 'const' || key === 'enum'
        ? cloneJson(value)
        : withWholeDefaults(value)
  }
  if (Object.hasOwn(schema, 'default')) copy.default = compileDefaults(schema)(undefined)
  return copy
}

/** Required properties that a caller may still leave out: those with a default, and derived (read-only) ones. */
function relaxRequired(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(relaxRequired)
  if (!isNode(schema)) return schema
  const copy: SchemaNode = {}
  for (const [key, value] of Object.entries(schema)) {
    copy[key] =
      key === 'default' || key === 'examples' || key === 'const' || key === 'enum' ? value : relaxRequired(value)
  }
  if (Array.isArray(schema.required) && isNode(schema.properties)) {
    const properties = schema.properties
    copy.required = schema.required.filter((name: string) => {
      const property = properties[name]
      return !isNode(property) || !(Object.hasOwn(property, 'default') || property.readOnly === true)
    })
    if ((copy.required as string[]).length === 0) delete copy.required
  }
  return copy
}

const documented = new WeakMap<TSchema, TSchema>()
const inputs = new WeakMap<TSchema, TSchema>()

/** A rule set's sheet schema as the OpenAPI document shows it: the same schema, each default whole. */
export function sheetSchema<T extends TSchema>(sheet: T): T {
  let schema = documented.get(sheet)
  if (!schema) {
    schema = withWholeDefaults(sheet) as TSchema
    documented.set(sheet, schema)
  }
  return schema as T
}

/**
 * The sheet a caller may send: what the rules accept, not what they answer. A property with a
 * default may be left out (it is filled in), and so may a derived one (it is recomputed), so
 * `{}` is a new character's sheet. Typed as the sheet itself, which is what the rules make of it.
 */
export function sheetInputSchema<T extends TSchema>(sheet: T): T {
  let schema = inputs.get(sheet)
  if (!schema) {
    const id = (sheet as { $id?: string }).$id
    schema = {
      ...(relaxRequired(sheetSchema(sheet)) as SchemaNode),
      $id: `${id}Input`,
      description: `${(sheet as { description?: string }).description ?? 'The character’s sheet.'} As sent: anything with a default may be left out (it is filled in), and derived, read-only values may be left out (they are recomputed), so \`{}\` is a new character’s sheet.`,
    }
    inputs.set(sheet, schema)
  }
  return schema as T
}
