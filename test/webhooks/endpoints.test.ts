import t from 'tap'
import { createCampaign, createCharacter, mintPlayerKey, PROBLEM } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { webhooksUrl } from '../helpers/webhooks.js'

// The operator setting is left at its default: private and loopback addresses are refused.
const app = await buildTestApp(t, { WEBHOOK_DISPATCHER: 'off' })

const PUBLIC_URL = 'http://93.184.215.14/hooks/nerve'

interface FieldError {
  pointer: string
  detail: string
}
const pointersOf = (body: { errors?: FieldError[] }) => (body.errors ?? []).map((error) => error.pointer)

t.test('POST …/webhooks returns 201 with the endpoint and a whsec_ secret shown once', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const res = await app.inject({
    method: 'POST',
    url: webhooksUrl(campaign.id),
    headers: auth,
    payload: { url: PUBLIC_URL, description: 'Discord bot', eventTypes: ['stress-check'] },
  })
  t.equal(res.statusCode, 201, 'created')
  const created = res.json()
  t.match(
    created,
    {
      campaignId: campaign.id,
      url: PUBLIC_URL,
      description: 'Discord bot',
      eventTypes: ['stress-check'],
      includeGmEvents: false,
      enabled: true,
      disabledReason: null,
      failingSince: null,
      previousSecretExpiresAt: null,
    },
    'the endpoint as sent, GM-only events off by default',
  )
  t.match(created.secret, /^whsec_[A-Za-z0-9+/]{40,}=*$/, 'a Standard Webhooks secret')
  t.ok(Buffer.from(created.secret.slice(6), 'base64').length >= 24, 'of at least 24 random bytes')

  const list = await app.inject({ url: webhooksUrl(campaign.id), headers: auth })
  t.equal(list.statusCode, 200, 'listed')
  t.same(
    list.json().data.map((endpoint: { id: string }) => endpoint.id),
    [created.id],
    'the endpoint is listed',
  )
  t.notOk(list.body.includes(created.secret), 'the list never shows the secret')
  const one = await app.inject({ url: `${webhooksUrl(campaign.id)}/${created.id}`, headers: auth })
  t.equal(one.statusCode, 200, 'fetched')
  t.notOk('secret' in one.json(), 'nor does GET')
})

t.test('PATCH changes the filters and the URL; DELETE removes the endpoint', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const created = (
    await app.inject({ method: 'POST', url: webhooksUrl(campaign.id), headers: auth, payload: { url: PUBLIC_URL } })
  ).json()
  const url = `${webhooksUrl(campaign.id)}/${created.id}`

  const patched = await app.inject({
    method: 'PATCH',
    url,
    headers: auth,
    payload: { eventTypes: ['revert', 'character.created'], includeGmEvents: true, description: 'VTT relay' },
  })
  t.equal(patched.statusCode, 200, 'updated')
  t.match(
    patched.json(),
    { eventTypes: ['revert', 'character.created'], includeGmEvents: true, description: 'VTT relay', url: PUBLIC_URL },
    'changed fields changed, the URL kept',
  )
  const cleared = await app.inject({ method: 'PATCH', url, headers: auth, payload: { description: null } })
  t.equal(cleared.json().description, null, 'null clears the description')
  const empty = await app.inject({ method: 'PATCH', url, headers: auth, payload: {} })
  t.equal(empty.statusCode, 422, 'an empty patch is refused')

  const deleted = await app.inject({ method: 'DELETE', url, headers: auth })
  t.equal(deleted.statusCode, 204, 'deleted')
  const gone = await app.inject({ url, headers: auth })
  t.equal(gone.statusCode, 404, 'then not found')
  t.match(gone.headers['content-type'], PROBLEM, 'as problem+json')
})

t.test('an unknown event type in a filter is 422 naming the entry', async (t) => {
  const { campaign, auth } = await createCampaign(app, 'trauma-table')
  const res = await app.inject({
    method: 'POST',
    url: webhooksUrl(campaign.id),
    headers: auth,
    payload: { url: PUBLIC_URL, eventTypes: ['trauma-roll', 'stress-check'] },
  })
  t.equal(res.statusCode, 422, 'refused')
  t.same(pointersOf(res.json()), ['/body/eventTypes/1'], 'stress-check is not a trauma-table event')
  t.notMatch(res.json().detail, /did you mean/, 'and nothing of a trauma-table campaign is close to it')
})

t.test('a misspelt event type in a filter is 422 with the type it most likely meant', async (t) => {
  const { campaign, auth } = await createCampaign(app, 'shock-meters')
  const res = await app.inject({
    method: 'POST',
    url: webhooksUrl(campaign.id),
    headers: auth,
    payload: { url: PUBLIC_URL, eventTypes: ['stress-chek'] },
  })
  t.equal(res.statusCode, 422, 'refused')
  t.match(res.json().detail, 'stress-chek is not an event type of a shock-meters campaign; did you mean stress-check?')
})

