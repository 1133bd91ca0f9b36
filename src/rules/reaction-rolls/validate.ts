import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { RuleError } from '../errors.js'

/**
 * Fills defaults on a copy of `input` and checks it, throwing a RuleError that names the first
 * bad field as a JSON pointer under `root` (`/sheet`, `/request`, `/settings`).
 */
export function parseWith<T>(schema: TSchema, input: unknown, root: string, code: string): T {
  const value = Value.Default(schema, structuredClone(input ?? {}))
  const errors = Value.Errors(schema, value)
  const first = errors[0]
  if (first === undefined) return value as T
  const pointer = `${root}${first.instancePath}`
  const samePath = errors.filter((error) => error.instancePath === first.instancePath)
  const allowed = samePath
    .filter((error) => error.keyword === 'const')
    .map((error) => JSON.stringify((error.params as { allowedValue?: unknown }).allowedValue))
  const why =
    allowed.length > 0
      ? `must be one of ${allowed.join(', ')}`
      : first.schemaPath.endsWith('/additionalProperties')
        ? 'is not a known field'
        : first.schemaPath.endsWith('/propertyNames')
          ? `is not a valid name (${first.message})`
          : first.message
  throw new RuleError(code, `${pointer} ${why}`, 'invalid', pointer)
}
