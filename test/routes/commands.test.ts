import t from 'tap'
import { createCampaign, createCharacter, PROBLEM, type TestCampaign } from '../helpers/api.js'
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
  type Ids,
  type Problem,
} from '../helpers/commands.js'

// One app for the file; every test plays in its own campaign.
const app = await buildTestApp(t)

async function setUp(
  ruleset = 'shock-meters',
  sheet?: Record<string, unknown>,
): Promise<{ campaign: TestCampaign; ids: Ids }> {
  const campaign = await createCampaign(app, ruleset)
  const { character } = await createCharacter(app, campaign.campaign, campaign.auth, {
    name: 'Vera Okafor',
    ...(sheet ? { sheet } : {}),
  })
  return { campaign, ids: { campaignId: campaign.campaign.id, characterId: character.id } }
}

/** Helplessness full and Violence one notch short: one more hardened Violence notch burns the character out. */
const NEAR_BURN_OUT = { meters: { helplessness: { hardened: 9, failed: 0 }, violence: { hardened: 8, failed: 0 } } }

t.test('a stateful action answers 201 with the event and the saved sheet at version + 1', async (t) => {
  const { campaign, ids } = await setUp()
  const before = await getCharacter(app, campaign.auth, ids)
  const res = await act(app, campaign.auth, ids, 'stress-check', {
    request: { meter: 'violence', rank: 5 },
    dice: provided(10),
  })
  const { event, character } = created(res, 'the stress check')
  t.equal(event.type, 'stress-check', 'the event is named after the action')
  t.equal(event.characterId, ids.characterId, 'the event is about the character')
  t.equal(event.seq, 2, 'it follows the character’s creation in the campaign sequence')
  t.same(event.dice, [{ sides: 100, face: 10, purpose: 'defence', source: 'provided' }], 'every die is recorded')
  t.same(event.sheetBefore, before.sheet, 'sheetBefore is the stored sheet')
  t.same(event.sheetAfter, character.sheet, 'sheetAfter is the saved sheet')
  t.equal(character.version, before.version + 1, 'the version went up by one')
  t.equal(character.sheet.meters.violence.hardened, 2, 'the pass hardened a Violence notch')
  t.equal(character.sheet.abilities.connect, 55, 'Connect follows the gauge (65 − 5 × 2)')
  t.equal(character.sheet.abilities.struggle, 25, 'Struggle follows the gauge (15 + 5 × 2)')
  const stored = await getCharacter(app, campaign.auth, ids)
  t.same(stored, character, 'GET returns what the command answered')
})

t.test('an action of another rule set is 422 and records nothing', async (t) => {
  const { campaign, ids } = await setUp()
  const res = await act(app, campaign.auth, ids, 'trauma-roll', { request: {} })
  t.equal(res.statusCode, 422, '422 Unprocessable Content')
  t.match(res.headers['content-type'], PROBLEM, 'as problem details')
  t.match(res.json<Problem>().detail, 'shock-meters', 'the problem names the campaign’s rule set')
  t.equal((await allEvents(app, campaign.auth, ids.campaignId)).length, 1, 'only the creation is recorded')
})

t.test('an action on an unknown character is 404', async (t) => {
  const { campaign, ids } = await setUp()
  const res = await act(
    app,
    campaign.auth,
    { ...ids, characterId: '01930000-0000-7000-8000-000000000000' },
    'stress-check',
    { request: { meter: 'violence', rank: 5 } },
  )
  t.equal(res.statusCode, 404, '404 Not Found')
  t.match(res.headers['content-type'], PROBLEM, 'as problem details')
})

t.test('an archived character takes no more actions: 409', async (t) => {
  const { campaign, ids } = await setUp()
  const archived = await app.inject({ method: 'DELETE', url: characterUrl(ids), headers: campaign.auth })
  t.equal(archived.statusCode, 200, 'the character is archived')
  const res = await act(app, campaign.auth, ids, 'stress-check', { request: { meter: 'violence', rank: 5 } })
  t.equal(res.statusCode, 409, '409 Conflict')
  t.match(res.json<Problem>().detail, 'archived', 'the problem says the character is archived')
})

