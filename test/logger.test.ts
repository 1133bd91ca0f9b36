import t from 'tap'
import pino from 'pino'
import { randomUUID } from 'node:crypto'
import { Writable } from 'node:stream'
import { loggerOptions, terminalStream } from '../src/logger.js'
import { createCampaign } from './helpers/api.js'
import { buildTestApp } from './helpers/build-app.js'

const PRODUCTION = loggerOptions({ LOG_LEVEL: 'info' }, false) as pino.LoggerOptions

/** A stream that keeps every JSON line written to it. */
function lineStream() {
  const lines: Record<string, any>[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)))
      done()
    },
  })
  return { stream, lines }
}

function capture() {
  const { stream, lines } = lineStream()
  return { log: pino(PRODUCTION, stream), lines }
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

t.test('pretty output only on a terminal; off one, JSON lines written in blocks', async (t) => {
  const { stream: plain } = loggerOptions({ LOG_LEVEL: 'info' }, false) as unknown as { stream: { minLength: number } }
  t.equal(plain.minLength, 4096, 'plain JSON off a TTY, written once 4 KiB are waiting (or every 100 ms)')
  t.equal(
    (loggerOptions({ LOG_LEVEL: 'info' }, false) as { stream: unknown }).stream,
    plain,
    'one buffer for the process, however many apps it builds',
  )
  const { stream: terminal } = loggerOptions({ LOG_LEVEL: 'info' }, true) as unknown as {
    stream: { minLength?: number }
  }
  t.not(terminal, plain, 'pino-pretty on a TTY')
  t.equal(terminal.minLength, undefined, 'written as it comes')
})

t.test('the app logs one line per request, with the request, the status and the time', async (t) => {
  const { stream, lines } = lineStream()
  const app = await buildTestApp(t, {}, { logger: { ...PRODUCTION, stream } })
  const res = await app.inject({ url: '/v1/rulesets', headers: { authorization: 'Bearer nrv_gm_secret' } })
  t.equal(res.statusCode, 200)
  const logged = lines.filter((line) => line.reqId === res.headers['x-request-id'])
  t.equal(logged.length, 1, 'one line for the request')
  t.match(
    logged[0],
    {
      msg: /^GET \/v1\/rulesets 200 \d+ ms$/,
      req: { method: 'GET', url: '/v1/rulesets' },
      res: { statusCode: 200 },
      responseTime: Number,
    },
    'naming the method, URL, status and time',
  )
  t.notMatch(JSON.stringify(logged[0]), 'nrv_gm_secret', 'never the key')
})

t.test('on a terminal a request is one short line', async (t) => {
  let printed = ''
  const terminal = new Writable({
    write(chunk, _encoding, done) {
      printed += String(chunk)
      done()
    },
  })
  const app = await buildTestApp(
    t,
    {},
    {
      logger: {
        ...PRODUCTION,
        stream: terminalStream(terminal),
      },
    },
  )
  const res = await app.inject({ url: '/v1/rulesets' })
  // without the colours pino-pretty adds when it thinks it writes to a terminal
  const lines = printed
    // eslint-disable-next-line no-control-regex -- ANSI colour codes begin with ESC
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((line) => line.includes('/v1/rulesets'))
  t.equal(lines.length, 1, 'one line')
  t.match(
    lines[0],
    /^\[\d\d:\d\d:\d\d\] INFO: GET \/v1\/rulesets 200 \d+ ms$/,
    'time, level, method, URL, status, duration',
  )
  t.notMatch(lines[0], res.headers['x-request-id'], 'without the request id')
})

t.test('a stream ticket in the URL never reaches the log, whatever the request is answered', async (t) => {
  const { stream, lines } = lineStream()
  const app = await buildTestApp(t, {}, { logger: { ...PRODUCTION, stream } })
  const { campaign, auth } = await createCampaign(app)
  const streamUrl = `/v1/campaigns/${campaign.id}/events/stream`
  const mint = async () => {
    const res = await app.inject({ method: 'POST', url: `${streamUrl}-tickets`, headers: auth })
    return res.json<{ ticket: string }>().ticket
  }
  const tickets: string[] = []
  const answered: number[] = []
  for (const ask of [
    (ticket: string) => ({ method: 'POST' as const, url: `${streamUrl}?ticket=${ticket}` }),
    (ticket: string) => ({ method: 'DELETE' as const, url: `${streamUrl}?after=1&ticket=${ticket}` }),
    (ticket: string) => ({ method: 'GET' as const, url: `${streamUrl}?ticket=${ticket}&after=1e309` }),
    (ticket: string) => ({
      method: 'GET' as const,
      url: `/v1/campaigns/${randomUUID()}/events/stream?ticket=${ticket}`,
    }),
    (ticket: string) => ({ method: 'GET' as const, url: `${streamUrl}?TICKET=${encodeURIComponent(ticket)}&x=1` }),
    (ticket: string) => ({ method: 'GET' as const, url: `/v1/nowhere/${ticket}?tick%65t=${ticket}` }),
  ]) {
    const ticket = await mint()
    tickets.push(ticket)
    answered.push((await app.inject(ask(ticket))).statusCode)
  }
  t.same(answered, [405, 405, 400, 404, 401, 404], 'refused as 405, 400, 404 and 401, each ticket unused')
  const logged = lines.filter((line) => line.req !== undefined || /ticket|nowhere/.test(String(line.msg)))
  t.ok(logged.length >= tickets.length, `every request was logged (${logged.length} lines)`)
  const text = lines.map((line) => JSON.stringify(line)).join('\n')
  for (const ticket of tickets) t.notMatch(text, ticket.slice(7), 'no log line holds any ticket’s value')
  t.match(
    logged.find((line) => line.res?.statusCode === 405),
    { msg: /\?ticket=\[redacted\] 405/, req: { url: /\?ticket=\[redacted\]$/ } },
    'the line still says a ticket was sent',
  )
})

t.test('a key pasted into a URL by mistake is redacted from the log too', async (t) => {
  const { stream, lines } = lineStream()
  const app = await buildTestApp(t, {}, { logger: { ...PRODUCTION, stream } })
  const { campaign, gmKey } = await createCampaign(app)
  await app.inject({ url: `/v1/campaigns/${campaign.id}?key=${gmKey.key}` })
  await app.inject({ url: `/v1/campaigns/${campaign.id}/characters?access_token=${gmKey.key}&limit=5` })
  await app.inject({ url: `/v1/campaigns/${gmKey.key}/characters` })
  const text = lines.map((line) => JSON.stringify(line)).join('\n')
  t.ok(lines.length >= 3, 'the requests were logged')
  t.notMatch(text, gmKey.key.slice(7), 'no log line holds the key')
  t.match(text, 'limit=5', 'other query parameters are kept')
})
