import Fastify, { type FastifyInstance } from 'fastify'
import t from 'tap'
import routeAccessDefaults, { routeAccess } from '../../src/plugins/app/route-access.js'

/** A bare instance with the plugin, and a route plugin declaring routes as `declare` says. */
async function appWith(declare: (app: FastifyInstance) => void) {
  const app = Fastify()
  const seen = new Map<string, { access: unknown; security: unknown }>()
  await app.register(routeAccessDefaults)
  app.addHook('onRoute', (route) => {
    // Runs after the plugin's hook, as every other plugin's does: it sees what the plugin set.
    seen.set(`${String(route.method)} ${route.url}`, {
      access: route.config?.access,
      security: (route.schema as { security?: unknown } | undefined)?.security,
    })
  })
  await app.register(async (scope) => declare(scope))
  await app.ready()
  return seen
}

t.test(
  'a route plugin says once who may call its routes, and each route gets that access and the bearer key',
  async (t) => {
    const seen = await appWith((app) => {
      routeAccess(app, 'gm')
      app.get('/v1/campaigns/:campaignId/secrets', async () => 'ok')
      app.get('/v1/campaigns/:campaignId/notes', { config: { access: 'member' } }, async () => 'ok')
    })
    t.same(
      seen.get('GET /v1/campaigns/:campaignId/secrets'),
      { access: 'gm', security: [{ bearerAuth: [] }] },
      'the plugin’s access',
    )
    t.same(
      seen.get('GET /v1/campaigns/:campaignId/notes'),
      { access: 'member', security: [{ bearerAuth: [] }] },
      'a route’s own access wins',
    )
  },
)

t.test('the admin route lists no credentials or the admin token, the event stream a key or a ticket', async (t) => {
  const seen = await appWith((app) => {
    app.post('/v1/campaigns', { config: { access: 'admin' } }, async () => 'ok')
    routeAccess(app, 'member')
    app.get('/v1/campaigns/:campaignId/events/stream', { config: { streamTicket: true } }, async () => 'ok')
  })
  t.same(seen.get('POST /v1/campaigns')?.security, [{}, { bearerAuth: [] }], 'admin: nothing, or the admin token')
  t.same(
    seen.get('GET /v1/campaigns/:campaignId/events/stream'),
    { access: 'member', security: [{ bearerAuth: [] }, { streamTicket: [] }] },
    'a key, or a stream ticket',
  )
})

t.test('a route without access stays public, outside the campaigns', async (t) => {
  const seen = await appWith((app) => {
    app.get('/v1/rulesets', async () => 'ok')
  })
  t.same(seen.get('GET /v1/rulesets'), { access: undefined, security: undefined }, 'nothing added')
})

t.test('a campaign route that does not say who may call it stops the app from starting', async (t) => {
  await t.rejects(
    appWith((app) => {
      app.get('/v1/campaigns/:campaignId/forgotten', async () => 'ok')
    }),
    /GET \/v1\/campaigns\/:campaignId\/forgotten does not say who may call it/,
    'refused, naming the route',
  )
})
