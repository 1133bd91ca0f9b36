import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyServerOptions } from 'fastify'
import { randomUUID } from 'node:crypto'
import { corsOrigins, trustProxy, type Config } from './config.js'
import { loggerOptions, OneLinePerRequest } from './logger.js'
import auth from './plugins/app/auth.js'
import database from './plugins/app/database.js'
import eventFeed from './plugins/app/event-feed.js'
import jsonBody from './plugins/app/json-body.js'
import metrics from './plugins/app/metrics.js'
import store from './plugins/app/store.js'
import webhookDispatcher from './plugins/app/webhook-dispatcher.js'
import problemDetails, { problemFor, sendProblem } from './plugins/app/problem-details.js'
import routeAccessDefaults from './plugins/app/route-access.js'
import compression from './plugins/external/compress.js'
import crossOrigin from './plugins/external/cors.js'
import rateLimits from './plugins/external/rate-limit.js'
import openApi from './plugins/external/swagger.js'
import loadShedding from './plugins/external/under-pressure.js'
import actionRoutes from './routes/actions/index.js'
import archiveRoutes from './routes/archives/index.js'
import campaignRoutes from './routes/campaigns/index.js'
import characterRoutes from './routes/characters/index.js'
import dashboardRoutes from './routes/dashboard/index.js'
import eventRoutes from './routes/events/index.js'
import healthRoutes from './routes/health/index.js'
import homeRoutes from './routes/home/index.js'
import metricsRoutes from './routes/metrics/index.js'
import resolveRoutes from './routes/resolve/index.js'
import rulesetRoutes from './routes/rulesets/index.js'
import webhookRoutes from './routes/webhooks/index.js'
import { SHARED_SCHEMAS } from './schemas/index.js'
import { dispatcherOptions } from './webhooks/dispatcher.js'
import { schemaCompilers } from './lib/schema-compilers.js'

export interface AppOptions {
  /** Overrides the logger built from the config (tests pass `false`). */
  logger?: FastifyServerOptions['logger']
  /** Apply migrations while starting (default true). */
  migrate?: boolean
}

/** Builds the Nerve application. It never listens: src/server.ts does. */
export async function buildApp(config: Config, options: AppOptions = {}) {
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    genReqId: () => randomUUID(),
    logController: new OneLinePerRequest(),
    requestIdHeader: 'x-request-id',
    schemaController: { compilersFactory: schemaCompilers },
    bodyLimit: config.BODY_LIMIT_BYTES,
    // A client must send its whole request (headers, then body) within these deadlines, so a
    // slow sender cannot hold a connection open. They cover receiving the request only: an
    // answer that takes long, such as an event stream, is bounded by the idle timeout alone,
    // which its heartbeats keep from firing.
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    connectionTimeout: config.CONNECTION_IDLE_TIMEOUT_MS,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    http: {
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      // Node checks both deadlines on this interval (30 s by default), so one may overrun by that much.
      connectionsCheckingInterval: Math.min(1_000, config.HEADERS_TIMEOUT_MS),
    },
    trustProxy: trustProxy(config.TRUST_PROXY),
    // Starting PGlite and applying migrations can take longer than Fastify's default 10 s on
    // a busy machine; a slow start is not a hung one.
    pluginTimeout: config.STARTUP_TIMEOUT_MS,
    // A malformed or over-long URL is refused by the router before any error handler runs.
    frameworkErrors: (error, request, reply) => {
      void sendProblem(reply, problemFor(error, request))
    },
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })

  // Closing the server ends idle keep-alive connections once, when it begins: one whose answer
  // was still being sent (a compressed document, a slow query) then stays open until the client
  // hangs up, and the shutdown waits on it. Each answer that finishes meanwhile ends its own.
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onResponse', async () => {
    if (closing) setImmediate(() => app.server.closeIdleConnections())
  })

  for (const schema of SHARED_SCHEMAS) app.addSchema(schema)

  await app.register(routeAccessDefaults)
  await app.register(problemDetails)
  await app.register(jsonBody)
  // First of the onRequest hooks: a preflight is answered before any limit or key check, and a
  // 503 or 429 still carries the CORS headers a browser needs to read it.
  await app.register(crossOrigin, { origins: corsOrigins(config.CORS_ORIGINS) })
  // Both limits run as the first onRequest hooks, before a key is looked up in the database.
  await app.register(loadShedding, {
    maxEventLoopDelayMs: config.UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS,
    maxHeapUsedBytes: config.UNDER_PRESSURE_MAX_HEAP_USED_BYTES,
    sampleIntervalMs: config.UNDER_PRESSURE_SAMPLE_INTERVAL_MS,
  })
  await app.register(rateLimits, { max: config.RATE_LIMIT_MAX, windowMs: config.RATE_LIMIT_WINDOW_MS })
  // Before every route, which it compresses from then on (the API document's too).
  await app.register(compression)
  await app.register(openApi)
  await app.register(database, {
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS === 'on',
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    migrate: options.migrate ?? true,
  })
  await app.register(store)
  await app.register(metrics, { enabled: config.METRICS_TOKEN !== undefined })
  await app.register(eventFeed)
  await app.register(auth, { adminToken: config.ADMIN_TOKEN })
  await app.register(webhookDispatcher, {
    enabled: config.WEBHOOK_DISPATCHER === 'on',
    options: dispatcherOptions(config),
  })

  await app.register(homeRoutes)
  await app.register(healthRoutes)
  await app.register(rulesetRoutes)
  await app.register(resolveRoutes)
  await app.register(campaignRoutes)
  await app.register(archiveRoutes, {
    importLimitBytes: config.IMPORT_BODY_LIMIT_BYTES,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
  })
  await app.register(characterRoutes)
  await app.register(actionRoutes)
  await app.register(eventRoutes)
  await app.register(webhookRoutes, { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE })
  await app.register(dashboardRoutes)
  await app.register(metricsRoutes, { token: config.METRICS_TOKEN })

  return app
}

export type App = Awaited<ReturnType<typeof buildApp>>
