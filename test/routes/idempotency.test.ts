import pg from 'pg'
import t from 'tap'
import { createCampaign, createCharacter, mintPlayerKey, PROBLEM, type TestCampaign } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { engine, TEST_DATABASE_URL } from '../helpers/database.js'
import {
  act,
  allEvents,
  characterUrl,
  created,
  decide,
  getCharacter,
  provided,
  revert,
  type Ids,
  type Problem,
} from '../helpers/commands.js'

// One app for the file; every test plays in its own campaign.
const app = await buildTestApp(t)

async function setUp(ruleset = 'reaction-rolls'): Promise<{ campaign: TestCampaign; ids: Ids }> {
  const campaign = await createCampaign(app, ruleset)
  const { character } = await createCharacter(app, campaign.campaign, campaign.auth)
  return { campaign, ids: { campaignId: campaign.campaign.id, characterId: character.id } }
}

// Server dice: a second roll would almost surely differ, so a replay shows in the faces too. A
// retrievable result is declined up front, so no roll leaves a decision open.
const ROLL = { request: { ability: 'agility', pressure: 8, advantage: true, retrieve: { decision: 'decline' } } }

const rollsIn = async (campaign: TestCampaign, type = 'reaction-roll') =>
  (await allEvents(app, campaign.auth, campaign.campaign.id, { type })).length

t.test('the same Idempotency-Key and body answer the first response again, with no new event', async (t) => {
  const { campaign, ids } = await setUp()
  const key = { 'idempotency-key': 'roll-1' }
  const first = await act(app, campaign.auth, ids, 'reaction-roll', ROLL, key)
  t.equal(first.statusCode, 201, 'the first request is carried out')
  t.equal(first.headers['idempotent-replayed'], 'false', 'and is not a replay')
  const second = await act(app, campaign.auth, ids, 'reaction-roll', ROLL, key)
  t.equal(second.statusCode, 201, 'the retry answers 201 too')
  t.equal(second.headers['idempotent-replayed'], 'true', 'the retry says it is a replay')
  t.equal(second.json().event.id, first.json().event.id, 'the same event id')
  t.same(second.json(), first.json(), 'the very same response, dice included')
  t.equal(await rollsIn(campaign), 1, 'one roll in the history')
  t.equal((await getCharacter(app, campaign.auth, ids)).version, 2, 'the character changed once')
  t.equal(second.json().event.dice.length, 2, 'two dice with advantage, kept as rolled')
})

t.test('the same Idempotency-Key with another body is 422 and records nothing', async (t) => {
  const { campaign, ids } = await setUp()
  const key = { 'idempotency-key': 'roll-2' }
  created(await act(app, campaign.auth, ids, 'reaction-roll', ROLL, key), 'the first roll')
  const other = await act(
    app,
    campaign.auth,
    ids,
    'reaction-roll',
    { request: { ability: 'agility', pressure: 4 } },
    key,
  )
  t.equal(other.statusCode, 422, 'another body with the same key is 422')
  t.match(other.headers['content-type'], PROBLEM, 'as problem details')
  t.match(other.json<Problem>().detail, 'Idempotency-Key', 'the problem names the key')
  const elsewhere = await act(app, campaign.auth, ids, 'reaction-retrieval', { request: { decision: 'decline' } }, key)
  t.equal(elsewhere.statusCode, 422, 'the same key on another action is 422 as well')
  t.equal(await rollsIn(campaign), 1, 'still one roll')
})

t.test('no Idempotency-Key: every request is carried out', async (t) => {
  const { campaign, ids } = await setUp()
  const first = created(await act(app, campaign.auth, ids, 'reaction-roll', ROLL), 'the first roll')
  const second = created(await act(app, campaign.auth, ids, 'reaction-roll', ROLL), 'the second roll')
  t.not(second.event.id, first.event.id, 'two events')
  t.equal(await rollsIn(campaign), 2, 'two rolls in the history')
})

t.test('an Idempotency-Key that is empty or longer than 255 characters is 400', async (t) => {
  const { campaign, ids } = await setUp()
  for (const value of ['', 'k'.repeat(256)]) {
    const res = await act(app, campaign.auth, ids, 'reaction-roll', ROLL, { 'idempotency-key': value })
    t.equal(res.statusCode, 400, `a key of ${value.length} characters is 400`)
    t.match(res.headers['content-type'], PROBLEM, 'as problem details')
  }
  t.equal(await rollsIn(campaign), 0, 'nothing was rolled')
})

