import createError from '@fastify/error'

/**
 * Domain errors, each with a stable code and status. The problem-details plugin turns
 * them (and every other error) into RFC 9457 responses.
 */
export const NotFoundError = createError<[string]>('NOT_FOUND', '%s', 404)
export const UnauthorizedError = createError<[string]>('UNAUTHORIZED', '%s', 401)
export const ForbiddenError = createError<[string]>('FORBIDDEN', '%s', 403)
export const ConflictError = createError<[string]>('CONFLICT', '%s', 409)
export const PreconditionFailedError = createError<[string]>('PRECONDITION_FAILED', '%s', 412)
export const UnprocessableError = createError<[string]>('UNPROCESSABLE', '%s', 422)
export const TooManyRequestsError = createError<[string]>('RATE_LIMITED', '%s', 429)
export const ServiceUnavailableError = createError<[string]>('SERVICE_UNAVAILABLE', '%s', 503)
/** The client closed the connection before its answer (nginx's 499): nobody is left to answer. */
export const ClientGoneError = createError<[string]>('CLIENT_CLOSED_REQUEST', '%s', 499)

/** One field of the request is refused; `pointer` is a JSON pointer from the request root, e.g. `/body/characterIds/0`. */
export class InvalidFieldError extends Error {
  override readonly name = 'InvalidFieldError'
  readonly statusCode = 422
  readonly code = 'INVALID_FIELD'

  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message)
  }
}

/** Why an archive was refused; each names the first line at fault. */
export type ArchiveProblem =
  /** A line is not JSON, or not a line of a version-1 Nerve archive. */
  | 'ARCHIVE_INVALID'
  /** A line comes where another was due: out of order, a sequence number skipped, more or fewer lines than counted. */
  | 'ARCHIVE_OUT_OF_ORDER'
  /** The archive stops before its end line. */
  | 'ARCHIVE_TRUNCATED'
  /** The end line's SHA-256 is not that of the lines before it. */
  | 'ARCHIVE_ALTERED'
  /** An event does not follow from the history before it: replayed through the rules, it gives another sheet or outcome. */
  | 'ARCHIVE_DOES_NOT_REPLAY'
  /** A webhook endpoint's URL is one this Nerve refuses (a private address, unless the operator allows them). */
  | 'ARCHIVE_WEBHOOK_REFUSED'

/** An archive that cannot be imported, at `line` (1 is the first) and, on an event's line, that event's `seq`. */
export class ArchiveRefusedError extends Error {
  override readonly name = 'ArchiveRefusedError'
  readonly statusCode = 422

  constructor(
    readonly code: ArchiveProblem,
    readonly line: number,
    readonly seq: number | null,
    message: string,
  ) {
    super(message)
  }
}
