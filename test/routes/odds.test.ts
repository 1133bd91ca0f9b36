import t from 'tap'
import { RULE_SETS } from '../../src/rules/index.js'
import { oddsOf } from '../../src/rules/rule-set.js'
import { createCampaign, createCharacter, mintPlayerKey, PROBLEM, type Auth } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { act, characterUrl, created, getCharacter, provided, type Ids } from '../helpers/commands.js'

const app = await buildTestApp(t)

interface OpenApiDocument {
  paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: { $ref?: string } }> } } }>
  components: { schemas: Record<string, { examples?: unknown[] }> }
}

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url, payload: payload as object, headers })

const oddsUrl = (ids: Ids, action: string) => `${characterUrl(ids)}/${action}/odds`

const findAction = (ruleset: string, name: string) => {
  const ruleSet = RULE_SETS.find((candidate) => candidate.id === ruleset)!
  return { ruleSet, action: ruleSet.actions.find((candidate) => candidate.name === name)! }
}

t.test('every action that rolls dice has odds, and only those', async (t) => {
  for (const ruleSet of RULE_SETS) {
    for (const action of ruleSet.actions) {
      const rolls = [
        'stress-check',
        'passion-reroll',
        'passion-flip-flop',
        'therapy-assistance',
        'trauma-roll',
        'reaction-roll',
      ]
      t.equal(action.odds !== undefined, rolls.includes(action.name), `${ruleSet.id} ${action.name}`)
    }
  }
})

t.test('every documented /v1/resolve/…/odds example answers 200 with the odds ("Try it out")', async (t) => {
  const document = (await app.inject({ url: '/docs/json' })).json<OpenApiDocument>()
  const routes = Object.keys(document.paths).filter((path) => path.startsWith('/v1/resolve/') && path.endsWith('/odds'))
  t.equal(routes.length, 6, `one odds route per rolling action: ${routes.join(', ')}`)
  for (const path of routes) {
    const ref = document.paths[path]?.post?.requestBody?.content['application/json']?.schema.$ref
    const name = ref!.replace('#/components/schemas/', '')
    const example = document.components.schemas[name]?.examples?.[0]
    const res = await post(path, example)
    t.equal(res.statusCode, 200, `${path}: 200 (got ${res.statusCode}: ${res.body.slice(0, 300)})`)
    t.equal(res.headers['content-type'], 'application/json; charset=utf-8', `${path}: JSON`)
    const body = res.json()
    t.equal(body.sheet, 'as sent', `${path}: counted on the sheet sent`)
    t.type(body.summary, 'string', `${path}: a summary`)
    const [ruleset, action] = path.split('/').slice(3, 5) as [string, string]
    const answerSchema = document.components.schemas[`${name.replace('OddsResolveBody', '')}Odds`]
    t.same(answerSchema?.examples?.[0], body, `${path}: the documented answer is what the example gets`)
    const rules = findAction(ruleset, action)
    t.same(
      body,
      {
        sheet: 'as sent',
        ...oddsOf(rules.ruleSet, rules.action, {
          sheet: (example as { sheet: unknown }).sheet,
          request: (example as { request: unknown }).request,
        }),
      },
      `${path}: the rules layer's odds, as they are`,
    )
  }
})

