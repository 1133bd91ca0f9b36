import t, { type Test } from 'tap'
import { ConflictError } from '../../src/errors.js'
import type { Principal } from '../../src/lib/principal.js'
import { EventFeed } from '../../src/history/feed.js'
import { loadCharacter, runCommand, type Command, type CommandContext } from '../../src/services/pipeline.js'
import { createCampaign, createCharacter } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { createWebhook, FAST_WEBHOOKS } from '../helpers/webhooks.js'

// The pipeline alone, on the real database: commands written here, a feed and a counter to watch.
// The dispatcher is off, so the outbox rows a command writes stay as written.
const app = await buildTestApp(t, { ...FAST_WEBHOOKS, WEBHOOK_DISPATCHER: 'off' })

async function count(table: 'roll_events' | 'webhook_deliveries' | 'idempotency_records', campaignId: string) {
  const [row] = await app.db.withSession((session) =>
    session.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" WHERE "campaign_id" = $1`, [campaignId]),
  )
  return row!.n
}

/** A campaign with a character and a webhook endpoint taking every event, and a GM acting in it. */
async function setUp(t: Test) {
  const { campaign, auth, gmKey } = await createCampaign(app)
  const { character } = await createCharacter(app, campaign, auth)
  await createWebhook(app, campaign.id, auth, { url: 'http://127.0.0.1:9/hook' })
  const principal: Principal = { keyId: gmKey.id, role: 'gm', characterIds: [], campaign }
  /** At each announcement, how many events the database holds: a command's own only once it committed. */
  const published: Promise<number>[] = []
  const counted: unknown[] = []
  const feed = new EventFeed()
  t.teardown(feed.subscribe(campaign.id, () => published.push(count('roll_events', campaign.id))))
  const context: CommandContext = {
    store: app.store,
    feed,
    metrics: { eventRecorded: (answer) => counted.push(answer) },
  }
  const rows = async () => ({
    events: await count('roll_events', campaign.id),
    outbox: await count('webhook_deliveries', campaign.id),
    keys: await count('idempotency_records', campaign.id),
  })
  return { principal, characterId: character.id, context, published, counted, rows }
}

/** Renames the character: the smallest change a command can decide. */
function rename(principal: Principal, characterId: string, name: string, calls: string[] = []): Command {
  return {
    async load(repositories) {
      calls.push('load')
      return { character: await loadCharacter(repositories, principal, characterId) }
    },
    decide(_repositories, { character }) {
      calls.push('decide')
      return {
        type: 'character.updated',
        name,
        replay: (sheet) => ({ sheet }),
        payload: {
          request: { name },
          dice: [],
          outcome: null,
          summary: `renamed ${name}`,
          sheetBefore: character.sheet as Record<string, unknown>,
          sheetAfter: character.sheet as Record<string, unknown>,
        },
      }
    },
  }
}

t.test('a command is recorded with its outbox row, then published and counted once, after its commit', async (t) => {
  const { principal, characterId, context, published, counted, rows } = await setUp(t)
  const before = await rows()
  const calls: string[] = []

  const answer = await runCommand(context, principal, rename(principal, characterId, 'Ada', calls))

  t.same(calls, ['load', 'decide'], 'read, then decided, once')
  t.equal(answer.replayed, false, 'carried out, not replayed')
  t.equal(answer.recorded.event.type, 'character.updated', 'the event decided')
  t.equal(answer.recorded.character.name, 'Ada', 'the character after it')
  t.equal(answer.recorded.character.version, 2, 'at version + 1')
  t.same(await rows(), { ...before, events: before.events + 1, outbox: before.outbox + 1 }, 'one event, one outbox row')
  t.equal(published.length, 1, 'published once')
  t.equal(await published[0], before.events + 1, 'when published, the event was already committed')
  t.equal(counted.length, 1, 'counted once')
  t.equal(counted[0], answer.recorded, 'the answer is what is counted')
})

/**
 * A rename that another rename overtakes between its read and its write, `times` times; it notes
 * for each read whether it ran in a transaction (the pipeline's store is not a transaction's).
 */
function overtakenRename(context: CommandContext, principal: Principal, characterId: string, times: number) {
  const calls: string[] = []
  const locked: boolean[] = []
  const overtaken = rename(principal, characterId, 'Ada', calls)
  let overtakes = times
  const racing: Command = {
    load: (repositories) => {
      locked.push(repositories !== context.store)
      return overtaken.load(repositories)
    },
    async decide(repositories, target) {
      if (overtakes > 0) {
        overtakes--
        await runCommand(context, principal, rename(principal, characterId, `Bo${overtakes}`))
      }
      return overtaken.decide(repositories, target)
    },
  }
  return { racing, calls, locked }
}

/** The campaign's sequence numbers and the counter that hands them out. */
async function sequences(campaignId: string) {
  const [row] = (await app.db.withSession((session) =>
    session.query<{ seqs: number[]; lastSeq: number }>(
      `SELECT array_agg(e."seq"::int ORDER BY e."seq") AS "seqs", max(c."last_seq")::int AS "lastSeq"
       FROM "roll_events" e JOIN "campaigns" c ON c."id" = e."campaign_id" WHERE e."campaign_id" = $1`,
      [campaignId],
    ),
  )) as [{ seqs: number[]; lastSeq: number }]
  return row
}

