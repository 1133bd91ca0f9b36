import t from 'tap'
import { buildApp, type App } from '../../src/app.js'
import { createCampaign, createCharacter, mintPlayerKey, PROBLEM, type Auth } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { testConfig } from '../helpers/config.js'
import { act, created, type Ids } from '../helpers/commands.js'
import { Stream, type Message } from '../helpers/event-stream.js'
import { freshDatabaseUrl, TEST_DATABASE_URL } from '../helpers/database.js'

// One app on a real socket for the file; the last test closes it.
const app = await buildTestApp(t)
const address = await app.listen({ port: 0, host: '127.0.0.1' })

async function open(campaignId: string, auth: Auth, headers: Record<string, string> = {}, query = '', at = address) {
  const controller = new AbortController()
  const response = await fetch(`${at}/v1/campaigns/${campaignId}/events/stream${query}`, {
    headers: { ...auth, ...headers },
    signal: controller.signal,
  })
  return new Stream(response, controller)
}

/** A public reaction roll as `auth`, on `on`. */
function rollAs(on: App, auth: Auth, ids: Ids, visibility: 'public' | 'gm' = 'public') {
  return act(on, auth, ids, 'reaction-roll', { request: { pressure: 4, resist: false }, visibility }).then((res) =>
    created(res, 'a roll'),
  )
}

async function setUp(on: App = app) {
  const campaign = await createCampaign(on, 'reaction-rolls')
  const { character } = await createCharacter(on, campaign.campaign, campaign.auth)
  const ids: Ids = { campaignId: campaign.campaign.id, characterId: character.id }
  const roll = (visibility: 'public' | 'gm' = 'public') => rollAs(on, campaign.auth, ids, visibility)
  return { campaign, ids, roll }
}

function revoke(on: App, ids: Ids, auth: Auth, keyId: string) {
  return on.inject({ method: 'DELETE', url: `/v1/campaigns/${ids.campaignId}/keys/${keyId}`, headers: auth })
}

interface FieldProblem {
  detail: string
  errors: { pointer: string }[]
}

/** Every message left until the stream ends (each within next()’s deadline). */
async function rest(stream: Stream): Promise<Message[]> {
  const messages: Message[] = []
  for (let message = await stream.next(); message; message = await stream.next()) messages.push(message)
  return messages
}

t.test('a new roll appears on an open stream', async (t) => {
  const { campaign, ids, roll } = await setUp()
  const stream = await open(ids.campaignId, campaign.auth)
  t.teardown(() => stream.close())
  t.equal(stream.response.status, 200, '200 OK')
  t.match(stream.response.headers.get('content-type'), 'text/event-stream', 'a text/event-stream')
  await stream.connected()

  const { event } = await roll()
  const message = await stream.next()
  t.equal(message?.id, event.seq, 'the message id is the event’s seq')
  t.equal(message?.event, 'reaction-roll', 'the message event is the event type')
  t.equal(message?.data.id, event.id, 'the data is the event')

  const second = await roll()
  t.equal((await stream.next())?.data.id, second.event.id, 'the next roll follows')
})

t.test('a campaign rename appears live on a player’s stream, as on the GM’s', async (t) => {
  const { campaign, ids } = await setUp()
  const player = await mintPlayerKey(app, campaign.campaign, campaign.auth, [ids.characterId])
  const streams = [await open(ids.campaignId, campaign.auth), await open(ids.campaignId, player.auth)]
  for (const stream of streams) {
    t.teardown(() => stream.close())
    await stream.connected()
  }
  const renamed = await app.inject({
    method: 'PATCH',
    url: `/v1/campaigns/${ids.campaignId}`,
    headers: campaign.auth,
    payload: { name: 'Season 2' },
  })
  t.equal(renamed.statusCode, 200, 'the GM renames the campaign')
  for (const [who, stream] of [
    ['GM', streams[0]!],
    ['player', streams[1]!],
  ] as const) {
    const message = await stream.next()
    t.equal(message?.event, 'campaign.updated', `the ${who}’s stream sends the campaign event`)
    t.match(message?.data, { seq: 2, visibility: 'public', characterId: null }, 'a public event of no character')
  }
})

t.test('resuming with Last-Event-ID sends exactly the missed events, then live ones', async (t) => {
  const { campaign, ids, roll } = await setUp()
  const seen = await roll()
  const missed = [await roll(), await roll(), await roll()]

  const stream = await open(ids.campaignId, campaign.auth, { 'last-event-id': String(seen.event.seq) })
  t.teardown(() => stream.close())
  const replayed = [await stream.next(), await stream.next(), await stream.next()]
  t.same(
    replayed.map((message) => message?.data.id),
    missed.map((result) => result.event.id),
    'the three missed events, in order',
  )
  const live = await roll()
  t.equal((await stream.next())?.data.id, live.event.id, 'then the next new event, with nothing in between')

  const byQuery = await open(ids.campaignId, campaign.auth, {}, `?after=${seen.event.seq}`)
  t.teardown(() => byQuery.close())
  t.equal((await byQuery.next())?.data.id, missed[0]!.event.id, '?after= resumes the same way')
})

