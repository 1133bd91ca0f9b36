import t from 'tap'
import {
  createCampaign,
  createCharacter,
  mintPlayerKey,
  type Auth,
  type CharacterView,
  type EventView,
} from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { RULE_SETS } from '../../src/rules/index.js'
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
  type Problem,
} from '../helpers/commands.js'

// One app for the file; each journey plays in its own campaign, as a GM and a player would.
const app = await buildTestApp(t)

type Subtest = Parameters<Parameters<typeof t.test>[0]>[0]

/** The outcome of a command, whose shape depends on the action. */
const outcomeOf = (result: CommandResult) => result.event.outcome as Record<string, any>

interface Table {
  gm: Auth
  player: Auth
  ids: Ids
  character: CharacterView
}

async function sitDown(ruleset: string, sheet: Record<string, unknown>, settings?: Record<string, unknown>) {
  const campaign = await createCampaign(app, ruleset, settings ? { settings } : {})
  const { character } = await createCharacter(app, campaign.campaign, campaign.auth, { name: 'Vera Okafor', sheet })
  const player = await mintPlayerKey(app, campaign.campaign, campaign.auth, [character.id], 'Sam')
  const table: Table = {
    gm: campaign.auth,
    player: player.auth,
    ids: { campaignId: campaign.campaign.id, characterId: character.id },
    character,
  }
  const step = async (auth: Auth, action: string, body: { request: unknown; dice?: unknown; visibility?: 'gm' }) =>
    created(await act(app, auth, table.ids, action, body), action)
  return { table, step }
}

/** The event types each rule set's journeys recorded, to show that they cover every one. */
const recordedTypes = new Map<string, Set<string>>()

/** What every journey ends with: the history reads back in order, and replays to the stored sheet. */
async function closeTheBooks(t: Subtest, table: Table, results: CommandResult[]) {
  const history = await allEvents(app, table.gm, table.ids.campaignId, { characterId: table.ids.characterId })
  const types = recordedTypes.get(table.character.ruleset) ?? new Set<string>()
  for (const event of history) types.add(event.type)
  recordedTypes.set(table.character.ruleset, types)
  t.same(
    history.map((event) => event.seq),
    Array.from({ length: history.length }, (_, index) => index + 1),
    'the character’s history runs 1, 2, 3… with no gap',
  )
  t.same(
    history.slice(1).map((event) => event.id),
    results.map((result) => result.event.id),
    'every command of the journey is in the history, in order',
  )
  // The history copies the listings stored with the events, a command's answer is rendered from
  // the event it returns: they must not differ.
  t.same(
    history.slice(1),
    results.map((result) => result.event),
    'every event reads the same in the history as in its command’s answer',
  )
  // A history page copies the listing stored when the event was written; one event is rendered
  // from its row as read back (eventView). For the GM and for the player, they must not differ.
  for (const [who, auth] of [
    ['the GM', table.gm],
    ['the player', table.player],
  ] as const) {
    const listed = await allEvents(app, auth, table.ids.campaignId, { characterId: table.ids.characterId })
    const single = await Promise.all(
      listed.map(async (event) => {
        const one = await app.inject({ url: `/v1/campaigns/${event.campaignId}/events/${event.id}`, headers: auth })
        return one.json<EventView>()
      }),
    )
    t.same(listed, single, `${who}: every event of the history page reads the same as the event alone`)
  }
  const stored = await getCharacter(app, table.gm, table.ids)
  t.same(stored.sheet, history.at(-1)!.sheetAfter, 'the stored sheet is the last event’s sheetAfter')
  t.equal(stored.version, history.length, 'one version per event')
  const report = await audit(app, table.gm, table.ids)
  t.ok(report.consistent, `the audit rebuilds the stored sheet (${JSON.stringify(report.divergence)})`)
  t.equal(report.eventsReplayed, history.length, 'from every event')
  return history
}

