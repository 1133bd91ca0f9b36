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
