import t, { type Test } from 'tap'
import type { App } from '../../src/app.js'
import { createCampaign, createCharacter, mintPlayerKey, type Auth } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import {
  act,
  allEvents,
  audit,
  characterUrl,
  created,
  decide,
  getCharacter,
  provided,
  revert,
  type CommandResult,
  type Ids,
} from '../helpers/commands.js'

// Issue 27 §1–§2 and the five paths of issue 35: each way a GM-only value reached players, as a
// named case; the generative test (test/routes/secrecy-property.test.ts) plays random sequences.

const app = await buildTestApp(t)

type Answer = CommandResult & { visibilityReason: { code: string; detail: string } }

interface Table {
  ids: Ids
  gm: Auth
  player: Auth
}

async function table(sheet?: Record<string, unknown>): Promise<Table> {
  const { campaign, auth: gm } = await createCampaign(app, 'shock-meters')
  const { character } = await createCharacter(app, campaign, gm, { name: 'Vera Okafor', ...(sheet ? { sheet } : {}) })
  const { auth: player } = await mintPlayerKey(app, campaign, gm, [character.id])
  return { ids: { campaignId: campaign.id, characterId: character.id }, gm, player }
}

const answer = (res: Awaited<ReturnType<typeof act>>, what: string) => created(res, what) as Answer

/** A stress check the GM rolls behind the screen, with the face given. */
const gmOnlyCheck = async (at: Table, request: Record<string, unknown>, face: number) =>
  answer(
    await act(app, at.gm, at.ids, 'stress-check', { request, dice: provided(face), visibility: 'gm' }),
    'GM-only check',
  )

/** Every body a player key reads about the campaign: the character, the lists, every event alone. */
async function playerReads(target: App, { ids, player }: Table): Promise<string> {
  const events = await allEvents(target, player, ids.campaignId)
  const urls = [
    `/v1/campaigns/${ids.campaignId}`,
    `/v1/campaigns/${ids.campaignId}/characters`,
    characterUrl(ids),
    `/v1/campaigns/${ids.campaignId}/events?sheets=full`,
    `/v1/campaigns/${ids.campaignId}/events?sheets=none`,
    ...events.map((event) => `/v1/campaigns/${ids.campaignId}/events/${event.id}`),
  ]
  const bodies = await Promise.all(urls.map(async (url) => (await target.inject({ url, headers: player })).body))
  return bodies.join('\n')
}

function hides(t: Test, seen: string, secrets: string[], where: string) {
  for (const secret of secrets) {
    const at = seen.indexOf(secret)
    t.equal(
      at,
      -1,
      `${where}: ${JSON.stringify(secret)} never shows${at >= 0 ? ` (…${seen.slice(at - 200, at + 60)}…)` : ''}`,
    )
  }
}

const PASSIONS = { passions: { fear: { text: 'Being forgotten' }, rage: { text: 'People who prey on children' } } }
const FOUR_FAILED = { meters: { violence: { hardened: 1, failed: 4 } }, ...PASSIONS }

t.test(
  'issue 27 §1: a clear-stressed after a GM-only check is GM-only, and public on request without the hidden cause',
  async (t) => {
    const at = await table()
    const hidden = await gmOnlyCheck(at, { meter: 'violence', rank: 4, cause: 'SECRET-CAUSE-7f3a' }, 99)
    t.ok(hidden.event.pending.length > 0, 'the hidden check failed, its response pending')
    const response = answer(
      await act(app, at.gm, at.ids, 'stress-response', { request: { response: 'panic' } }),
      'response',
    )
    t.equal(response.event.visibility, 'gm', 'its response is GM-only')
    t.equal(response.visibilityReason.code, 'follows-gm-only-event', 'because it follows the hidden check')

    const cleared = answer(await act(app, at.gm, at.ids, 'clear-stressed', { request: {} }), 'clear-stressed')
    t.equal(cleared.event.visibility, 'gm', 'left to Nerve, clearing a stress only the GM knows of is GM-only')
    t.equal(cleared.visibilityReason.code, 'reads-hidden-state', 'because its result reads the hidden check')
    t.match(cleared.visibilityReason.detail, /"visibility": "public"/, 'and the GM is told how to show it anyway')
    hides(t, await playerReads(app, at), ['SECRET-CAUSE-7f3a', 'panic', hidden.event.id], 'players')

    // Again, and this time the GM says public.
    const again = await table()
    await gmOnlyCheck(again, { meter: 'violence', rank: 4, cause: 'SECRET-CAUSE-7f3a', response: 'panic' }, 99)
    const shown = answer(
      await act(app, again.gm, again.ids, 'clear-stressed', { request: {}, visibility: 'public' }),
      'public clear-stressed',
    )
    t.equal(shown.event.visibility, 'public', 'public when the GM asks')
    t.equal(shown.visibilityReason.code, 'redacted', 'and the GM is told players see it without its result')
    t.match(shown.event.outcome, { cleared: {} }, 'the GM reads the whole outcome')
    const players = await allEvents(app, again.player, again.ids.campaignId)
    const seen = players.find((event) => event.id === shown.event.id)!
    t.equal(seen.outcome, null, 'players read no outcome')
    t.match(
      seen.summary,
      /Vera Okafor — end of the stressed state: the result stays with the GM/,
      'only that it happened',
    )
    hides(t, await playerReads(app, again), ['SECRET-CAUSE-7f3a', 'panic'], 'players')
  },
)