t.test('with named=false the messages have no event name, so EventSource.onmessage gets them all', async (t) => {
  const { campaign, ids, roll } = await setUp()
  const seen = await roll()
  const missed = await roll()
  const stream = await open(ids.campaignId, campaign.auth, {}, `?after=${seen.event.seq}&named=false`)
  t.teardown(() => stream.close())
  const message = await stream.next()
  t.equal(message?.event, 'message', 'no `event:` line: the default type, which onmessage receives')
  t.equal(message?.id, missed.event.seq, 'the id is still the seq')
  t.same(message?.data, missed.event, 'the event whole, its type in data.type')

  const player = await mintPlayerKey(app, campaign.campaign, campaign.auth, [ids.characterId])
  const playerStream = await open(ids.campaignId, player.auth, {}, '?named=false')
  t.teardown(() => playerStream.close())
  await playerStream.connected()
  t.equal((await revoke(app, ids, campaign.auth, player.key.id)).statusCode, 200, 'the GM revokes the key')
  t.same(
    (await rest(playerStream)).map((last) => [last.event, last.data]),
    [['message', { ended: 'revoked', reason: 'key revoked' }]],
    'the last message unnamed too: data.ended says why the stream ended',
  )
})

t.test('an after or Last-Event-ID beyond the campaign’s last seq is 422, not a silent stream', async (t) => {
  const { campaign, ids, roll } = await setUp()
  const last = await roll()
  const beyond = last.event.seq + 5
  const byQuery = await fetch(`${address}/v1/campaigns/${ids.campaignId}/events/stream?after=${beyond}`, {
    headers: campaign.auth,
  })
  t.equal(byQuery.status, 422, '422')
  t.match(byQuery.headers.get('content-type'), PROBLEM, 'as problem details')
  const problem = (await byQuery.json()) as FieldProblem
  t.same(
    problem.errors.map((error: { pointer: string }) => error.pointer),
    ['/querystring/after'],
    'pointing at after',
  )
  t.match(problem.detail, `after ${beyond} is beyond the campaign’s last seq (${last.event.seq})`, 'saying why')

  const byHeader = await fetch(`${address}/v1/campaigns/${ids.campaignId}/events/stream`, {
    headers: { ...campaign.auth, 'last-event-id': String(beyond) },
  })
  t.equal(byHeader.status, 422, 'the same for Last-Event-ID')
  t.same(
    ((await byHeader.json()) as FieldProblem).errors.map((error: { pointer: string }) => error.pointer),
    ['/headers/last-event-id'],
    'pointing at the header',
  )

  const atLast = await open(ids.campaignId, campaign.auth, {}, `?after=${last.event.seq}`)
  t.teardown(() => atLast.close())
  t.equal(atLast.response.status, 200, 'after the last seq itself is fine: the next new event comes')
  const next = await roll()
  t.equal((await atLast.next())?.data.id, next.event.id, 'and it does')
})

t.test('a stream with sheets=none sends the events without their sheets', async (t) => {
  const { campaign, ids, roll } = await setUp()
  const seen = await roll()
  const missed = await roll()
  const stream = await open(ids.campaignId, campaign.auth, {}, `?after=${seen.event.seq}&sheets=none`)
  t.teardown(() => stream.close())
  const replayed = await stream.next()
  const { sheetBefore: _before, sheetAfter: _after, ...bare } = missed.event
  t.same(replayed?.data, bare, 'the missed event, every field but the sheets')
  t.notOk(replayed && 'sheetAfter' in replayed.data, 'no sheetAfter')
  t.notOk(replayed && 'sheetBefore' in replayed.data, 'no sheetBefore')

  const full = await open(ids.campaignId, campaign.auth, {}, `?after=${seen.event.seq}`)
  t.teardown(() => full.close())
  t.same((await full.next())?.data, missed.event, 'by default the event comes whole, sheets included')

  const bad = await fetch(`${address}/v1/campaigns/${ids.campaignId}/events/stream?sheets=patch`, {
    headers: campaign.auth,
  })
  t.equal(bad.status, 400, 'an unknown sheets value is 400')
  t.match(await bad.json(), { errors: [{ pointer: '/querystring/sheets' }] }, 'naming the field')
})

t.test('a stream without a resume point starts with the next new event', async (t) => {
  const { campaign, ids, roll } = await setUp()
  await roll()
  const stream = await open(ids.campaignId, campaign.auth)
  t.teardown(() => stream.close())
  await stream.connected()
  const next = await roll()
  t.equal((await stream.next())?.data.id, next.event.id, 'older events are not sent again')
})

