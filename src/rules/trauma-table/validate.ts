import type { Static, TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { RuleError } from '../errors.js'

/**
 * Fills defaults into a copy of `input` and checks it against `schema`; the first problem
 * becomes a RuleError pointing at `<root><path>` (e.g. `/request/modifier`).
 */
export function parseWith<T extends TSchema>(
  schema: T,
  input: unknown,
  root: '/request' | '/sheet' | '/settings',
  code: string,
): Static<T> {
  const value = Value.Default(schema, structuredClone(input ?? {}))
  if (Value.Check(schema, value)) return value as Static<T>
  const [first] = Value.Errors(schema, value)
  const path = first?.instancePath ?? ''
  const unknownField = first?.keyword === 'boolean' && first.schemaPath.endsWith('additionalProperties')
  const why = unknownField ? 'is not a known field' : (first?.message ?? 'does not match the schema')
  throw new RuleError(code, `${root.slice(1)}${path === '' ? '' : path}: ${why}`, 'invalid', `${root}${path}`)
}
