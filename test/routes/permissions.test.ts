import t from 'tap'
import { createCampaign, createCharacter, mintPlayerKey, PROBLEM } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { findRuleSet } from '../../src/rules/index.js'

const app = await buildTestApp(t)

const gm = await createCampaign(app, 'shock-meters', { name: 'Mercy Street' })
const base = `/v1/campaigns/${gm.campaign.id}`
const own = (await createCharacter(app, gm.campaign, gm.auth, { name: 'Sam' })).character
const other = (await createCharacter(app, gm.campaign, gm.auth, { name: 'Ria' })).character
const player = await mintPlayerKey(app, gm.campaign, gm.auth, [own.id], 'Sam’s player')
const otherPlayer = await mintPlayerKey(app, gm.campaign, gm.auth, [other.id], 'Ria’s player')

const as = (auth: { authorization: string }) => ({
  get: (url: string) => app.inject({ url, headers: auth }),
  send: (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) }),
})
const asPlayer = as(player.auth)
const asGm = as(gm.auth)

const eventCount = async () => (await asGm.get(base)).json().eventCount as number

t.test('a player key reads the campaign, its characters and its public history', async (t) => {
  const campaign = await asPlayer.get(base)
  t.equal(campaign.statusCode, 200, 'GET the campaign')
  t.equal(campaign.json().name, 'Mercy Street', 'its own campaign')

  const list = await asPlayer.get(`${base}/characters`)
  t.equal(list.statusCode, 200, 'list the characters')
  t.same(
    list.json().data.map((character: { id: string }) => character.id),
    [own.id, other.id],
    'every character of the campaign, its own and others',
  )
  t.equal((await asPlayer.get(`${base}/characters/${other.id}`)).statusCode, 200, 'GET another player’s character')

  const events = await asPlayer.get(`${base}/events`)
  t.equal(events.statusCode, 200, 'read the history')
  t.ok(events.json().data.length >= 2, 'with the characters’ creation')
  const first = events.json().data[0]
  t.equal((await asPlayer.get(`${base}/events/${first.id}`)).statusCode, 200, 'GET one public event')
})

t.test('a player key performs player actions on its own character', async (t) => {
  const res = await asPlayer.send('POST', `${base}/characters/${own.id}/stress-check`, {
    request: { meter: 'self', rank: 2 },
    dice: { source: 'seeded', seed: 'player-roll' },
  })
  t.equal(res.statusCode, 201, 'a stress check on its own character')
  t.match(
    res.json().event,
    { type: 'stress-check', visibility: 'public', actor: { role: 'player', keyId: player.key.id } },
    'recorded as the player’s public roll',
  )
})

t.test('a player key gets 403 on GM routes and changes nothing', async (t) => {
  const ruleSet = findRuleSet('shock-meters')!
  const gmActions = ruleSet.actions.filter((action) => action.actor === 'gm')
  t.ok(
    ['clear-stressed', 'new-session', 'ongoing-treatment'].every((name) => gmActions.some((a) => a.name === name)),
    'the GM actions of shock-meters are known',
  )
  const latest = (await asGm.get(`${base}/events?characterId=${own.id}&limit=100`)).json().data.at(-1)
  const character = `${base}/characters/${own.id}`
  const attempts: [string, 'GET' | 'POST' | 'PATCH' | 'DELETE', string, object?][] = [
    ...gmActions.map(
      (action) =>
        [
          action.name,
          'POST',
          `${character}/${action.name}`,
          { request: (action.request as { examples: unknown[] }).examples[0] },
        ] as [string, 'POST', string, object],
    ),
    ['create a character', 'POST', `${base}/characters`, { name: 'Sneaky' }],
    ['mint a key', 'POST', `${base}/keys`, { characterIds: [other.id] }],
    ['list the keys', 'GET', `${base}/keys`],
    ['revoke a key', 'DELETE', `${base}/keys/${otherPlayer.key.id}`],
    ['edit its own character', 'PATCH', character, { sheet: { meters: { self: { hardened: 9 } } } }],
    ['archive its own character', 'DELETE', character],
    ['revert its own roll', 'POST', `${character}/revert`, { eventId: latest.id }],
    ['audit its own character', 'GET', `${character}/audit`],
    ['rename the campaign', 'PATCH', base, { name: 'Mine now' }],
    ['close the campaign', 'DELETE', base],
  ]
  const before = await eventCount()
  for (const [what, method, url, payload] of attempts) {
    const res = method === 'GET' ? await asPlayer.get(url) : await asPlayer.send(method, url, payload)
    t.equal(res.statusCode, 403, `${what}: 403`, { body: res.body.slice(0, 300) })
    t.match(res.headers['content-type'], PROBLEM, `${what}: problem+json`)
  }
  t.equal(await eventCount(), before, 'no event was recorded')
  const keys = (await asGm.get(`${base}/keys`)).json().data as { revokedAt: string | null }[]
  t.equal(keys.length, 3, 'no key was minted')
  t.ok(
    keys.every((key) => key.revokedAt === null),
    'none was revoked',
  )
  t.equal((await asGm.get(base)).json().name, 'Mercy Street', 'the campaign keeps its name')
  t.equal((await asGm.get(character)).json().archivedAt, null, 'the character is not archived')
})

