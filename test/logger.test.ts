import t from 'tap'
import pino from 'pino'
import { Writable } from 'node:stream'
import { loggerOptions } from '../src/logger.js'

function capture() {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)))
      done()
    },
  })
  const options = loggerOptions({ LOG_LEVEL: 'info' }, false) as pino.LoggerOptions
  return { log: pino(options, stream), lines }
}

t.test('the Authorization header is redacted from logged requests', async (t) => {
  const { log, lines } = capture()
  log.info({ req: { headers: { authorization: 'Bearer nrv_gm_abc123', host: 'x' } } }, 'request')
  t.same((lines[0]!.req as { headers: unknown }).headers, { authorization: '[redacted]', host: 'x' })
})

t.test('secrets, keys and tokens in logged objects are redacted', async (t) => {
  const { log, lines } = capture()
  log.info({ endpoint: { secret: 'whsec_abc', url: 'https://x' }, token: 'admin-token', apiKey: 'nrv_gm_x' }, 'x')
  t.same(lines[0]!.endpoint, { secret: '[redacted]', url: 'https://x' }, 'a webhook secret is hidden')
  t.equal(lines[0]!.token, '[redacted]', 'a top-level token is hidden')
  t.equal(lines[0]!.apiKey, '[redacted]', 'an api key is hidden')
})

t.test('pretty output only on a terminal', async (t) => {
  t.notOk((loggerOptions({ LOG_LEVEL: 'info' }, false) as pino.LoggerOptions).transport, 'plain JSON off a TTY')
  t.ok((loggerOptions({ LOG_LEVEL: 'info' }, true) as pino.LoggerOptions).transport, 'pino-pretty on a TTY')
})
