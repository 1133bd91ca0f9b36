import t from 'tap'
import { createCampaign, createCharacter, mintPlayerKey, PROBLEM, type Auth } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { act, created, type Ids } from '../helpers/commands.js'
import { Stream } from '../helpers/event-stream.js'

// One app on a real socket for the file: a stream is read as a browser would, over HTTP.
const app = await buildTestApp(t)
const address = await app.listen({ port: 0, host: '127.0.0.1' })
t.teardown(() => app.close())

interface Ticket {
  ticket: string
  expiresAt: string
  url: string
}

async function mint(campaignId: string, auth: Auth): Promise<Ticket> {
  const res = await fetch(`${address}/v1/campaigns/${campaignId}/events/stream-tickets`, {
    method: 'POST',
    headers: auth,
  })
  if (res.status !== 201) throw new Error(`minting a ticket: ${res.status} ${await res.text()}`)
  return (await res.json()) as Ticket
}

async function open(url: string, headers: Record<string, string> = {}): Promise<Stream> {
  const controller = new AbortController()
  const response = await fetch(url, { headers, signal: controller.signal })
  const stream = new Stream(response, controller)
  t.teardown(() => stream.close())
  return stream
}

async function setUp() {
  const campaign = await createCampaign(app, 'reaction-rolls')
  const { character } = await createCharacter(app, campaign.campaign, campaign.auth)
  const ids: Ids = { campaignId: campaign.campaign.id, characterId: character.id }
  const roll = (visibility: 'public' | 'gm' = 'public') =>
    act(app, campaign.auth, ids, 'reaction-roll', { request: { pressure: 4, resist: false }, visibility }).then((res) =>
      created(res, 'a roll'),
    )
  return { campaign, ids, roll }
}

t.test('a ticket minted with a key opens the event stream without the key, once', async (t) => {
  const { campaign, ids, roll } = await setUp()
  const before = Date.now()
  const minted = await mint(ids.campaignId, campaign.auth)
  t.match(minted.ticket, /^nrv_st_[A-Za-z0-9_-]{43}$/, 'a ticket with its own prefix and 256 random bits')
  const expiresAt = Date.parse(minted.expiresAt)
  t.ok(expiresAt > before && expiresAt <= Date.now() + 60_000, 'it expires within 60 s')
  t.equal(
    minted.url,
    `${address}/v1/campaigns/${ids.campaignId}/events/stream?ticket=${minted.ticket}`,
    'the url is the stream’s, with the ticket',
  )

  const stream = await open(minted.url, { origin: 'http://localhost:30000' })
  t.equal(stream.response.status, 200, 'the ticket opens the stream')
  t.match(stream.response.headers.get('content-type'), 'text/event-stream', 'a text/event-stream')
  t.equal(stream.response.headers.get('access-control-allow-origin'), '*', 'readable by a page on another origin')
  await stream.connected()
  const { event } = await roll()
  t.equal((await stream.next())?.data.id, event.id, 'a new roll arrives on the stream')

  const again = await fetch(minted.url)
  t.equal(again.status, 401, 'a ticket already used is 401')
  t.match(again.headers.get('content-type'), PROBLEM, 'as problem details')
  t.match(await again.json(), { code: 'UNAUTHORIZED', detail: /mint a new one/ }, 'which says to mint a new ticket')
})

t.test('a ticket is stored only as its hash', async (t) => {
  const { campaign, ids } = await setUp()
  const minted = await mint(ids.campaignId, campaign.auth)
  const stored = await app.db.prisma.streamTicket.findMany({ where: { campaignId: ids.campaignId } })
  t.equal(stored.length, 1, 'one ticket row')
  t.not(stored[0]?.hash, minted.ticket, 'the row does not hold the ticket')
  t.match(stored[0]?.hash, /^[0-9a-f]{64}$/, 'it holds a SHA-256')
})

t.test('an expired ticket is 401', async (t) => {
  const { campaign, ids } = await setUp()
  const minted = await mint(ids.campaignId, campaign.auth)
  // Nerve's clock is not the test's to move: the ticket's expiry is moved into the past instead.
  await app.db.prisma.streamTicket.updateMany({
    where: { campaignId: ids.campaignId },
    data: { expiresAt: new Date(Date.now() - 1_000) },
  })
  const res = await fetch(minted.url)
  t.equal(res.status, 401, 'an expired ticket opens nothing')
  t.match(res.headers.get('www-authenticate'), /invalid_token/, 'the challenge says the credential is invalid')
})

t.test('the ticket of a revoked key is 401', async (t) => {
  const { campaign, ids } = await setUp()
  const player = await mintPlayerKey(app, campaign.campaign, campaign.auth, [ids.characterId])
  const minted = await mint(ids.campaignId, player.auth)
  const revoked = await app.inject({
    method: 'DELETE',
    url: `/v1/campaigns/${ids.campaignId}/keys/${player.key.id}`,
    headers: campaign.auth,
  })
  t.equal(revoked.statusCode, 200, 'the GM revokes the player key')
  t.equal((await fetch(minted.url)).status, 401, 'the ticket minted before is refused')
})

t.test('a player’s ticket opens a stream that never carries GM-only events', async (t) => {
  const { campaign, ids, roll } = await setUp()
  const player = await mintPlayerKey(app, campaign.campaign, campaign.auth, [ids.characterId])
  const stream = await open((await mint(ids.campaignId, player.auth)).url)
  await stream.connected()
  const secret = await roll('gm')
  const visible = await roll('public')
  const first = (await stream.next())!.data
  t.equal(first.id, visible.event.id, 'the first message is the public roll')
  t.not(first.id, secret.event.id, 'the GM-only roll never came')
  t.equal(first.visibility, 'public', 'a public event')
})

t.test('tickets open the event stream only, and the key never goes in a URL', async (t) => {
  const { campaign, ids } = await setUp()
  const minted = await mint(ids.campaignId, campaign.auth)
  const history = await app.inject({ url: `/v1/campaigns/${ids.campaignId}/events?ticket=${minted.ticket}` })
  t.equal(history.statusCode, 401, 'the history does not take a ticket')
  const keyInUrl = await app.inject({
    url: `/v1/campaigns/${ids.campaignId}/events/stream?ticket=${encodeURIComponent(campaign.gmKey.key)}`,
  })
  t.equal(keyInUrl.statusCode, 401, 'a key is not a ticket')
  const stream = await open(minted.url)
  t.equal(stream.response.status, 200, 'the ticket refused elsewhere was not used up there')
})

t.test('a ticket opens its own campaign’s stream only', async (t) => {
  const mine = await setUp()
  const other = await setUp()
  const minted = await mint(mine.ids.campaignId, mine.campaign.auth)
  const res = await app.inject({
    url: `/v1/campaigns/${other.ids.campaignId}/events/stream?ticket=${minted.ticket}`,
  })
  t.equal(res.statusCode, 404, 'another campaign is not found, as with the key')
  const noKey = await app.inject({ method: 'POST', url: `/v1/campaigns/${mine.ids.campaignId}/events/stream-tickets` })
  t.equal(noKey.statusCode, 401, 'minting a ticket needs a key')
})
