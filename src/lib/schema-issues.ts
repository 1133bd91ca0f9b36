import { closest } from './did-you-mean.js'

/** One failed check, as Ajv and TypeBox both report it. */
export interface SchemaIssue {
  instancePath: string
  schemaPath: string
  keyword: string
  params: Record<string, unknown>
  message?: string
}

/** What a person reads: the field at fault, as a JSON pointer into the value checked, and why. */
export interface FieldIssue {
  path: string
  detail: string
  /** The field is missing: it is named below the object that lacks it. */
  missing?: true
}

/** What a union branch wants instead of the value: a constant, or a type when the value has another. */
type Term = { value: unknown } | { type: string }

/**
 * Says what is wrong with `value` in a person's words. A union does not answer with one
 * complaint per branch: a union of constants (or an `enum`) names the values allowed and the
 * one most likely meant; a union of objects speaks of the branch the value was meant for, or
 * of the field that tells the branches apart (a `type`) when it fits none.
 */
export function explainIssues(issues: readonly SchemaIssue[], value: unknown): FieldIssue[] {
  const unions = issues.filter((issue) => issue.keyword === 'anyOf')
  const explained: FieldIssue[] = []
  for (const issue of issues) {
    if (unions.some((union) => inUnion(union, issue))) continue
    explained.push(...(issue.keyword === 'anyOf' ? explainUnion(issue, issues, value) : explainOne(issue, value)))
  }
  const seen = new Set<string>()
  return explained.filter(({ path, detail }) => !seen.has(`${path} ${detail}`) && seen.add(`${path} ${detail}`))
}

// Ajv reports a union at its `anyOf`, TypeBox at the schema holding it; branches sit below either.
function branchPrefix(union: SchemaIssue): string {
  return union.schemaPath.endsWith('/anyOf') ? `${union.schemaPath}/` : `${union.schemaPath}/anyOf/`
}

function inUnion(union: SchemaIssue, issue: SchemaIssue): boolean {
  return (
    issue !== union &&
    issue.schemaPath.startsWith(branchPrefix(union)) &&
    (issue.instancePath === union.instancePath || issue.instancePath.startsWith(`${union.instancePath}/`))
  )
}

function branchesOf(union: SchemaIssue, issues: readonly SchemaIssue[]): SchemaIssue[][] {
  const prefix = branchPrefix(union)
  const branches = new Map<string, SchemaIssue[]>()
  for (const issue of issues.filter((issue) => inUnion(union, issue))) {
    const index = issue.schemaPath.slice(prefix.length).split('/')[0]!
    branches.set(index, [...(branches.get(index) ?? []), issue])
  }
  return [...branches.values()]
}

/** The terms of a branch that refuses the value for its type or constant alone; none when the value fits its shape. */
function termsOf(branch: SchemaIssue[], at: string): Term[] | undefined {
  const here = branch.filter((issue) => issue.instancePath === at)
  // A union within the branch is read whole, before the constants of its own branches.
  const unions = here.filter((issue) => issue.keyword === 'anyOf')
  const inner = unions.find((union) => !unions.some((outer) => inUnion(outer, union)))
  if (inner) {
    const terms = branchesOf(inner, branch).map((innerBranch) => termsOf(innerBranch, at))
    return terms.every((term) => term !== undefined) ? terms.flat() : undefined
  }
  const constant = here.find((issue) => issue.keyword === 'const')
  if (constant) return [{ value: constant.params.allowedValue }]
  const allowed: unknown = here.find((issue) => issue.keyword === 'enum')?.params.allowedValues
  if (Array.isArray(allowed)) return allowed.map((value: unknown) => ({ value }))
  const type = here.find((issue) => issue.keyword === 'type')?.params.type as string | string[] | undefined
  if (type === undefined) return undefined
  return type === 'null' ? [{ value: null }] : [{ type: String(type) }]
}