t.test('stateless odds refuse what the roll refuses, with the same answer', async (t) => {
  const cases = [
    { action: 'shock-meters/stress-check', body: { request: { meter: 'violence', rank: 11 } } },
    { action: 'shock-meters/passion-reroll', body: { request: {} } },
    {
      action: 'shock-meters/stress-check',
      body: { sheet: { stressed: { meter: 'self', response: 'pending' } }, request: { meter: 'violence', rank: 4 } },
    },
    { action: 'reaction-rolls/reaction-roll', body: { request: { ability: 'agility', pressure: 5 } } },
    {
      action: 'reaction-rolls/reaction-roll',
      body: {
        request: {
          ability: 'agility',
          pressure: 4,
          modifiers: [
            { source: 'means', weight: 1 },
            { source: 'means', weight: 2 },
          ],
        },
      },
    },
    { action: 'trauma-table/trauma-roll', body: { request: { modifier: 0, source: 'deadly' } } },
  ]
  for (const { action, body } of cases) {
    const odds = await post(`/v1/resolve/${action}/odds`, body)
    const roll = await post(`/v1/resolve/${action}`, { ...body, dice: { source: 'seeded', seed: 'odds' } })
    t.ok(odds.statusCode >= 400, `${action} ${JSON.stringify(body.request)}: refused (${odds.statusCode})`)
    t.match(odds.headers['content-type'], PROBLEM, 'as problem details')
    t.equal(odds.statusCode, roll.statusCode, `${action}: the status the roll answers`)
    const { instance: _i, requestId: _r, ...problem } = odds.json()
    const { instance: _ri, requestId: _rr, ...rolled } = roll.json()
    t.same(problem, rolled, `${action}: the same problem, code and pointer`)
  }
})

t.test('stateless odds take no dice: a `dice` field is an unknown field', async (t) => {
  const res = await post('/v1/resolve/shock-meters/stress-check/odds', {
    request: { meter: 'violence', rank: 4 },
    dice: { source: 'server' },
  })
  t.equal(res.statusCode, 422, '422')
  t.match(res.json().errors, [{ pointer: '/body/dice' }], 'naming /body/dice')
})

t.test('a sheet sent back from a resolution gives odds on that sheet', async (t) => {
  const rolled = await post('/v1/resolve/shock-meters/stress-check', {
    request: { meter: 'violence', rank: 4, passion: 'fear', response: 'panic' },
    sheet: { passions: { fear: { text: 'Deep water' } } },
    dice: provided(88),
  })
  const res = await post('/v1/resolve/shock-meters/passion-flip-flop/odds', { sheet: rolled.json().sheet, request: {} })
  t.equal(res.statusCode, 200, `200 (${res.body.slice(0, 200)})`)
  t.match(res.json(), { replaces: { face: 88 }, flipped: { face: 88, tier: 'matched-failure' } }, '88 flips to itself')
})