t.test('shock-meters: a session of stress checks, a passion, a therapist and the GM’s actions', async (t) => {
  const { table, step } = await sitDown('shock-meters', {
    identities: [{ name: 'Soldier', rating: 45, features: [{ type: 'resists-shock', meter: 'violence' }] }],
    passions: { fear: { text: 'Being forgotten' } },
    relationships: [{ name: 'Dr. Okafor', rating: 40 }],
  })
  const { gm, player } = table
  const results: CommandResult[] = []
  const record = (result: CommandResult) => (results.push(result), result)

  // Violence 4 from a killing, defended by the Soldier identity (45): 30 passes.
  const kill = record(
    await step(player, 'stress-check', {
      request: { meter: 'violence', rank: 4, trigger: 'kill-in-fight', cause: 'The cultist on the stairs' },
      dice: provided(30),
    }),
  )
  t.same(outcomeOf(kill).defence, { kind: 'identity', name: 'Soldier', rating: 45 }, 'the Soldier defends')
  t.equal(kill.character.sheet.meters.violence.hardened, 2, 'a hardened Violence notch')
  t.equal(kill.character.sheet.abilities.connect, 55, 'Connect drops to 55')
  t.equal(kill.event.actor.role, 'player', 'the player rolled it')

  // Self 5 against Notice 60: 73 fails, the response is left open.
  const self = record(
    await step(player, 'stress-check', {
      request: { meter: 'self', rank: 5, passion: 'fear' },
      dice: provided(73),
    }),
  )
  t.equal(self.event.pending[0]?.action, 'stress-response', 'the response is pending')

  // The fear passion flip-flops 73 into 37: a pass after all.
  const flip = record(await step(player, 'passion-flip-flop', { request: {} }))
  t.equal(flip.event.causationId, self.event.id, 'the flip-flop is linked to the roll it changes')
  t.same(flip.event.pending, [], 'nothing is pending any more')
  t.equal(flip.character.sheet.stressed, null, 'no longer stressed')
  t.same(flip.character.sheet.meters.self, { hardened: 2, failed: 0 }, 'the failed notch became a hardened one')
  t.equal(flip.character.sheet.passions.fear.flipFlopUsed, true, 'the fear flip-flop is spent for the session')

  // Unnatural 6 against Knowledge 55: 99 fails; the player settles the response through the event.
  const unnatural = record(
    await step(player, 'stress-check', { request: { meter: 'unnatural', rank: 6 }, dice: provided(99) }),
  )
  t.equal(unnatural.event.pending[0]?.action, 'stress-response', 'the response is pending again')
  const blocked = await act(app, player, table.ids, 'stress-check', { request: { meter: 'isolation', rank: 3 } })
  t.equal(blocked.statusCode, 409, 'another check waits for the response')
  t.match(blocked.json<Problem>().detail, 'stress-response', 'naming stress-response')
  const response = record(
    created(
      await decide(app, player, table.ids.campaignId, unnatural.event.id, { request: { response: 'panic' } }),
      'the response',
    ),
  )
  t.equal(response.event.causationId, unnatural.event.id, 'the response is caused by the check')
  t.equal(response.character.sheet.stressed.response, 'panic', 'the character panics')

  // A therapist steps in at once: 10 against 55 is a plain success, so the failed notch hardens instead.
  const therapy = record(
    await step(player, 'therapy-assistance', { request: { identity: 'Trauma Nurse', rating: 55 }, dice: provided(10) }),
  )
  t.equal(therapy.event.causationId, unnatural.event.id, 'the assistance is linked to the check it treats')
  t.same(therapy.character.sheet.meters.unnatural, { hardened: 2, failed: 0 }, 'the failed notch hardened')

  const forbidden = await act(app, player, table.ids, 'clear-stressed', { request: {} })
  t.equal(forbidden.statusCode, 403, 'clearing the stressed state is the GM’s: 403 for the player')

  record(await step(gm, 'clear-stressed', { request: { reason: 'The thing in the well is gone' } }))

  // Isolation 3 against Status 60: 90 fails; the fear passion re-rolls it, and 20 holds.
  const isolation = record(
    await step(player, 'stress-check', {
      request: { meter: 'isolation', rank: 3, passion: 'fear' },
      dice: provided(90),
    }),
  )
  const reroll = record(await step(player, 'passion-reroll', { request: {}, dice: provided(20) }))
  t.equal(reroll.event.causationId, isolation.event.id, 'the re-roll changes the failed check')
  t.same(reroll.event.pending, [], 'the re-rolled check holds: no response to choose')

  // The GM writes down a disorder from the character's past, then edits a relationship by hand.
  const disorder = record(await step(gm, 'record-disorder', { request: { name: 'Dread of mirrors', meter: 'self' } }))
  t.match(
    disorder.character.sheet.disorders,
    [{ name: 'Dread of mirrors', meter: 'self' }],
    'the disorder is on the sheet',
  )
  const edit = await app.inject({
    method: 'PATCH',
    url: characterUrl(table.ids),
    headers: { ...gm, 'if-match': `"${disorder.character.version}"` },
    payload: { sheet: { relationships: [{ name: 'Dr. Okafor', rating: 35 }] }, reason: 'A missed appointment' },
  })
  t.equal(edit.statusCode, 200, 'the GM edits the sheet')
  record(edit.json<CommandResult>())

  const session = record(await step(gm, 'new-session', { request: {} }))
  t.equal(session.character.sheet.passions.fear.flipFlopUsed, false, 'the new session restores the flip-flop')
  const before = session.character
  const treatment = record(
    await step(gm, 'ongoing-treatment', {
      request: { meter: 'violence', hardened: 1, reason: 'Weeks with Dr. Okafor' },
    }),
  )
  t.equal(treatment.character.sheet.meters.violence.hardened, 1, 'treatment removes the hardened Violence notch')
  t.equal(treatment.character.sheet.abilities.connect, 60, 'and Connect comes back up')

  const undo = record(created(await revert(app, gm, table.ids, treatment.event.id), 'the revert'))
  t.same(undo.character.sheet, before.sheet, 'the GM’s revert puts the sheet back as before the treatment')

  const history = await closeTheBooks(t, table, results)
  const playerView = await allEvents(app, player, table.ids.campaignId)
  t.same(
    playerView.map((event) => event.id),
    history.map((event) => event.id),
    'the player reads the same public history',
  )
  const one = await app.inject({
    url: `/v1/campaigns/${table.ids.campaignId}/events/${response.event.id}`,
    headers: player,
  })
  t.same(one.json(), response.event, 'and each event by its id')
})

