import t from 'tap'
import { Webhook } from 'standardwebhooks'
import { generateSecret, sign, signatureHeader } from '../../src/webhooks/signing.js'

t.test('a signature made by Nerve verifies with the standardwebhooks library', async (t) => {
  const secret = generateSecret()
  const body = JSON.stringify({ type: 'stress-check', timestamp: '2026-11-30T12:00:00.000Z', data: { seq: 1 } })
  const timestamp = Math.floor(Date.now() / 1000)
  const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp) }
  const signature = sign(secret, 'msg_1', timestamp, body)
  t.equal(
    signature,
    new Webhook(secret).sign('msg_1', new Date(timestamp * 1000), body),
    'the same bytes the library computes',
  )
  t.same(new Webhook(secret).verify(body, { ...headers, 'webhook-signature': signature }), JSON.parse(body), 'verifies')
})

t.test('secrets are whsec_ and base64 of 32 random bytes, never repeated', async (t) => {
  const secrets = new Set(Array.from({ length: 50 }, generateSecret))
  t.equal(secrets.size, 50, 'all different')
  for (const secret of secrets) {
    t.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/, 'prefixed base64')
    t.equal(Buffer.from(secret.slice('whsec_'.length), 'base64').length, 32, '32 bytes of key')
  }
})

t.test('with two live secrets the header holds two signatures and either secret verifies', async (t) => {
  const [current, previous] = [generateSecret(), generateSecret()]
  const timestamp = Math.floor(Date.now() / 1000)
  const header = signatureHeader([current, previous], 'msg_2', timestamp, '{}')
  t.equal(header.split(' ').length, 2, 'space-separated')
  const headers = { 'webhook-id': 'msg_2', 'webhook-timestamp': String(timestamp), 'webhook-signature': header }
  t.ok(new Webhook(current).verify('{}', headers), 'the current secret verifies')
  t.ok(new Webhook(previous).verify('{}', headers), 'the previous secret verifies')
  t.throws(() => new Webhook(generateSecret()).verify('{}', headers), 'a third does not')
})