t.test('provided dice that do not fit are 422 naming /body/dice/faces and record nothing', async (t) => {
  const { campaign, ids } = await setUp()
  const tooFew = await act(app, campaign.auth, ids, 'stress-check', {
    request: { meter: 'violence', rank: 5 },
    dice: provided(),
  })
  t.equal(tooFew.statusCode, 422, 'a missing face is 422')
  t.same(
    (tooFew.json<Problem>().errors ?? []).map((error) => error.pointer),
    ['/body/dice/faces/0'],
    'the missing face is named',
  )
  const reaction = await setUp('reaction-rolls')
  const tooHigh = await act(app, reaction.campaign.auth, reaction.ids, 'reaction-roll', {
    request: { ability: 'agility', pressure: 4 },
    dice: provided(7),
  })
  t.equal(tooHigh.statusCode, 422, 'a 7 on a d6 is 422')
  t.match(tooHigh.json<Problem>().detail, 'between 1 and 6', 'the problem gives the die’s range')
  t.equal((await getCharacter(app, campaign.auth, ids)).version, 1, 'the character is untouched')
  const tooMany = created(
    await act(app, campaign.auth, ids, 'stress-check', {
      request: { meter: 'violence', rank: 5, response: 'panic' },
      dice: provided(10, 20),
    }),
    'a face too many',
  )
  t.same(tooMany.event.unusedFaces, [20], 'a face too many is recorded as unused (test/routes/provided-dice.test.ts)')
})

t.test('reverting the latest event restores the sheet exactly, derived values included', async (t) => {
  const { campaign, ids } = await setUp('shock-meters', NEAR_BURN_OUT)
  const before = await getCharacter(app, campaign.auth, ids)
  t.equal(before.sheet.burnedOut, false, 'not burned out yet')

  // Violence 10 against Fitness 20 (65 − 5 × 9): 01 is a critical success.
  const pass = created(
    await act(app, campaign.auth, ids, 'stress-check', {
      request: { meter: 'violence', rank: 10 },
      dice: provided(1),
    }),
    'the pass',
  )
  t.equal(pass.character.sheet.meters.violence.hardened, 9, 'Violence is fully hardened')
  t.equal(pass.character.sheet.burnedOut, true, 'two full meters: burned out')
  t.equal(pass.character.sheet.totalHardened, 21, 'total hardened follows')
  t.equal(pass.character.sheet.abilities.connect, 20, 'Connect follows (65 − 5 × 9)')
  t.equal(pass.character.sheet.abilities.struggle, 60, 'Struggle follows (15 + 5 × 9)')

  const undo = created(await revert(app, campaign.auth, ids, pass.event.id), 'the revert')
  t.same(undo.character.sheet, before.sheet, 'the sheet is exactly what it was before the pass')
  t.equal(undo.character.sheet.burnedOut, false, 'no longer burned out')
  t.equal(undo.character.sheet.abilities.connect, 25, 'Connect is back to 65 − 5 × 8')
  t.equal(undo.character.version, pass.character.version + 1, 'the revert is a new version, not a rewind')
  t.same(await getCharacter(app, campaign.auth, ids), undo.character, 'the stored character is the restored one')
})