for (const [url, why] of [
  ['http://127.0.0.1:8080/hooks', 'a loopback address'],
  ['http://localhost/hooks', 'a host resolving to loopback'],
  ['http://[::1]/hooks', 'IPv6 loopback'],
  ['http://[::ffff:127.0.0.1]/hooks', 'loopback behind an IPv4-mapped IPv6 address'],
  ['http://0.0.0.0/hooks', 'the unspecified address'],
  ['http://10.1.2.3/hooks', 'a private address'],
  ['http://192.168.1.20/hooks', 'a private address'],
  ['http://172.20.0.5/hooks', 'a private address'],
  ['http://[fd12:3456::1]/hooks', 'an IPv6 unique-local address'],
  ['http://169.254.10.10/hooks', 'a link-local address'],
  ['http://169.254.169.254/latest/meta-data', 'the cloud metadata address'],
  ['http://[64:ff9b::a9fe:a9fe]/latest/meta-data', 'the metadata address behind NAT64'],
  ['http://[2002:a9fe:a9fe::]/latest/meta-data', 'the metadata address behind 6to4'],
  ['http://[::a9fe:a9fe]/latest/meta-data', 'the metadata address as IPv4-compatible IPv6'],
  ['http://[::127.0.0.1]/hooks', 'loopback as IPv4-compatible IPv6'],
  ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hooks', 'a Teredo address whose client is loopback'],
  ['ftp://example.com/hooks', 'a scheme other than http(s)'],
  ['not a url', 'something that is not a URL'],
] as const) {
  t.test(`a webhook URL to ${why} is refused with 422 naming /body/url (${url})`, async (t) => {
    const { campaign, auth } = await createCampaign(app)
    const res = await app.inject({ method: 'POST', url: webhooksUrl(campaign.id), headers: auth, payload: { url } })
    t.equal(res.statusCode, 422, 'unprocessable')
    t.match(res.headers['content-type'], PROBLEM, 'as problem+json')
    t.same(pointersOf(res.json()), ['/body/url'], 'the problem names the url field')
  })
}

t.test('a loopback refusal says which setting allows it', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const res = await app.inject({
    method: 'POST',
    url: webhooksUrl(campaign.id),
    headers: auth,
    payload: { url: 'http://127.0.0.1:8080/hooks' },
  })
  t.equal(res.statusCode, 422, 'unprocessable')
  t.match(res.json().detail, /loopback address; set WEBHOOK_ALLOW_PRIVATE=true/, 'the detail names the setting')
})

t.test('a public address behind 6to4 or NAT64 is accepted', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  for (const url of ['http://[2002:101:101::]/hooks', 'http://[64:ff9b::5db8:d70e]/hooks']) {
    const res = await app.inject({ method: 'POST', url: webhooksUrl(campaign.id), headers: auth, payload: { url } })
    t.equal(res.statusCode, 201, `${url} accepted`)
  }
})

t.test('a URL with credentials is refused on POST and PATCH, and nothing is stored', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const posted = await app.inject({
    method: 'POST',
    url: webhooksUrl(campaign.id),
    headers: auth,
    payload: { url: 'https://bot:hunter2@93.184.215.14/hooks' },
  })
  t.equal(posted.statusCode, 422, 'POST unprocessable')
  t.match(posted.headers['content-type'], PROBLEM, 'as problem+json')
  t.same(pointersOf(posted.json()), ['/body/url'], 'naming the url field')
  t.match(posted.json().detail, /credentials.*plain text.*signing secret/, 'saying why and what to use instead')
  t.notOk(posted.body.includes('hunter2'), 'without echoing the password')
  const list = await app.inject({ url: webhooksUrl(campaign.id), headers: auth })
  t.same(list.json().data, [], 'no endpoint was stored')

  const created = (
    await app.inject({ method: 'POST', url: webhooksUrl(campaign.id), headers: auth, payload: { url: PUBLIC_URL } })
  ).json()
  const endpointUrl = `${webhooksUrl(campaign.id)}/${created.id}`
  const patched = await app.inject({
    method: 'PATCH',
    url: endpointUrl,
    headers: auth,
    payload: { url: 'https://bot:hunter2@93.184.215.14/hooks' },
  })
  t.equal(patched.statusCode, 422, 'PATCH unprocessable')
  t.match(patched.headers['content-type'], PROBLEM, 'as problem+json')
  t.same(pointersOf(patched.json()), ['/body/url'], 'naming the url field')
  t.equal((await app.inject({ url: endpointUrl, headers: auth })).json().url, PUBLIC_URL, 'the stored URL is unchanged')
})

t.test('PATCH to a private URL is refused too', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const created = (
    await app.inject({ method: 'POST', url: webhooksUrl(campaign.id), headers: auth, payload: { url: PUBLIC_URL } })
  ).json()
  const res = await app.inject({
    method: 'PATCH',
    url: `${webhooksUrl(campaign.id)}/${created.id}`,
    headers: auth,
    payload: { url: 'http://192.168.0.1/' },
  })
  t.equal(res.statusCode, 422, 'unprocessable')
  t.same(pointersOf(res.json()), ['/body/url'], 'naming the url field')
})

