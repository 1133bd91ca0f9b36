import type { FastifyServerOptions } from 'fastify'
import type { Config } from './config.js'

/** Paths pino must never print: credentials in headers and any secret in a logged object. */
export const REDACTED_PATHS = [
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

export function loggerOptions(
  config: Pick<Config, 'LOG_LEVEL'>,
  pretty = process.stdout.isTTY,
): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l' } } } : {}),
  }
}