t.test('issue 35 path 1: a public treatment of a GM-only disorder does not show its cause', async (t) => {
  const at = await table()
  answer(
    await act(app, at.gm, at.ids, 'record-disorder', {
      request: { name: 'Nyctophobia', meter: 'violence', cause: 'SECRET-PATH-1' },
      visibility: 'gm',
    }),
    'GM-only disorder',
  )
  const derived = answer(
    await act(app, at.gm, at.ids, 'ongoing-treatment', { request: { disorder: 'Nyctophobia', reason: 'Sessions' } }),
    'treatment',
  )
  t.equal(derived.event.visibility, 'gm', 'curing a disorder players never saw is GM-only')
  hides(t, await playerReads(app, at), ['SECRET-PATH-1', 'Nyctophobia'], 'players after the derived treatment')
  created(await revert(app, at.gm, at.ids, derived.event.id), 'the treatment taken back')
  const shown = answer(
    await act(app, at.gm, at.ids, 'ongoing-treatment', {
      request: { disorder: 'Nyctophobia', reason: 'Sessions' },
      visibility: 'public',
    }),
    'public treatment',
  )
  t.equal(shown.visibilityReason.code, 'redacted', 'public on request, without its result')
  hides(t, await playerReads(app, at), ['SECRET-PATH-1', 'Nyctophobia'], 'players, not even the name the GM typed')
})

t.test(
  'issue 35 path 2: a public treatment of a disorder a GM-only fifth-notch check brought does not show its cause',
  async (t) => {
    const at = await table(FOUR_FAILED)
    await gmOnlyCheck(
      at,
      { meter: 'violence', rank: 4, cause: 'SECRET-PATH-2', response: 'panic', disorder: 'Hemophobia' },
      99,
    )
    const treated = answer(
      await act(app, at.gm, at.ids, 'ongoing-treatment', {
        request: { disorder: 'Hemophobia', reason: 'Sessions' },
        visibility: 'public',
      }),
      'public treatment',
    )
    t.equal(treated.event.visibility, 'public', 'public, as asked')
    t.equal(treated.visibilityReason.code, 'redacted', 'shown to players without its result')
    hides(t, await playerReads(app, at), ['SECRET-PATH-2'], 'players')
  },
)