t.test('with WEBHOOK_ALLOW_PRIVATE=true loopback is allowed, cloud metadata still refused', async (t) => {
  const open = await buildTestApp(t, { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_DISPATCHER: 'off' })
  const { campaign, auth } = await createCampaign(open)
  const create = (url: string) =>
    open.inject({ method: 'POST', url: webhooksUrl(campaign.id), headers: auth, payload: { url } })
  t.equal((await create('http://127.0.0.1:9/hooks')).statusCode, 201, 'loopback accepted')
  t.equal((await create('http://10.0.0.8/hooks')).statusCode, 201, 'a private address accepted')
  const metadata = await create('http://169.254.169.254/latest/meta-data')
  t.equal(metadata.statusCode, 422, 'the metadata address is never a webhook')
  t.match(metadata.json().detail, 'metadata', 'and the problem says why')
  for (const url of [
    'http://[64:ff9b::a9fe:a9fe]/latest/meta-data',
    'http://[2002:a9fe:a9fe::]/latest/meta-data',
    'http://[::a9fe:a9fe]/latest/meta-data',
    'http://[2001:0:4136:e378:8000:63bf:5601:5601]/latest/meta-data',
    'http://192.0.0.192/opc/v2/instance/',
    'http://[64:ff9b::c000:c0]/opc/v2/instance/',
    'http://[fd00:ec2::254]/latest/meta-data',
  ]) {
    t.equal((await create(url)).statusCode, 422, `${url} refused`)
  }
})

t.test('webhooks are the GM’s: a player key gets 403, another campaign’s key 404', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const { character } = await createCharacter(app, campaign, auth)
  const player = await mintPlayerKey(app, campaign, auth, [character.id])
  const created = (
    await app.inject({ method: 'POST', url: webhooksUrl(campaign.id), headers: auth, payload: { url: PUBLIC_URL } })
  ).json()

  const asPlayer = await app.inject({ url: webhooksUrl(campaign.id), headers: player.auth })
  t.equal(asPlayer.statusCode, 403, 'a player key may not list webhooks')
  const noKey = await app.inject({ url: webhooksUrl(campaign.id) })
  t.equal(noKey.statusCode, 401, 'no key is 401')

  const other = await createCampaign(app)
  const foreign = await app.inject({ url: `${webhooksUrl(campaign.id)}/${created.id}`, headers: other.auth })
  t.equal(foreign.statusCode, 404, 'another campaign’s GM does not learn it exists')
  const crossed = await app.inject({ url: `${webhooksUrl(other.campaign.id)}/${created.id}`, headers: other.auth })
  t.equal(crossed.statusCode, 404, 'nor through their own campaign')
})

t.test('rotate-secret with {} keeps the old secret signing for the documented default of 24 hours', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const created = (
    await app.inject({ method: 'POST', url: webhooksUrl(campaign.id), headers: auth, payload: { url: PUBLIC_URL } })
  ).json()
  const day = 24 * 60 * 60 * 1000
  const before = Date.now()
  const res = await app.inject({
    method: 'POST',
    url: `${webhooksUrl(campaign.id)}/${created.id}/rotate-secret`,
    headers: auth,
    payload: {},
  })
  const after = Date.now()
  t.equal(res.statusCode, 200, `rotated (got ${res.statusCode}: ${res.body.slice(0, 300)})`)
  const rotated = res.json()
  t.not(rotated.secret, created.secret, 'a new secret')
  const expires = Date.parse(rotated.previousSecretExpiresAt)
  t.ok(
    expires >= before + day && expires <= after + day,
    `the old secret ends 24 h from now (${rotated.previousSecretExpiresAt})`,
  )

  const document = (await app.inject({ url: '/docs/json' })).json()
  const schema = document.components.schemas.RotateWebhookSecret
  t.notOk(schema.required?.includes('gracePeriodSeconds'), 'the document does not call gracePeriodSeconds required')
  t.equal(schema.properties.gracePeriodSeconds.default, 24 * 60 * 60, 'and documents its default, 24 h in seconds')
})

t.test('rotate-secret refuses a grace period beyond 7 days with 422 naming the field', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const created = (
    await app.inject({ method: 'POST', url: webhooksUrl(campaign.id), headers: auth, payload: { url: PUBLIC_URL } })
  ).json()
  const res = await app.inject({
    method: 'POST',
    url: `${webhooksUrl(campaign.id)}/${created.id}/rotate-secret`,
    headers: auth,
    payload: { gracePeriodSeconds: 7 * 24 * 60 * 60 + 1 },
  })
  t.equal(res.statusCode, 422, 'unprocessable')
  t.match(res.headers['content-type'], PROBLEM, 'as problem+json')
  t.same(pointersOf(res.json()), ['/body/gracePeriodSeconds'], 'naming the field')
})
