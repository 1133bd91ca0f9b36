import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { STATUS_CODES } from 'node:http'
import { InvalidFieldError } from '../../errors.js'
import { RuleError } from '../../rules/errors.js'
import { PROBLEM_CONTENT_TYPE, type Problem } from '../../schemas/problem.js'

type FieldError = NonNullable<Problem['errors']>[number]

interface ValidationIssue {
  instancePath: string
  message?: string
  keyword: string
  params: Record<string, unknown>
}

const PROBLEM_TYPE_PREFIX = 'urn:nerve:problem:'

/** Body content that breaks the schema is unprocessable (422); a bad path, query or header is a bad request (400). */
function validationStatus(context: string | undefined): number {
  return context === 'body' ? 422 : 400
}

function fieldErrors(context: string, issues: readonly ValidationIssue[]): FieldError[] {
  return issues.map((issue) => {
    let pointer = `/${context}${issue.instancePath}`
    let detail = issue.message ?? 'is invalid'
    if (issue.keyword === 'required') {
      pointer += `/${String(issue.params.missingProperty)}`
      detail = 'is required'
    } else if (issue.keyword === 'additionalProperties') {
      pointer += `/${String(issue.params.additionalProperty)}`
      detail = 'is not a known field'
    } else if (issue.keyword === 'enum' && Array.isArray(issue.params.allowedValues)) {
      detail = `must be one of ${issue.params.allowedValues.join(', ')}`
    }
    return { pointer, detail }
  })
}

function kebab(code: string): string {
  return code
    .replace(/^FST_ERR_/, '')
    .toLowerCase()
    .replace(/_/g, '-')
}

export function problemFor(error: FastifyError | RuleError | InvalidFieldError, request: FastifyRequest): Problem {
  const base = { instance: request.url, requestId: String(request.id) }

  if ('validation' in error && Array.isArray(error.validation)) {
    const context = error.validationContext ?? 'body'
    const errors = fieldErrors(context, error.validation as ValidationIssue[])
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

  const status = error.statusCode ?? 500
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
    detail: error.message,
    code: error.code ?? 'ERROR',
  }
}

export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem)
}

/** One place turns every error, and every unknown route, into problem details. */
export default fp(
  async function problemDetails(app: FastifyInstance) {
    app.setErrorHandler(function (error: FastifyError, request, reply) {
      const problem = problemFor(error, request)
      if (problem.status >= 500) request.log.error({ err: error }, 'request failed')
      else request.log.info({ code: problem.code, status: problem.status }, problem.detail)
      return sendProblem(reply, problem)
    })

    app.setNotFoundHandler(function (request, reply) {
      return sendProblem(reply, {
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: `No route ${request.method} ${request.url.split('?')[0]}. The API is described at /docs.`,
        instance: request.url,
        code: 'ROUTE_NOT_FOUND',
        requestId: String(request.id),
      })
    })
  },
  { name: 'problem-details' },
)
