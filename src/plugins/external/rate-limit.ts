import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { TooManyRequestsError } from '../../errors.js'
import { hashKey } from '../../lib/secrets.js'
import { bearerToken } from '../app/auth.js'

interface RateLimitPluginOptions {
  /** Requests per window for one key or address; 0 turns rate limiting off. */
  max: number
  windowMs: number
}

/**
 * One bucket per API key (by its hash: the key itself is never held) and, for requests without
 * a key, one per client address. Buckets live in this instance's memory.
 */
function bucketOf(request: FastifyRequest): string {
  const token = bearerToken(request)
  return token === undefined ? `ip:${request.ip}` : `key:${hashKey(token)}`
}

/**
 * Rate limiting for every route but those with `config: { rateLimit: false }` (probes and the
 * metrics scrape). It runs as the first `onRequest` hook, before the key is looked up, so a
 * flood costs no database work; an exceeded limit is 429 problem details with `Retry-After`.
 */
export default fp<RateLimitPluginOptions>(
  async function rateLimits(app: FastifyInstance, { max, windowMs }) {
    if (max === 0) return
    await app.register(rateLimit, {
      global: false,
      max,
      timeWindow: windowMs,
      keyGenerator: bucketOf,
      errorResponseBuilder: (_request, context) =>
        new TooManyRequestsError(
          `rate limit of ${context.max} requests per ${context.after} reached; retry in ${Math.max(1, Math.ceil(context.ttl / 1000))} s`,
        ),
    })
    const limit = app.rateLimit()
    app.addHook('onRequest', async function (request, reply) {
      if (request.routeOptions.config.rateLimit === false) return
      await limit.call(this, request, reply)
    })
  },
  { name: 'rate-limit' },
)