t.test('a player key gets 403 acting for another player’s character', async (t) => {
  const before = await eventCount()
  const playerActions = findRuleSet('shock-meters')!.actions.filter((action) => action.actor === 'player')
  for (const action of playerActions) {
    const res = await asPlayer.send('POST', `${base}/characters/${other.id}/${action.name}`, {
      request: (action.request as { examples: unknown[] }).examples[0],
    })
    t.equal(res.statusCode, 403, `${action.name} on Ria is refused`)
    t.match(res.json().detail, new RegExp(other.id), 'naming the character it may not act for')
  }
  t.equal(await eventCount(), before, 'no event was recorded')
})

t.test('a player key gets 403 for a GM-only roll', async (t) => {
  const before = await eventCount()
  const res = await asPlayer.send('POST', `${base}/characters/${own.id}/stress-check`, {
    request: { meter: 'self', rank: 2 },
    visibility: 'gm',
  })
  t.equal(res.statusCode, 403, 'visibility: gm is the GM’s to choose')
  t.match(res.headers['content-type'], PROBLEM, 'as problem+json')
  t.equal(await eventCount(), before, 'no event was recorded')
})

t.test('a player key never sees GM-only events', async (t) => {
  const roll = await asGm.send('POST', `${base}/characters/${own.id}/stress-check`, {
    request: { meter: 'violence', rank: 4 },
    dice: { source: 'provided', faces: [95] },
    visibility: 'gm',
  })
  t.equal(roll.statusCode, 201, 'the GM rolls in secret')
  const hidden = roll.json().event
  t.equal(hidden.visibility, 'gm', 'a GM-only event')
  t.ok(hidden.pending, 'the failed check waits for a stress response')

  const settled = await asGm.send('POST', `${base}/events/${hidden.id}/decision`, {
    request: { response: 'paralysis' },
  })
  t.equal(settled.statusCode, 201, 'the GM settles it')
  t.equal(settled.json().event.visibility, 'gm', 'the settlement of a GM-only roll is GM-only too')

  const gmView = (await asGm.get(`${base}/events?limit=100`)).json().data as { id: string }[]
  t.ok(
    gmView.some((event) => event.id === hidden.id),
    'the GM sees the secret roll',
  )

  const hiddenIds = [hidden.id, settled.json().event.id]
  for (const query of ['?limit=100', `?limit=100&characterId=${own.id}`, '?limit=100&type=stress-check']) {
    const res = await asPlayer.get(`${base}/events${query}`)
    t.equal(res.statusCode, 200, `the player reads events${query}`)
    const events = res.json().data as { id: string; visibility: string; causationId: string | null }[]
    t.ok(
      events.every((event) => event.visibility === 'public'),
      `events${query}: public events only`,
    )
    t.notOk(
      events.some((event) => hiddenIds.includes(event.id) || hiddenIds.includes(event.causationId ?? '')),
      `events${query}: nothing of the secret roll`,
    )
  }
  for (const id of hiddenIds) {
    const res = await asPlayer.get(`${base}/events/${id}`)
    t.equal(res.statusCode, 404, `GET the hidden event ${id} is 404`)
    t.match(res.headers['content-type'], PROBLEM, 'as problem+json')
  }
  const decision = await asPlayer.send('POST', `${base}/events/${hidden.id}/decision`, {
    request: { response: 'panic' },
  })
  t.equal(decision.statusCode, 404, 'nor can the player settle a hidden roll by its id')
})
