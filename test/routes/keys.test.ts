import t from 'tap'
import { bearer, createCampaign, createCharacter, mintPlayerKey, PROBLEM } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'

const app = await buildTestApp(t)

interface FieldError {
  pointer: string
}
const pointersOf = (body: { errors?: FieldError[] }) => (body.errors ?? []).map((error) => error.pointer)

t.test('the GM mints a player key bound to characters, shown once', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const vera = await createCharacter(app, campaign, auth, { name: 'Vera' })
  const sam = await createCharacter(app, campaign, auth, { name: 'Sam' })

  const res = await app.inject({
    method: 'POST',
    url: `/v1/campaigns/${campaign.id}/keys`,
    headers: auth,
    payload: { label: 'Sam’s player', characterIds: [vera.character.id, sam.character.id] },
  })
  t.equal(res.statusCode, 201, 'minted')
  const minted = res.json()
  t.match(minted.key, /^nrv_pl_[A-Za-z0-9_-]{40,}$/, 'a recognisable player key')
  t.ok(minted.key.startsWith(minted.prefix), 'the prefix shown is the start of the key')
  t.match(
    minted,
    { role: 'player', label: 'Sam’s player', characterIds: [vera.character.id, sam.character.id], revokedAt: null },
    'bound to both characters',
  )

  const read = await app.inject({ url: `/v1/campaigns/${campaign.id}`, headers: bearer(minted.key) })
  t.equal(read.statusCode, 200, 'the player key works at once')
})

t.test('a character of another campaign or an unknown id is 422 naming /body/characterIds/<i>', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const other = await createCampaign(app)
  const mine = await createCharacter(app, campaign, auth)
  const theirs = await createCharacter(app, other.campaign, other.auth)
  const url = `/v1/campaigns/${campaign.id}/keys`

  const foreign = await app.inject({
    method: 'POST',
    url,
    headers: auth,
    payload: { characterIds: [mine.character.id, theirs.character.id] },
  })
  t.equal(foreign.statusCode, 422, 'another campaign’s character is refused')
  t.match(foreign.headers['content-type'], PROBLEM, 'as problem+json')
  t.same(pointersOf(foreign.json()), ['/body/characterIds/1'], 'the problem names the second id')

  const unknown = await app.inject({
    method: 'POST',
    url,
    headers: auth,
    payload: { characterIds: ['0193a5e2-7c1d-7000-8000-000000000001'] },
  })
  t.equal(unknown.statusCode, 422, 'an unknown character is refused')
  t.same(pointersOf(unknown.json()), ['/body/characterIds/0'], 'the problem names the id')

  const malformed = await app.inject({ method: 'POST', url, headers: auth, payload: { characterIds: ['vera'] } })
  t.equal(malformed.statusCode, 422, 'a malformed id is refused')
  t.same(pointersOf(malformed.json()), ['/body/characterIds/0'], 'and named')

  const none = await app.inject({ method: 'POST', url, headers: auth, payload: { characterIds: [] } })
  t.equal(none.statusCode, 422, 'a player key must act for at least one character')

  const keys = await app.inject({ url, headers: auth })
  t.equal(keys.json().data.length, 1, 'no key was minted by the refused requests')
})

t.test('GET …/keys lists every key and never shows a secret', async (t) => {
  const { campaign, auth, gmKey } = await createCampaign(app)
  const { character } = await createCharacter(app, campaign, auth)
  const first = await mintPlayerKey(app, campaign, auth, [character.id], 'first')
  const second = await mintPlayerKey(app, campaign, auth, [character.id], 'second')

  const res = await app.inject({ url: `/v1/campaigns/${campaign.id}/keys`, headers: auth })
  t.equal(res.statusCode, 200, 'listed')
  const listed = res.json().data as { id: string; prefix: string; role: string }[]
  t.same(
    listed.map((key) => key.id),
    [gmKey.id, first.key.id, second.key.id],
    'the GM key and both player keys, oldest first',
  )
  t.same(
    listed.map((key) => key.role),
    ['gm', 'player', 'player'],
    'with their roles',
  )
  for (const secret of [gmKey.key, first.key.key, second.key.key]) {
    t.notOk(res.body.includes(secret), `the secret ${secret.slice(0, 10)}… is not in the listing`)
  }
  t.ok(
    listed.every((key) => !('key' in key)),
    'no listed key has a secret field',
  )
  t.same(
    listed.map((key) => key.prefix),
    [gmKey.prefix, first.key.prefix, second.key.prefix],
    'only the prefixes tell them apart',
  )
})

