import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { STATUS_CODES } from 'node:http'
import { isDatabaseUnavailable } from '../../db/unavailable.js'
import { ArchiveRefusedError, InvalidFieldError } from '../../errors.js'
import { explainIssues, type SchemaIssue } from '../../lib/schema-issues.js'
import { DiceNeededError } from '../../rules/dice.js'
import { RuleError } from '../../rules/errors.js'
import { PROBLEM_CONTENT_TYPE, type Problem } from '../../schemas/problem.js'
import { problems, withProblemExamples } from '../../schemas/ref.js'

type FieldError = NonNullable<Problem['errors']>[number]

const PROBLEM_TYPE_PREFIX = 'urn:nerve:problem:'

/** Body content that breaks the schema is unprocessable (422); a bad path, query or header is a bad request (400). */
function validationStatus(context: string | undefined): number {
  return context === 'body' ? 422 : 400
}

/** What was checked in each validation context: the errors' pointers lead into it. */
function checkedPart(request: FastifyRequest, context: string): unknown {
  if (context === 'querystring') return request.query
  if (context === 'params') return request.params
  if (context === 'headers') return request.headers
  return request.body
}

function fieldErrors(request: FastifyRequest, context: string, issues: readonly SchemaIssue[]): FieldError[] {
  return explainIssues(issues, checkedPart(request, context)).map(({ path, detail }) => ({
    pointer: `/${context}${path}`,
    detail,
  }))
}

function kebab(code: string): string {
  return code
    .replace(/^FST_ERR_/, '')
    .toLowerCase()
    .replace(/_/g, '-')
}

/** The body types a route reads: JSON, unless its schema `consumes` others (an archive's NDJSON, a merge patch). */
function acceptedMediaTypes(request: FastifyRequest): string {
  const { consumes } = (request.routeOptions.schema ?? {}) as { consumes?: string[] }
  return consumes?.join(' or ') ?? 'application/json'
}

function unsupportedMediaType(request: FastifyRequest): string {
  const sent = request.headers['content-type']
  return `Send the body as ${acceptedMediaTypes(request)}${sent ? `, not ${sent}` : ' (no Content-Type was given)'}.`
}

/**
 * Paths the router cannot read, which Fastify answers 400 or 414 before any route is found: no
 * id or name can be in them, so they name nothing, as an unknown path does (404), a status every
 * operation with a path parameter documents.
 */
const UNREADABLE_PATHS: Record<string, string> = {
  FST_ERR_BAD_URL: 'a path segment is not valid percent-encoded UTF-8',
  FST_ERR_MAX_PARAM_LENGTH: 'a path segment is longer than any id or name (100 characters)',
}

export function problemFor(
  error: FastifyError | RuleError | InvalidFieldError | ArchiveRefusedError,
  request: FastifyRequest,
): Problem {
  const base = { instance: request.url, requestId: String(request.id) }

  if ('validation' in error && Array.isArray(error.validation)) {
    const context = error.validationContext ?? 'body'
    const errors = fieldErrors(request, context, error.validation)
    return {
      ...base,
      type: `${PROBLEM_TYPE_PREFIX}validation-failed`,
      title: 'Request validation failed',
      status: validationStatus(context),
      detail: errors.map((field) => `${field.pointer} ${field.detail}`).join('; '),
      code: 'VALIDATION_FAILED',
      errors,
    }
  }

  if (error instanceof RuleError) {
    const status = error.kind === 'conflict' ? 409 : 422
    return {
      ...base,
      type: `${PROBLEM_TYPE_PREFIX}${kebab(error.code)}`,
      title: error.kind === 'conflict' ? 'The sheet does not allow this now' : 'The rules do not allow this request',
      status,
      detail: error.message,
      code: error.code,
      ...(error.pointer ? { errors: [{ pointer: `/body${error.pointer}`, detail: error.message }] } : {}),
      ...(error instanceof DiceNeededError ? { needed: error.needed, facesProvided: error.facesProvided } : {}),
    }
  }

  if (error instanceof InvalidFieldError) {
    return {
      ...base,
      type: `${PROBLEM_TYPE_PREFIX}invalid-field`,
      title: 'Request validation failed',
      status: 422,
      detail: `${error.pointer} ${error.message}`,
      code: error.code,
      errors: [{ pointer: error.pointer, detail: error.message }],
    }
  }

  if (error instanceof ArchiveRefusedError) {
    return {
      ...base,
      type: `${PROBLEM_TYPE_PREFIX}${kebab(error.code)}`,
      title: 'The archive cannot be imported',
      status: 422,
      detail: `line ${error.line}${error.seq === null ? '' : ` (seq ${error.seq})`}: ${error.message}`,
      code: error.code,
      line: error.line,
      seq: error.seq,
    }
  }

  const unreadablePath = UNREADABLE_PATHS[error.code ?? '']
  if (unreadablePath !== undefined) {
    const path = request.url.split('?')[0] ?? ''
    return {
      ...base,
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: `No route ${request.method} ${path.length > 200 ? `${path.slice(0, 200)}…` : path}: ${unreadablePath}. The API is described at /docs.`,
      code: 'ROUTE_NOT_FOUND',
    }
  }

  const status = error.statusCode ?? 500
  if (status >= 500 && isDatabaseUnavailable(error)) {
    return {
      ...base,
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: 'The database is unavailable right now; retry shortly.',
      code: 'DATABASE_UNAVAILABLE',
    }
  }
  if (status >= 500) {
    return {
      ...base,
      type: 'about:blank',
      title: STATUS_CODES[status] ?? 'Internal Server Error',
      status,
      detail:
        status === 503
          ? // Only our own 503s carry a message written for clients; anything else may hold internals.
            error.code === 'SERVICE_UNAVAILABLE'
            ? error.message
            : 'The service cannot answer right now; retry shortly.'
          : `Something went wrong on our side. Quote request id ${base.requestId} when reporting it.`,
      code: status === 503 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_ERROR',
    }
  }

  return {
    ...base,
    type: error.code?.startsWith('FST_') ? 'about:blank' : `${PROBLEM_TYPE_PREFIX}${kebab(error.code ?? 'error')}`,
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail: error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? unsupportedMediaType(request) : error.message,
    code: error.code ?? 'ERROR',
  }
}

