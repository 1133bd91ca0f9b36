import Type, { type Static, type TSchema } from 'typebox'
import { PROBLEM_CONTENT_TYPE } from './problem.js'

/**
 * Refers to a schema registered with `app.addSchema`, keeping its static type. The OpenAPI
 * document then names it as a component (its `$id`) instead of repeating it inline.
 */
export function ref<T extends TSchema>(schema: T, options: { description?: string } = {}) {
  const id = (schema as { $id?: string }).$id
  if (!id) throw new Error('ref() needs a schema with an $id')
  return Type.Unsafe<Static<T>>({ $ref: `${id}#`, ...options })
}

/** An error response for a route schema: documented as problem+json with why it happens. */
export function problem(description: string) {
  return {
    description,
    content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: 'Problem#' } } },
  } as const
}

const PROBLEM_DESCRIPTIONS = {
  400: 'The request is malformed: invalid JSON, or a bad path or query parameter.',
  401: 'No key, or an unknown or revoked key.',
  403: 'The key may not do this (a player key asking for a GM action, or for another player’s character).',
  404: 'Not found — or not in the campaign this key belongs to.',
  409: 'The current state does not allow this now (a decision is pending, an event is not the latest, a request with the same Idempotency-Key is in flight…).',
  412: 'If-Match names a version that is no longer current.',
  422: 'A field is invalid, or the rules do not allow this request.',
  413: 'The body is larger than the server accepts (`BODY_LIMIT_BYTES`, 256 KiB by default).',
  429: 'Too many requests from this key (or, without a key, this address): wait the seconds `Retry-After` gives.',
  503: 'The service is overloaded or its database is unavailable: retry after the seconds `Retry-After` gives.',
} as const

/** The documented error responses of a route, by status. */
export function problems(...statuses: (keyof typeof PROBLEM_DESCRIPTIONS)[]) {
  return Object.fromEntries(statuses.map((status) => [status, problem(PROBLEM_DESCRIPTIONS[status])])) as Record<
    (typeof statuses)[number],
    ReturnType<typeof problem>
  >
}
