/**
 * A request the rules cannot carry out. `invalid` means the request itself breaks a rule
 * (answered 422); `conflict` means the sheet's current state forbids it, for example a
 * decision still pending (answered 409).
 */
export type RuleErrorKind = 'invalid' | 'conflict'

export class RuleError extends Error {
  override readonly name = 'RuleError'

  constructor(
    readonly code: string,
    message: string,
    readonly kind: RuleErrorKind = 'invalid',
    /** JSON pointer into the request (e.g. `/request/meter`), when one field is at fault. */
    readonly pointer?: string,
  ) {
    super(message)
  }
}

/**
 * The entry of a sheet's list the request names (`/request/<field>`), by its name. A name the
 * sheet does not have is the request's mistake: 422 `code`, pointing at that field.
 */
export function namedOnSheet<T extends { name: string | null }>(
  list: readonly T[],
  field: string,
  name: string,
  code: string,
): T {
  const found = list.find((entry) => entry.name === name)
  if (found === undefined)
    throw new RuleError(code, `request/${field} "${name}" is not on the sheet`, 'invalid', `/request/${field}`)
  return found
}
