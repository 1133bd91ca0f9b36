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