t.test('a revert is itself an event that names what it undid', async (t) => {
  const { campaign, ids } = await setUp()
  const roll = created(
    await act(app, campaign.auth, ids, 'stress-check', { request: { meter: 'self', rank: 3 }, dice: provided(40) }),
    'the roll',
  )
  const undo = created(await revert(app, campaign.auth, ids, roll.event.id), 'the revert')
  t.equal(undo.event.type, 'revert', 'the event type is revert')
  t.equal(undo.event.causationId, roll.event.id, 'its causationId is the reverted event')
  t.equal(undo.event.seq, roll.event.seq + 1, 'it takes the next sequence number')
  t.same(undo.event.sheetBefore, roll.event.sheetAfter, 'its sheetBefore is the reverted event’s sheetAfter')
  t.same(undo.event.sheetAfter, roll.event.sheetBefore, 'its sheetAfter is the reverted event’s sheetBefore')
  t.same(undo.event.pending, [], 'a revert that leaves no decision open shows nothing pending')
  const history = await allEvents(app, campaign.auth, ids.campaignId)
  t.same(
    history.map((event) => event.type),
    ['character.created', 'stress-check', 'revert'],
    'the history keeps the roll and adds the revert',
  )

  t.match(undo.event.summary, new RegExp(`^Reverted stress check #${roll.event.seq}: Self 3`), 'its summary names it')

  const again = created(await revert(app, campaign.auth, ids, undo.event.id), 'reverting the revert')
  t.same(again.character.sheet, roll.character.sheet, 'reverting the revert brings the roll’s sheet back')
  t.match(
    again.event.summary,
    new RegExp(`^Put back stress check #${roll.event.seq}: Self 3`),
    'and says it put the roll back',
  )
  const third = created(await revert(app, campaign.auth, ids, again.event.id), 'reverting that too')
  t.match(
    third.event.summary,
    new RegExp(`^Reverted again stress check #${roll.event.seq}: Self 3`),
    'a third undo takes the roll back again, named as such, not as a revert of a revert of a revert',
  )
})

t.test('reverting anything but the character’s latest event is 409 and records nothing', async (t) => {
  const { campaign, ids } = await setUp()
  const first = created(
    await act(app, campaign.auth, ids, 'stress-check', { request: { meter: 'self', rank: 3 }, dice: provided(40) }),
    'the first roll',
  )
  const second = created(
    await act(app, campaign.auth, ids, 'stress-check', { request: { meter: 'self', rank: 4 }, dice: provided(40) }),
    'the second roll',
  )
  const res = await revert(app, campaign.auth, ids, first.event.id)
  t.equal(res.statusCode, 409, '409 Conflict')
  t.match(res.headers['content-type'], PROBLEM, 'as problem details')
  t.match(res.json<Problem>().detail, second.event.id, 'the problem names the latest event')
  const character = await getCharacter(app, campaign.auth, ids)
  t.equal(character.version, second.character.version, 'the character is unchanged')

  const creation = (await allEvents(app, campaign.auth, ids.campaignId))[0]!
  const other = await setUp()
  const foreign = await revert(app, other.campaign.auth, other.ids, creation.id)
  t.equal(foreign.statusCode, 409, 'another character’s (or campaign’s) event is not this one’s latest: 409')
})

t.test('a character’s creation cannot be reverted', async (t) => {
  const { campaign, ids } = await setUp()
  const [creation] = await allEvents(app, campaign.auth, ids.campaignId)
  const res = await revert(app, campaign.auth, ids, creation!.id)
  t.equal(res.statusCode, 409, '409 Conflict')
  t.match(res.json<Problem>().detail, 'archive', 'the problem suggests archiving instead')
})

t.test('reverting an archive un-archives the character', async (t) => {
  const { campaign, ids } = await setUp()
  const archived = await app.inject({ method: 'DELETE', url: characterUrl(ids), headers: campaign.auth })
  const { event } = archived.json<{ event: { id: string } }>()
  const undo = created(await revert(app, campaign.auth, ids, event.id), 'the revert')
  t.equal(undo.character.archivedAt, null, 'the character is no longer archived')
  const list = await app.inject({ url: `/v1/campaigns/${ids.campaignId}/characters`, headers: campaign.auth })
  t.ok(
    list.json<{ data: { id: string }[] }>().data.some((character) => character.id === ids.characterId),
    'the character is listed again',
  )
  const roll = await act(app, campaign.auth, ids, 'stress-check', { request: { meter: 'self', rank: 3 } })
  t.equal(roll.statusCode, 201, 'the character takes actions again')
  const report = await audit(app, campaign.auth, ids)
  t.ok(report.consistent, `the audit rebuilds the sheet (${JSON.stringify(report.divergence)})`)
})

/** A failed check whose response is settled, then the settlement reverted by the GM. */
async function settleThenRevert(campaign: TestCampaign, ids: Ids) {
  const roll = created(
    await act(app, campaign.auth, ids, 'stress-check', { request: { meter: 'violence', rank: 5 }, dice: provided(99) }),
    'the failed check',
  )
  const settled = created(
    await decide(app, campaign.auth, ids.campaignId, roll.event.id, { request: { response: 'panic' } }),
    'the settlement',
  )
  const undo = created(await revert(app, campaign.auth, ids, settled.event.id), 'the revert')
  return { roll, settled, undo }
}