t.test('trauma-table: traumas accepted and answered, then the scene, the rest and the encounter end', async (t) => {
  const { table, step } = await sitDown('trauma-table', {})
  const { gm, player } = table
  const results: CommandResult[] = []
  const record = (result: CommandResult) => (results.push(result), result)

  // d100 8 is Hazed; nothing decided yet.
  const hazed = record(await step(player, 'trauma-roll', { request: { modifier: 0 }, dice: provided(8) }))
  t.equal(hazed.event.pending[0]?.action, 'trauma-response', 'the trauma waits for an answer')
  t.equal(hazed.character.sheet.pendingTrauma.finalRow, 'hazed', 'Hazed is pending on the sheet')
  const blocked = await act(app, player, table.ids, 'trauma-roll', { request: {} })
  t.equal(blocked.statusCode, 409, 'another trauma waits for the answer')
  t.match(blocked.json<Problem>().detail, 'trauma-response', 'naming trauma-response')
  const endEncounterEarly = await act(app, gm, table.ids, 'end-encounter', { request: {} })
  t.equal(endEncounterEarly.statusCode, 409, 'the encounter cannot end with a trauma unanswered')

  const accepted = record(
    created(
      await decide(app, player, table.ids.campaignId, hazed.event.id, { request: { response: 'accept' } }),
      'accepting Hazed',
    ),
  )
  t.equal(accepted.event.causationId, hazed.event.id, 'the answer is caused by the roll')
  t.same(accepted.character.sheet.encounterTraumas, ['hazed'], 'Hazed counts toward this encounter')
  t.ok(
    accepted.character.sheet.conditions.some((condition: { name: string }) => condition.name === 'Hazed'),
    'the Hazed condition applies',
  )

  // Another 8 is Hazed again, already suffered: one row up for the earlier trauma makes it Fazed.
  const fazed = record(
    await step(player, 'trauma-roll', {
      request: { modifier: 0, response: { ability: 'Not Today!' } },
      dice: provided(8),
    }),
  )
  t.equal(outcomeOf(fazed).status, 'answered', 'answered with an ability')
  t.equal(outcomeOf(fazed).trauma.id, 'fazed', 'the earlier trauma upgraded it to Fazed')
  t.same(fazed.character.sheet.encounterTraumas, ['hazed'], 'an answered trauma does not count')

  // 42 is Distracted, one row up for Hazed this encounter: Migraine, whose D8 shows 5.
  const migraine = record(await step(player, 'trauma-roll', { request: { response: 'accept' }, dice: provided(42, 5) }))
  t.equal(migraine.character.sheet.healthLost, 5, 'Migraine takes 5 health')

  record(await step(gm, 'end-scene', { request: {} }))
  const rested = record(await step(gm, 'rest', { request: { health: 6, severity: 10 } }))
  t.match(
    outcomeOf(rested),
    { requested: { health: 6, severity: 10 }, recovered: { health: 6 }, healthLost: { before: 5, after: 0 } },
    'the rest heals the health the GM grants, down to none lost',
  )
  t.equal(rested.character.sheet.healthLost, 0, 'the sheet shows no health lost')
  t.notOk(
    rested.character.sheet.conditions.some((condition: { duration: string }) => condition.duration === 'next-rest'),
    'no “until the next rest” condition survives the rest',
  )
  // 28 is Fragility, two rows up for Hazed and Migraine: Agreeable, Will saves at a disadvantage for the scene.
  const agreeable = record(await step(player, 'trauma-roll', { request: { response: 'accept' }, dice: provided(28) }))
  t.match(agreeable.character.sheet.saveDisadvantages, [{ save: 'will' }], 'Will saves at a disadvantage')

  // The GM writes in an anxiety from before the campaign; a socialise ritual eases it.
  const anxious = await app.inject({
    method: 'PATCH',
    url: characterUrl(table.ids),
    headers: { ...gm, 'if-match': `"${agreeable.character.version}"` },
    payload: {
      sheet: { lastingTraumas: [{ id: 'social-anxiety', name: 'Social Anxiety', severity: 80, restHeals: false }] },
      reason: 'Her years alone on the relay',
    },
  })
  t.equal(anxious.statusCode, 200, 'the GM edits the sheet')
  record(anxious.json<CommandResult>())
  const ritual = record(await step(gm, 'socialise-ritual', { request: { trauma: 'social-anxiety', amount: 30 } }))
  t.match(ritual.character.sheet.lastingTraumas, [{ id: 'social-anxiety', severity: 50 }], 'Social Anxiety 80 → 50')
  const ended = record(await step(gm, 'end-encounter', { request: {} }))
  t.same(ended.character.sheet.encounterTraumas, [], 'the end of the encounter clears its traumas')
  t.same(ended.character.sheet.saveDisadvantages, [], 'and ends its scene: the Will disadvantage ends too')
  t.match(outcomeOf(ended), { saveDisadvantagesEnded: [{ save: 'will' }] }, 'the outcome says so')
  const cycle = record(await step(gm, 'end-cycle', { request: {} }))
  const undo = record(created(await revert(app, gm, table.ids, cycle.event.id), 'the revert'))
  t.same(undo.character.sheet, ended.character.sheet, 'the revert restores the sheet before the end of the cycle')

  await closeTheBooks(t, table, results)
})

