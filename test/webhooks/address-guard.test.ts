import t from 'tap'
import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { checkWebhookUrl, refusedAddress } from '../../src/webhooks/address-guard.js'
import { createAgents, postWebhook } from '../../src/webhooks/http-client.js'

t.test('addresses a server-side request must not reach are refused by default', async (t) => {
  for (const address of [
    '127.0.0.1',
    '127.10.0.1',
    '0.0.0.0',
    '::1',
    '::',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.10.1',
    '100.64.0.1',
    'fd00::1',
    '169.254.1.1',
    'fe80::1',
    '::ffff:10.0.0.1',
    '224.0.0.1',
    '169.254.169.254',
  ]) {
    t.ok(refusedAddress(address, false), `${address} is refused`)
  }
  for (const address of ['93.184.215.14', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111']) {
    t.equal(refusedAddress(address, false), null, `${address} (public) is allowed`)
  }
})

t.test('allowing private addresses never allows the cloud metadata service', async (t) => {
  t.equal(refusedAddress('127.0.0.1', true), null, 'loopback allowed')
  t.equal(refusedAddress('10.0.0.1', true), null, 'private allowed')
  t.match(refusedAddress('169.254.169.254', true), 'metadata', 'metadata still refused')
  t.match(refusedAddress('fd00:ec2::254', true), 'metadata', 'also over IPv6')
})

t.test('a URL check explains itself', async (t) => {
  t.match(await checkWebhookUrl('http://10.0.0.1/x', false), 'private address')
  t.match(await checkWebhookUrl('gopher://example.com/', false), 'http:// or https://')
  t.match(await checkWebhookUrl('http://no-such-host.invalid/', false), 'does not resolve')
  t.equal(await checkWebhookUrl('https://93.184.215.14/hooks', false), null, 'a public address passes')
})

t.test('the guard also holds when the request is sent, whatever the host resolved to when it was stored', async (t) => {
  let hits = 0
  const server = createServer((_req, res) => {
    hits++
    res.end('ok')
  }).listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => server.close())
  const { port } = server.address() as AddressInfo
  const agents = createAgents()
  t.teardown(() => agents.http.destroy())
  const request = { headers: {}, body: '{}', timeoutMs: 2_000 }

  const byName = await postWebhook({ ...request, url: `http://localhost:${port}/`, allowPrivate: false }, agents)
  t.equal(byName.statusCode, null, 'no answer')
  t.match(byName.error, /^refused: .*loopback/, 'refused at connect time, after resolving the name')
  const byAddress = await postWebhook({ ...request, url: `http://127.0.0.1:${port}/`, allowPrivate: false }, agents)
  t.match(byAddress.error, /^refused: /, 'an address literal is refused too')
  t.equal(hits, 0, 'the server was never reached')

  const allowed = await postWebhook({ ...request, url: `http://localhost:${port}/`, allowPrivate: true }, agents)
  t.equal(allowed.statusCode, 200, 'allowed when the operator says so')
})

t.test('an endpoint slower than the timeout gives an attempt that says so', async (t) => {
  const server = createServer((_req, res) => setTimeout(() => res.end('late'), 2_000)).listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => {
    server.closeAllConnections()
    server.close()
  })
  const { port } = server.address() as AddressInfo
  const agents = createAgents()
  t.teardown(() => agents.http.destroy())
  const outcome = await postWebhook(
    { url: `http://127.0.0.1:${port}/`, headers: {}, body: '{}', timeoutMs: 200, allowPrivate: true },
    agents,
  )
  t.equal(outcome.statusCode, null, 'no status')
  t.equal(outcome.error, 'no answer within 200 ms', 'the error names the timeout')
})
