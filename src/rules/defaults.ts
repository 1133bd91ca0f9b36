import Type, { type TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { Value } from 'typebox/value'

/** Fills a value's missing defaults in place and returns it (or the default itself, for a missing value). */
export type FillDefaults = (value: unknown) => unknown

const unchanged: FillDefaults = (value) => value

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

const isSchemaObject = (value: unknown): value is TSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * A deep copy of a JSON-like value (what request bodies and stored sheets are): plain
 * objects and arrays are copied, everything else is shared. Several times faster than
 * `structuredClone`, which serialises.
 */
export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return (value as unknown[]).map(cloneJson) as T
  const prototype: unknown = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return value
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    const item = cloneJson((value as Record<string, unknown>)[key])
    // Assigning `__proto__` would set the copy's prototype instead of copying the field.
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true })
    else copy[key] = item
  }
  return copy as T
}

/** Whether a `default` appears anywhere in the schema: where none does, filling defaults changes nothing. */
function hasDefaults(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(hasDefaults)
  if (!isObject(schema)) return false
  return Object.hasOwn(schema, 'default') || Object.values(schema).some(hasDefaults)
}

/**
 * TypeBox's `Value.Default`, compiled once per schema: the same rules, walked without
 * re-inspecting the schema on every call, skipping every part that has no default, and with
 * a union's branches told apart by compiled checks instead of the interpreted `Value.Check`
 * (which made filling a sheet's defaults cost more than resolving a roll).
 */
export function compileDefaults(schema: TSchema): FillDefaults {
  if (!hasDefaults(schema)) return unchanged
  const own = ownDefault(schema)
  const inner = structure(schema)
  return own === unchanged ? inner : inner === unchanged ? own : (value) => inner(own(value))
}

function ownDefault(schema: TSchema): FillDefaults {
  if (!Object.hasOwn(schema, 'default')) return unchanged
  const fallback = (schema as { default: unknown }).default
  return (value) =>
    value !== undefined ? value : typeof fallback === 'function' ? (fallback as () => unknown)() : cloneJson(fallback)
}

function structure(schema: TSchema): FillDefaults {
  if (Type.IsArray(schema)) return arrayDefaults(schema.items)
  // Kinds the rules do not use: TypeBox's own walk, unchanged.
  if (Type.IsCyclic(schema) || Type.IsIntersect(schema) || Type.IsRef(schema) || Type.IsTuple(schema))
    return (value) => Value.Default(schema, value)
  if (Type.IsObject(schema)) return objectDefaults(schema)
  if (Type.IsRecord(schema)) return recordDefaults(schema)
  if (Type.IsUnion(schema)) return unionDefaults(schema.anyOf)
  return unchanged
}

function arrayDefaults(items: TSchema): FillDefaults {
  const item = compileDefaults(items)
  if (item === unchanged) return unchanged
  return (value) => {
    if (!Array.isArray(value)) return value
    const items: unknown[] = value
    for (let i = 0; i < items.length; i++) items[i] = item(items[i])
    return items
  }
}

function objectDefaults(
  schema: TSchema & { properties: Record<string, TSchema>; additionalProperties?: unknown },
): FillDefaults {
  const known = Object.getOwnPropertyNames(schema.properties)
  const properties = known
    .map((key) => {
      const property = schema.properties[key]!
      return {
        key,
        fill: compileDefaults(property),
        // A missing optional property, or one without a default of its own, stays missing.
        keepsUndefined: Type.IsOptional(property) || !Object.hasOwn(property, 'default'),
      }
    })
    .filter((property) => property.fill !== unchanged)
  const additional = isSchemaObject(schema.additionalProperties)
    ? compileDefaults(schema.additionalProperties)
    : unchanged
  if (properties.length === 0 && additional === unchanged) return unchanged
  return (value) => {
    if (!isObject(value)) return value
    for (const { key, fill, keepsUndefined } of properties) {
      const filled = fill(value[key])
      if (filled === undefined && keepsUndefined) continue
      value[key] = filled
    }
    if (additional !== unchanged) {
      for (const key of Object.getOwnPropertyNames(value)) if (!known.includes(key)) value[key] = additional(value[key])
    }
    return value
  }
}

