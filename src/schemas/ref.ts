import Type, { type Static, type TSchema } from 'typebox'
import { PROBLEM_CONTENT_TYPE, type Problem } from './problem.js'

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

const REQUEST_ID = '0193b5c2-7d4e-7a51-9c3f-2e8d6b1a4f70'

/**
 * Problems that come from a request's form rather than its content, which any client may meet.
 * The OpenAPI document holds each once, under `components.examples`; responses refer to them.
 */
export const PROBLEM_EXAMPLES = {
  InvalidJson: {
    summary: 'The body is not valid JSON',
    value: {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: "Body is not valid JSON but content-type is set to 'application/json'",
      instance: '/v1/campaigns',
      code: 'FST_ERR_CTP_INVALID_JSON_BODY',
      requestId: REQUEST_ID,
    },
  },
  BadPathParameter: {
    summary: 'A path parameter is not a UUID',
    value: {
      type: 'urn:nerve:problem:validation-failed',
      title: 'Request validation failed',
      status: 400,
      detail: '/params/keyId must match format "uuid"',
      instance: '/v1/campaigns/0193b5c2-6f10-7c2e-8a4b-5d9e3f1c2b80/keys/not-a-key-id',
      code: 'VALIDATION_FAILED',
      requestId: REQUEST_ID,
      errors: [{ pointer: '/params/keyId', detail: 'must match format "uuid"' }],
    },
  },
  NotJson: {
    summary: 'The body was sent as text/plain',
    value: {
      type: 'about:blank',
      title: 'Unsupported Media Type',
      status: 415,
      detail: 'Send the body as application/json, not text/plain.',
      instance: '/v1/campaigns',
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
      requestId: REQUEST_ID,
    },
  },
} satisfies Record<string, { summary: string; value: Problem }>

type ProblemExampleName = keyof typeof PROBLEM_EXAMPLES

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

const STATUS_EXAMPLES: Partial<Record<number, ProblemExampleName[]>> = {
  400: ['InvalidJson', 'BadPathParameter'],
  415: ['NotJson'],
}

const PROBLEM_DESCRIPTIONS = {
  400: 'The request is malformed: invalid JSON, or a bad path or query parameter.',
  401: 'No key, or an unknown or revoked key.',
  403: 'The key may not do this (a player key asking for a GM action, or for another player’s character).',
  404: 'Not found — or not in the campaign this key belongs to.',
  409: 'The current state does not allow this now (a decision is pending, an event is not the latest, a request with the same Idempotency-Key is in flight…).',
  412: 'If-Match names a version that is no longer current.',
  422: 'A field is invalid, or the rules do not allow this request.',
  415: 'The body is not `application/json`, the only type Nerve reads.',
  413: 'The body is larger than the server accepts (`BODY_LIMIT_BYTES`, 256 KiB by default).',
  429: 'Too many requests from this key (or, without a key, this address): wait the seconds `Retry-After` gives.',
  503: 'The service is overloaded or its database is unavailable: retry after the seconds `Retry-After` gives.',
} as const

/** The documented error responses of a route, by status. */
export function problems(...statuses: (keyof typeof PROBLEM_DESCRIPTIONS)[]) {
  return Object.fromEntries(
    statuses.map((status) => [status, problem(PROBLEM_DESCRIPTIONS[status], STATUS_EXAMPLES[status])]),
  ) as Record<(typeof statuses)[number], ReturnType<typeof problem>>
}
