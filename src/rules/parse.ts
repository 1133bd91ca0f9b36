import type { Static, TSchema } from 'typebox'
import { Compile, type Validator } from 'typebox/compile'
import { Settings } from 'typebox/system'
import { Value } from 'typebox/value'
import { explainIssues, type FieldIssue, type SchemaIssue } from '../lib/schema-issues.js'
import { cloneJson, compileDefaults, fillKeepsValid, type FillDefaults } from './defaults.js'
import { RuleError } from './errors.js'

interface Parser {
  fillDefaults: FillDefaults
  validator: Validator
  /** Filling defaults changes no value that already passes the check. */
  keepsValid: boolean
}

// Each schema is compiled once: its defaults and its check are what a valid input costs; the
// slower, interpreted error report is only built for an input that fails the check.
const parsers = new WeakMap<TSchema, Parser>()

function parserOf(schema: TSchema): Parser {
  let parser = parsers.get(schema)
  if (!parser) {
    parser = { fillDefaults: compileDefaults(schema), validator: Compile(schema), keepsValid: fillKeepsValid(schema) }
    parsers.set(schema, parser)
  }
  return parser
}

/**
 * Whether `input` is already what `parseWith` would make of it: it passes the schema, and
 * filling defaults would change nothing. Such a value needs only copying (a sheet sent back as
 * Nerve returned it, or a sheet just resolved), not the fill and check of every field.
 */
export function passesAsIs(schema: TSchema, input: unknown): boolean {
  const { validator, keepsValid } = parserOf(schema)
  return keepsValid && validator.Check(input)
}

/**
 * Fills the schema's defaults on a copy of `input` and checks it. The first problem becomes
 * a RuleError that names the field as a JSON pointer under `root` (e.g. `/request/rank`)
 * and says why in plain words. Unlike TypeBox's `Value.Default`, which silently drops fields
 * named `__proto__`, `constructor` or `prototype` under a union, such a field is refused like
 * any other unknown field.
 */
export function parseWith<T extends TSchema>(
  schema: T,
  input: unknown,
  root: '/request' | '/sheet' | '/settings',
  code: string,
): Static<T> {
  if (passesAsIs(schema, input)) return cloneJson(input) as Static<T>
  const { fillDefaults, validator } = parserOf(schema)
  const value = fillDefaults(cloneJson(input ?? {}))
  if (validator.Check(value)) return value as Static<T>
  const first = deepest(explainIssues(allErrors(schema, value), value))
  if (first === undefined) return value
  const pointer = `${root}${first.path}`
  throw new RuleError(code, `${pointer.slice(1)} ${first.detail}`, 'invalid', pointer)
}

/** Every error, not TypeBox's first few: a union's allowed values are read from the errors of all its branches. */
function allErrors(schema: TSchema, value: unknown): SchemaIssue[] {
  const { maxErrors } = Settings.Get()
  Settings.Set({ maxErrors: Number.MAX_SAFE_INTEGER })
  try {
    return Value.Errors(schema, value)
  } finally {
    Settings.Set({ maxErrors })
  }
}

// Errors come outermost first, with summaries at the parents; the deepest names the field. A
// missing field counts as deep as the object lacking it: a wrong value inside is the likelier fault.
function deepest(issues: FieldIssue[]): FieldIssue | undefined {
  const level = (issue: FieldIssue) => depth(issue.path) - (issue.missing ? 1 : 0)
  return [...issues].sort((a, b) => level(b) - level(a))[0]
}

function depth(path: string): number {
  return path === '' ? 0 : path.split('/').length
}