t.test('stored character odds: the GM key, a player for their own character, refusals as for the roll', async (t) => {
  const { campaign, auth: gm } = await createCampaign(app, 'reaction-rolls')
  const { character: mira } = await createCharacter(app, campaign, gm, { name: 'Mira Tal' })
  const { character: oren } = await createCharacter(app, campaign, gm, { name: 'Oren Vale' })
  const ids: Ids = { campaignId: campaign.id, characterId: mira.id }
  const player = await mintPlayerKey(app, campaign, gm, [mira.id])
  const request = { request: { ability: 'agility', pressure: 4 } }

  const byGm = await post(oddsUrl(ids, 'reaction-roll'), request, gm)
  t.equal(byGm.statusCode, 200, `the GM gets the odds: ${byGm.body.slice(0, 200)}`)
  t.equal(byGm.json().sheet, 'as stored', 'on the stored sheet')
  t.match(byGm.json().bands, [{ band: 'success', probability: { fraction: '1/2' } }], 'a d6 reaches 4 half the time')

  const byPlayer = await post(oddsUrl(ids, 'reaction-roll'), request, player.auth)
  t.equal(byPlayer.statusCode, 200, 'the player gets the odds for their own character')
  t.equal(byPlayer.json().sheet, 'as players see it', 'on the sheet players see, and says so')
  const { sheet: _gmSheet, ...gmOdds } = byGm.json()
  const { sheet: _playerSheet, ...playerOdds } = byPlayer.json()
  t.same(playerOdds, gmOdds, 'nothing hidden: the same odds')

  const other = await post(
    oddsUrl({ campaignId: campaign.id, characterId: oren.id }, 'reaction-roll'),
    request,
    player.auth,
  )
  t.equal(other.statusCode, 403, 'not for another player’s character')

  const stranger = await createCampaign(app, 'reaction-rolls')
  const elsewhere = await post(oddsUrl(ids, 'reaction-roll'), request, stranger.auth)
  t.equal(elsewhere.statusCode, 404, 'another campaign’s key finds nothing')
  const missing = await post(
    oddsUrl({ ...ids, characterId: '01930000-0000-7000-8000-00000000dead' }, 'reaction-roll'),
    request,
    gm,
  )
  t.equal(missing.statusCode, 404, 'an unknown character is 404')
  const noKey = await post(oddsUrl(ids, 'reaction-roll'), request)
  t.equal(noKey.statusCode, 401, 'a key is needed')
  const wrongRuleSet = await post(oddsUrl(ids, 'stress-check'), { request: { meter: 'violence', rank: 4 } }, gm)
  t.equal(wrongRuleSet.statusCode, 422, 'an action of another rule set is 422, as for the roll')
  const invalid = await post(oddsUrl(ids, 'reaction-roll'), { request: { ability: 'agility', pressure: 5 } }, gm)
  t.equal(invalid.statusCode, 422, 'a request the schema refuses is 422')
  const extra = await post(oddsUrl(ids, 'reaction-roll'), { ...request, dice: provided(3) }, gm)
  t.equal(extra.statusCode, 422, 'no dice: nothing is rolled')

  const pending = created(
    await act(app, gm, ids, 'reaction-roll', { ...request, dice: provided(3) }),
    'a retrievable roll',
  )
  t.equal(pending.character.sheet.pendingRetrieval?.result, 3, 'a retrieval waits')
  const blocked = await post(oddsUrl(ids, 'reaction-roll'), request, player.auth)
  t.equal(blocked.statusCode, 409, 'a pending decision blocks the odds as it blocks the roll')
  t.equal(blocked.json().code, 'RETRIEVAL_PENDING', 'naming it')
  t.notOk(blocked.json().errors, 'no pointer into a sheet the caller never sent')

  const before = await getCharacter(app, gm, ids)
  const events = (await app.inject({ url: `/v1/campaigns/${campaign.id}`, headers: gm })).json().eventCount
  await post(oddsUrl({ ...ids, characterId: oren.id }, 'reaction-roll'), request, gm)
  await post(oddsUrl({ ...ids, characterId: oren.id }, 'reaction-roll'), request, gm)
  t.equal((await getCharacter(app, gm, ids)).version, before.version, 'the character is unchanged')
  t.equal(
    (await app.inject({ url: `/v1/campaigns/${campaign.id}`, headers: gm })).json().eventCount,
    events,
    'no event is recorded',
  )

  const archived = await app.inject({
    method: 'DELETE',
    url: characterUrl({ ...ids, characterId: oren.id }),
    headers: gm,
  })
  t.equal(archived.statusCode, 200, 'Oren is archived')
  const gone = await post(oddsUrl({ ...ids, characterId: oren.id }, 'reaction-roll'), request, gm)
  t.equal(gone.statusCode, 409, 'an archived character has no odds, as it has no rolls')
})

