import Type, { type Static, type TSchema } from 'typebox'
import { PROBLEM_CONTENT_TYPE } from './problem.js'
import { PROBLEM_EXAMPLES, problemExamplesFor, type ProblemExampleName, type ProblemRoute } from './problem-examples.js'

/**
 * Refers to a schema registered with `app.addSchema`, keeping its static type. The OpenAPI
 * document then names it as a component (its `$id`) instead of repeating it inline.
 */
export function ref<T extends TSchema>(
  schema: T,
  options: { description?: string; headers?: Record<string, { type: 'string'; description: string }> } = {},
) {
  const id = (schema as { $id?: string }).$id
  if (!id) throw new Error('ref() needs a schema with an $id')
  return Type.Unsafe<Static<T>>({ $ref: `${id}#`, ...options })
}

/**
 * A 201 response: the body `schema`, and a `Location` header with the URL of what was created
 * (`what`). Commands that record an event also say whether the answer was replayed.
 */
export function created<T extends TSchema>(
  schema: T,
  description: string,
  what: string,
  { replayable = false }: { replayable?: boolean } = {},
) {
  return ref(schema, {
    description,
    headers: {
      Location: { type: 'string', description: `The URL of ${what}.` },
      ...(replayable
        ? {
            'Idempotent-Replayed': {
              type: 'string',
              description:
                '`true` when this is the first answer again, for a retry with the same `Idempotency-Key`; `false` otherwise.',
            },
          }
        : {}),
    },
  })
}

export { PROBLEM_EXAMPLES }

/** An error response for a route schema: documented as problem+json with why it happens. */
export function problem(description: string, examples: ProblemExampleName[] = []) {
  const media = { schema: { $ref: 'Problem#' } }
  return {
    description,
    content: {
      [PROBLEM_CONTENT_TYPE]:
        examples.length === 0
          ? media
          : {
              ...media,
              examples: Object.fromEntries(examples.map((name) => [name, { $ref: `#/components/examples/${name}` }])),
            },
    },
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
  415: 'The body is not of a type this operation reads: `application/json`, or another its request body lists.',
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

/**
 * A route's error responses, each with the examples of the problems this operation meets at
 * that status (see problem-examples.ts), so Swagger UI shows a 404 as a 404 of this route.
 * Responses that name their own examples keep them.
 */
export function withProblemExamples(route: ProblemRoute, responses: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {}
  for (const [status, response] of Object.entries(responses)) {
    const media = (response as { content?: Record<string, { examples?: unknown }> }).content?.[PROBLEM_CONTENT_TYPE]
    const names = media && !media.examples ? problemExamplesFor(route, Number(status)) : []
    result[status] =
      names.length === 0
        ? response
        : {
            ...(response as object),
            content: {
              [PROBLEM_CONTENT_TYPE]: {
                ...media,
                examples: Object.fromEntries(names.map((name) => [name, { $ref: `#/components/examples/${name}` }])),
              },
            },
          }
  }
  return result
}