t.test(
  'shock-meters: the GM names a trigger as the rulebook does, and a misspelt one is answered with the closest',
  async (t) => {
    const { table, step } = await sitDown('shock-meters', {})
    const burned = await step(table.player, 'stress-check', {
      request: { meter: 'violence', rank: 4, trigger: 'Conflagration', response: 'panic' },
      dice: provided(90),
    })
    t.equal(outcomeOf(burned).trigger, 'set-on-fire', 'the event records the catalog id')
    t.equal(burned.character.sheet.lastCheck.trigger, 'set-on-fire', 'and so does the sheet')
    const misspelt = await act(app, table.player, table.ids, 'stress-check', {
      request: { meter: 'violence', rank: 4, trigger: 'conflagaration' },
    })
    t.equal(misspelt.statusCode, 422, '422')
    const problem = misspelt.json<Problem>()
    t.equal(problem.code, 'UNKNOWN_TRIGGER', 'an unknown trigger')
    t.match(problem.detail, 'did you mean set-on-fire ("Conflagration")?', 'with the closest name')
    const archived = await app.inject({ method: 'DELETE', url: characterUrl(table.ids), headers: table.gm })
    t.equal(archived.statusCode, 200, 'the character leaves the campaign')
    await closeTheBooks(t, table, [burned, archived.json<CommandResult>()])
  },
)

