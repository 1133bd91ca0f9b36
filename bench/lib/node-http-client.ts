// The webhook client as it was before issue 28 (node:http with keep-alive agents), kept so
// bench/webhook-client-cpu.ts can compare the current client with it in the same run.
import http from 'node:http'
import https from 'node:https'
import { performance } from 'node:perf_hooks'
import { guardedLookup, refusedLiteralHost } from '../../src/webhooks/address-guard.js'
import type { AttemptOutcome, WebhookRequest } from '../../src/webhooks/http-client.js'

interface Agents {
  http: http.Agent
  https: https.Agent
}

/** Enough of the answer to show the developer what their endpoint said. */
const EXCERPT_LENGTH = 1_000

export function createNodeAgents(): Agents {
  return { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) }
}

/** `Retry-After` is either seconds or an HTTP date. */
function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (value === undefined || value.trim() === '') return null
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}

function describeError(error: NodeJS.ErrnoException, timeoutMs: number, timedOut: boolean): string {
  if (timedOut) return `no answer within ${timeoutMs} ms`
  switch (error.code) {
    case 'ERR_WEBHOOK_ADDRESS_REFUSED':
      return `refused: ${error.message}`
    case 'ECONNREFUSED':
      return 'connection refused'
    case 'ECONNRESET':
      return 'connection reset by the endpoint'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host not found (${error.code})`
    default:
      return error.message || String(error.code ?? error)
  }
}

/**
 * POSTs one signed webhook. Never follows redirects (a redirect could lead anywhere, including
 * past the address guard), gives up after the timeout, and never throws: every way an attempt
 * can end is an outcome to record.
 */
export function postWebhookNodeHttp(request: WebhookRequest, agents: Agents): Promise<AttemptOutcome> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const url = new URL(request.url)
  // Credentials in a URL are refused when an endpoint is stored; one stored before that is never sent as Basic auth.
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
    let timedOut = false
    let statusCode: number | null = null
    let retryAfterMs: number | null = null
    let redirect: string | null = null
    const chunks: Buffer[] = []
    let received = 0

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

    const secure = url.protocol === 'https:'
    const req = (secure ? https : http).request(url, {
      method: 'POST',
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      agent: secure ? agents.https : agents.http,
      lookup: guardedLookup(request.allowPrivate),
    })

    const timer = setTimeout(() => {
      timedOut = true
      // An answer whose status arrived in time counts; only its body was slow.
      if (statusCode !== null) finish(null)
      req.destroy()
    }, request.timeoutMs)

    req.on('response', (res) => {
      statusCode = res.statusCode ?? null
      if (statusCode === 429 || statusCode === 503) retryAfterMs = parseRetryAfter(res.headers['retry-after'])
      if (statusCode !== null && statusCode >= 300 && statusCode < 400)
        redirect = res.headers.location ?? '(no location)'
      res.on('data', (chunk: Buffer) => {
        if (received < EXCERPT_LENGTH * 4) chunks.push(chunk)
        received += chunk.length
        if (received >= EXCERPT_LENGTH * 4) {
          finish(null)
          res.destroy()
        }
      })
      res.on('end', () => finish(null))
      res.on('error', () => finish(null))
      res.on('close', () => finish(null))
    })
    req.on('error', (error: NodeJS.ErrnoException) => {
      finish(statusCode === null ? describeError(error, request.timeoutMs, timedOut) : null)
    })
    req.end(request.body)
  })
}