t.test('a player’s stream never carries GM-only events', async (t) => {
  const { campaign, ids, roll } = await setUp()
  const player = await mintPlayerKey(app, campaign.campaign, campaign.auth, [ids.characterId])
  const playerStream = await open(ids.campaignId, player.auth)
  const gmStream = await open(ids.campaignId, campaign.auth)
  t.teardown(() => playerStream.close())
  t.teardown(() => gmStream.close())
  await playerStream.connected()
  await gmStream.connected()

  const secret = await roll('gm')
  const visible = await roll('public')
  t.equal((await gmStream.next())?.data.id, secret.event.id, 'the GM sees the GM-only roll')
  t.equal((await gmStream.next())?.data.id, visible.event.id, 'and the public one')
  const first = await playerStream.next()
  t.equal(first?.data.id, visible.event.id, 'the player’s first message is the public roll')
  t.equal(first?.data.visibility, 'public', 'a public event')

  const resumed = await open(ids.campaignId, player.auth, { 'last-event-id': '0' })
  t.teardown(() => resumed.close())
  // The creation and the public roll: the GM-only roll between them is skipped.
  const all = [(await resumed.next())!, (await resumed.next())!]
  t.equal(all[0]?.data.type, 'character.created', 'resuming from the start sends the creation first')
  t.notOk(
    all.some((message) => message.data.id === secret.event.id),
    'resuming from the start skips the GM-only roll too',
  )
  t.equal(all.at(-1)?.data.id, visible.event.id, 'and reaches the public roll after it')
})

t.test('a stream with a bad Last-Event-ID or key is refused as problem details', async (t) => {
  const { campaign, ids } = await setUp()
  const bad = await fetch(`${address}/v1/campaigns/${ids.campaignId}/events/stream`, {
    headers: { ...campaign.auth, 'last-event-id': 'yesterday' },
  })
  t.equal(bad.status, 400, 'a Last-Event-ID that is not a seq is 400')
  t.match(bad.headers.get('content-type'), PROBLEM, 'as problem details')
  await bad.body?.cancel()
  const anonymous = await fetch(`${address}/v1/campaigns/${ids.campaignId}/events/stream`)
  t.equal(anonymous.status, 401, 'no key is 401')
  await anonymous.body?.cancel()
  const other = await createCampaign(app, 'reaction-rolls')
  const foreign = await fetch(`${address}/v1/campaigns/${ids.campaignId}/events/stream`, { headers: other.auth })
  t.equal(foreign.status, 404, 'another campaign’s key is 404')
  await foreign.body?.cancel()
})

t.test(
  'a player’s stream ends with a revoked message once its key is revoked, and sends nothing recorded after',
  async (t) => {
    const { campaign, ids, roll } = await setUp()
    const player = await mintPlayerKey(app, campaign.campaign, campaign.auth, [ids.characterId])
    const stream = await open(ids.campaignId, player.auth)
    t.teardown(() => stream.close())
    await stream.connected()
    const before = await roll()
    t.equal((await stream.next())?.data.id, before.event.id, 'the stream is live before the revocation')

    t.equal((await revoke(app, ids, campaign.auth, player.key.id)).statusCode, 200, 'the GM revokes the key')
    const after = [await roll(), await roll(), await roll()]
    // The 5 s deadline of next() only tolerates a loaded machine; the stream ends within about a second.
    const messages = await rest(stream)
    t.same(
      messages.map((message) => [message.event, message.data]),
      [['revoked', { ended: 'revoked', reason: 'key revoked' }]],
      'one last message, revoked with its reason, then the stream ends',
    )
    t.notOk(
      messages.some((message) => after.some((result) => result.event.id === message.data.id)),
      'none of the three events recorded after the revocation',
    )
  },
)

t.test('the GM’s stream ends once the GM key is revoked, with none of the player’s later rolls', async (t) => {
  const { campaign, ids } = await setUp()
  const player = await mintPlayerKey(app, campaign.campaign, campaign.auth, [ids.characterId])
  const stream = await open(ids.campaignId, campaign.auth)
  t.teardown(() => stream.close())
  await stream.connected()

  t.equal((await revoke(app, ids, campaign.auth, campaign.gmKey.id)).statusCode, 200, 'the GM revokes its own key')
  const after = [await rollAs(app, player.auth, ids), await rollAs(app, player.auth, ids)]
  const messages = await rest(stream)
  t.same(
    messages.map((message) => [message.event, message.data]),
    [['revoked', { ended: 'revoked', reason: 'key revoked' }]],
    'one last message, revoked, then the stream ends',
  )
  t.notOk(
    messages.some((message) => after.some((result) => result.event.id === message.data.id)),
    'none of the player’s rolls recorded after the revocation',
  )
})