t.test('issue 35 path 3: a re-roll and a flip-flop after a GM-only disorder name do not show the name', async (t) => {
  const at = await table(FOUR_FAILED)
  const check = answer(
    await act(app, at.player, at.ids, 'stress-check', {
      request: { meter: 'violence', rank: 4, passion: 'fear', response: 'panic' },
      dice: provided(99),
    }),
    'the player’s fifth-notch check',
  )
  t.same(
    check.event.pending.map((decision) => decision.action),
    ['record-disorder'],
    'a disorder to name is open',
  )
  const named = await decide(app, at.gm, at.ids.campaignId, check.event.id, {
    action: 'record-disorder',
    request: { name: 'SECRET-PATH-3' },
    visibility: 'gm',
  } as never)
  t.equal(named.statusCode, 201, 'the GM names the disorder GM-only')
  const reroll = answer(
    await act(app, at.gm, at.ids, 'passion-reroll', { request: { passion: 'fear' }, dice: provided(98) }),
    're-roll',
  )
  t.equal(reroll.event.visibility, 'gm', 'a re-roll whose result names the hidden disorder is GM-only')
  t.equal(reroll.visibilityReason.code, 'reads-hidden-state', 'because it reads the hidden name')
  const refused = await act(app, at.player, at.ids, 'passion-flip-flop', { request: { passion: 'fear' } })
  t.equal(refused.statusCode, 403, 'the player may not flip-flop a roll the GM changed in secret')
  t.notMatch(refused.body, /SECRET-PATH-3/, 'and the refusal does not say the name')
  created(await revert(app, at.gm, at.ids, reroll.event.id), 'the GM takes the re-roll back')
  const flipped = answer(
    await act(app, at.gm, at.ids, 'passion-flip-flop', { request: { passion: 'fear' }, visibility: 'public' }),
    'public flip-flop',
  )
  t.equal(flipped.visibilityReason.code, 'redacted', 'a public flip-flop is shown without its result')
  hides(t, await playerReads(app, at), ['SECRET-PATH-3'], 'players')
})

t.test('issue 35 path 4: a response after a GM-only flip-flop settles that roll, not a stale public one', async (t) => {
  const at = await table(PASSIONS)
  const failed = answer(
    await act(app, at.player, at.ids, 'stress-check', {
      request: { meter: 'violence', rank: 4, passion: 'fear' },
      dice: provided(91),
    }),
    '(1) the player’s public check fails',
  )
  t.ok(failed.event.pending.length > 0, '(1) its response is open')
  const passed = answer(
    await act(app, at.player, at.ids, 'passion-flip-flop', { request: { passion: 'fear' } }),
    '(2) the player’s flip-flop',
  )
  t.same(passed.event.pending, [], '(2) 91 → 19 passes: nothing is open')
  await gmOnlyCheck(at, { meter: 'self', rank: 3, passion: 'rage', cause: 'SECRET-PATH-4' }, 16)
  const hiddenFlip = answer(
    await act(app, at.gm, at.ids, 'passion-flip-flop', { request: { passion: 'rage' } }),
    '(4) the GM flips it',
  )
  t.equal(hiddenFlip.event.visibility, 'gm', '(4) 16 → 61 fails, GM-only')
  const response = answer(
    await act(app, at.gm, at.ids, 'stress-response', { request: { response: 'paralysis' } }),
    '(5) the GM’s response',
  )
  t.equal(response.event.causationId, hiddenFlip.event.id, '(5) it settles the decision the hidden flip-flop opened')
  t.equal(response.event.visibility, 'gm', '(5) so it is GM-only')
  t.equal(response.visibilityReason.code, 'follows-gm-only-event', '(5) and says why')
  const sheet = (await getCharacter(app, at.player, at.ids)).sheet
  t.equal(sheet.stressed, null, 'the player’s sheet shows no stress')
  hides(t, await playerReads(app, at), ['SECRET-PATH-4', hiddenFlip.event.id], 'players')
})

t.test(
  'issue 35 path 5: a player’s refused settlement does not name the GM-only event holding the decision',
  async (t) => {
    const at = await table()
    const open = answer(
      await act(app, at.player, at.ids, 'stress-check', {
        request: { meter: 'violence', rank: 4 },
        dice: provided(99),
      }),
      'the player’s public check fails',
    )
    await act(app, at.gm, at.ids, 'clear-stressed', { request: {}, visibility: 'gm' })
    const hidden = await gmOnlyCheck(at, { meter: 'isolation', rank: 4 }, 99)
    const refused = await decide(app, at.player, at.ids.campaignId, open.event.id, { request: { response: 'panic' } })
    t.equal(refused.statusCode, 409, `the settlement is refused: ${refused.body}`)
    t.notMatch(refused.body, new RegExp(hidden.event.id), 'without naming the GM-only event')
    t.match(refused.json(), { detail: /another one open/ }, 'it says another decision is open')
    const toGm = await decide(app, at.gm, at.ids.campaignId, open.event.id, { request: { response: 'panic' } })
    t.match(toGm.json(), { detail: new RegExp(hidden.event.id) }, 'the GM is told which one')
  },
)

