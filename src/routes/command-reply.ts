import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Once } from '../services/idempotency.js'
import type { CommandAnswer } from '../services/pipeline.js'
import { eventUrl } from './locations.js'

/** The request's `Idempotency-Key`, with what makes a retry the same request. */
export function onceFor(request: FastifyRequest, fingerprint: unknown): Once {
  const key = request.headers['idempotency-key']
  return { key: typeof key === 'string' ? key : undefined, fingerprint }
}

/**
 * Answers 201 with what a command recorded. A replay (same key and body) is marked
 * `idempotent-replayed: true` and has the same `Location`: by default the event's URL.
 */
export function replyCreated(
  reply: FastifyReply,
  { recorded, replayed }: CommandAnswer,
  location = eventUrl(recorded.event.campaignId, recorded.event.id),
) {
  return reply.code(201).header('location', location).header('idempotent-replayed', String(replayed)).send(recorded)
}
