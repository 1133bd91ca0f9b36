import t from 'tap'
import { checkWebhookUrl, guardedLookup, refusedAddress } from '../../src/webhooks/address-guard.js'
import { postWebhook } from '../../src/webhooks/http-client.js'
import { loopbackReceiver } from '../helpers/loopback-receiver.js'

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
  t.match(refusedAddress('192.0.0.192', true), 'metadata', 'Oracle Cloud’s too')
  t.match(refusedAddress('fd00:ec2::254', true), 'metadata', 'also over IPv6')
})

t.test('an IPv6 address is refused for the IPv4 address it embeds, in every encoding', async (t) => {
  for (const [address, form] of [
    ['64:ff9b::7f00:1', 'NAT64 (64:ff9b::/96) of 127.0.0.1'],
    ['64:ff9b::a00:1', 'NAT64 (64:ff9b::/96) of 10.0.0.1'],
    ['2002:7f00:1::', '6to4 of 127.0.0.1'],
    ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
    ['::7f00:1', 'IPv4-compatible 127.0.0.1, as a URL spells it'],
    ['::127.0.0.1', 'IPv4-compatible 127.0.0.1, as a resolver prints it'],
    ['::ffff:7f00:1', 'IPv4-mapped 127.0.0.1'],
    ['::ffff:0:a00:1', 'IPv4-translated 10.0.0.1'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo with client 127.0.0.1 (last 32 bits XOR 0xffffffff)'],
    ['2001:0:a00:1:8000:63bf:fefe:fefe', 'Teredo with server 10.0.0.1'],
  ] as const) {
    t.match(refusedAddress(address, false), /loopback|private/, `${form} is refused`)
  }
})

t.test('every embedded form of a metadata address is refused even with private addresses allowed', async (t) => {
  for (const [address, form] of [
    ['64:ff9b::a9fe:a9fe', 'NAT64 of 169.254.169.254'],
    ['64:ff9b:1::a9fe:a9fe', 'local-use NAT64 (64:ff9b:1::/48, /96 layout) of 169.254.169.254'],
    ['64:ff9b:1:a9fe:a9:fe00::', 'local-use NAT64 (/48 layout, bits 64–71 skipped) of 169.254.169.254'],
    ['2002:a9fe:a9fe::', '6to4 of 169.254.169.254'],
    ['::a9fe:a9fe', 'IPv4-compatible 169.254.169.254'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped 169.254.169.254'],
    ['::ffff:0:a9fe:a9fe', 'IPv4-translated 169.254.169.254'],
    ['2001:0:4136:e378:8000:63bf:5601:5601', 'Teredo with client 169.254.169.254'],
    ['64:ff9b::c000:c0', 'NAT64 of 192.0.0.192'],
    ['64:ff9b:1::c000:c0', 'local-use NAT64 of 192.0.0.192'],
    ['2002:c000:c0::', '6to4 of 192.0.0.192'],
    ['::c000:c0', 'IPv4-compatible 192.0.0.192'],
    ['::ffff:c000:c0', 'IPv4-mapped 192.0.0.192'],
    ['::ffff:0:c000:c0', 'IPv4-translated 192.0.0.192'],
    ['2001:0:4136:e378:8000:63bf:3fff:ff3f', 'Teredo with client 192.0.0.192'],
    ['fd00:ec2::254', 'the AWS IPv6 metadata address'],
  ] as const) {
    t.match(refusedAddress(address, false), 'cloud metadata address', `${form} is refused by default`)
    t.match(refusedAddress(address, true), 'cloud metadata address', `${form} is refused with private allowed`)
  }
  t.equal(
    refusedAddress('2002:a9fe:a9fe::', true),
    '2002:a9fe:a9fe:: is the 6to4 form of 169.254.169.254, a cloud metadata address',
    'the refusal names the encoding and the address it embeds',
  )
})

t.test('public addresses in these encodings are allowed', async (t) => {
  for (const [address, form] of [
    ['2002:101:101::', '6to4 of 1.1.1.1'],
    ['64:ff9b::5db8:d70e', 'NAT64 of 93.184.215.14'],
    ['::ffff:5db8:d70e', 'IPv4-mapped 93.184.215.14'],
    ['2001:0:4136:e378:8000:63bf:fefe:fefe', 'Teredo with server 65.54.227.120 and client 1.1.1.1'],
  ] as const) {
    t.equal(refusedAddress(address, false), null, `${form} is allowed`)
  }
})

t.test('a loopback or private refusal names the setting that allows it; a metadata one does not', async (t) => {
  t.equal(
    refusedAddress('127.0.0.1', false),
    '127.0.0.1 is a loopback address; set WEBHOOK_ALLOW_PRIVATE=true to allow private and loopback webhook URLs (cloud metadata addresses stay refused)',
    'loopback names WEBHOOK_ALLOW_PRIVATE',
  )
  t.match(refusedAddress('10.0.0.1', false), 'WEBHOOK_ALLOW_PRIVATE=true', 'so does private')
  t.notMatch(refusedAddress('169.254.169.254', false), 'WEBHOOK_ALLOW_PRIVATE', 'no setting allows metadata')
})

t.test('a URL check explains itself', async (t) => {
  t.match(await checkWebhookUrl('http://10.0.0.1/x', false), 'private address', 'a private address')
  t.match(await checkWebhookUrl('gopher://example.com/', false), 'http:// or https://', 'another scheme')
  t.match(await checkWebhookUrl('http://no-such-host.invalid/', false), 'does not resolve', 'an unknown host')
  t.match(
    await checkWebhookUrl('https://user:pass@93.184.215.14/hooks', false),
    /credentials.*plain text.*signing secret/,
    'credentials, and what to use instead',
  )
  t.match(await checkWebhookUrl('https://token@93.184.215.14/hooks', false), 'credentials', 'a user name alone too')
  t.match(
    await checkWebhookUrl('http://[64:ff9b::a9fe:a9fe]/latest/meta-data', true),
    'cloud metadata address',
    'an IPv6 literal embedding the metadata address',
  )
  t.equal(await checkWebhookUrl('https://93.184.215.14/hooks', false), null, 'a public address passes')
  t.equal(await checkWebhookUrl('https://[2002:101:101::]/hooks', false), null, 'so does 6to4 of a public one')
})

t.test('at connect time, an address embedding a refused one is refused whatever name resolved to it', async (t) => {
  const lookup = guardedLookup(true)
  // The system resolver answers an address literal with itself, as it would a name that resolves to it.
  const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
    lookup('64:ff9b::a9fe:a9fe', { family: 0 }, (error) => resolve(error)),
  )
  t.equal(error?.code, 'ERR_WEBHOOK_ADDRESS_REFUSED', 'the lookup fails with the guard’s error')
  t.match(error?.message, 'NAT64 form of 169.254.169.254, a cloud metadata address', 'saying why')
  const allowed = await new Promise<string>((resolve) =>
    lookup('2002:101:101::', { family: 0 }, (_error, address) =>
      resolve(typeof address === 'string' ? address : JSON.stringify(address)),
    ),
  )
  t.equal(allowed, '2002:101:101::', 'a public 6to4 address resolves')
})

t.test('the guard also holds when the request is sent, whatever the host resolved to when it was stored', async (t) => {
  let hits = 0
  const { port, agents } = await loopbackReceiver(t, (_req, res) => {
    hits++
    res.end('ok')
  })
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

t.test('credentials in a URL stored before they were refused are never sent as Basic auth', async (t) => {
  let authorization: string | undefined = 'not called'
  const { port, agents } = await loopbackReceiver(t, (req, res) => {
    authorization = req.headers.authorization
    res.end('ok')
  })
  const sent = await postWebhook(
    { headers: {}, body: '{}', timeoutMs: 2_000, url: `http://user:secret@127.0.0.1:${port}/`, allowPrivate: true },
    agents,
  )
  t.equal(sent.statusCode, 200, 'delivered')
  t.equal(authorization, undefined, 'without an Authorization header')
})

t.test('an endpoint slower than the timeout gives an attempt that says so', async (t) => {
  const { port, agents } = await loopbackReceiver(t, (_req, res) => setTimeout(() => res.end('late'), 2_000))
  const outcome = await postWebhook(
    { url: `http://127.0.0.1:${port}/`, headers: {}, body: '{}', timeoutMs: 200, allowPrivate: true },
    agents,
  )
  t.equal(outcome.statusCode, null, 'no status')
  t.equal(outcome.error, 'no answer within 200 ms', 'the error names the timeout')
})