t.test('another key’s stream stays open and keeps receiving after a key is revoked', async (t) => {
  const { campaign, ids, roll } = await setUp()
  const revoked = await mintPlayerKey(app, campaign.campaign, campaign.auth, [ids.characterId], 'Revoked')
  const kept = await mintPlayerKey(app, campaign.campaign, campaign.auth, [ids.characterId], 'Kept')
  const revokedStream = await open(ids.campaignId, revoked.auth)
  const keptStream = await open(ids.campaignId, kept.auth)
  t.teardown(() => revokedStream.close())
  t.teardown(() => keptStream.close())
  await revokedStream.connected()
  await keptStream.connected()

  await revoke(app, ids, campaign.auth, revoked.key.id)
  t.equal((await revokedStream.next())?.event, 'revoked', 'the revoked key’s stream gets its last message')
  t.equal(await revokedStream.next(), null, 'and ends')
  const after = await roll()
  t.equal((await keptStream.next())?.data.id, after.event.id, 'the other key’s stream still receives new events')
  const later = await roll()
  t.equal((await keptStream.next())?.data.id, later.event.id, 'and the one after')
})

t.test('closing the campaign ends its streams with a closed message', async (t) => {
  const { campaign, ids } = await setUp()
  const player = await mintPlayerKey(app, campaign.campaign, campaign.auth, [ids.characterId])
  const gmStream = await open(ids.campaignId, campaign.auth)
  const playerStream = await open(ids.campaignId, player.auth)
  t.teardown(() => gmStream.close())
  t.teardown(() => playerStream.close())
  await gmStream.connected()
  await playerStream.connected()

  const res = await app.inject({ method: 'DELETE', url: `/v1/campaigns/${ids.campaignId}`, headers: campaign.auth })
  t.equal(res.statusCode, 204, 'the GM closes the campaign')
  for (const [who, stream] of [
    ['the GM', gmStream],
    ['the player', playerStream],
  ] as const) {
    t.same(
      (await rest(stream)).map((message) => [message.event, message.data]),
      [['closed', { ended: 'closed', reason: 'campaign closed' }]],
      `${who}’s stream gets one last message, closed with its reason, then ends`,
    )
  }
})

t.test(
  'a key revoked through another instance on the same database ends the stream, with nothing recorded after',
  {
    skip: TEST_DATABASE_URL
      ? false
      : 'needs PostgreSQL: set TEST_DATABASE_URL (PGlite is one process with one connection, so it cannot serve two instances)',
  },
  async (t) => {
    const url = await freshDatabaseUrl(t)
    const config = testConfig({ DATABASE_URL: url!, DATA_DIR: 'memory://', LOG_LEVEL: 'silent' })
    const start = async () => {
      const instance = await buildApp(config, { logger: false })
      t.teardown(() => instance.close())
      await instance.ready()
      return instance
    }
    const streaming = await start()
    const revoking = await start()
    const at = await streaming.listen({ port: 0, host: '127.0.0.1' })

    const { campaign, ids } = await setUp(streaming)
    const revoked = await mintPlayerKey(streaming, campaign.campaign, campaign.auth, [ids.characterId], 'Revoked')
    const kept = await mintPlayerKey(streaming, campaign.campaign, campaign.auth, [ids.characterId], 'Kept')
    const revokedStream = await open(ids.campaignId, revoked.auth, {}, '', at)
    const keptStream = await open(ids.campaignId, kept.auth, {}, '', at)
    t.teardown(() => revokedStream.close())
    t.teardown(() => keptStream.close())
    await revokedStream.connected()
    await keptStream.connected()

    t.equal(
      (await revoke(revoking, ids, campaign.auth, revoked.key.id)).statusCode,
      200,
      'revoked on the other instance',
    )
    // Recorded on the streaming instance, so its streams wake at once, before any periodic check.
    const after = [await rollAs(streaming, campaign.auth, ids), await rollAs(streaming, campaign.auth, ids)]
    const messages = await rest(revokedStream)
    t.same(
      messages.map((message) => [message.event, message.data]),
      [['revoked', { ended: 'revoked', reason: 'key revoked' }]],
      'the stream gets one last message, revoked, then ends',
    )
    t.same(
      [(await keptStream.next())?.data.id, (await keptStream.next())?.data.id],
      after.map((result) => result.event.id),
      'the other key’s stream on the same instance receives both events',
    )
  },
)

t.test('closing the app ends open streams', async (t) => {
  const { campaign, ids } = await setUp()
  const stream = await open(ids.campaignId, campaign.auth)
  await stream.connected()
  const closing = app.close()
  // Heartbeats keep an open stream alive forever: only the app closing it can end it.
  t.equal(await stream.next(), null, 'the stream ends: an open stream does not hold up shutdown')
  await closing
})