t.test('reverting a settlement reopens the decision it settled', async (t) => {
  const { campaign, ids } = await setUp()
  const { roll, undo } = await settleThenRevert(campaign, ids)
  t.same(undo.character.sheet, roll.character.sheet, 'the sheet is back to the pending one')
  t.equal(undo.character.sheet.stressed.response, 'pending', 'the response is pending again')

  const blocked = await act(app, campaign.auth, ids, 'stress-check', { request: { meter: 'self', rank: 5 } })
  t.equal(blocked.statusCode, 409, 'a new stress check is blocked again')
  const resettled = created(
    await decide(app, campaign.auth, ids.campaignId, roll.event.id, { request: { response: 'frenzy' } }),
    'settling again',
  )
  t.equal(resettled.event.causationId, roll.event.id, 'the new settlement is caused by the roll')
  t.equal(resettled.character.sheet.stressed.response, 'frenzy', 'the new response stands')
})

t.test('a revert that reopens a decision shows it pending, as the roll did', async (t) => {
  const { campaign, ids } = await setUp()
  const { roll, settled, undo } = await settleThenRevert(campaign, ids)
  t.same(undo.event.pending, roll.event.pending, 'the revert shows the roll’s decision pending again')
  const history = await allEvents(app, campaign.auth, ids.campaignId)
  t.same(history.at(-1)?.pending, roll.event.pending, 'and so does the history')

  const blocked = await act(app, campaign.auth, ids, 'stress-check', { request: { meter: 'self', rank: 5 } })
  t.equal(blocked.statusCode, 409, 'the reopened decision still blocks a new stress check')
  const count = (await allEvents(app, campaign.auth, ids.campaignId)).length
  const stale = await decide(app, campaign.auth, ids.campaignId, settled.event.id, { request: { response: 'frenzy' } })
  t.equal(stale.statusCode, 409, 'the reverted settlement has nothing to settle')
  t.equal((await allEvents(app, campaign.auth, ids.campaignId)).length, count, 'no event was added')

  const resettled = created(
    await decide(app, campaign.auth, ids.campaignId, undo.event.id, { request: { response: 'frenzy' } }),
    'settling through the revert that shows it',
  )
  t.equal(resettled.event.causationId, undo.event.id, 'the settlement is caused by the event in the path')
  t.equal(resettled.character.sheet.stressed.response, 'frenzy', 'the response stands')
  const twice = await decide(app, campaign.auth, ids.campaignId, roll.event.id, { request: { response: 'panic' } })
  t.equal(twice.statusCode, 409, 'the roll is then settled too: 409')
  t.match(twice.json<Problem>().detail, 'already settled', 'the problem says it was already settled')
  const report = await audit(app, campaign.auth, ids)
  t.ok(report.consistent, `the audit rebuilds the sheet (${JSON.stringify(report.divergence)})`)
})

t.test('reverting a trauma-response with a GM action between reopens the trauma roll’s decision', async (t) => {
  const { campaign, ids } = await setUp('trauma-table')
  const roll = created(
    await act(app, campaign.auth, ids, 'trauma-roll', { request: { modifier: 0 }, dice: provided(8) }),
    'the pending trauma',
  )
  created(await act(app, campaign.auth, ids, 'end-scene', { request: {} }), 'a GM action while it is pending')
  const settled = created(
    await decide(app, campaign.auth, ids.campaignId, roll.event.id, { request: { response: 'accept' } }),
    'the settlement',
  )
  const undo = created(await revert(app, campaign.auth, ids, settled.event.id), 'the revert')
  t.same(undo.event.pending, roll.event.pending, 'the revert shows the trauma pending again')
  t.not(undo.character.sheet.pendingTrauma, null, 'the sheet agrees')
  const again = created(
    await decide(app, campaign.auth, ids.campaignId, roll.event.id, { request: { response: 'accept' } }),
    'settling through the original roll',
  )
  t.equal(again.event.causationId, roll.event.id, 'the new settlement is caused by the roll')
})