/** Overtaken once, a command tries again without a lock; overtaken twice, under the row lock. */
const overtakings = [
  {
    name: 'a command overtaken between its read and its write reads and decides again, still without a lock',
    times: 1,
    calls: ['load', 'decide', 'load', 'decide'],
    locked: [false, false],
    version: 3,
    events: 2,
    seqs: [1, 2, 3],
    names: ['Bo0', 'Ada'],
    says: {
      calls: 'read and decided twice',
      locked: 'both tries outside a transaction',
      version: 'after the other command: version 1, +1, +1',
      events: 'one event each, not three',
      seqs: 'the write that did not happen took no sequence number',
      names: 'after its creation, the overtaking rename, then this one',
    },
  },
  {
    name: 'a command overtaken twice reads and decides a third time under the row lock',
    times: 2,
    calls: ['load', 'decide', 'load', 'decide', 'load', 'decide'],
    locked: [false, false, true],
    version: 4,
    events: 3,
    seqs: [1, 2, 3, 4],
    names: ['Bo1', 'Bo0', 'Ada'],
    says: {
      calls: 'read and decided three times',
      locked: 'the third try in a transaction, its row locked as it is read',
      version: 'after the two other commands',
      events: 'one event each',
      seqs: 'the writes that did not happen took no sequence number',
      names: 'after its creation, the two overtaking renames, then this one',
    },
  },
]

for (const overtaking of overtakings)
  t.test(overtaking.name, async (t) => {
    const { principal, characterId, context, published, counted, rows } = await setUp(t)
    const before = await rows()
    const { racing, calls, locked } = overtakenRename(context, principal, characterId, overtaking.times)
    const { says } = overtaking

    const answer = await runCommand(context, principal, racing)

    t.same(calls, overtaking.calls, says.calls)
    t.same(locked, overtaking.locked, says.locked)
    t.equal(answer.recorded.character.version, overtaking.version, says.version)
    const added = overtaking.events
    t.same(await rows(), { ...before, events: before.events + added, outbox: before.outbox + added }, says.events)
    const { seqs, lastSeq } = await sequences(principal.campaign.id)
    t.same(seqs, overtaking.seqs, says.seqs)
    t.equal(lastSeq, overtaking.seqs.length, 'the campaign hands out the next one without a gap')
    const events = await app.store.events.allForCharacter(principal.campaign.id, characterId)
    t.same(
      events.slice(1).map((event) => (event.payload as { characterName: string }).characterName),
      overtaking.names,
      says.names,
    )
    t.equal(published.length, added, 'each command published once')
    t.equal(counted.length, added, 'each command counted once')
  })

t.test('a decide that throws leaves no event, no outbox row and no idempotency record', async (t) => {
  const { principal, characterId, context, published, counted, rows } = await setUp(t)
  const before = await rows()
  const refusal = new ConflictError('the rules refuse')
  const refused: Command = {
    load: async (repositories) => ({ character: await loadCharacter(repositories, principal, characterId) }),
    decide() {
      throw refusal
    },
  }
  const once = { key: 'refused', fingerprint: { name: 'Ada' } }

  await t.rejects(runCommand(context, principal, refused, once), refusal, 'the refusal is the answer')

  t.same(await rows(), before, 'nothing written')
  t.same(published, [], 'nothing published')
  t.same(counted, [], 'nothing counted')
  const retry = await runCommand(context, principal, rename(principal, characterId, 'Ada'), once)
  t.equal(retry.replayed, false, 'the key stayed free: a retry with it is carried out')
  t.equal(retry.recorded.character.version, 2, 'the refused command left the character as it was')
})

t.test('a replay with the same key returns the first answer and decides nothing', async (t) => {
  const { principal, characterId, context, published, counted, rows } = await setUp(t)
  const once = { key: 'rename-1', fingerprint: { name: 'Ada' } }
  const first = await runCommand(context, principal, rename(principal, characterId, 'Ada'), once)
  const afterFirst = await rows()
  const calls: string[] = []

  const again = await runCommand(context, principal, rename(principal, characterId, 'Ada', calls), once)

  t.equal(again.replayed, true, 'marked as a replay')
  t.same(again.recorded, JSON.parse(JSON.stringify(first.recorded)), 'the first answer, as it was recorded')
  t.same(calls, [], 'neither read nor decided')
  t.same(await rows(), afterFirst, 'nothing more written')
  t.equal(afterFirst.keys, 1, 'the key holds one record')
  t.equal(published.length, 1, 'published for the first request only')
  t.equal(counted.length, 1, 'counted for the first request only')
  await t.rejects(
    runCommand(context, principal, rename(principal, characterId, 'Bo', calls), {
      ...once,
      fingerprint: { name: 'Bo' },
    }),
    { message: 'this Idempotency-Key was already used with a different request' },
    'the same key with another request is refused',
  )
  t.same(calls, [], 'and decides nothing either')
})
