import type { FastifyReply, FastifyRequest } from 'fastify'
import type { CommandOptions } from '../services/commands.js'
import { idempotent } from '../services/idempotency.js'
import { eventUrl } from './locations.js'

/** The part of a command's answer its `Location` is made from. */
export interface RecordedEvent {
  event: { id: string; campaignId: string }
  character: { id: string; campaignId: string }
}

/**
 * Answers 201 with what a command recorded — once per `Idempotency-Key`: a retry with the
 * same key and body gets the first answer again, marked `idempotent-replayed: true`, with the
 * same `Location` (by default the event's URL; `locate` names another, e.g. the character's).
 */
export async function replyOnce(
  request: FastifyRequest,
  reply: FastifyReply,
  fingerprint: unknown,
  command: (options: CommandOptions) => Promise<RecordedEvent>,
  locate: (recorded: RecordedEvent) => string = ({ event }) => eventUrl(event.campaignId, event.id),
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
  const recorded = result.body as RecordedEvent
  return reply
    .code(201)
    .header('location', locate(recorded))
    .header('idempotent-replayed', String(result.replayed))
    .send(recorded)
}
