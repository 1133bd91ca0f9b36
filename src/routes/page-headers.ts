import type { FastifyReply } from 'fastify'

/**
 * The headers of a page Nerve serves to browsers (the home page, the console): its content
 * security policy, and no sniffing, referrer or framing; `extra` for what a page adds.
 */
export function pageHeaders(reply: FastifyReply, csp: string, extra: Record<string, string> = {}): FastifyReply {
  return reply.headers({
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    ...extra,
  })
}