t.test('five concurrent duplicates record exactly one event, and all five answer with it', async (t) => {
  const { campaign, ids } = await setUp()
  const key = { 'idempotency-key': 'burst' }
  const responses = await Promise.all(
    Array.from({ length: 5 }, () => act(app, campaign.auth, ids, 'reaction-roll', ROLL, key)),
  )
  const statuses = responses.map((res) => res.statusCode)
  t.same(statuses, [201, 201, 201, 201, 201], 'every duplicate waits for the first to commit, then answers 201')
  const originals = responses.filter((res) => res.headers['idempotent-replayed'] === 'false')
  t.equal(originals.length, 1, 'exactly one request was carried out')
  const eventId = originals[0]!.json().event.id
  for (const res of responses) t.equal(res.json().event.id, eventId, 'each answers the one event')
  t.equal(await rollsIn(campaign), 1, 'one roll in the history')
  const retry = await act(app, campaign.auth, ids, 'reaction-roll', ROLL, key)
  t.equal(retry.headers['idempotent-replayed'], 'true', 'a retry afterwards is a replay')
  t.equal(retry.json().event.id, eventId, 'of the same event')
})

t.test('a key recorded by a transaction that never committed (a crash mid-command) is free at once', async (t) => {
  const { campaign, ids } = await setUp()
  const crash = new Error('the process died before its commit')
  await t.rejects(
    app.store.transaction(async (tx) => {
      const recorded = await tx.idempotency.record(ids.campaignId, `${campaign.gmKey.id}:crashed`, 'another request', {
        status: 201,
        body: {},
      })
      t.ok(recorded, 'the dying command recorded its answer under the key')
      throw crash
    }),
    crash,
    'its transaction rolled back',
  )
  const retry = await act(app, campaign.auth, ids, 'reaction-roll', ROLL, { 'idempotency-key': 'crashed' })
  t.equal(retry.statusCode, 201, 'the retry with the same key is carried out, not 409 or 422')
  t.equal(retry.headers['idempotent-replayed'], 'false', 'as a first execution')
  t.equal(await rollsIn(campaign), 1, 'one roll in the history')
})

t.test(
  'a retry waiting on a duplicate whose database connection dies mid-transaction goes ahead at once',
  { skip: engine === 'pglite' && 'PGlite has one connection, so no other can die holding the key' },
  async (t) => {
    const { campaign, ids } = await setUp()
    const [database] = await app.db.withSession((session) =>
      session.query<{ name: string }>('SELECT current_database() AS name'),
    )
    const url = new URL(TEST_DATABASE_URL!)
    url.pathname = `/${database!.name}`
    const dying = new pg.Client({ connectionString: url.toString() })
    dying.on('error', () => {})
    await dying.connect()
    // Where the first request stands just before its commit: the character locked, the key recorded.
    await dying.query('BEGIN')
    await dying.query('SELECT 1 FROM characters WHERE id = $1 FOR UPDATE', [ids.characterId])
    await dying.query(
      `INSERT INTO idempotency_records (campaign_id, key, request_hash, state, response_status, response_body, expires_at)
       VALUES ($1, $2, 'the first request', 'done', 201, '{}', now() + interval '1 day')`,
      [ids.campaignId, `${campaign.gmKey.id}:dies`],
    )

    const retry = act(app, campaign.auth, ids, 'reaction-roll', ROLL, { 'idempotency-key': 'dies' })
    const deadline = Date.now() + 60_000
    for (;;) {
      const { rows } = await dying.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      )
      if (rows[0]!.waiting > 0) break
      if (Date.now() > deadline) throw new Error('the retry never waited on the first request')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    t.pass('the retry waits on the first request')

    dying.connection.stream.destroy()
    const res = await retry
    t.equal(res.statusCode, 201, 'once the connection died, the retry is carried out, not 409 or 422')
    t.equal(res.headers['idempotent-replayed'], 'false', 'as a first execution')
    t.equal(await rollsIn(campaign), 1, 'one roll in the history')
  },
)

