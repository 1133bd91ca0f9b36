import t from 'tap'
import { createCampaign, createCharacter, type EventView } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { act, allEvents, audit, created, decide, getCharacter, provided, revert } from '../helpers/commands.js'

// One app for the file; every test plays in its own campaign.
const app = await buildTestApp(t)

const ABILITIES = ['agility', 'dexterity', 'insight', 'composure', 'endurance'] as const
const EMOTIONS = ['anger', 'fear', 'sadness', 'guilt'] as const

interface RetrievalOutcome {
  emotion: string | null
  xp: { marked: boolean } | null
}

t.test('50 concurrent rolls on one character: 50 events, gap-free seq, no lost update', async (t) => {
  // Long XP tracks and high emotion stages, so no raise or mark is ever refused for being full.
  const campaign = await createCampaign(app, 'reaction-rolls', { settings: { emotionTopStage: 20, xpTrackLength: 20 } })
  const { character } = await createCharacter(app, campaign.campaign, campaign.auth)
  const ids = { campaignId: campaign.campaign.id, characterId: character.id }

  // d6 against pressure 6: 4 or 5 is retrievable, and raising an emotion then marks XP.
  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, index) =>
      act(app, campaign.auth, ids, 'reaction-roll', {
        request: {
          ability: ABILITIES[index % ABILITIES.length],
          pressure: 6,
          retrieve: { decision: 'raise', emotion: EMOTIONS[index % EMOTIONS.length] },
        },
      }),
    ),
  )
  const statuses = responses.map((res) => res.statusCode)
  t.ok(
    statuses.every((status) => status === 201),
    `every roll is accepted (${[...new Set(statuses)].join(', ')}: ${responses.find((res) => res.statusCode !== 201)?.body.slice(0, 300) ?? ''})`,
  )

  const history = await allEvents(app, campaign.auth, ids.campaignId)
  t.same(
    history.map((event) => event.seq),
    Array.from({ length: 51 }, (_, index) => index + 1),
    'the campaign sequence runs 1..51 with no gap',
  )
  const rolls = history.filter((event) => event.type === 'reaction-roll')
  t.equal(rolls.length, 50, '50 roll events')
  t.same(
    new Set(responses.map((res) => res.json().event.id)),
    new Set(rolls.map((event) => event.id)),
    'each response is one of them',
  )
  let chained = true
  for (let index = 1; index < history.length; index++) {
    if (JSON.stringify(history[index]!.sheetBefore) !== JSON.stringify(history[index - 1]!.sheetAfter)) chained = false
  }
  t.ok(chained, 'each roll started from the sheet the previous one left: they ran one after another')

  const stored = await getCharacter(app, campaign.auth, ids)
  t.equal(stored.version, 51, 'the character version counts every event')
  t.same(stored.sheet, history.at(-1)!.sheetAfter, 'the stored sheet is the last event’s sheetAfter')
  const report = await audit(app, campaign.auth, ids)
  t.ok(report.consistent, `the sheet equals the replay of the events (${JSON.stringify(report.divergence)})`)
  t.equal(report.eventsReplayed, 51, 'all 51 events were replayed')

  const retrievals = rolls
    .map((event: EventView) => ({
      event,
      retrieval: (event.outcome as { retrieval: RetrievalOutcome | null }).retrieval,
    }))
    .filter((entry) => entry.retrieval !== null)
  for (const ability of ABILITIES) {
    const marks = retrievals.filter(
      ({ event, retrieval }) => (event.request as { ability: string }).ability === ability && retrieval!.xp?.marked,
    ).length
    t.equal(stored.sheet.abilities[ability].xp, marks, `${ability} XP (${marks}) counts every retrieval that marked it`)
  }
  for (const emotion of EMOTIONS) {
    const raises = retrievals.filter(({ retrieval }) => retrieval!.emotion === emotion).length
    t.equal(stored.sheet.emotions[emotion], raises, `${emotion} (${raises}) counts every raise`)
  }
})

