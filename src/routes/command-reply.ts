import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Recorded } from '../history/record.js'
import type { Once } from '../services/idempotency.js'
import { runCommand, type Command, type CommandAnswer, type CommandContext, type Loaded } from '../services/pipeline.js'
import { eventUrl } from './locations.js'

/** The request's `Idempotency-Key`, with what makes a retry the same request. */
function onceFor(request: FastifyRequest, fingerprint: unknown): Once {
  const key = request.headers['idempotency-key']
  return { key: typeof key === 'string' ? key : undefined, fingerprint }
}

/**
 * Answers 201 with what a command recorded. A replay (same key and body) is marked
 * `idempotent-replayed: true` and has the same `Location`: by default the event's URL.
 */
function replyCreated(
  reply: FastifyReply,
  { recorded, replayed }: CommandAnswer,
  location = eventUrl(recorded.event.campaignId, recorded.event.id),
) {
  return reply.code(201).header('location', location).header('idempotent-replayed', String(replayed)).send(recorded)
}

/** What a command route runs for a request, and how it answers. */
interface CommandRouteSpec<Target extends Loaded> {
  command: Command<Target>
  /** What makes a retry under the same Idempotency-Key the same request. */
  fingerprint: unknown
  /** The `Location` of what it made, when not the event. */
  location?: (recorded: Recorded) => string
}

/**
 * The tail of every route that records an event, made once per route plugin from its context:
 * runs the request's command under its Idempotency-Key and answers 201 with the event and the
 * character after it (`replyCreated`). A handler is then
 * `(request, reply) => runAndReply(request, reply, { command, fingerprint })`.
 */
export function commandRoute(context: CommandContext) {
  return async <Target extends Loaded>(
    request: FastifyRequest,
    reply: FastifyReply,
    route: CommandRouteSpec<Target>,
  ) => {
    const answer = await runCommand(context, request.principal, route.command, onceFor(request, route.fingerprint))
    return replyCreated(reply, answer, route.location?.(answer.recorded))
  }
}
