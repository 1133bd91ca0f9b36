import AjvCompiler from '@fastify/ajv-compiler'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyServerOptions } from 'fastify'
import { randomUUID } from 'node:crypto'
import type { Config } from './config.js'
import { loggerOptions } from './logger.js'
import database from './plugins/app/database.js'
import problemDetails from './plugins/app/problem-details.js'
import openApi from './plugins/external/swagger.js'
import healthRoutes from './routes/health/index.js'
import { ProblemSchema } from './schemas/problem.js'
import { LivenessSchema, ReadinessSchema } from './schemas/health.js'

export interface AppOptions {
  /** Overrides the logger built from the config (tests pass `false`). */
  logger?: FastifyServerOptions['logger']
  /** Apply migrations while starting (default true). */
  migrate?: boolean
}

const SHARED_SCHEMAS = [ProblemSchema, LivenessSchema, ReadinessSchema]

/**
 * Bodies are validated strictly (no type coercion, unknown fields refused) so a typo is an
 * error, not a silently ignored field; path and query strings need coercion from text.
 */
function validatorCompilers(): NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'] {
  const factory = AjvCompiler()
  return {
    buildValidator(externalSchemas) {
      const strict = factory(externalSchemas, {
        customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: true, allErrors: true },
      })
      const lenient = factory(externalSchemas, {
        customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true, allErrors: true },
      })
      return (route) => (route.httpPart === 'body' ? strict(route) : lenient(route))
    },
  }
}

/** Builds the Nerve application. It never listens: src/server.ts does. */
export async function buildApp(config: Config, options: AppOptions = {}) {
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    genReqId: () => randomUUID(),
    requestIdHeader: 'x-request-id',
    schemaController: { compilersFactory: validatorCompilers() },
    bodyLimit: 256 * 1024,
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })

  for (const schema of SHARED_SCHEMAS) app.addSchema(schema)

  await app.register(problemDetails)
  await app.register(openApi)
  await app.register(database, {
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
    migrate: options.migrate ?? true,
  })

  await app.register(healthRoutes)

  return app
}

export type App = Awaited<ReturnType<typeof buildApp>>