export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem)
}

/** Seconds a client is asked to wait after a 503 that did not say (a database outage). */
const DATABASE_RETRY_AFTER_SECONDS = 2

/** Fastify reads the body of these whenever a Content-Type is sent, whether the route wants one or not. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Every documented route may also answer 400, 413 and 415 (when its method carries a body: it
 * may be malformed JSON, too large, or not JSON), 429 (unless exempt from rate limiting) and
 * 503 (unless exempt from load shedding): the contract says so once, here, whatever the limits
 * are set to.
 */
function documentLimits(route: RouteOptions): void {
  const schema = route.schema as
    { hide?: boolean; response?: Record<string, unknown>; operationId?: string; headers?: unknown } | undefined
  if (!schema?.response || schema.hide) return
  const methods = Array.isArray(route.method) ? route.method : [route.method]
  const statuses: (400 | 413 | 415 | 429 | 503)[] = []
  if (methods.some((method) => BODY_METHODS.has(method))) statuses.push(400, 413, 415)
  if (route.config?.rateLimit !== false) statuses.push(429)
  if (route.config?.loadShedding !== false) statuses.push(503)
  const response: Record<string, unknown> = { ...schema.response }
  for (const [status, documented] of Object.entries(problems(...statuses))) response[status] ??= documented
  const headers = (schema.headers as { properties?: Record<string, unknown> } | undefined)?.properties
  schema.response = withProblemExamples(
    {
      url: route.url,
      operationId: schema.operationId ?? '',
      access: route.config?.access,
      hasBody: methods.some((method) => BODY_METHODS.has(method)),
      idempotent: headers !== undefined && 'idempotency-key' in headers,
    },
    response,
  )
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

/** A route's path as the router matches it: `:name` is one path segment, `*` the rest. */
function pathPattern(url: string): RegExp {
  const source = url
    .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    .replace(/:[^/]+/g, '[^/]+')
    .replace(/\*/g, '.*')
  return new RegExp(`^${source}$`)
}

/** The methods each registered path answers, so a known path asked with another method is 405, not 404. */
class RouteMethods {
  readonly #paths = new Map<string, { pattern: RegExp; methods: Set<string> }>()

  add(route: RouteOptions): void {
    // The CORS preflight's catch-all `OPTIONS *` says nothing about which paths exist.
    if (route.url === '*') return
    const known = this.#paths.get(route.url) ?? { pattern: pathPattern(route.url), methods: new Set<string>() }
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      known.methods.add(method)
      if (method === 'GET') known.methods.add('HEAD')
    }
    this.#paths.set(route.url, known)
  }

  /** Every method some route on this path answers, in a stable order; empty for an unknown path. */
  allowed(path: string): string[] {
    const methods = new Set<string>()
    for (const { pattern, methods: answered } of this.#paths.values()) {
      if (pattern.test(path)) for (const method of answered) methods.add(method)
    }
    return METHOD_ORDER.filter((method) => methods.has(method))
  }
}

/** One place turns every error, and every unknown route, into problem details. */
export default fp(
  async function problemDetails(app: FastifyInstance) {
    const routes = new RouteMethods()
    app.addHook('onRoute', documentLimits)
    app.addHook('onRoute', (route) => routes.add(route))

    app.setErrorHandler(function (error: FastifyError, request, reply) {
      const problem = problemFor(error, request)
      if (problem.code === 'DATABASE_UNAVAILABLE') {
        request.log.warn({ err: error }, 'database unavailable')
        if (!reply.hasHeader('retry-after')) reply.header('retry-after', DATABASE_RETRY_AFTER_SECONDS)
      } else if (problem.status >= 500) request.log.error({ err: error }, 'request failed')
      else request.log.info({ code: problem.code, status: problem.status }, problem.detail)
      return sendProblem(reply, problem)
    })

    app.setNotFoundHandler(function (request, reply) {
      const path = request.url.split('?')[0] ?? ''
      // OPTIONS keeps its 404: answering it is a matter for CORS, not for this handler.
      const allowed = request.method === 'OPTIONS' ? [] : routes.allowed(path)
      if (allowed.length > 0 && !allowed.includes(request.method)) {
        reply.header('allow', allowed.join(', '))
        return sendProblem(reply, {
          type: 'about:blank',
          title: 'Method Not Allowed',
          status: 405,
          detail: `${path} answers ${allowed.join(', ')}, not ${request.method}. The API is described at /docs.`,
          instance: request.url,
          code: 'METHOD_NOT_ALLOWED',
          requestId: String(request.id),
        })
      }
      return sendProblem(reply, {
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: `No route ${request.method} ${path}. The API is described at /docs.`,
        instance: request.url,
        code: 'ROUTE_NOT_FOUND',
        requestId: String(request.id),
      })
    })
  },
  { name: 'problem-details' },
)