t.test('concurrent rolls on several characters share one gap-free campaign sequence', async (t) => {
  const campaign = await createCampaign(app, 'shock-meters')
  const characters = await Promise.all(
    ['Ada', 'Bo', 'Cy'].map((name) => createCharacter(app, campaign.campaign, campaign.auth, { name })),
  )
  const responses = await Promise.all(
    Array.from({ length: 30 }, (_, index) =>
      act(
        app,
        campaign.auth,
        { campaignId: campaign.campaign.id, characterId: characters[index % 3]!.character.id },
        // Rank 10 is never avoided by hardening; a pending response is chosen up front.
        'stress-check',
        { request: { meter: 'isolation', rank: 10, response: 'panic' } },
      ),
    ),
  )
  const accepted = responses.filter((res) => res.statusCode === 201).length
  t.equal(accepted, 30, 'every check is accepted (a stressed character avoids the next ones)')
  const history = await allEvents(app, campaign.auth, campaign.campaign.id)
  t.same(
    history.map((event) => event.seq),
    Array.from({ length: 33 }, (_, index) => index + 1),
    'seq 1..33 with no gap or repeat',
  )
  const eventCount = (await app.inject({ url: `/v1/campaigns/${campaign.campaign.id}`, headers: campaign.auth })).json()
    .eventCount
  t.equal(eventCount, 33, 'the campaign’s event count agrees')
  for (const { character } of characters) {
    const ids = { campaignId: campaign.campaign.id, characterId: character.id }
    const report = await audit(app, campaign.auth, ids)
    t.ok(report.consistent, `${character.name}’s sheet equals its replay`)
    t.equal(report.version, 11, `${character.name} changed once per event (creation + 10 checks)`)
  }
})

t.test('concurrent settlements of one decision: exactly one wins, the others are 409', async (t) => {
  const campaign = await createCampaign(app, 'trauma-table')
  const { character } = await createCharacter(app, campaign.campaign, campaign.auth)
  const ids = { campaignId: campaign.campaign.id, characterId: character.id }
  const roll = created(
    await act(app, campaign.auth, ids, 'trauma-roll', { request: { modifier: 0 }, dice: provided(8) }),
    'the pending trauma',
  )
  const responses = await Promise.all(
    Array.from({ length: 5 }, () =>
      decide(app, campaign.auth, ids.campaignId, roll.event.id, { request: { response: 'accept' } }),
    ),
  )
  const statuses = responses.map((res) => res.statusCode).sort()
  t.same(statuses, [201, 409, 409, 409, 409], 'one settlement, four conflicts')
  const settlements = await allEvents(app, campaign.auth, ids.campaignId, { type: 'trauma-response' })
  t.equal(settlements.length, 1, 'one trauma-response event')
  const stored = await getCharacter(app, campaign.auth, ids)
  t.same(stored.sheet.encounterTraumas, ['hazed'], 'the trauma was suffered once')
})

t.test('concurrent reverts of the latest event: one wins, the other is 409', async (t) => {
  const campaign = await createCampaign(app, 'shock-meters')
  const { character } = await createCharacter(app, campaign.campaign, campaign.auth)
  const ids = { campaignId: campaign.campaign.id, characterId: character.id }
  const roll = created(
    await act(app, campaign.auth, ids, 'stress-check', { request: { meter: 'self', rank: 5 }, dice: provided(10) }),
    'the roll',
  )
  const responses = await Promise.all([1, 2, 3].map(() => revert(app, campaign.auth, ids, roll.event.id)))
  t.same(
    responses.map((res) => res.statusCode).sort(),
    [201, 409, 409],
    'one revert; the others find a newer latest event',
  )
  const report = await audit(app, campaign.auth, ids)
  t.ok(report.consistent, 'the sheet equals its replay')
  t.equal(report.version, 3, 'creation, roll, one revert')
})
