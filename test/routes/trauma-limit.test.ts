import t from 'tap'
import { createCampaign, createCharacter, PROBLEM } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { act, created, provided } from '../helpers/commands.js'

t.test(
  'a character at 500 traumas this encounter is told to end the encounter (409 ENCOUNTER_TRAUMA_LIMIT), not that a sheet it never sent is invalid',
  async (t) => {
    const app = await buildTestApp(t)
    const { campaign, auth } = await createCampaign(app, 'trauma-table')
    const { character } = await createCharacter(app, campaign, auth, {
      name: 'Jim',
      sheet: { encounterTraumas: Array<string>(500).fill('hysteria') },
    })
    const ids = { campaignId: campaign.id, characterId: character.id }

    const refused = await act(app, auth, ids, 'trauma-roll', { request: { response: 'accept' } })
    t.equal(refused.statusCode, 409, 'a conflict with the character’s state')
    t.match(refused.headers['content-type'], PROBLEM, 'problem details')
    t.match(
      refused.json(),
      { code: 'ENCOUNTER_TRAUMA_LIMIT', detail: /500 traumas .*end-encounter/ },
      'naming the limit and what to do',
    )
    t.notMatch(refused.body, 'SHEET_INVALID', 'not a sheet error')

    created(await act(app, auth, ids, 'end-encounter', { request: {} }), 'the GM ends the encounter')
    const next = await act(app, auth, ids, 'trauma-roll', { request: {}, dice: provided(50) })
    t.equal(next.statusCode, 201, 'the next encounter’s first roll is recorded')
  },
)
