import t, { type Test } from 'tap'
import { readdir } from 'node:fs/promises'
import { request, type IncomingMessage } from 'node:http'
import { tmpdir } from 'node:os'
import { Readable } from 'node:stream'
import { createHash } from 'node:crypto'
import { bearer, createCampaign, createCharacter, mintPlayerKey, PROBLEM, type Auth } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { act, allEvents, audit, created, getCharacter, provided, type Problem } from '../helpers/commands.js'
import { copiedListings } from '../../bench/lib/copies.js'
import { playSession } from '../helpers/sessions.js'
import type { App } from '../../src/app.js'
import { RULE_SETS } from '../../src/rules/index.js'

// "export → import → export gives the same history" (issue 16), on whichever engine the suite
// runs on (PGlite, or PostgreSQL with TEST_DATABASE_URL). The dispatcher is off, so the outbox
// holds exactly what was queued.
const app = await buildTestApp(t, { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_DISPATCHER: 'off' })

const NDJSON = 'application/x-ndjson'
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g

type Line = Record<string, any>

interface Imported {
  campaign: { id: string; name: string; ruleset: string; eventCount: number }
  gmKey: { key: string; id: string }
  importedFrom: { campaignId: string; exportedAt: string }
  characters: { id: string; importedFrom: string; name: string }[]
  events: { count: number; lastSeq: number }
  webhooks: { importedFrom: string; endpoint: { id: string; enabled: boolean; secret: string; url: string } }[]
}

async function exportOf(target: App, campaignId: string, auth: Auth): Promise<string> {
  const res = await target.inject({ url: `/v1/campaigns/${campaignId}/export`, headers: auth })
  if (res.statusCode !== 200) throw new Error(`export: expected 200, got ${res.statusCode}: ${res.body}`)
  return res.body
}

const linesOf = (archive: string): Line[] =>
  archive
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Line)

function importArchive(target: App, archive: string, query = '', headers: Record<string, string> = {}) {
  return target.inject({
    method: 'POST',
    url: `/v1/campaigns/import${query}`,
    headers: { 'content-type': NDJSON, ...headers },
    payload: archive,
  })
}

/** The archive with its end line's SHA-256 computed again, as someone altering it on purpose would. */
function resealed(lines: string[]): string {
  const body = lines
    .slice(0, -1)
    .map((line) => `${line}\n`)
    .join('')
  const end = { ...(JSON.parse(lines.at(-1)!) as Line), sha256: createHash('sha256').update(body).digest('hex') }
  return `${body}${JSON.stringify(end)}\n`
}

const TABLES = [
  'campaigns',
  'api_keys',
  'characters',
  'roll_events',
  'webhook_endpoints',
  'webhook_deliveries',
] as const