function recordDefaults(schema: TSchema): FillDefaults {
  const record = schema as Parameters<typeof Type.RecordPattern>[0]
  const pattern = new RegExp(Type.RecordPattern(record))
  const entrySchema: TSchema = Type.RecordValue(record)
  // As in TypeBox, entries are only filled when the entry schema itself has a default.
  const entry = Object.hasOwn(entrySchema, 'default') ? compileDefaults(entrySchema) : unchanged
  const additionalSchema = (schema as { additionalProperties?: unknown }).additionalProperties
  const additional = isSchemaObject(additionalSchema) ? compileDefaults(additionalSchema) : unchanged
  if (entry === unchanged && additional === unchanged) return unchanged
  return (value) => {
    if (!isObject(value)) return value
    for (const key of Object.getOwnPropertyNames(value)) {
      const fill = pattern.test(key) ? entry : additional
      if (fill !== unchanged) value[key] = fill(value[key])
    }
    return value
  }
}

/** The first branch whose defaults make the value valid wins; none → the value as it was. */
function unionDefaults(branches: TSchema[]): FillDefaults {
  const compiled = branches.map((branch) => ({ fill: compileDefaults(branch), check: Compile(branch) }))
  return (value) => {
    for (const { fill, check } of compiled) {
      const result = fill === unchanged ? value : fill(cloneJson(value))
      if (check.Check(result)) return result
    }
    return value
  }
}

/** The JSON types a schema's values may have; `undefined` when the schema does not say. */
function jsonTypes(schema: TSchema): Set<string> | undefined {
  if (Type.IsObject(schema) || Type.IsRecord(schema)) return new Set(['object'])
  if (Type.IsArray(schema) || Type.IsTuple(schema)) return new Set(['array'])
  if (Type.IsNull(schema)) return new Set(['null'])
  if (Type.IsString(schema)) return new Set(['string'])
  if (Type.IsNumber(schema) || Type.IsInteger(schema)) return new Set(['number'])
  if (Type.IsBoolean(schema)) return new Set(['boolean'])
  if (Type.IsLiteral(schema)) return new Set([typeof schema.const])
  if (Type.IsUnion(schema)) {
    const types = new Set<string>()
    for (const branch of schema.anyOf) {
      const branchTypes = jsonTypes(branch)
      if (branchTypes === undefined) return undefined
      for (const type of branchTypes) types.add(type)
    }
    return types
  }
  return undefined
}

function overlap(a: Set<string> | undefined, b: Set<string> | undefined): boolean {
  return a === undefined || b === undefined || [...a].some((type) => b.has(type))
}

/**
 * Whether filling the schema's defaults leaves every value that already passes the schema as
 * it is, so that such a value can skip the fill. It does unless an optional property has a
 * default somewhere (a passing value may leave it out, and the fill adds it), a kind is filled
 * by TypeBox's own walk, or a union branch with defaults comes before another branch taking
 * the same JSON type (the fill could turn a value of the later branch into the earlier one).
 */
export function fillKeepsValid(schema: TSchema): boolean {
  if (!hasDefaults(schema)) return true
  if (Type.IsCyclic(schema) || Type.IsIntersect(schema) || Type.IsRef(schema) || Type.IsTuple(schema)) return false
  if (Type.IsArray(schema)) return fillKeepsValid(schema.items)
  if (Type.IsObject(schema)) {
    const properties = Object.values(schema.properties as Record<string, TSchema>)
    if (properties.some((property) => Type.IsOptional(property) && hasDefaults(property))) return false
    if (!properties.every(fillKeepsValid)) return false
    const additional = (schema as { additionalProperties?: unknown }).additionalProperties
    return !isSchemaObject(additional) || fillKeepsValid(additional)
  }
  if (Type.IsRecord(schema)) {
    const additional = (schema as { additionalProperties?: unknown }).additionalProperties
    const entry: TSchema = Type.RecordValue(schema)
    return fillKeepsValid(entry) && (!isSchemaObject(additional) || fillKeepsValid(additional))
  }
  if (Type.IsUnion(schema)) {
    const branches = schema.anyOf
    if (!branches.every(fillKeepsValid)) return false
    return branches.every(
      (branch, i) =>
        !hasDefaults(branch) || branches.slice(i + 1).every((later) => !overlap(jsonTypes(branch), jsonTypes(later))),
    )
  }
  // Any other kind has at most a default of its own, which only fills a missing value.
  return true
}
