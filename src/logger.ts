import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify'
import pino from 'pino'
import pretty, { type PrettyStream } from 'pino-pretty'
import type { Config } from './config.js'
import { redactUrl } from './lib/redact-url.js'

/**
 * Paths pino must never print: credentials in headers and any secret in a logged object. A
 * credential inside a URL (a stream ticket in `?ticket=`) is redacted from the URL itself:
 * see requestValue and OneLinePerRequest.
 */
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

let bufferedStdout: pino.DestinationStream | undefined

/**
 * Off a terminal, log lines go to standard output in blocks: once 4 KiB are waiting or every
 * 100 ms, whichever comes first. One write for many lines instead of one per request, which
 * was ~6 % of a roll's CPU (docs/BENCHMARKS.md). The block is written when the process exits;
 * a crash loses at most the last 100 ms of log lines. One for the process, however many apps.
 */
function stdoutInBlocks(): pino.DestinationStream {
  return (bufferedStdout ??= pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 100 }))
}

export function loggerOptions(
  config: Pick<Config, 'LOG_LEVEL'>,
  pretty = process.stdout.isTTY,
): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { req: requestValue },
    stream: pretty ? terminalStream() : stdoutInBlocks(),
  }
}

/**
 * What Fastify's own `req` serializer logs (but the `Accept-Version` header Nerve never reads),
 * with the URL's credentials redacted. Anything else logged as `req` is left to the redaction paths.
 */
function requestValue(request: FastifyRequest) {
  if (!('raw' in request)) return request
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
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
    const summary = `${request.method} ${redactUrl(request.url)} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`
    if (error) reply.log.error({ ...line, err: error }, `request errored: ${summary}`)
    else reply.log.info(line, summary)
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.info(`Route ${request.method}:${redactUrl(request.url)} not found`)
  }
}