t.test('a revoked key gets 401 at once; revoking twice is harmless', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const { character } = await createCharacter(app, campaign, auth)
  const player = await mintPlayerKey(app, campaign, auth, [character.id])
  const campaignUrl = `/v1/campaigns/${campaign.id}`
  t.equal((await app.inject({ url: campaignUrl, headers: player.auth })).statusCode, 200, 'the key works before')

  const res = await app.inject({ method: 'DELETE', url: `${campaignUrl}/keys/${player.key.id}`, headers: auth })
  t.equal(res.statusCode, 200, 'revoked')
  t.type(res.json().revokedAt, 'string', 'with the time of revocation')
  t.notOk(res.body.includes(player.key.key), 'the answer shows no secret')

  const after = await app.inject({ url: campaignUrl, headers: player.auth })
  t.equal(after.statusCode, 401, 'the revoked key gets 401 on the next request')
  t.match(after.headers['www-authenticate'], /invalid_token/, 'with an invalid_token challenge')
  const roll = await app.inject({
    method: 'POST',
    url: `${campaignUrl}/characters/${character.id}/stress-check`,
    headers: player.auth,
    payload: { request: { meter: 'self', rank: 2 } },
  })
  t.equal(roll.statusCode, 401, 'and cannot roll either')

  const twice = await app.inject({ method: 'DELETE', url: `${campaignUrl}/keys/${player.key.id}`, headers: auth })
  t.equal(twice.statusCode, 200, 'revoking again is harmless')
  t.equal(twice.json().revokedAt, res.json().revokedAt, 'and keeps the first revocation time')

  const unknown = await app.inject({
    method: 'DELETE',
    url: `${campaignUrl}/keys/0193a5e2-7c1d-7000-8000-000000000001`,
    headers: auth,
  })
  t.equal(unknown.statusCode, 404, 'an unknown key is not found')

  const listed = await app.inject({ url: `${campaignUrl}/keys`, headers: auth })
  t.match(
    listed.json().data.find((key: { id: string }) => key.id === player.key.id),
    { revokedAt: res.json().revokedAt },
    'the listing shows the key as revoked',
  )
})

t.test('the GM can revoke its own key, and then it gets 401', async (t) => {
  const { campaign, auth, gmKey } = await createCampaign(app)
  const res = await app.inject({
    method: 'DELETE',
    url: `/v1/campaigns/${campaign.id}/keys/${gmKey.id}`,
    headers: auth,
  })
  t.equal(res.statusCode, 200, 'revoked')
  t.equal((await app.inject({ url: `/v1/campaigns/${campaign.id}`, headers: auth })).statusCode, 401, 'and dead')
})

t.test('keys are stored only as a hash', async (t) => {
  const { campaign, auth, gmKey } = await createCampaign(app)
  const { character } = await createCharacter(app, campaign, auth)
  const player = await mintPlayerKey(app, campaign, auth, [character.id])

  const rows = await app.db.prisma.apiKey.findMany({ where: { campaignId: campaign.id } })
  t.equal(rows.length, 2, 'both keys are stored')
  const stored = JSON.stringify(rows)
  for (const secret of [gmKey.key, player.key.key]) {
    t.notOk(stored.includes(secret), `no column holds the key ${secret.slice(0, 10)}…`)
    // Only the visible prefix may be kept in the clear: no longer piece of the secret part.
    t.notOk(stored.includes(secret.slice(10, 30)), 'nor a piece of its secret part')
  }
  for (const row of rows) t.match(row.hash, /^[0-9a-f]{64}$/, `key ${row.id} is kept as a SHA-256 digest`)
})