/** The property whose constant (a discriminator such as `type`) the value does not have, if that is why the branch refuses it. */
function mismatchedDiscriminator(branch: SchemaIssue[], at: string): SchemaIssue | undefined {
  const unions = branch.filter((issue) => issue.keyword === 'anyOf')
  return branch.find(
    (issue) =>
      issue.keyword === 'const' &&
      issue.instancePath.startsWith(`${at}/`) &&
      !issue.instancePath.slice(at.length + 1).includes('/') &&
      !unions.some((union) => inUnion(union, issue)),
  )
}

function explainUnion(union: SchemaIssue, issues: readonly SchemaIssue[], value: unknown): FieldIssue[] {
  const at = union.instancePath
  const branches = branchesOf(union, issues)
  const terms = branches.map((branch) => termsOf(branch, at))
  const discriminators = branches.map((branch, index) =>
    terms[index] === undefined ? mismatchedDiscriminator(branch, at) : undefined,
  )
  const meant = branches
    .filter((_, index) => terms[index] === undefined && discriminators[index] === undefined)
    .sort((a, b) => a.length - b.length)[0]
  if (meant) return explainIssues(meant, value)

  const tags = discriminators.filter((issue) => issue !== undefined)
  if (tags.length > 0 && tags.every((tag) => tag.instancePath === tags[0]!.instancePath)) {
    const path = tags[0]!.instancePath
    return [
      {
        path,
        detail: oneOf(
          tags.map((tag) => ({ value: tag.params.allowedValue })),
          valueAt(value, path),
        ),
      },
    ]
  }
  if (terms.every((term) => term !== undefined)) return [{ path: at, detail: oneOf(terms.flat(), valueAt(value, at)) }]
  return [{ path: at, detail: union.message ?? 'matches none of the allowed forms' }]
}

function explainOne(issue: SchemaIssue, value: unknown): FieldIssue[] {
  const at = issue.instancePath
  const { params } = issue
  if (issue.keyword === 'required') {
    const names = params.missingProperty ?? params.requiredProperties
    return [names].flat().map((name) => ({ path: `${at}/${token(name)}`, detail: 'is required', missing: true }))
  }
  if (issue.keyword === 'additionalProperties') {
    const names = params.additionalProperty ?? params.additionalProperties
    return [names].flat().map((name) => ({ path: `${at}/${token(name)}`, detail: 'is not a known field' }))
  }
  // TypeBox also reports each unknown field as failing the `false` schema its name meets.
  if (issue.schemaPath.endsWith('/additionalProperties')) return [{ path: at, detail: 'is not a known field' }]
  if (issue.schemaPath.endsWith('/propertyNames'))
    return [{ path: at, detail: `is not a valid name (${issue.message})` }]
  if (issue.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    return [
      {
        path: at,
        detail: oneOf(
          (params.allowedValues as unknown[]).map((allowed) => ({ value: allowed })),
          valueAt(value, at),
        ),
      },
    ]
  }
  if (issue.keyword === 'const') return [{ path: at, detail: `must be ${show(params.allowedValue)}` }]
  return [{ path: at, detail: issue.message ?? 'is invalid' }]
}

function oneOf(terms: Term[], given: unknown): string {
  const words = [...new Set(terms.map((term) => ('type' in term ? article(term.type) : show(term.value))))]
  if (words.length === 1) return `must be ${words[0]}`
  if (terms.some((term) => 'type' in term)) return `must be ${words.slice(0, -1).join(', ')} or ${words.at(-1)}`
  const strings = terms.flatMap((term) => ('value' in term && typeof term.value === 'string' ? [term.value] : []))
  const suggestion = typeof given === 'string' ? closest(given, strings) : undefined
  return `must be one of ${words.join(', ')}${suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`}`
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

function article(type: string): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`
}

/** A property name as one JSON pointer token. */
function token(name: unknown): string {
  return String(name).replace(/~/g, '~0').replace(/\//g, '~1')
}

/** The part of `value` a JSON pointer names; undefined when there is none. */
function valueAt(value: unknown, pointer: string): unknown {
  let current = value
  for (const token of pointer.split('/').slice(1)) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~')
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return current
}