t.test(
  'a public settlement of the decision a GM-only flip-flop reopened does not name the flip-flop (found by the generative test)',
  async (t) => {
    const at = await table(PASSIONS)
    answer(
      await act(app, at.player, at.ids, 'stress-check', {
        request: { meter: 'violence', rank: 4, passion: 'fear' },
        dice: provided(99),
      }),
      'the player’s public check fails',
    )
    answer(
      await act(app, at.gm, at.ids, 'clear-stressed', { request: {}, visibility: 'gm' }),
      'the GM clears the stress behind the screen (players still see it open)',
    )
    const hiddenFlip = answer(
      await act(app, at.gm, at.ids, 'passion-flip-flop', { request: { passion: 'fear' }, visibility: 'gm' }),
      'the GM flips it behind the screen',
    )
    t.equal(hiddenFlip.event.visibility, 'gm', '99 → 99 fails again, GM-only')
    const response = answer(
      await act(app, at.gm, at.ids, 'stress-response', { request: { response: 'frenzy' }, visibility: 'public' }),
      'the GM settles it for everyone',
    )
    t.equal(response.event.causationId, hiddenFlip.event.id, 'the GM sees it follows the hidden flip-flop')
    t.equal(response.event.visibility, 'public', 'public, as asked')
    const shown = await app.inject({
      url: `/v1/campaigns/${at.ids.campaignId}/events/${response.event.id}`,
      headers: at.player,
    })
    t.equal(shown.json().causationId, null, 'players read the response without what it follows')
    hides(t, await playerReads(app, at), [hiddenFlip.event.id], 'players')
  },
)

t.test('issue 27 §2: the GM reveals a hidden roll, and players then see it and what it did', async (t) => {
  const at = await table()
  const hidden = await gmOnlyCheck(at, { meter: 'violence', rank: 4, cause: 'REVEALED-CAUSE', response: 'panic' }, 99)
  const revealUrl = (eventId: string) => `/v1/campaigns/${at.ids.campaignId}/events/${eventId}/reveal`
  t.match(
    (await app.inject({ url: `/v1/campaigns/${at.ids.campaignId}/events/${hidden.event.id}`, headers: at.gm })).json(),
    { visibility: 'gm' },
    'the hidden roll is GM-only',
  )
  const byPlayer = await app.inject({ method: 'POST', url: revealUrl(hidden.event.id), headers: at.player })
  t.equal(byPlayer.statusCode, 403, 'a player may not reveal')
  const reveal = created(
    await app.inject({ method: 'POST', url: revealUrl(hidden.event.id), headers: at.gm }),
    'reveal',
  ) as Answer
  t.equal(reveal.event.type, 'reveal', 'a reveal event')
  t.equal(reveal.event.visibility, 'public', 'which players see')
  t.equal(reveal.event.causationId, hidden.event.id, 'following the revealed roll')
  t.match(reveal.event.outcome, { revealed: { id: hidden.event.id, summary: hidden.event.summary } }, 'carrying it')
  t.equal(
    reveal.event.summary,
    `Revealed stress check #${hidden.event.seq}: ${hidden.event.summary}`,
    'its summary names the roll in words, by its number',
  )
  t.match(JSON.stringify(reveal.event.outcome), /REVEALED-CAUSE/, 'all of it')
  t.equal(reveal.character.hiddenFromPlayers, false, 'nothing of the sheet is hidden any more')

  const playerSheet = (await getCharacter(app, at.player, at.ids)).sheet
  t.equal(playerSheet.meters.violence.failed, 1, 'players see the failed notch')
  t.match(playerSheet.stressed, { meter: 'violence', response: 'panic' }, 'and the stress')
  const seen = await allEvents(app, at.player, at.ids.campaignId)
  t.match(seen.at(-1), { type: 'reveal', outcome: { revealed: { summary: hidden.event.summary } } }, 'in their history')

  for (const [eventId, why] of [
    [hidden.event.id, 'revealing twice'],
    [reveal.event.id, 'revealing a public event'],
  ] as const) {
    const res = await app.inject({ method: 'POST', url: revealUrl(eventId), headers: at.gm })
    t.equal(res.statusCode, 409, `${why} is 409: ${res.body}`)
  }
  const unknown = await app.inject({
    method: 'POST',
    url: revealUrl('0193a5e2-7c1d-7000-8000-000000000001'),
    headers: at.gm,
  })
  t.equal(unknown.statusCode, 404, 'an unknown event is 404')

  const undone = created(await revert(app, at.gm, at.ids, reveal.event.id), 'the reveal undone')
  t.match(undone.event.summary, new RegExp(`^Reverted reveal #${reveal.event.seq}: Revealed stress check #`), 'said so')
  const hiddenAgain = (await getCharacter(app, at.player, at.ids)).sheet
  t.equal(hiddenAgain.meters.violence.failed, 0, 'undoing the reveal hides the notch again')
  t.equal((await getCharacter(app, at.gm, at.ids)).hiddenFromPlayers, true, 'and the GM is told')
  created(await app.inject({ method: 'POST', url: revealUrl(hidden.event.id), headers: at.gm }), 'revealed again')
  t.match(await audit(app, at.gm, at.ids), { consistent: true }, 'the history still replays')
})

