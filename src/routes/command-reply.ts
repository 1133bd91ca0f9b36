import type { FastifyReply, FastifyRequest } from 'fastify'
import type { CommandOptions } from '../services/commands.js'
import { idempotent } from '../services/idempotency.js'

/**
 * Answers 201 with what a command recorded — once per `Idempotency-Key`: a retry with the
 * same key and body gets the first answer again, marked `idempotent-replayed: true`.
 */
export async function replyOnce(
  request: FastifyRequest,
  reply: FastifyReply,
  fingerprint: unknown,
  command: (options: CommandOptions) => Promise<unknown>,
) {
  const idempotencyKey = request.headers['idempotency-key']
  const result = await idempotent(
    request.server.store,
    request.principal,
    typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
    fingerprint,
    command,
  )
  if (!result.replayed) request.server.metrics.eventRecorded(result.body)
  return reply.code(201).header('idempotent-replayed', String(result.replayed)).send(result.body)
}
