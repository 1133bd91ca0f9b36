import type { FastifyPluginAsync } from 'fastify'
import { UnauthorizedError } from '../../errors.js'
import { sameSecret } from '../../lib/secrets.js'
import { bearerToken } from '../../plugins/app/auth.js'

/**
 * `GET /metrics` for Prometheus, with `Authorization: Bearer <METRICS_TOKEN>`. Without a token
 * configured the route does not exist (404). An operator's endpoint, kept out of the OpenAPI
 * document; never rate-limited nor shed, so a saturated instance can still be watched.
 */
const metricsRoutes: FastifyPluginAsync<{ token: string | undefined }> = async (app, { token }) => {
  if (token === undefined) return
  app.get(
    '/metrics',
    { schema: { hide: true }, config: { rateLimit: false, loadShedding: false } },
    async (request, reply) => {
      const given = bearerToken(request)
      if (given === undefined || !sameSecret(given, token)) {
        reply.header('www-authenticate', 'Bearer realm="nerve-metrics"')
        throw new UnauthorizedError('the metrics need the metrics token: Authorization: Bearer <METRICS_TOKEN>')
      }
      const { contentType, body } = await app.metrics.render()
      return reply.type(contentType).header('cache-control', 'no-store').send(body)
    },
  )
}

export default metricsRoutes
