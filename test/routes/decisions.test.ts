import t from 'tap'
import { createCampaign, createCharacter, PROBLEM, type TestCampaign } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import {
  act,
  allEvents,
  audit,
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

interface Flow {
  ruleset: string
  roll: string
  /** A roll certain to leave its decision open. */
  pendingRoll: { request: unknown; dice: unknown }
  decision: string
  settle: unknown
  /** Where the sheet shows the open decision. */
  isOpen: (sheet: Record<string, any>) => boolean
}

// Each rule set's roll with a decision left open, chosen with provided dice so the outcome is certain.
const FLOWS: Flow[] = [
  {
    ruleset: 'shock-meters',
    roll: 'stress-check',
    // Violence 5 against Fitness 60: 99 is a matched failure, and no response was chosen.
    pendingRoll: { request: { meter: 'violence', rank: 5 }, dice: provided(99) },
    decision: 'stress-response',
    settle: { response: 'panic' },
    isOpen: (sheet) => sheet.stressed?.response === 'pending',
  },
  {
    ruleset: 'trauma-table',
    roll: 'trauma-roll',
    // d100 8 is Hazed, a trauma with no dice of its own; no response was given.
    pendingRoll: { request: { modifier: 0 }, dice: provided(8) },
    decision: 'trauma-response',
    settle: { response: 'accept' },
    isOpen: (sheet) => sheet.pendingTrauma !== null,
  },
  {
    ruleset: 'reaction-rolls',
    roll: 'reaction-roll',
    // Agility d6 against pressure 6: a 4 is above half the pressure and below it, so retrievable.
    pendingRoll: { request: { ability: 'agility', pressure: 6 }, dice: provided(4) },
    decision: 'reaction-retrieval',
    settle: { decision: 'raise', emotion: 'fear' },
    isOpen: (sheet) => sheet.pendingRetrieval !== null,
  },
]

async function setUp(ruleset: string): Promise<{ campaign: TestCampaign; ids: Ids }> {
  const campaign = await createCampaign(app, ruleset)
  const { character } = await createCharacter(app, campaign.campaign, campaign.auth)
  return { campaign, ids: { campaignId: campaign.campaign.id, characterId: character.id } }
}

for (const flow of FLOWS) {
  t.test(`${flow.ruleset}: a ${flow.roll} left open is settled through its event`, async (t) => {
    const { campaign, ids } = await setUp(flow.ruleset)
    const { auth } = campaign

    const roll = created(await act(app, auth, ids, flow.roll, flow.pendingRoll), 'the pending roll')
    t.equal(roll.event.pending[0]?.action, flow.decision, `the event names ${flow.decision} as the decision to make`)
    t.type(roll.event.pending[0]?.prompt, 'string', 'the event says what has to be decided')
    t.ok(flow.isOpen(roll.character.sheet), 'the sheet holds the open decision')

    t.test(`a second ${flow.roll} is 409 naming ${flow.decision} and changes nothing`, async (t) => {
      const before = await getCharacter(app, auth, ids)
      const res = await act(app, auth, ids, flow.roll, flow.pendingRoll)
      t.equal(res.statusCode, 409, 'the roll is refused with 409 Conflict')
      t.match(res.headers['content-type'], PROBLEM, 'as problem details')
      const problem = res.json<Problem>()
      t.match(problem.detail, flow.decision, `the problem names ${flow.decision}, the action that settles it`)
      for (const error of problem.errors ?? []) {
        t.notMatch(error.pointer, /^\/body\/sheet/, 'no pointer names a sheet the request never sent')
      }
      const after = await getCharacter(app, auth, ids)
      t.equal(after.version, before.version, 'the character version is unchanged')
    })

    t.test('a decision with an invalid request is 422 naming the field under /body/request', async (t) => {
      const res = await decide(app, auth, ids.campaignId, roll.event.id, { request: { nonsense: true } })
      t.equal(res.statusCode, 422, '422 Unprocessable Content')
      t.match(res.headers['content-type'], PROBLEM, 'as problem details')
      const pointers = (res.json<Problem>().errors ?? []).map((error) => error.pointer)
      t.ok(
        pointers.some((pointer) => pointer.startsWith('/body/request/')),
        `a pointer names the field under /body/request (${pointers.join(', ')})`,
      )
      t.ok(flow.isOpen((await getCharacter(app, auth, ids)).sheet), 'the decision is still open')
    })

    t.test('settling it records a new event caused by the roll', async (t) => {
      const res = await decide(app, auth, ids.campaignId, roll.event.id, { request: flow.settle })
      const settled = created(res, 'the settlement')
      t.equal(settled.event.type, flow.decision, `the settlement is a ${flow.decision} event`)
      t.equal(settled.event.causationId, roll.event.id, 'its causationId is the roll')
      t.equal(settled.event.seq, roll.event.seq + 1, 'it takes the next sequence number')
      t.same(settled.event.pending, [], 'nothing is left pending')
      t.notOk(flow.isOpen(settled.character.sheet), 'the sheet no longer holds the decision')
      t.equal(settled.character.version, roll.character.version + 1, 'the character version went up by one')
    })

    t.test('settling the same event twice is 409 and records nothing', async (t) => {
      const count = (await allEvents(app, auth, ids.campaignId)).length
      const res = await decide(app, auth, ids.campaignId, roll.event.id, { request: flow.settle })
      t.equal(res.statusCode, 409, '409 Conflict')
      t.match(res.json<Problem>().detail, 'already settled', 'the problem says it was already settled')
      t.equal((await allEvents(app, auth, ids.campaignId)).length, count, 'no event was added')
    })

    t.test(`once settled, ${flow.roll} works again`, async (t) => {
      const res = await act(app, auth, ids, flow.roll, { request: (flow.pendingRoll as { request: unknown }).request })
      t.equal(res.statusCode, 201, `${flow.roll} is accepted (${res.body.slice(0, 200)})`)
      const report = await audit(app, auth, ids)
      t.ok(report.consistent, `the audit rebuilds the sheet (${JSON.stringify(report.divergence)})`)
    })
  })
}

for (const flow of FLOWS) {
  t.test(`${flow.ruleset}: an old ${flow.roll} reverted unsettled cannot settle the newer one left open`, async (t) => {
    const { campaign, ids } = await setUp(flow.ruleset)
    const { auth } = campaign
    const old = created(await act(app, auth, ids, flow.roll, flow.pendingRoll), 'the first pending roll')
    created(await revert(app, auth, ids, old.event.id), 'the GM reverts it without settling it')
    const fresh = created(await act(app, auth, ids, flow.roll, flow.pendingRoll), 'the newer pending roll')
    t.equal(fresh.event.pending[0]?.action, flow.decision, `the newer roll leaves ${flow.decision} open`)
    const count = (await allEvents(app, auth, ids.campaignId)).length

    const res = await decide(app, auth, ids.campaignId, old.event.id, { request: flow.settle })
    t.equal(res.statusCode, 409, 'the old event’s decision is 409 Conflict')
    t.match(res.headers['content-type'], PROBLEM, 'as problem details')
    const problem = res.json<Problem>()
    t.equal(problem.code, 'CONFLICT', 'with the conflict code')
    t.match(problem.detail, old.event.id, 'the problem names the event in the path')
    t.match(problem.detail, fresh.event.id, 'and the event whose decision is open')
    t.equal((await allEvents(app, auth, ids.campaignId)).length, count, 'no event was added')
    const after = await getCharacter(app, auth, ids)
    t.equal(after.version, fresh.character.version, 'the character version is unchanged')
    t.ok(flow.isOpen(after.sheet), 'the newer decision is still open')

    const settled = created(
      await decide(app, auth, ids.campaignId, fresh.event.id, { request: flow.settle }),
      'settling the newer roll',
    )
    t.equal(settled.event.causationId, fresh.event.id, 'the newer roll settles through its own event')
  })
}

t.test('a stress-response left open and cleared by the GM cannot settle the next one', async (t) => {
  const { campaign, ids } = await setUp('shock-meters')
  const { auth } = campaign
  const check = { request: { meter: 'violence', rank: 5 }, dice: provided(99) }
  const old = created(await act(app, auth, ids, 'stress-check', check), 'the first failed check')
  created(await act(app, auth, ids, 'clear-stressed', { request: { reason: 'The gunman fled' } }), 'the GM clears it')
  const fresh = created(await act(app, auth, ids, 'stress-check', check), 'the next failed check')
  const count = (await allEvents(app, auth, ids.campaignId)).length

  const res = await decide(app, auth, ids.campaignId, old.event.id, { request: { response: 'panic' } })
  t.equal(res.statusCode, 409, 'the cleared check’s decision is 409 Conflict')
  t.match(res.headers['content-type'], PROBLEM, 'as problem details')
  t.match(res.json<Problem>().detail, fresh.event.id, 'the problem names the event whose decision is open')
  t.equal((await allEvents(app, auth, ids.campaignId)).length, count, 'no event was added')
  t.equal((await getCharacter(app, auth, ids)).sheet.stressed.response, 'pending', 'the newer response is still open')

  const own = created(
    await act(app, auth, ids, 'stress-response', { request: { response: 'frenzy' } }),
    'the decision action’s own route',
  )
  t.equal(own.event.causationId, fresh.event.id, 'the own route settles the newer check')
})

t.test('settling an event that left nothing pending is 409', async (t) => {
  const { campaign, ids } = await setUp('shock-meters')
  // Violence 5 against Fitness 60: 10 succeeds, nothing to decide.
  const pass = created(
    await act(app, campaign.auth, ids, 'stress-check', {
      request: { meter: 'violence', rank: 5 },
      dice: provided(10),
    }),
    'a passed check',
  )
  t.same(pass.event.pending, [], 'the passed check leaves nothing pending')
  const res = await decide(app, campaign.auth, ids.campaignId, pass.event.id, { request: { response: 'panic' } })
  t.equal(res.statusCode, 409, '409 Conflict')
  t.match(res.headers['content-type'], PROBLEM, 'as problem details')
  t.match(res.json<Problem>().detail, 'no decision pending', 'the problem says there is nothing to decide')

  const events = await allEvents(app, campaign.auth, ids.campaignId)
  const creation = events.find((event) => event.type === 'character.created')!
  const again = await decide(app, campaign.auth, ids.campaignId, creation.id, { request: { response: 'panic' } })
  t.equal(again.statusCode, 409, 'a character’s creation has no decision either: 409')
})

t.test('settling an unknown event is 404', async (t) => {
  const { campaign, ids } = await setUp('shock-meters')
  const res = await decide(app, campaign.auth, ids.campaignId, '01930000-0000-7000-8000-000000000000', {
    request: { response: 'panic' },
  })
  t.equal(res.statusCode, 404, '404 Not Found')
  t.match(res.headers['content-type'], PROBLEM, 'as problem details')
})

t.test('the decision action’s own route settles the pending roll and links it as causationId', async (t) => {
  const { campaign, ids } = await setUp('shock-meters')
  const roll = created(
    await act(app, campaign.auth, ids, 'stress-check', {
      request: { meter: 'violence', rank: 5 },
      dice: provided(99),
    }),
    'a failed check',
  )
  const settled = created(
    await act(app, campaign.auth, ids, 'stress-response', { request: { response: 'frenzy' } }),
    'stress-response',
  )
  t.equal(settled.event.causationId, roll.event.id, 'the settlement’s causationId is the pending roll')
  t.equal(settled.character.sheet.stressed.response, 'frenzy', 'the response is on the sheet')

  const twice = await decide(app, campaign.auth, ids.campaignId, roll.event.id, { request: { response: 'panic' } })
  t.equal(twice.statusCode, 409, 'the decision route then sees the roll as settled: 409')
})

/** Four failed notches already: the fifth brings mental trauma and a disorder to name. */
async function fifthFailedNotch() {
  const { campaign, ids } = await setUp('shock-meters')
  const { character } = await createCharacter(app, campaign.campaign, campaign.auth, {
    name: 'Near the edge',
    sheet: { meters: { violence: { hardened: 1, failed: 4 } } },
  })
  const edge = { campaignId: ids.campaignId, characterId: character.id }
  const roll = created(
    await act(app, campaign.auth, edge, 'stress-check', {
      request: { meter: 'violence', rank: 5 },
      dice: provided(99),
    }),
    'the fifth failed notch',
  )
  return { campaign, ids, character, edge, roll }
}

t.test('a decision that leaves a further decision open names it on the settlement', async (t) => {
  const { campaign, ids, edge, roll } = await fifthFailedNotch()
  t.same(
    roll.event.pending.map((decision) => decision.action),
    ['stress-response', 'record-disorder'],
    'both decisions are listed, the response first',
  )
  const response = created(
    await decide(app, campaign.auth, ids.campaignId, roll.event.id, { request: { response: 'paralysis' } }),
    'the response',
  )
  t.equal(response.event.pending[0]?.action, 'record-disorder', 'then the GM is asked to name the disorder')
  const disorder = created(
    await decide(app, campaign.auth, ids.campaignId, response.event.id, { request: { name: 'Haemophobia' } }),
    'the disorder',
  )
  t.equal(disorder.event.type, 'record-disorder', 'the disorder is its own event')
  t.equal(disorder.event.causationId, response.event.id, 'caused by the event that asked for it')
  t.same(
    disorder.character.sheet.disorders.map((entry: { name: string }) => entry.name),
    ['Haemophobia'],
    'the disorder is named on the sheet',
  )
  const report = await audit(app, campaign.auth, edge)
  t.ok(report.consistent, `the audit rebuilds the sheet (${JSON.stringify(report.divergence)})`)
})

t.test('every open decision is listed with its route, and the decision route settles the one named', async (t) => {
  const { campaign, ids, character, edge, roll } = await fifthFailedNotch()
  const base = `/v1/campaigns/${ids.campaignId}/characters/${character.id}`
  t.same(
    roll.event.pending.map((decision) => decision.route),
    [`${base}/stress-response`, `${base}/record-disorder`],
    'each decision names the route of the action that settles it',
  )
  t.same(roll.character.pending, roll.event.pending, 'the character lists the same decisions')
  const listed = await getCharacter(app, campaign.auth, edge)
  t.same(listed.pending, roll.event.pending, 'and so does reading the character')

  const named = created(
    await decide(app, campaign.auth, ids.campaignId, roll.event.id, {
      action: 'record-disorder',
      request: { name: 'Haemophobia' },
    }),
    'naming the disorder first',
  )
  t.equal(named.event.type, 'record-disorder', 'the decision named was settled')
  t.equal(named.event.causationId, roll.event.id, 'caused by the roll')
  t.same(
    named.event.pending.map((decision) => decision.action),
    ['stress-response'],
    'the response is still open',
  )
  const unknown = await decide(app, campaign.auth, ids.campaignId, named.event.id, {
    action: 'record-disorder',
    request: { name: 'Again' },
  })
  t.equal(unknown.statusCode, 409, 'a decision the event does not leave open is 409')
  t.match(unknown.json<Problem>().detail, /waits for stress-response/, 'naming what it waits for')
  const response = created(
    await decide(app, campaign.auth, ids.campaignId, roll.event.id, { request: { response: 'panic' } }),
    'then the response, on the roll',
  )
  t.same(response.event.pending, [], 'nothing is left open')
  const report = await audit(app, campaign.auth, edge)
  t.ok(report.consistent, `the audit rebuilds the sheet (${JSON.stringify(report.divergence)})`)
})

t.test('a passion re-roll is linked to the check it changes and settles nothing', async (t) => {
  const campaign = await createCampaign(app, 'shock-meters')
  const { character } = await createCharacter(app, campaign.campaign, campaign.auth, {
    name: 'Afraid',
    sheet: { passions: { fear: { text: 'Being forgotten' } } },
  })
  const ids = { campaignId: campaign.campaign.id, characterId: character.id }
  const roll = created(
    await act(app, campaign.auth, ids, 'stress-check', {
      request: { meter: 'violence', rank: 5, passion: 'fear' },
      dice: provided(99),
    }),
    'the failed check',
  )
  const reroll = created(
    await act(app, campaign.auth, ids, 'passion-reroll', { request: {}, dice: provided(98) }),
    'the re-roll',
  )
  t.equal(reroll.event.causationId, roll.event.id, 'the re-roll’s causationId is the check it changes')
  t.equal(reroll.event.pending[0]?.action, 'stress-response', 'it failed again: the response is still open')
  const settled = created(
    await decide(app, campaign.auth, ids.campaignId, roll.event.id, { request: { response: 'panic' } }),
    'settling the check',
  )
  t.equal(settled.event.causationId, roll.event.id, 'the check is settled, not mistaken as settled by its re-roll')
  const again = await decide(app, campaign.auth, ids.campaignId, reroll.event.id, { request: { response: 'frenzy' } })
  t.equal(again.statusCode, 409, 'the re-roll’s copy of the decision is then settled too: 409')
  const report = await audit(app, campaign.auth, ids)
  t.ok(report.consistent, `the audit rebuilds the sheet (${JSON.stringify(report.divergence)})`)
})

t.test('a result that meets a trigger names the follow-up check, which the GM makes in one call', async (t) => {
  const campaign = await createCampaign(app, 'shock-meters')
  const { character } = await createCharacter(app, campaign.campaign, campaign.auth, {
    name: 'Alone',
    sheet: { relationships: [{ name: 'Dr. Okafor', rating: 5 }] },
  })
  const ids = { campaignId: campaign.campaign.id, characterId: character.id }
  created(
    await act(app, campaign.auth, ids, 'stress-check', {
      request: { meter: 'violence', rank: 4, response: 'panic' },
      dice: provided(87),
    }),
    'a failed check',
  )
  // 66 against 55 is a matched failure: "the therapist's relationship with the patient drops 5".
  const therapy = created(
    await act(app, campaign.auth, ids, 'therapy-assistance', {
      request: { identity: 'Trauma Nurse', rating: 55, relationship: 'Dr. Okafor' },
      dice: provided(66),
    }),
    'the therapy',
  )
  t.match(
    therapy.event.outcome,
    { relationship: { name: 'Dr. Okafor', before: 5, after: 0 } },
    'the relationship falls to 0%',
  )
  // "A relationship rating falls to 0%" attacks Isolation at rank 4–5.
  t.match(
    therapy.event.followUps,
    [
      {
        trigger: 'relationship-at-zero',
        action: 'stress-check',
        ranks: { min: 4, max: 5 },
        request: { meter: 'isolation', rank: 4, trigger: 'relationship-at-zero' },
        route: `/v1/campaigns/${ids.campaignId}/characters/${ids.characterId}/stress-check`,
      },
    ],
    'the event names the Isolation check the result calls for',
  )
  const [followUp] = therapy.event.followUps
  const listed = await allEvents(app, campaign.auth, ids.campaignId)
  t.same(listed.at(-1)?.followUps, therapy.event.followUps, 'the history shows it too')
  const check = await app.inject({
    method: 'POST',
    url: followUp!.route!,
    headers: campaign.auth,
    payload: { request: { ...followUp!.request, rank: 5 } },
  })
  t.equal(check.statusCode, 201, `the GM makes it at rank 5 in one call: ${check.body}`)
  t.match(check.json().event.request, { meter: 'isolation', rank: 5, trigger: 'relationship-at-zero' })
})
