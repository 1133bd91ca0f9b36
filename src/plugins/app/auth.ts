import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../errors.js'
import { hashKey, sameSecret, type KeyRole } from '../../lib/secrets.js'
import type { Principal } from '../../lib/principal.js'

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i)
  return match?.[1]
}

export default fp<{ adminToken?: string | undefined }>(
  async function auth(app: FastifyInstance, options) {
    app.decorateRequest('principal', null as unknown as Principal)

    app.addHook('onRequest', async (request, reply) => {
      const access = request.routeOptions.config.access
      if (!access) return
      const token = bearerToken(request)

      if (access === 'admin') {
        if (options.adminToken === undefined) return
        if (token === undefined || !sameSecret(token, options.adminToken)) {
          reply.header('www-authenticate', 'Bearer realm="nerve"')
          throw new UnauthorizedError('creating a campaign needs the admin token: Authorization: Bearer <ADMIN_TOKEN>')
        }
        return
      }

      const ticket = request.routeOptions.config.streamTicket
        ? (request.query as { ticket?: string }).ticket
        : undefined
      const key =
        ticket !== undefined
          ? await app.store.streamTickets.consume(hashKey(ticket), new Date())
          : token !== undefined
            ? await app.store.apiKeys.findUsable(hashKey(token))
            : undefined
      if (key === undefined) {
        reply.header('www-authenticate', 'Bearer realm="nerve"')
        throw new UnauthorizedError('this route needs a campaign key: Authorization: Bearer <key>')
      }
      if (key === null) {
        reply.header('www-authenticate', 'Bearer realm="nerve", error="invalid_token"')
        throw new UnauthorizedError(
          ticket === undefined
            ? 'the key is unknown or has been revoked'
            : 'the stream ticket is unknown, used, expired, or its key has been revoked: mint a new one',
        )
      }
      // A key never learns whether another campaign exists: a foreign campaign is simply not found.
      const { campaignId } = request.params as { campaignId?: string }
      if (campaignId !== undefined && campaignId !== key.campaignId) {
        throw new NotFoundError(`campaign ${campaignId} not found`)
      }
      if (access === 'gm' && key.role !== 'gm') {
        throw new ForbiddenError('only the GM key may do this')
      }
      request.principal = {
        keyId: key.id,
        role: key.role as KeyRole,
        characterIds: key.characterIds,
        campaign: {
          id: key.campaign.id,
          name: key.campaign.name,
          ruleset: key.campaign.ruleset,
          settings: key.campaign.settings,
        },
      }
    })
  },
  { name: 'auth', dependencies: ['store'] },
)