t.test('reaction-rolls: rolls, a retrieval, a GM-only roll and a GM edit', async (t) => {
  const { table, step } = await sitDown('reaction-rolls', {}, { emotionTopStage: 3 })
  const { gm, player } = table
  const results: CommandResult[] = []
  const record = (result: CommandResult) => (results.push(result), result)

  const failure = record(
    await step(player, 'reaction-roll', { request: { ability: 'agility', pressure: 4 }, dice: provided(1) }),
  )
  t.equal(outcomeOf(failure).verdict, 'failure', 'a 1 against pressure 4 fails')

  // Advantage keeps the 5 of 2 and 5: retrievable against pressure 6.
  const retrievable = record(
    await step(player, 'reaction-roll', {
      request: { ability: 'agility', pressure: 6, advantage: true },
      dice: provided(2, 5),
    }),
  )
  t.equal(outcomeOf(retrievable).kept, 5, 'the higher die is kept')
  t.equal(retrievable.event.pending[0]?.action, 'reaction-retrieval', 'the retrieval is pending')
  const blocked = await act(app, player, table.ids, 'reaction-roll', { request: { ability: 'agility', pressure: 4 } })
  t.equal(blocked.statusCode, 409, 'another roll waits for the retrieval')
  t.match(blocked.json<Problem>().detail, 'reaction-retrieval', 'naming reaction-retrieval')
  const raised = record(
    created(
      await decide(app, player, table.ids.campaignId, retrievable.event.id, {
        request: { decision: 'raise', emotion: 'fear' },
      }),
      'raising fear',
    ),
  )
  t.equal(raised.event.causationId, retrievable.event.id, 'the retrieval is caused by the roll')
  t.equal(raised.character.sheet.emotions.fear, 1, 'fear rises a stage')
  t.equal(raised.character.sheet.abilities.agility.xp, 1, 'agility marks one XP')

  const unfold = record(
    await step(player, 'reaction-roll', { request: { ability: 'composure', pressure: 8, resist: false } }),
  )
  t.same(unfold.event.dice, [], 'letting it unfold rolls no die')
  const twoEnvironments = await act(app, player, table.ids, 'reaction-roll', {
    request: {
      ability: 'agility',
      pressure: 4,
      modifiers: [
        { source: 'environment', weight: 1 },
        { source: 'environment', weight: -1 },
      ],
    },
  })
  t.equal(twoEnvironments.statusCode, 422, 'two modifiers from one source are 422')

  const secret = record(
    await step(gm, 'reaction-roll', {
      request: { ability: 'insight', pressure: 4 },
      dice: provided(6),
      visibility: 'gm',
    }),
  )
  const undo = record(created(await revert(app, gm, table.ids, secret.event.id), 'reverting the secret roll'))
  t.equal(undo.event.visibility, 'gm', 'the revert of a GM-only roll is GM-only too')

  // The direct route settles the next pending retrieval.
  const pending = record(
    await step(player, 'reaction-roll', { request: { ability: 'endurance', pressure: 6 }, dice: provided(4) }),
  )
  const declined = record(await step(player, 'reaction-retrieval', { request: { decision: 'decline' } }))
  t.equal(declined.event.causationId, pending.event.id, 'reaction-retrieval links the roll it settles')
  t.equal(outcomeOf(declined).verdict, 'failure', 'declining fails')

  const edit = await app.inject({
    method: 'PATCH',
    url: characterUrl(table.ids),
    headers: { ...gm, 'if-match': `"${declined.character.version}"` },
    payload: { sheet: { abilities: { agility: { maxedOut: true } } }, reason: 'Agility mastered' },
  })
  t.equal(edit.statusCode, 200, 'the GM edits the sheet')
  results.push(edit.json<CommandResult>())
  t.equal(edit.json().character.sheet.abilities.agility.maxedOut, true, 'agility is maxed out')

  const history = await closeTheBooks(t, table, results)
  const playerView = await allEvents(app, player, table.ids.campaignId)
  const hidden = new Set([secret.event.id, undo.event.id])
  t.same(
    playerView.map((event: EventView) => event.id),
    history.filter((event) => !hidden.has(event.id)).map((event) => event.id),
    'the player’s history is the GM’s without the GM-only roll and its revert',
  )
})

t.test('the journeys record every event type of every rule set, so the listing is compared for each', async (t) => {
  for (const ruleSet of RULE_SETS) {
    const expected = [
      'character.created',
      'character.updated',
      'revert',
      // Archiving involves no rule: one journey (a shock-meters one) shows it for all.
      ...(ruleSet.id === 'shock-meters' ? ['character.archived'] : []),
      ...ruleSet.actions.map((action) => action.name),
    ].sort()
    const missing = expected.filter((type) => !recordedTypes.get(ruleSet.id)?.has(type))
    t.same(missing, [], `${ruleSet.id}: no event type left out`)
  }
})