// "GM-only rolls (`visibility: gm`) are hidden from player keys" (DESIGN.md) — and so are the
// odds a GM-only roll changed: a player's odds are counted on the sheet players see.
t.test('a player’s odds are counted on the sheet players see: nothing a GM-only roll did shows in them', async (t) => {
  const { campaign, auth: gm } = await createCampaign(app, 'shock-meters')
  const { character } = await createCharacter(app, campaign, gm, {
    name: 'Vera Okafor',
    sheet: { passions: { fear: { text: 'Being forgotten' } } },
  })
  const ids: Ids = { campaignId: campaign.id, characterId: character.id }
  const { auth: player } = await mintPlayerKey(app, campaign, gm, [character.id])
  const secret = 'SECRET the ghoul in the pantry'
  const hidden = created(
    await act(app, gm, ids, 'stress-check', {
      request: { meter: 'violence', rank: 4, passion: 'fear', response: 'panic', cause: secret },
      dice: provided(87),
      visibility: 'gm',
    }),
    'the GM-only check',
  )
  t.equal((hidden.event.outcome as any).result, 'failed', 'the hidden check failed: Vera is secretly stressed')

  const check = { request: { meter: 'violence', rank: 4 } }
  const gmCheck = (await post(oddsUrl(ids, 'stress-check'), check, gm)).json()
  t.equal(gmCheck.sheet, 'as stored', 'the GM’s odds are on the sheet itself')
  t.equal(gmCheck.avoidedBecause, 'stressed', 'where the next check is avoided, since she is stressed')
  const gmReroll = (await post(oddsUrl(ids, 'passion-reroll'), { request: {} }, gm)).json()
  t.match(gmReroll.replaces, { face: 87 }, 'and the GM may see the odds of re-rolling the hidden 87')

  const seenByPlayer: string[] = []
  const playerCheck = await post(oddsUrl(ids, 'stress-check'), check, player)
  seenByPlayer.push(playerCheck.body)
  t.equal(playerCheck.statusCode, 200, '200')
  t.equal(playerCheck.json().sheet, 'as players see it', 'the player’s odds say which sheet they are on')
  t.equal(playerCheck.json().avoidedBecause, null, 'on the sheet players see she is not stressed: the check is rolled')
  t.match(playerCheck.json().defence, { name: 'fitness', rating: 60 }, 'against Fitness as players know it')
  for (const [action, request] of [
    ['passion-reroll', {}],
    ['passion-flip-flop', {}],
    ['therapy-assistance', { identity: 'Trauma Nurse', rating: 55 }],
  ] as const) {
    const res = await post(oddsUrl(ids, action), { request }, player)
    seenByPlayer.push(res.body)
    t.equal(res.statusCode, 409, `${action}: on the players’ sheet there is no check to change (${res.json().code})`)
    t.notMatch(res.json().detail, /GM alone/, `${action}: refused for what players see, so nothing to keep back`)
  }

  const marks = [secret, hidden.event.id, hidden.event.summary, '"face":87', '"avoidedBecause":"stressed"', 'panic']
  const all = seenByPlayer.join('\n')
  for (const mark of marks) t.notOk(all.includes(mark), `no player answer shows ${JSON.stringify(mark)}`)
})

t.test('the rule sets list where each action’s odds are', async (t) => {
  const detail = (await app.inject({ url: '/v1/rulesets/shock-meters' })).json()
  const check = detail.actions.find((action: { name: string }) => action.name === 'stress-check')
  t.equal(check.oddsPath, '/v1/resolve/shock-meters/stress-check/odds', 'a roll names its odds route')
  const response = detail.actions.find((action: { name: string }) => action.name === 'stress-response')
  t.notOk('oddsPath' in response, 'a decision rolls nothing and has none')
})

t.test(
  'trauma-table odds on a stored character: a player key of another character may not ask, the GM may',
  async (t) => {
    const { campaign, auth: gm } = await createCampaign(app, 'trauma-table')
    const { character: ivo } = await createCharacter(app, campaign, gm, { name: 'Ivo Lind' })
    const { character: dana } = await createCharacter(app, campaign, gm, { name: 'Dana Kade' })
    const ids: Ids = { campaignId: campaign.id, characterId: ivo.id }
    const danas: { auth: Auth } = await mintPlayerKey(app, campaign, gm, [dana.id])
    const res = await post(oddsUrl(ids, 'trauma-roll'), { request: { modifier: 10 } }, danas.auth)
    t.equal(res.statusCode, 403, 'Dana’s key may not ask for Ivo')
    const own = await post(oddsUrl(ids, 'trauma-roll'), { request: { modifier: 10 } }, gm)
    t.equal(own.statusCode, 200, 'the GM may')
    t.equal(own.json().rows.length, 35, 'every row of the table')
  },
)
