import t from 'tap'
import { createServer, type IncomingMessage } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { createAgents, postWebhook, type WebhookRequest } from '../../src/webhooks/http-client.js'
import { loopbackReceiver } from '../helpers/loopback-receiver.js'

const post = (url: string, more: Partial<WebhookRequest> = {}): WebhookRequest => ({
  url,
  headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
  body: '{"type":"stress-check"}',
  timeoutMs: 2_000,
  allowPrivate: true,
  ...more,
})

function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  req.on('data', (chunk: Buffer) => chunks.push(chunk))
  return once(req, 'end').then(() => Buffer.concat(chunks).toString('utf8'))
}

t.test('a POST with the headers, body and path it was given, over kept-alive connections', async (t) => {
  const seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = []
  const { url, agents, sockets } = await loopbackReceiver(t, (req, res) => {
    void bodyOf(req).then((body) => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body })
      res.writeHead(204).end()
    })
  })
  for (let i = 0; i < 10; i++) {
    const outcome = await postWebhook(post(`${url}/hooks/nerve?campaign=1#fragment`), agents)
    t.same(outcome, {
      statusCode: 204,
      latencyMs: outcome.latencyMs,
      error: null,
      responseExcerpt: null,
      retryAfterMs: null,
    })
  }
  t.equal(seen.length, 10, 'every request arrived')
  t.match(seen[0], {
    method: 'POST',
    url: '/hooks/nerve?campaign=1',
    headers: {
      'content-type': 'application/json',
      'webhook-id': 'msg_1',
      'content-length': String('{"type":"stress-check"}'.length),
      host: url.slice('http://'.length),
    },
    body: '{"type":"stress-check"}',
  })
  // undici lets a connection rest one turn of the event loop before its next request, so a
  // request sent at once after the last one's answer may open a second connection.
  t.ok(sockets.length <= 2, `ten requests in a row were sent over ${sockets.length} connection(s)`)
})

t.test('an answer larger than 4000 bytes gives its excerpt and status at once, and is not read further', async (t) => {
  let closed = false
  const { url, agents } = await loopbackReceiver(t, (req, res) => {
    req.resume()
    res.writeHead(200, { 'content-type': 'text/plain' })
    // 5000 bytes, then the body never ends: only dropping it ends the attempt before the timeout.
    res.write('é'.repeat(500) + 'x'.repeat(4_000))
    res.on('close', () => (closed = true))
  })
  const outcome = await postWebhook(post(url, { timeoutMs: 5_000 }), agents)
  t.equal(outcome.statusCode, 200, 'the status counts')
  t.equal(outcome.error, null, 'a success')
  t.equal(outcome.responseExcerpt, 'é'.repeat(500) + 'x'.repeat(500), 'the first 1000 characters')
  t.ok(outcome.latencyMs < 2_000, `without waiting for the rest (${outcome.latencyMs} ms)`)
  await t.resolves(
    waitFor(() => closed),
    'the connection is dropped',
  )
})

t.test('an answer whose status arrived in time counts, though its body was slow', async (t) => {
  const { url, agents } = await loopbackReceiver(t, (req, res) => {
    req.resume()
    res.writeHead(200).write('partial')
  })
  const outcome = await postWebhook(post(url, { timeoutMs: 300 }), agents)
  t.equal(outcome.statusCode, 200)
  t.equal(outcome.error, null)
  t.equal(outcome.responseExcerpt, 'partial', 'what arrived is kept')
})

t.test('an endpoint that never answers: no answer within the timeout', async (t) => {
  const { url, agents } = await loopbackReceiver(t, (req) => req.resume())
  const outcome = await postWebhook(post(url, { timeoutMs: 250 }), agents)
  t.same(outcome, {
    statusCode: null,
    latencyMs: outcome.latencyMs,
    error: 'no answer within 250 ms',
    responseExcerpt: null,
    retryAfterMs: null,
  })
  t.ok(outcome.latencyMs >= 240 && outcome.latencyMs < 1_500, `ended at the timeout (${outcome.latencyMs} ms)`)
})

