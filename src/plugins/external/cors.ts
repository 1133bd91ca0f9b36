import cors from '@fastify/cors'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

interface CorsPluginOptions {
  /** `*` for any origin, or the origins allowed. */
  origins: '*' | string[]
}

/** What a browser client sends: its key, JSON, and the headers of retries, edits and resumed streams. */
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'Last-Event-ID']

/** Response headers a browser client needs to read, beyond those CORS always lets through. */
const EXPOSED_HEADERS = [
  'Idempotent-Replayed',
  'Retry-After',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'ETag',
  'Location',
  'x-request-id',
]

/**
 * The Access-Control-Allow-Origin to answer with, or false for no CORS headers at all. A request
 * without an Origin is no browser's cross-origin request: a bare OPTIONS keeps its 404.
 */
function allowedOrigin(origins: '*' | string[], origin: string | undefined): string | false {
  if (origin === undefined) return false
  if (origins === '*') return '*'
  return origins.includes(origin) ? origin : false
}

/**
 * Cross-origin access for VTT modules and web bots running in a browser. Credentials are never
 * allowed: keys travel in the Authorization header, not in cookies, so `*` exposes nothing a
 * script holding no key could not already read. A listed origin is echoed back; any other
 * origin gets no CORS headers at all, and its preflight falls through to the 404 of an
 * unknown route.
 *
 * The hook must run before rate limiting and authentication: a preflight carries no key, and
 * answers to a browser (a 429 with its Retry-After included) are only readable with CORS headers.
 */
export default fp<CorsPluginOptions>(
  async function crossOrigin(app: FastifyInstance, { origins }) {
    await app.register(cors, {
      origin: (origin: string | undefined, callback: (error: Error | null, allow: string | false) => void) =>
        callback(null, allowedOrigin(origins, origin)),
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ALLOWED_HEADERS,
      exposedHeaders: EXPOSED_HEADERS,
      credentials: false,
      // A plain OPTIONS without Access-Control-Request-Method is answered too, rather than a
      // text/plain 400 outside the problem-details contract.
      strictPreflight: false,
      maxAge: 600,
    })
  },
  { name: 'cors' },
)
