import type { TSchema, Static } from 'typebox'
import { Value } from 'typebox/value'
import { RuleError } from '../errors.js'

interface SchemaError {
  instancePath: string
  schemaPath: string
  keyword: string
  message: string
  params?: { requiredProperties?: string[] }
}

/**
 * Fills the schema's defaults on a copy of `input` and checks it; the first problem becomes a
 * RuleError pointing at the field (e.g. `/request/rank`), in plain words.
 */
export function readWithSchema<T extends TSchema>(
  schema: T,
  input: unknown,
  root: '/request' | '/sheet' | '/settings',
  code: string,
): Static<T> {
  const value = Value.Default(schema, structuredClone(input ?? {}))
  if (Value.Check(schema, value)) return value as Static<T>
  const errors = [...Value.Errors(schema, value)] as SchemaError[]
  const first = pickError(errors)
  const missing = first?.keyword === 'required' ? first.params?.requiredProperties?.[0] : undefined
  const where = `${first?.instancePath ?? ''}${missing === undefined ? '' : `/${missing}`}`
  const unknownField = first !== undefined && first.schemaPath.endsWith('additionalProperties')
  const message =
    missing !== undefined
      ? 'is required'
      : unknownField
        ? 'is not a known field'
        : (first?.message ?? 'does not match the schema')
  throw new RuleError(code, `${root.slice(1)}${where || ''} ${message}`, 'invalid', `${root}${where}`)
}

// Ajv-style errors come outermost first and include a summary "must not have additional
// properties" at the parent; the deepest one names the field at fault.
function pickError(errors: SchemaError[]): SchemaError | undefined {
  return [...errors].sort((a, b) => depth(b.instancePath) - depth(a.instancePath))[0]
}

function depth(path: string): number {
  return path === '' ? 0 : path.split('/').length
}