/** How many rows every table holds: an import refused must leave them all as they were. */
async function rowCounts(target: App): Promise<Record<(typeof TABLES)[number], number>> {
  return target.db.withSession(async (session) => {
    const counts = {} as Record<(typeof TABLES)[number], number>
    for (const table of TABLES) {
      const [row] = await session.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`)
      counts[table] = row!.n
    }
    return counts
  })
}

/** What differs between two exports of the same history, by design: when they were made, and the new campaign's own times. */
function comparable(line: Line): Line {
  switch (line.kind) {
    case 'archive':
      return { ...line, exportedAt: '<export time>' }
    case 'campaign':
      return { ...line, campaign: { ...line.campaign, createdAt: '<import time>', updatedAt: '<import time>' } }
    case 'character':
      return { ...line, character: { ...line.character, updatedAt: '<import time>' } }
    case 'webhook': {
      const { id, campaignId, url, description, eventTypes, includeGmEvents } = line.webhook as Line
      return { kind: 'webhook', webhook: { id, campaignId, url, description, eventTypes, includeGmEvents } }
    }
    case 'end':
      return { ...line, sha256: '<digest>' }
    default:
      return line
  }
}

/** A shock-meters session's archive, as lines, to spoil in the tests below. */
const spoilt = await playSession(app, 'shock-meters')
const pristine = (await exportOf(app, spoilt.campaign.campaign.id, spoilt.campaign.auth)).trimEnd().split('\n')
/** The line number (1-based) of the first event of `type` after `after` events, and the line itself. */
function findEvent(type: string, after = 0) {
  const index = pristine.findIndex((line) => {
    const parsed = JSON.parse(line) as Line
    return parsed.kind === 'event' && parsed.event.type === type && parsed.event.seq > after
  })
  return { number: index + 1, line: JSON.parse(pristine[index]!) as Line }
}
const firstEventLine = pristine.findIndex((line) => line.startsWith('{"kind":"event"')) + 1

for (const ruleset of ['shock-meters', 'trauma-table', 'reaction-rolls']) {
  t.test(`${ruleset}: export → import → export gives the same history, ids mapped as documented`, async (t) => {
    const session = await playSession(app, ruleset)
    const origin = session.campaign.campaign
    const first = await exportOf(app, origin.id, session.campaign.auth)
    const firstLines = linesOf(first)
    const events = firstLines.filter((line) => line.kind === 'event')
    t.ok(
      events.some((line) => line.event.visibility === 'gm'),
      'the session has GM-only events to carry over',
    )
    t.ok(
      events.some((line) => line.event.type === 'revert'),
      'and a revert',
    )
    t.ok(
      events.some((line) => line.event.type === 'character.updated'),
      'and a GM edit',
    )
    t.ok(
      events.some((line) => line.event.type === 'campaign.updated' && line.event.characterId === null),
      'and a campaign-level event: the GM renamed the campaign',
    )
    const types = new Set(events.map((line) => line.event.type as string))
    const ruleSet = RULE_SETS.find((candidate) => candidate.id === ruleset)!
    t.same(
      ruleSet.actions.map((action) => action.name).filter((name) => !types.has(name)),
      [],
      'and every action of the rule set',
    )

    const before = await rowCounts(app)
    const res = await importArchive(app, first)
    t.equal(res.statusCode, 201, `the archive imports: ${res.body.slice(0, 300)}`)
    const imported = res.json<Imported>()
    t.equal(res.headers.location, `/v1/campaigns/${imported.campaign.id}`, 'Location names the new campaign')
    t.not(imported.campaign.id, origin.id, 'the campaign has a new id')
    t.same(imported.importedFrom.campaignId, origin.id, 'and says where it came from')
    t.equal(imported.events.count, events.length, 'every event was imported')
    t.equal(imported.events.lastSeq, events.length, 'up to the last seq')
    t.match(imported.gmKey.key, /^nrv_gm_/, 'a new GM key, shown once')
    t.same(
      imported.characters.map((character) => character.importedFrom),
      session.characterIds,
      'every character, with its id in the archive',
    )
    t.notOk(
      imported.characters.some((character) => session.characterIds.includes(character.id)),
      'each with a new id',
    )
    const after = await rowCounts(app)
    t.equal(after.roll_events - before.roll_events, events.length, 'the history was written once')
    t.equal(after.webhook_deliveries, before.webhook_deliveries, 'and no webhook delivery was queued for it')
    t.equal(after.api_keys - before.api_keys, 1, 'one key minted, the GM’s: player keys are not carried over')

    const gm = bearer(imported.gmKey.key)
    const second = await exportOf(app, imported.campaign.id, gm)
    const secondLines = linesOf(second)

    const ids = new Map<string, string>([[origin.id, imported.campaign.id]])
    for (const character of imported.characters) ids.set(character.importedFrom, character.id)
    for (const webhook of imported.webhooks) ids.set(webhook.importedFrom, webhook.endpoint.id)
    const secondEvents = secondLines.filter((line) => line.kind === 'event')
    events.forEach((line, index) => ids.set(line.event.id, secondEvents[index]!.event.id))
    const mapped = linesOf(first.replace(UUID, (id) => ids.get(id) ?? id))

    t.same(
      secondEvents.map((line) => line.event.seq),
      events.map((line) => line.event.seq),
      'the events keep their seq',
    )
    t.strictSame(secondLines.map(comparable), mapped.map(comparable), 'the second export is the first, its ids mapped')
    t.same(
      secondEvents.map((line) => line.event.actor),
      events.map((line) => line.event.actor),
      'the actors still name the keys that acted where the events were recorded',
    )
    t.ok(
      imported.webhooks.every((webhook) => !webhook.endpoint.enabled && webhook.endpoint.secret.startsWith('whsec_')),
      'webhook endpoints come back disabled, each with a new secret shown once',
    )

    for (const character of imported.characters) {
      const report = await audit(app, gm, { campaignId: imported.campaign.id, characterId: character.id })
      t.ok(
        report.consistent,
        `${character.name}: the audit rebuilds the imported sheet (${JSON.stringify(report.divergence)})`,
      )
    }

    // Players see the imported campaign as they saw the original: GM-only events hidden, and the
    // sheets as they knew them.
    const [vera] = imported.characters
    const player = await mintPlayerKey(app, imported.campaign, gm, [vera!.id])
    const playerBefore = await allEvents(app, session.player, origin.id)
    const playerAfter = await allEvents(app, player.auth, imported.campaign.id)
    const gmView = new Map(events.map((line) => [line.event.id as string, line.event as Line]))
    t.ok(
      playerBefore.some(
        (event) => JSON.stringify(event.sheetAfter) !== JSON.stringify(gmView.get(event.id)?.sheetAfter),
      ),
      'the session has public events that players see otherwise than the GM (on the sheet they knew)',
    )
    t.strictSame(
      playerAfter,
      JSON.parse(JSON.stringify(playerBefore).replace(UUID, (id) => ids.get(id) ?? id)),
      'a player reads the same history in both, GM-only events left out',
    )
    const sheetBefore = await getCharacter(app, session.player, {
      campaignId: origin.id,
      characterId: session.characterIds[0]!,
    })
    const sheetAfter = await getCharacter(app, player.auth, { campaignId: imported.campaign.id, characterId: vera!.id })
    t.same(sheetAfter.sheet, sheetBefore.sheet, 'and the same sheet of their character')

    // The imported campaign plays on.
    const next = await act(
      app,
      gm,
      { campaignId: imported.campaign.id, characterId: vera!.id },
      NEXT_ROLL[ruleset]!.action,
      {
        request: NEXT_ROLL[ruleset]!.request,
      },
    )
    t.equal(next.statusCode, 201, `a new roll on an imported character is recorded: ${next.body.slice(0, 200)}`)
    t.equal(created(next, 'the next roll').event.seq, events.length + 1, 'after the imported history')
  })
}

/** A roll each session's first character can make at the end of it. */
const NEXT_ROLL: Record<string, { action: string; request: Record<string, unknown> }> = {
  'shock-meters': { action: 'new-session', request: {} },
  'trauma-table': { action: 'end-scene', request: {} },
  'reaction-rolls': { action: 'reaction-roll', request: { ability: 'composure', pressure: 4, resist: false } },
}

// ---------------------------------------------------------------- refusals

async function refused(
  t: Test,
  archive: string,
  expected: { code: string; line: number; seq: number | null; detail?: RegExp },
) {
  const before = await rowCounts(app)
  const res = await importArchive(app, archive)
  t.equal(res.statusCode, 422, `422: ${res.body.slice(0, 300)}`)
  t.match(res.headers['content-type'], PROBLEM, 'as problem details')
  const problem = res.json<Problem & { line: number; seq: number | null }>()
  t.equal(problem.code, expected.code, `code ${expected.code}`)
  t.equal(problem.line, expected.line, `naming line ${expected.line}`)
  t.equal(problem.seq, expected.seq, `and seq ${expected.seq}`)
  t.match(problem.detail, `line ${expected.line}`, 'the detail names the line too')
  if (expected.detail) t.match(problem.detail, expected.detail, 'and says what is wrong')
  t.same(await rowCounts(app), before, 'nothing was written: no campaign, key, character, event or endpoint')
}

t.test('an archive cut between two lines is refused with 422 naming the first missing line and seq', async (t) => {
  const keep = firstEventLine + 5
  const cut = pristine
    .slice(0, keep)
    .map((line) => `${line}\n`)
    .join('')
  const missing = JSON.parse(pristine[keep]!) as Line
  await refused(t, cut, { code: 'ARCHIVE_TRUNCATED', line: keep + 1, seq: missing.event.seq, detail: /incomplete/ })
})

t.test('an archive cut in the middle of a line is refused with 422 naming that line and its seq', async (t) => {
  const at = firstEventLine + 3
  const body = pristine
    .slice(0, at - 1)
    .map((line) => `${line}\n`)
    .join('')
  const half = pristine[at - 1]!.slice(0, 400)
  const seq = (JSON.parse(pristine[at - 1]!) as Line).event.seq as number
  await refused(t, body + half, { code: 'ARCHIVE_TRUNCATED', line: at, seq, detail: /middle of this line/ })
})

t.test('an archive whose end line is missing is refused as cut short', async (t) => {
  const body = pristine
    .slice(0, -1)
    .map((line) => `${line}\n`)
    .join('')
  await refused(t, body, { code: 'ARCHIVE_TRUNCATED', line: pristine.length, seq: null, detail: /end line was due/ })
})

t.test('a tampered sheet is refused even when the SHA-256 was computed again: the event does not replay', async (t) => {
  const { number, line } = findEvent('stress-check')
  line.event.sheetAfter.meters.violence.hardened += 1
  const lines = [...pristine]
  lines[number - 1] = JSON.stringify(line)
  await refused(t, resealed(lines), {
    code: 'ARCHIVE_DOES_NOT_REPLAY',
    line: number,
    seq: line.event.seq,
    detail: /sheet recorded after this event differs/,
  })
})

t.test(
  'a tampered dice face is refused even when the SHA-256 was computed again: the roll does not replay',
  async (t) => {
    const { number, line } = findEvent('stress-check')
    t.equal(line.event.dice[0].face, 30, 'the Soldier’s 30 against Violence 4')
    line.event.dice[0].face = 95
    const lines = [...pristine]
    lines[number - 1] = JSON.stringify(line)
    await refused(t, resealed(lines), {
      code: 'ARCHIVE_DOES_NOT_REPLAY',
      line: number,
      seq: line.event.seq,
      detail: /different outcome/,
    })
  },
)

t.test('a GM-only event turned public is refused by the SHA-256 of the end line', async (t) => {
  const hidden = pristine.findIndex((line) => line.includes('"visibility":"gm"'))
  t.ok(hidden > 0, 'the archive holds a GM-only event')
  const lines = [...pristine]
  lines[hidden] = lines[hidden]!.replace('"visibility":"gm"', '"visibility":"public"')
  await refused(t, `${lines.join('\n')}\n`, {
    code: 'ARCHIVE_ALTERED',
    line: pristine.length,
    seq: null,
    detail: /SHA-256/,
  })
})

t.test('two events swapped are refused with 422 naming the first line out of order and the seq it holds', async (t) => {
  const at = firstEventLine + 4
  const lines = [...pristine]
  ;[lines[at - 1], lines[at]] = [lines[at]!, lines[at - 1]!]
  const holds = (JSON.parse(lines[at - 1]!) as Line).event.seq as number
  await refused(t, resealed(lines), {
    code: 'ARCHIVE_OUT_OF_ORDER',
    line: at,
    seq: holds,
    detail: new RegExp(`holds seq ${holds} where seq ${holds - 1} was due`),
  })
})

t.test('an event left out is refused at the next line: its seq skips one', async (t) => {
  const at = firstEventLine + 2
  const lines = pristine.filter((_, index) => index !== at - 1)
  const holds = (JSON.parse(lines[at - 1]!) as Line).event.seq as number
  await refused(t, resealed(lines), {
    code: 'ARCHIVE_OUT_OF_ORDER',
    line: at,
    seq: holds,
    detail: /was due/,
  })
})

t.test('a line that is not JSON, and an archive of an unknown version, are refused naming the line', async (t) => {
  const lines = [...pristine]
  lines[firstEventLine + 1] = '{"kind":"event",'
  await refused(t, resealed(lines), {
    code: 'ARCHIVE_INVALID',
    line: firstEventLine + 2,
    seq: (JSON.parse(pristine[firstEventLine + 1]!) as Line).event.seq,
    detail: /not JSON/,
  })
  const header = { ...(JSON.parse(pristine[0]!) as Line), version: 2 }
  await refused(t, resealed([JSON.stringify(header), ...pristine.slice(1)]), {
    code: 'ARCHIVE_INVALID',
    line: 1,
    seq: null,
    detail: /version 2: this Nerve reads version 1/,
  })
  await refused(t, '', { code: 'ARCHIVE_TRUNCATED', line: 1, seq: null, detail: /empty/ })
})

t.test('the archive shown in the OpenAPI document imports as it is', async (t) => {
  const document = (await app.inject({ url: '/docs/json' })).json()
  const media = document.paths['/v1/campaigns/import'].post.requestBody.content[NDJSON]
  const example = media.example as string
  const res = await importArchive(app, example)
  t.equal(res.statusCode, 201, `201: ${res.body.slice(0, 300)}`)
  t.equal(res.json<Imported>().events.count, 1, 'with its one event')
})

t.test(
  'an archive exported while summaries named API ids ("waiting for trauma-response") imports, its reveal shown to players',
  async (t) => {
    const table = await createCampaign(app, 'trauma-table')
    const { character } = await createCharacter(app, table.campaign, table.auth)
    const ids = { campaignId: table.campaign.id, characterId: character.id }
    const roll = created(
      await act(app, table.auth, ids, 'trauma-roll', { request: {}, dice: provided(28), visibility: 'gm' }),
      'a GM-only trauma roll left waiting',
    )
    const revealUrl = `/v1/campaigns/${table.campaign.id}/events/${roll.event.id}/reveal`
    created(await app.inject({ method: 'POST', url: revealUrl, headers: table.auth }), 'revealed')

    const today = "waiting for the player's answer: accept it or answer with an ability"
    const archive = await exportOf(app, table.campaign.id, table.auth)
    t.equal(archive.split(today).length - 1, 3, 'the roll, the reveal and the roll it carries say it in words')
    const earlier = archive
      .replaceAll(today, 'waiting for trauma-response')
      .replace('Revealed trauma roll #', 'Revealed trauma-roll #')
      .trimEnd()
      .split('\n')
    const res = await importArchive(app, resealed(earlier))
    t.equal(res.statusCode, 201, `201: ${res.body.slice(0, 300)}`)
    const imported = res.json<Imported>()
    const gm = bearer(imported.gmKey.key)
    const vera = { campaignId: imported.campaign.id, characterId: imported.characters[0]!.id }
    t.equal((await getCharacter(app, gm, vera)).hiddenFromPlayers, false, 'players see the revealed roll’s sheet')
    const player = await mintPlayerKey(app, imported.campaign, gm, [vera.characterId])
    const reveal = (await allEvents(app, player.auth, imported.campaign.id)).find((event) => event.type === 'reveal')
    t.match(
      reveal?.summary,
      /^Revealed trauma-roll #2: Trauma: d100 28 = 28 → Fragility; waiting for trauma-response$/,
      'and read the reveal as it was recorded',
    )
  },
)

// ---------------------------------------------------------------- who may

t.test(
  'only the campaign’s GM key exports it: a player key is 403, another campaign’s key 404, none 401',
  async (t) => {
    const url = `/v1/campaigns/${spoilt.campaign.campaign.id}/export`
    const player = await app.inject({ url, headers: spoilt.player })
    t.equal(player.statusCode, 403, 'a player key may not export (the archive holds GM-only events)')
    t.match(player.headers['content-type'], PROBLEM, 'as problem details')
    const stranger = await createCampaign(app)
    const foreign = await app.inject({ url, headers: stranger.auth })
    t.equal(foreign.statusCode, 404, 'another campaign’s GM key finds no such campaign')
    const anonymous = await app.inject({ url })
    t.equal(anonymous.statusCode, 401, 'no key is 401')
    const res = await app.inject({ url, headers: spoilt.campaign.auth })
    t.equal(res.statusCode, 200, 'the GM key exports')
    t.match(res.headers['content-type'], /^application\/x-ndjson/, 'as application/x-ndjson')
    t.match(
      res.headers['content-disposition'],
      /^attachment; filename="a-shock-meters-campaign-season-2-\d{4}-\d\d-\d\d\.nerve\.ndjson"$/,
      'as a file named after the campaign (as the GM renamed it)',
    )
  },
)

t.test('with ADMIN_TOKEN set, importing needs the admin token, as creating a campaign does', async (t) => {
  const token = 'an-admin-token-of-some-length'
  const guarded = await buildTestApp(t, { ADMIN_TOKEN: token, WEBHOOK_ALLOW_PRIVATE: 'true' })
  const archive = `${pristine.join('\n')}\n`
  const without = await importArchive(guarded, archive)
  t.equal(without.statusCode, 401, 'without it: 401')
  const gmKey = await importArchive(guarded, archive, '', spoilt.campaign.auth)
  t.equal(gmKey.statusCode, 401, 'a campaign key is not the admin token')
  const withToken = await importArchive(guarded, archive, '', bearer(token))
  t.equal(withToken.statusCode, 201, `with it: 201 ${withToken.body.slice(0, 200)}`)
})

t.test('an archive over IMPORT_BODY_LIMIT_BYTES is 413, whether its length is said or not', async (t) => {
  const small = await buildTestApp(t, { IMPORT_BODY_LIMIT_BYTES: '4096', WEBHOOK_ALLOW_PRIVATE: 'true' })
  const archive = `${pristine.join('\n')}\n`
  const before = await rowCounts(small)
  const declared = await importArchive(small, archive)
  t.equal(declared.statusCode, 413, 'a Content-Length over the limit: 413 before anything is read')
  t.match(declared.headers['content-type'], PROBLEM, 'as problem details')
  const streamed = await small.inject({
    method: 'POST',
    url: '/v1/campaigns/import',
    headers: { 'content-type': NDJSON },
    payload: Readable.from(pristine.map((line) => `${line}\n`)),
  })
  t.equal(streamed.statusCode, 413, `a body growing past the limit as it streams: 413 (${streamed.body.slice(0, 200)})`)
  t.same(await rowCounts(small), before, 'and nothing was written')
})

t.test('an import sent as JSON is 415, saying to send application/x-ndjson', async (t) => {
  const res = await app.inject({ method: 'POST', url: '/v1/campaigns/import', payload: { kind: 'archive' } })
  t.equal(res.statusCode, 415, '415')
  t.match(
    res.json<Problem>().detail,
    'Send the body as application/x-ndjson, not application/json',
    'naming the type to send',
  )
})

t.test('webhook endpoints this Nerve refuses stop the import, unless it is told to leave them out', async (t) => {
  const strict = await buildTestApp(t)
  const archive = `${pristine.join('\n')}\n`
  const webhookLine = pristine.findIndex((line) => line.startsWith('{"kind":"webhook"')) + 1
  const res = await importArchive(strict, archive)
  t.equal(res.statusCode, 422, '422: the endpoint’s loopback URL is refused here')
  t.match(res.json(), { code: 'ARCHIVE_WEBHOOK_REFUSED', line: webhookLine, seq: null }, 'naming its line')
  t.match(res.json<Problem>().detail, 'webhooks=none', 'and the way around it')
  const without = await importArchive(strict, archive, '?webhooks=none')
  t.equal(without.statusCode, 201, `with ?webhooks=none it imports (${without.body.slice(0, 200)})`)
  t.same(without.json<Imported>().webhooks, [], 'without its endpoints')
})

// ---------------------------------------------------------------- streaming, over a real connection

const address = await app.listen({ port: 0, host: '127.0.0.1' })

/** Appends `count` copies of the campaign's latest stress check to its history, in one statement (as bench/history.ts seeds). */
async function seedCopies(campaignId: string, count: number) {
  await app.db.withSession(async (session) => {
    await session.query(
      `WITH copies AS MATERIALIZED (SELECT g, gen_random_uuid() AS id FROM generate_series(1, $2::integer) g)
       INSERT INTO roll_events (id, campaign_id, seq, character_id, type, ruleset, visibility, actor, payload,
         listing, public_listing)
       SELECT n.id, t.campaign_id, c.last_seq + n.g, t.character_id, t.type, t.ruleset, t.visibility,
         t.actor, t.payload, ${copiedListings('t', { id: 'n.id', seq: 'c.last_seq + n.g' })}
       FROM copies n, campaigns c,
         (SELECT * FROM roll_events WHERE campaign_id = $1 AND type = 'stress-check' ORDER BY seq DESC LIMIT 1) t
       WHERE c.id = $1`,
      [campaignId, count],
    )
    await session.query('UPDATE campaigns SET last_seq = last_seq + $2 WHERE id = $1', [campaignId, count])
  })
}

/** A GET whose body the test reads at its own pace: `first()` takes one chunk, `rest()` the whole body. */
async function slowGet(path: string, auth: Auth) {
  const chunks: Buffer[] = []
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request(`${address}${path}`, { headers: auth }, resolve).on('error', reject).end()
  })
  response.pause()
  const next = () =>
    new Promise<Buffer | null>((resolve) => {
      const chunk = response.read() as Buffer | null
      if (chunk) return resolve(chunk)
      if (response.readableEnded) return resolve(null)
      response.once('readable', () => resolve(response.read() as Buffer | null))
      response.once('end', () => resolve(null))
    })
  const rest = async () => {
    for (let chunk = await next(); chunk; chunk = await next()) chunks.push(chunk)
    return Buffer.concat(chunks).toString()
  }
  return { response, first: async () => (chunks.push((await next())!), chunks[0]!.toString()), rest }
}

/** Waits until `read()` has stopped changing for a while: what the server does once the client stops reading. */
async function settled(read: () => number) {
  let last = -1
  for (let still = 0; still < 5;) {
    await new Promise((resolve) => setTimeout(resolve, 200))
    still = read() === last ? still + 1 : 0
    last = read()
  }
  return last
}

const EVENTS = 10_000

t.test(
  'an export reads the history as fast as the client takes it, and ends at the last event when it began',
  async (t) => {
    const { campaign, auth } = await createCampaign(app)
    const { character } = await createCharacter(app, campaign, auth)
    const ids = { campaignId: campaign.id, characterId: character.id }
    created(
      await act(app, auth, ids, 'stress-check', { request: { meter: 'violence', rank: 4 }, dice: provided(5) }),
      'a roll',
    )
    await seedCopies(campaign.id, EVENTS)
    const total = EVENTS + 2

    const pages = app.store.eventPages
    const read = pages.listWithSettings.bind(pages)
    let pagesRead = 0
    pages.listWithSettings = (...args) => {
      pagesRead++
      return read(...args)
    }
    t.teardown(() => void (pages.listWithSettings = read))

    const download = await slowGet(`/v1/campaigns/${campaign.id}/export`, auth)
    t.equal(download.response.statusCode, 200, '200')
    const header = JSON.parse((await download.first()).split('\n')[0]!) as Line
    t.same(header.counts, { characters: 1, events: total, webhooks: 0 }, 'the first line counts what follows')
    const paused = await settled(() => pagesRead)
    const allPages = Math.ceil(total / 200)
    t.ok(
      paused < allPages / 2,
      `while the client reads nothing, the server stops reading too (${paused} of ${allPages} pages read)`,
    )

    // Recorded after the export began: part of the next one, not of this one.
    created(
      await act(app, auth, ids, 'stress-check', { request: { meter: 'self', rank: 2 }, dice: provided(5) }),
      'a later roll',
    )
    const archive = await download.rest()
    const lines = archive.trimEnd().split('\n')
    const end = JSON.parse(lines.at(-1)!) as Line
    t.match(
      end,
      { kind: 'end', events: total, lastSeq: total },
      'the archive ends at the event that was last when it began',
    )
    t.equal(lines.filter((line) => line.startsWith('{"kind":"event"')).length, total, 'with every event up to it')
    const body = archive.slice(0, archive.length - lines.at(-1)!.length - 1)
    t.equal(end.sha256, createHash('sha256').update(body).digest('hex'), 'and its SHA-256 is that of every line before')
  },
)

t.test('an import over a real connection: 413 past the limit, and nothing left on disk', async (t) => {
  const small = await buildTestApp(t, { IMPORT_BODY_LIMIT_BYTES: '65536', WEBHOOK_ALLOW_PRIVATE: 'true' })
  const smallAddress = await small.listen({ port: 0, host: '127.0.0.1' })
  const spooled = async () => (await readdir(tmpdir())).filter((name) => name.startsWith('nerve-body-'))
  const before = await spooled()
  const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${smallAddress}/v1/campaigns/import`, {
      method: 'POST',
      headers: { 'content-type': NDJSON },
    })
    req.on('response', (response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => (body += chunk.toString()))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    // Chunked, so the server learns the size only as it arrives.
    for (let i = 0; i < 40; i++) req.write(`${pristine[firstEventLine + (i % 5)]}\n`)
    req.end()
  })
  t.equal(res.status, 413, `the client is answered 413, not cut off (${res.body.slice(0, 120)})`)
  t.same(await spooled(), before, 'the refused body’s temporary file is gone')
  const imported = await importArchive(app, `${pristine.join('\n')}\n`)
  t.equal(imported.statusCode, 201, 'an archive within the limit imports')
  t.same(await spooled(), before, 'and its temporary file is gone too')
})

t.test('a client that goes away before the answer takes the import back with it', async (t) => {
  const before = await rowCounts(app)
  await new Promise<void>((resolve) => {
    const req = request(`${address}/v1/campaigns/import`, { method: 'POST', headers: { 'content-type': NDJSON } })
    req.on('error', () => resolve())
    req.on('response', () => resolve())
    // The whole archive, then the connection closed at once: the replay has not finished by then.
    req.end(`${pristine.join('\n')}\n`, () => req.destroy())
  })
  // An import of this archive is written well within this (a few hundred ms), had it gone on.
  await new Promise((resolve) => setTimeout(resolve, 3000))
  t.same(await rowCounts(app), before, 'nothing was kept: nobody would ever learn the new GM key')
})
