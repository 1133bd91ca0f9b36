import type { FastifyInstance, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'

/** Who may call a route: anyone with the admin token (when one is set), a campaign's GM key, or any of its keys. */
export type Access = 'admin' | 'gm' | 'member'

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access
    /** The route also opens to `?ticket=`, a stream ticket minted by a key (the event stream only). */
    streamTicket?: boolean
  }
  interface FastifyInstance {
    /** Who may call the routes of this route plugin that do not say otherwise (`routeAccess`). */
    defaultAccess?: Access
  }
}

type Security = Record<string, string[]>[]
const BEARER: Security = [{ bearerAuth: [] }]
/** No credentials, or the admin token: which one depends on whether the operator set `ADMIN_TOKEN`. */
const ADMIN: Security = [{}, { bearerAuth: [] }]
/** The event stream also opens to a stream ticket in its query (`EventSource` cannot send headers). */
const BEARER_OR_TICKET: Security = [{ bearerAuth: [] }, { streamTicket: [] }]

/** Says once, for a route plugin, who may call the routes it declares, unless a route says otherwise. */
export function routeAccess(app: FastifyInstance, access: Access): void {
  app.decorate('defaultAccess', access)
}

/**
 * Gives every route the access of its plugin (unless it sets its own) and the credentials the
 * OpenAPI document lists for it. Registered before every other plugin, so that what they read
 * of a route (the problems it documents, the key check) sees its access.
 */
export default fp(
  async function routeAccessDefaults(app: FastifyInstance) {
    app.addHook('onRoute', function (this: FastifyInstance, route: RouteOptions) {
      const access = route.config?.access ?? this.defaultAccess
      // A campaign's route that forgot to say who may call it would be open to anyone.
      if (access === undefined && route.url.startsWith('/v1/campaigns/:campaignId')) {
        throw new Error(`${String(route.method)} ${route.url} does not say who may call it (routeAccess)`)
      }
      if (access === undefined) return
      const config = { ...route.config, access }
      route.config = config
      const security = access === 'admin' ? ADMIN : config.streamTicket ? BEARER_OR_TICKET : BEARER
      route.schema = { ...route.schema, security: route.schema?.security ?? security }
    })
  },
  { name: 'route-access' },
)
