import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify'
import pretty, { type PrettyStream } from 'pino-pretty'
import type { Config } from './config.js'

/** Paths pino must never print: credentials in headers and any secret in a logged object. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.secret',
  '*.apiKey',
  '*.key',
  '*.token',
  'secret',
  'apiKey',
  'token',
]

/**
 * On a terminal a request is one short line: its message already says method, URL, status and
 * time. Pretty printing runs in the process rather than as a pino transport, whose worker
 * thread would cost a newcomer's `npm start` some 60 MB.
 */
export function terminalStream(destination: NodeJS.WritableStream | number = 1): PrettyStream {
  return pretty({
    translateTime: 'HH:MM:ss',
    singleLine: true,
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    destination,
  })
}

export function loggerOptions(
  config: Pick<Config, 'LOG_LEVEL'>,
  pretty = process.stdout.isTTY,
): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(pretty ? { stream: terminalStream() } : {}),
  }
}

/**
 * One log line per request, written when it ends, with everything Fastify's two lines said
 * (method, URL, client, status, elapsed time): half the log writes, which were 8.7 % of a
 * roll's CPU (docs/BENCHMARKS.md). Fastify's other log lines are unchanged.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime }
    const summary = `${request.method} ${request.url} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`
    if (error) reply.log.error({ ...line, err: error }, `request errored: ${summary}`)
    else reply.log.info(line, summary)
  }
}