t.test(
  'issue 27 §2: a settlement cannot be revealed before the roll it settles, and an archive keeps reveals',
  async (t) => {
    const at = await table()
    const check = await gmOnlyCheck(at, { meter: 'violence', rank: 4, cause: 'ORDER-CAUSE' }, 99)
    const response = answer(
      await act(app, at.gm, at.ids, 'stress-response', { request: { response: 'frenzy' } }),
      'response',
    )
    const revealUrl = (eventId: string) => `/v1/campaigns/${at.ids.campaignId}/events/${eventId}/reveal`
    const early = await app.inject({ method: 'POST', url: revealUrl(response.event.id), headers: at.gm })
    t.equal(early.statusCode, 409, 'the response alone cannot be revealed')
    t.match(
      early.json(),
      { detail: new RegExp(`stress-check #${check.event.seq}`) },
      'the GM is told to reveal the check first',
    )
    created(await app.inject({ method: 'POST', url: revealUrl(check.event.id), headers: at.gm }), 'the check revealed')
    const last = created(
      await app.inject({ method: 'POST', url: revealUrl(response.event.id), headers: at.gm }),
      'then the response',
    )
    t.equal(last.character.hiddenFromPlayers, false, 'players see the sheet itself')
    t.match(
      (await getCharacter(app, at.player, at.ids)).sheet.stressed,
      { response: 'frenzy', cause: 'ORDER-CAUSE' },
      'all of it',
    )

    const archive = await app.inject({ url: `/v1/campaigns/${at.ids.campaignId}/export`, headers: at.gm })
    t.equal(archive.statusCode, 200, 'exported')
    const imported = await app.inject({
      method: 'POST',
      url: '/v1/campaigns/import',
      headers: { 'content-type': 'application/x-ndjson' },
      payload: archive.body,
    })
    t.equal(imported.statusCode, 201, `imported: ${imported.body.slice(0, 300)}`)
    const { campaign, gmKey } = imported.json<{ campaign: { id: string }; gmKey: { key: string } }>()
    const events = await allEvents(app, { authorization: `Bearer ${gmKey.key}` }, campaign.id)
    const reveals = events.filter((event) => event.type === 'reveal')
    t.equal(reveals.length, 2, 'both reveals are kept')
    const ids = new Set(events.map((event) => event.id))
    t.ok(
      reveals.every(
        (event) => ids.has(event.causationId!) && ids.has((event.outcome as { revealed: { id: string } }).revealed.id),
      ),
      'each names its revealed event by the new id',
    )
  },
)

t.test('issue 27 §2: once a hidden roll is revealed, settling it is public again', async (t) => {
  const at = await table()
  const check = await gmOnlyCheck(at, { meter: 'violence', rank: 4, cause: 'SHOWN-LATER' }, 99)
  created(
    await app.inject({
      method: 'POST',
      url: `/v1/campaigns/${at.ids.campaignId}/events/${check.event.id}/reveal`,
      headers: at.gm,
    }),
    'revealed',
  )
  const response = answer(
    await act(app, at.gm, at.ids, 'stress-response', { request: { response: 'panic' } }),
    'response',
  )
  t.equal(response.event.visibility, 'public', 'the response to a revealed roll is public')
  t.equal(response.visibilityReason.code, 'default', 'as nothing hidden is involved any more')
  t.match((await getCharacter(app, at.player, at.ids)).sheet.stressed, { response: 'panic' }, 'players see it')
})