t.test('a redirect is recorded, not followed', async (t) => {
  let followed = false
  const target = await loopbackReceiver(t, (_req, res) => {
    followed = true
    res.end('ok')
  })
  const { url, agents } = await loopbackReceiver(t, (req, res) => {
    req.resume()
    res.writeHead(307, { location: `${target.url}/elsewhere` }).end('moved')
  })
  const outcome = await postWebhook(post(url), agents)
  t.equal(outcome.statusCode, 307)
  t.equal(outcome.error, `redirect to ${target.url}/elsewhere not followed`)
  t.equal(outcome.responseExcerpt, 'moved')
  t.notOk(followed, 'the target was never called')

  const bare = await loopbackReceiver(t, (req, res) => {
    req.resume()
    res.writeHead(302).end()
  })
  t.equal((await postWebhook(post(bare.url), bare.agents)).error, 'redirect to (no location) not followed')
})

t.test('Retry-After is read on a 429 and a 503 only', async (t) => {
  const answers = [
    { status: 429, retryAfter: '7' },
    { status: 503, retryAfter: new Date(Date.now() + 60_000).toUTCString() },
    { status: 500, retryAfter: '7' },
  ]
  let index = 0
  const { url, agents } = await loopbackReceiver(t, (req, res) => {
    req.resume()
    const { status, retryAfter } = answers[index++]!
    res.writeHead(status, { 'retry-after': retryAfter }).end()
  })
  const tooMany = await postWebhook(post(url), agents)
  t.match(tooMany, { statusCode: 429, retryAfterMs: 7_000, error: null })
  const unavailable = await postWebhook(post(url), agents)
  t.equal(unavailable.statusCode, 503)
  t.ok(unavailable.retryAfterMs! > 50_000 && unavailable.retryAfterMs! <= 60_000, 'an HTTP date too')
  t.match(await postWebhook(post(url), agents), { statusCode: 500, retryAfterMs: null })
})

t.test('how a connection can fail is said the same way as before undici', async (t) => {
  const agents = createAgents()
  t.teardown(() => agents.close())

  const closedPort = await (async () => {
    const server = createServer().listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    await new Promise((resolve) => server.close(resolve))
    return port
  })()
  t.equal((await postWebhook(post(`http://127.0.0.1:${closedPort}/`), agents)).error, 'connection refused')

  const hungUp = await loopbackReceiver(t, (req) => req.socket.destroy())
  t.equal((await postWebhook(post(hungUp.url), hungUp.agents)).error, 'connection reset by the endpoint', 'closed')
  const reset = await loopbackReceiver(t, (req) => req.socket.resetAndDestroy())
  t.equal((await postWebhook(post(reset.url), reset.agents)).error, 'connection reset by the endpoint', 'reset')

  t.match(
    (await postWebhook(post('http://nerve-webhook-test.invalid/'), agents)).error,
    /^host not found \((ENOTFOUND|EAI_AGAIN)\)$/,
  )
})

t.test('a kept-alive connection serves only requests under the address policy it was checked with', async (t) => {
  const { url, agents, sockets } = await loopbackReceiver(t, (req, res) => {
    req.resume()
    res.writeHead(204).end()
  })
  const byName = url.replace('127.0.0.1', 'localhost')
  t.equal((await postWebhook(post(byName, { allowPrivate: true }), agents)).statusCode, 204)
  const refused = await postWebhook(post(byName, { allowPrivate: false }), agents)
  t.match(refused.error, /^refused: .*loopback/, 'the connection open to a loopback address is not reused')
  t.equal(sockets.length, 1)
})

t.test('once the agents are closed, their connections are, and an attempt is still an outcome', async (t) => {
  let closed = false
  const { url, agents, sockets } = await loopbackReceiver(t, (req, res) => {
    req.resume()
    res.writeHead(204).end()
  })
  t.equal((await postWebhook(post(url), agents)).statusCode, 204)
  sockets[0]!.on('close', () => (closed = true))
  await agents.close()
  await t.resolves(
    waitFor(() => closed),
    'the kept-alive connection is closed',
  )
  const after = await postWebhook(post(url), agents)
  t.match(after, { statusCode: null, error: 'the webhook agents are closed' }, 'a later attempt is not sent')
  t.equal(sockets.length, 1)
})

async function waitFor(condition: () => boolean, ms = 2_000): Promise<void> {
  const until = Date.now() + ms
  while (!condition()) {
    if (Date.now() > until) throw new Error('not within 2 s')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