t.test('a failed command leaves its key free, so a retry after fixing the cause is carried out', async (t) => {
  const { campaign, ids } = await setUp()
  // Agility d6 against pressure 6: a 4 is retrievable and stays pending.
  const pending = created(
    await act(app, campaign.auth, ids, 'reaction-roll', {
      request: { ability: 'agility', pressure: 6 },
      dice: provided(4),
    }),
    'the pending roll',
  )
  const key = { 'idempotency-key': 'after-the-decision' }
  const blocked = await act(app, campaign.auth, ids, 'reaction-roll', ROLL, key)
  t.equal(blocked.statusCode, 409, 'the roll is blocked by the pending decision')
  const again = await act(app, campaign.auth, ids, 'reaction-roll', ROLL, key)
  t.equal(again.statusCode, 409, 'a retry before fixing it fails the same way, not as a replay')

  created(
    await decide(app, campaign.auth, ids.campaignId, pending.event.id, { request: { decision: 'decline' } }),
    'the decision',
  )
  const retry = await act(app, campaign.auth, ids, 'reaction-roll', ROLL, key)
  t.equal(retry.statusCode, 201, 'the retry is carried out')
  t.equal(retry.headers['idempotent-replayed'], 'false', 'as a first execution')

  const invalidKey = { 'idempotency-key': 'bad-dice' }
  const bad = await act(app, campaign.auth, ids, 'reaction-roll', { ...ROLL, dice: provided(9, 9) }, invalidKey)
  t.equal(bad.statusCode, 422, 'faces out of range are 422')
  const fixed = await act(app, campaign.auth, ids, 'reaction-roll', { ...ROLL, dice: provided(3, 5) }, invalidKey)
  t.equal(fixed.statusCode, 201, 'the same key with the corrected body is carried out')
})

t.test('keys belong to their holder: a player and the GM may pick the same key', async (t) => {
  const { campaign, ids } = await setUp()
  const player = await mintPlayerKey(app, campaign.campaign, campaign.auth, [ids.characterId])
  const key = { 'idempotency-key': 'shared-name' }
  const gm = created(await act(app, campaign.auth, ids, 'reaction-roll', ROLL, key), 'the GM’s roll')
  const own = await act(app, player.auth, ids, 'reaction-roll', ROLL, key)
  t.equal(own.statusCode, 201, 'the player’s roll is carried out')
  t.equal(own.headers['idempotent-replayed'], 'false', 'not as a replay of the GM’s')
  t.not(own.json().event.id, gm.event.id, 'a separate event')
})

t.test('decisions, reverts and character creation replay too', async (t) => {
  const { campaign, ids } = await setUp()
  const pending = created(
    await act(app, campaign.auth, ids, 'reaction-roll', {
      request: { ability: 'agility', pressure: 6 },
      dice: provided(5),
    }),
    'the pending roll',
  )
  const settleKey = { 'idempotency-key': 'settle' }
  const body = { request: { decision: 'raise', emotion: 'anger' } }
  const settled = await decide(app, campaign.auth, ids.campaignId, pending.event.id, body, settleKey)
  t.equal(settled.statusCode, 201, 'the decision is carried out')
  const settledAgain = await decide(app, campaign.auth, ids.campaignId, pending.event.id, body, settleKey)
  t.equal(settledAgain.statusCode, 201, 'the retried decision is not 409 “already settled”')
  t.equal(settledAgain.headers['idempotent-replayed'], 'true', 'it is a replay')
  t.equal(settledAgain.json().event.id, settled.json().event.id, 'of the same settlement')
  t.equal(settledAgain.json().character.sheet.emotions.anger, 1, 'anger was raised once')

  const revertKey = { 'idempotency-key': 'undo' }
  const undone = await revert(app, campaign.auth, ids, settled.json().event.id, revertKey)
  t.equal(undone.statusCode, 201, 'the revert is carried out')
  const undoneAgain = await revert(app, campaign.auth, ids, settled.json().event.id, revertKey)
  t.equal(undoneAgain.statusCode, 201, 'the retried revert is not 409 “not the latest”')
  t.equal(undoneAgain.json().event.id, undone.json().event.id, 'it replays the same revert')

  const createKey = { ...campaign.auth, 'idempotency-key': 'new-character' }
  const url = `/v1/campaigns/${ids.campaignId}/characters`
  const one = await app.inject({ method: 'POST', url, headers: createKey, payload: { name: 'Twin' } })
  const two = await app.inject({ method: 'POST', url, headers: createKey, payload: { name: 'Twin' } })
  t.equal(two.headers['idempotent-replayed'], 'true', 'the retried creation is a replay')
  t.equal(two.json().character.id, one.json().character.id, 'of the same character')
  const list = await app.inject({ url, headers: campaign.auth })
  t.equal(
    list.json<{ data: { name: string }[] }>().data.filter((character) => character.name === 'Twin').length,
    1,
    'one character was created',
  )
  t.equal(
    (await app.inject({ url: characterUrl(ids), headers: campaign.auth })).statusCode,
    200,
    'the first character is still there',
  )
})
