import { performance } from 'node:perf_hooks'
import { Agent, type Dispatcher } from 'undici'
import { guardedLookup, refusedLiteralHost } from './address-guard.js'

export interface WebhookRequest {
  url: string
  headers: Record<string, string>
  body: string
  timeoutMs: number
  allowPrivate: boolean
}

/** What one attempt came to; it is recorded as it is. */
export interface AttemptOutcome {
  statusCode: number | null
  latencyMs: number
  /** Why the attempt did not succeed, when the status alone does not say. */
  error: string | null
  responseExcerpt: string | null
  /** From `Retry-After` on a 429 or 503. */
  retryAfterMs: number | null
}

/**
 * The keep-alive connection pools webhooks are sent through (undici agents, which cost a
 * delivery about a third of the CPU of node:http's client). The address guard runs when a
 * connection is made, so a pooled connection may only serve requests under the policy it was
 * checked with: one agent per `allowPrivate` value, and per timeout, which is also the agent's
 * connect timeout (an attempt that ended drops its half-made connection then).
 */
export interface Agents {
  /** The agent for requests under this policy, made when first needed. */
  agent(allowPrivate: boolean, timeoutMs: number): Agent
  /** Closes every connection for good; an attempt made after this ends as an outcome that says so. */
  close(): Promise<void>
}

/** Enough of the answer to show the developer what their endpoint said. */
const EXCERPT_LENGTH = 1_000
/** At most this much of an answer is read; the rest is dropped with its connection. */
const READ_AT_MOST = EXCERPT_LENGTH * 4

export function createAgents(): Agents {
  const agents = new Map<string, Agent>()
  let closed = false
  return {
    agent(allowPrivate, timeoutMs) {
      if (closed) throw new Error('the webhook agents are closed')
      const key = `${allowPrivate}:${timeoutMs}`
      let agent = agents.get(key)
      if (!agent) {
        agent = new Agent({
          connect: { lookup: guardedLookup(allowPrivate), timeout: timeoutMs },
          // The attempt's own timer is the only other deadline (see postWebhook).
          headersTimeout: 0,
          bodyTimeout: 0,
        })
        agents.set(key, agent)
      }
      return agent
    },
    async close() {
      closed = true
      const closing = [...agents.values()]
      agents.clear()
      await Promise.all(closing.map((agent) => agent.destroy()))
    },
  }
}

export function isSuccess(outcome: AttemptOutcome): boolean {
  return outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300
}

/** `Retry-After` is either seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (value === undefined || value.trim() === '') return null
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}

/** The first value of a response header undici may give as a list. */
function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

function describeError(error: NodeJS.ErrnoException, timeoutMs: number): string {
  switch (error.code) {
    case 'ERR_WEBHOOK_ADDRESS_REFUSED':
      return `refused: ${error.message}`
    case 'ECONNREFUSED':
      return 'connection refused'
    case 'ECONNRESET':
      return 'connection reset by the endpoint'
    // undici's words for a connection the endpoint closed before it answered (node:http's "socket hang up").
    case 'UND_ERR_SOCKET':
      return error.message === 'other side closed' || error.message === 'closed'
        ? 'connection reset by the endpoint'
        : error.message
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host not found (${error.code})`
    // The agent's connect timeout is the attempt's: the attempt's timer normally ends it first.
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `no answer within ${timeoutMs} ms`
    default:
      return error.message || String(error.code ?? error)
  }
}

/** Ends an attempt that is over on undici's side too; the connection is not reused. */
class AttemptOver extends Error {
  override readonly name = 'AttemptOver'
}

/**
 * POSTs one signed webhook. Never follows redirects (a redirect could lead anywhere, including
 * past the address guard), gives up after the timeout, and never throws: every way an attempt
 * can end is an outcome to record.
 */
export function postWebhook(request: WebhookRequest, agents: Agents): Promise<AttemptOutcome> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const url = new URL(request.url)
  // Credentials in a URL are refused when an endpoint is stored; one stored before that is never
  // sent as Basic auth (the request is made of the origin and path, which never carry them).
  url.username = ''
  url.password = ''
  const refused = refusedLiteralHost(url, request.allowPrivate)
  if (refused) {
    return Promise.resolve({
      statusCode: null,
      latencyMs: 0,
      error: `refused: ${refused}`,
      responseExcerpt: null,
      retryAfterMs: null,
    })
  }

  return new Promise((resolve) => {
    let settled = false
    let statusCode: number | null = null
    let retryAfterMs: number | null = null
    let redirect: string | null = null
    const chunks: Buffer[] = []
    let received = 0
    let controller: Dispatcher.DispatchController | undefined

    const finish = (error: string | null) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      const text = Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_LENGTH)
      resolve({
        statusCode,
        latencyMs: elapsed(),
        error: error ?? (redirect === null ? null : `redirect to ${redirect} not followed`),
        responseExcerpt: text === '' ? null : text,
        retryAfterMs,
      })
    }
    /** Stops the request where it is; a request not yet on a connection is stopped when it gets one. */
    const abandon = (why: string) => {
      if (controller && !controller.aborted) controller.abort(new AttemptOver(why))
    }

    const timer = setTimeout(() => {
      // An answer whose status arrived in time counts; only its body was slow.
      finish(statusCode === null ? `no answer within ${request.timeoutMs} ms` : null)
      abandon('timed out')
    }, request.timeoutMs)

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started
        if (settled) abandon('timed out before a connection was made')
      },
      onResponseStart(_controller, status, headers) {
        // 1xx answers are interim; node:http never showed them either.
        if (status < 200) return
        statusCode = status
        if (status === 429 || status === 503) retryAfterMs = parseRetryAfter(first(headers['retry-after']))
        if (status >= 300 && status < 400) redirect = first(headers.location) ?? '(no location)'
      },
      onResponseData(_controller, chunk) {
        if (settled) return
        if (received < READ_AT_MOST) chunks.push(chunk)
        received += chunk.length
        if (received >= READ_AT_MOST) {
          finish(null)
          abandon('enough of the answer read')
        }
      },
      onResponseEnd() {
        finish(null)
      },
      onResponseError(_controller, error: NodeJS.ErrnoException) {
        finish(statusCode === null ? describeError(error, request.timeoutMs) : null)
      },
    }

    try {
      agents.agent(request.allowPrivate, request.timeoutMs).dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: request.headers,
          body: request.body,
        },
        handler,
      )
    } catch (error) {
      finish(describeError(error as NodeJS.ErrnoException, request.timeoutMs))
    }
  })
}