t.test('reverting a pending roll removes the decision with it', async (t) => {
  const { campaign, ids } = await setUp('reaction-rolls')
  const before = await getCharacter(app, campaign.auth, ids)
  const roll = created(
    await act(app, campaign.auth, ids, 'reaction-roll', {
      request: { ability: 'agility', pressure: 6 },
      dice: provided(4),
    }),
    'the retrievable roll',
  )
  t.not(roll.character.sheet.pendingRetrieval, null, 'the retrieval is pending')
  const undo = created(await revert(app, campaign.auth, ids, roll.event.id), 'the revert')
  t.same(undo.character.sheet, before.sheet, 'the sheet is as before the roll')
  const settle = await decide(app, campaign.auth, ids.campaignId, roll.event.id, {
    request: { decision: 'decline' },
  })
  t.equal(settle.statusCode, 409, 'the reverted roll’s decision can no longer be settled')
  const next = await act(app, campaign.auth, ids, 'reaction-roll', { request: { ability: 'agility', pressure: 4 } })
  t.equal(next.statusCode, 201, 'a new reaction roll is accepted')
})

t.test('the audit stays consistent through rolls, edits, decisions and reverts', async (t) => {
  const { campaign, ids } = await setUp('shock-meters', {
    passions: { fear: { text: 'Being forgotten' } },
  })
  const steps: [string, unknown, unknown?][] = [
    ['stress-check', { meter: 'violence', rank: 5, passion: 'fear' }, provided(99)],
    ['stress-response', { response: 'panic' }],
    ['clear-stressed', { reason: 'The gunman fled' }],
    ['stress-check', { meter: 'self', rank: 6, passion: 'fear' }, provided(73)],
    ['passion-flip-flop', { passion: 'fear' }],
    ['new-session', {}],
    ['ongoing-treatment', { meter: 'violence', failed: 1, reason: 'Weeks of sessions' }],
  ]
  for (const [action, request, dice] of steps) {
    created(await act(app, campaign.auth, ids, action, { request, ...(dice ? { dice } : {}) }), action)
  }
  const patched = await app.inject({
    method: 'PATCH',
    url: characterUrl(ids),
    headers: campaign.auth,
    payload: { sheet: { relationships: [{ name: 'Dr. Okafor', rating: 40 }] } },
  })
  t.equal(patched.statusCode, 200, 'the sheet edit is accepted')
  const latest = (await allEvents(app, campaign.auth, ids.campaignId)).at(-1)!
  created(await revert(app, campaign.auth, ids, latest.id), 'reverting the edit')

  const report = await audit(app, campaign.auth, ids)
  t.ok(report.consistent, `the audit rebuilds the stored sheet (${JSON.stringify(report.divergence)})`)
  t.equal(report.eventsReplayed, steps.length + 3, 'every event of the character was replayed')
  t.equal(report.version, steps.length + 3, 'one version per event')
})

t.test('a passion re-roll after a revert is linked to the check that stands again', async (t) => {
  const { campaign, ids } = await setUp('shock-meters', { passions: { fear: { text: 'Being forgotten' } } })
  const check = (meter: string) =>
    act(app, campaign.auth, ids, 'stress-check', {
      request: { meter, rank: 5, passion: 'fear' },
      dice: provided(10),
    }).then((res) => created(res, `the ${meter} check`))
  const first = await check('violence')
  const second = await check('self')
  created(await revert(app, campaign.auth, ids, second.event.id), 'reverting the second check')
  const reroll = created(
    await act(app, campaign.auth, ids, 'passion-reroll', { request: {}, dice: provided(20) }),
    'the re-roll',
  )
  t.equal(reroll.event.causationId, first.event.id, 'the re-roll changes the first check, the latest that stands')
  t.equal(reroll.character.sheet.lastCheck.meter, 'violence', 'and the sheet agrees: it re-rolled the Violence check')
  const report = await audit(app, campaign.auth, ids)
  t.ok(report.consistent, `the audit rebuilds the sheet (${JSON.stringify(report.divergence)})`)
})
