import t from 'tap'
import { setupDemo } from '../../scripts/demo.js'
import { allEvents } from '../helpers/commands.js'
import { bearer } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'

t.test('the demo creates a campaign per rule set, two characters each, and plays their rolls', async (t) => {
  const app = await buildTestApp(t)
  const campaigns = await setupDemo(app)

  t.same(
    campaigns.map((campaign) => campaign.ruleset),
    ['shock-meters', 'trauma-table', 'reaction-rolls'],
    'one campaign per rule set',
  )
  for (const campaign of campaigns) {
    t.match(campaign.gmKey, /^nrv_gm_/, `${campaign.ruleset}: the GM key is printed`)
    t.equal(campaign.characters.length, 2, `${campaign.ruleset}: two characters`)

    const auth = bearer(campaign.gmKey)
    const events = await allEvents(app, auth, campaign.campaignId)
    const rolls = events.filter((event) => event.type !== 'character.created')
    t.equal(rolls.length, campaign.summaries.length, `${campaign.ruleset}: every roll and decision is in the history`)
    t.ok(rolls.length >= 3, `${campaign.ruleset}: a few rolls were made`)

    const settled = rolls.filter((event) => event.causationId !== null)
    t.equal(settled.length, 1, `${campaign.ruleset}: one decision was settled afterwards`)
    const roll = events.find((event) => event.id === settled[0]?.causationId)
    t.ok(roll?.pending, `${campaign.ruleset}: the settled roll had been left pending`)

    for (const { id } of campaign.characters) {
      const res = await app.inject({ url: `/v1/campaigns/${campaign.campaignId}/characters/${id}`, headers: auth })
      t.equal(res.statusCode, 200, `${campaign.ruleset}: character ${id} exists`)
    }
  }
})
