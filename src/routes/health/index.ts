import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ServiceUnavailableError } from '../../errors.js'
import { LivenessSchema, ReadinessSchema } from '../../schemas/health.js'
import { problem, ref } from '../../schemas/ref.js'

const health: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health/live',
    {
      // Liveness stays green under load: a busy process is not a dead one to restart.
      config: { rateLimit: false, loadShedding: false },
      schema: {
        tags: ['Health'],
        operationId: 'getLiveness',
        security: [],
        summary: 'Is the process up?',
        description: 'Answers 200 while the process can serve HTTP at all. It does not touch the database.',
        response: { 200: ref(LivenessSchema, { description: 'The process is up.' }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  )

  app.get(
    '/health/ready',
    {
      // Rate limits never hide readiness; load shedding does, on purpose: it is what a balancer should see.
      config: { rateLimit: false },
      schema: {
        tags: ['Health'],
        operationId: 'getReadiness',
        security: [],
        summary: 'Can the service take traffic?',
        description:
          'Answers 200 when the database answers and every migration is applied; 503 otherwise — also while the instance is overloaded — so a load balancer stops sending requests here.',
        response: {
          200: ref(ReadinessSchema, { description: 'The database answers and every migration is applied.' }),
          503: problem('The database is unreachable, migrations are pending, or the instance is overloaded.'),
        },
      },
    },
    async (request) => {
      let pending: string[]
      try {
        pending = await app.db.pendingMigrations()
      } catch (err) {
        request.log.warn({ err }, 'readiness: database unreachable')
        throw new ServiceUnavailableError('the database is unreachable')
      }
      if (pending.length > 0) {
        throw new ServiceUnavailableError(`migrations not applied: ${pending.join(', ')}`)
      }
      return { status: 'ready' as const, database: app.db.engine }
    },
  )
}

export default health
