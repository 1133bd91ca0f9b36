import t from 'tap'
import { createCampaign, createCharacter, mintPlayerKey, type Auth, type Sheet } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import {
  act,
  allEvents,
  characterUrl,
  created,
  decide,
  getCharacter,
  isProblem,
  provided,
  revert,
  type Ids,
} from '../helpers/commands.js'
import { rawStream } from '../helpers/event-stream.js'
import { eventually, startReceiver } from '../helpers/webhook-receiver.js'
import { createWebhook, FAST_WEBHOOKS } from '../helpers/webhooks.js'

// "GM-only rolls (`visibility: gm`) are hidden from player keys and from webhooks that do not
// opt in" (DESIGN.md) — and so is everything they did to the sheet (docs/guides/hidden-rolls.md).

const app = await buildTestApp(t, FAST_WEBHOOKS)
const address = await app.listen({ port: 0, host: '127.0.0.1' })
const receiver = await startReceiver(t)

interface Roll {
  action: string
  request: Record<string, unknown>
  faces?: number[]
}

interface Scenario {
  ruleset: string
  /** Words only the hidden roll carries (its cause, its reason). */
  secret: string
  /** A GM-only roll that leaves a decision open. */
  hidden: Roll
  /** What a player tries on it: settle its decision or change it — each refused. */
  playerFollowUps: Roll[]
  /** A roll of the player's that the hidden roll's open decision blocks. */
  playerBlocked: Roll
  /** The GM settles the hidden roll's decision (GM-only as well, since it follows a GM-only roll), then more GM-only actions. */
  gmSettles: Roll
  gmHidden: Roll[]
  /** Public rolls after the hidden ones, by the GM and by the player. */
  publicRolls: { by: 'gm' | 'player'; roll: Roll }[]
  /** The part of the sheet the hidden rolls changed. */
  hiddenPart: (sheet: Sheet) => unknown
}

const SCENARIOS: Scenario[] = [
  {
    ruleset: 'shock-meters',
    secret: 'SECRET the ghoul in the pantry',
    hidden: {
      action: 'stress-check',
      request: { meter: 'violence', rank: 4, cause: 'SECRET the ghoul in the pantry' },
      faces: [87],
    },
    playerFollowUps: [
      { action: 'stress-response', request: { response: 'panic' } },
      { action: 'passion-reroll', request: { passion: 'fear' }, faces: [12] },
    ],
    playerBlocked: { action: 'stress-check', request: { meter: 'self', rank: 3 }, faces: [23] },
    gmSettles: { action: 'stress-response', request: { response: 'frenzy' } },
    gmHidden: [{ action: 'clear-stressed', request: { reason: 'SECRET the ghoul in the pantry is gone' } }],
    publicRolls: [
      { by: 'gm', roll: { action: 'stress-check', request: { meter: 'self', rank: 3 }, faces: [23] } },
      { by: 'player', roll: { action: 'stress-check', request: { meter: 'unnatural', rank: 2 }, faces: [30] } },
    ],
    hiddenPart: (sheet) => sheet.meters.violence,
  },
  {
    ruleset: 'trauma-table',
    secret: 'SECRET the drowned sister',
    hidden: {
      action: 'trauma-roll',
      request: { modifier: 0, source: 'none', upgrades: [{ steps: 1, reason: 'SECRET the drowned sister' }] },
      faces: [57],
    },
    playerFollowUps: [{ action: 'trauma-response', request: { response: 'accept' } }],
    playerBlocked: { action: 'trauma-roll', request: { modifier: 0, source: 'none' }, faces: [40] },
    gmSettles: { action: 'trauma-response', request: { response: 'accept' } },
    gmHidden: [],
    publicRolls: [
      { by: 'gm', roll: { action: 'end-scene', request: {} } },
      {
        by: 'player',
        roll: {
          action: 'trauma-roll',
          request: { modifier: 0, source: 'none', response: 'accept' },
          faces: [8],
        },
      },
    ],
    hiddenPart: (sheet) => ({
      depleted: sheet.encounterTraumas.includes('depleted'),
      dazed: sheet.conditions.some((condition: { name: string }) => condition.name === 'Dazed'),
    }),
  },
  {
    ruleset: 'reaction-rolls',
    secret: 'SECRET the whisper behind the door',
    hidden: {
      action: 'reaction-roll',
      request: {
        ability: 'agility',
        pressure: 6,
        modifiers: [{ source: 'environment', weight: 1, reason: 'SECRET the whisper behind the door' }],
      },
      faces: [4],
    },
    playerFollowUps: [{ action: 'reaction-retrieval', request: { decision: 'decline' } }],
    playerBlocked: { action: 'reaction-roll', request: { ability: 'agility', pressure: 4 }, faces: [2] },
    gmSettles: { action: 'reaction-retrieval', request: { decision: 'raise', emotion: 'fear' } },
    gmHidden: [],
    publicRolls: [
      { by: 'player', roll: { action: 'reaction-roll', request: { ability: 'agility', pressure: 4 }, faces: [3] } },
      { by: 'player', roll: { action: 'reaction-retrieval', request: { decision: 'raise', emotion: 'anger' } } },
    ],
    hiddenPart: (sheet) => ({
      fear: sheet.emotions.fear,
      agilityXp: sheet.abilities.agility.xp - sheet.emotions.anger,
    }),
  },
]

/** A roll's body; without `visibility`, Nerve derives who sees it. */
const body = (roll: Roll, visibility?: 'public' | 'gm') => ({
  request: roll.request,
  ...(roll.faces ? { dice: provided(...roll.faces) } : {}),
  ...(visibility ? { visibility } : {}),
})

/** The first `count` messages of the player's event stream, from the start of the history, as sent. */
const streamed = (campaignId: string, auth: Auth, count: number) =>
  rawStream(`${address}/v1/campaigns/${campaignId}/events/stream?after=0`, auth, count)

for (const scenario of SCENARIOS) {
  t.test(
    `${scenario.ruleset}: a GM-only roll leaves no trace a player key or a webhook without opt-in can see`,
    async (t) => {
      const { campaign, auth: gm } = await createCampaign(app, scenario.ruleset)
      const toPlayers = await createWebhook(app, campaign.id, gm, { url: `${receiver.url}/${campaign.id}/players` })
      await createWebhook(app, campaign.id, gm, { url: `${receiver.url}/${campaign.id}/gm`, includeGmEvents: true })
      const { character } = await createCharacter(app, campaign, gm, { name: 'Vera Okafor' })
      const ids: Ids = { campaignId: campaign.id, characterId: character.id }
      const { auth: player } = await mintPlayerKey(app, campaign, gm, [character.id])
      const sheetBeforeHidden = (await getCharacter(app, gm, ids)).sheet
      // Everything a player key was answered, to search for the hidden roll afterwards.
      const seenByPlayer: string[] = []

      const hidden = created(
        await act(app, gm, ids, scenario.hidden.action, body(scenario.hidden, 'gm')),
        'the hidden roll',
      )
      t.equal(hidden.event.visibility, 'gm', 'the roll is GM-only')
      t.ok(hidden.event.pending.length > 0, 'the hidden roll leaves a decision open')

      for (const attempt of scenario.playerFollowUps) {
        const res = await act(app, player, ids, attempt.action, body(attempt))
        seenByPlayer.push(res.body)
        t.equal(res.statusCode, 403, `a player may not ${attempt.action} a GM-only roll: ${res.body}`)
        t.ok(isProblem(res), `${attempt.action}: problem+json`)
      }
      // Both answers name the id the player sent, and only that.
      const viaRoute = await decide(app, player, campaign.id, hidden.event.id, { request: scenario.gmSettles.request })
      t.equal(viaRoute.statusCode, 404, 'the decision route does not find a GM-only event for a player key')
      const read = await app.inject({ url: `/v1/campaigns/${campaign.id}/events/${hidden.event.id}`, headers: player })
      t.equal(read.statusCode, 404, 'a GM-only event is not found for a player key')

      const blocked = await act(app, player, ids, scenario.playerBlocked.action, body(scenario.playerBlocked))
      seenByPlayer.push(blocked.body)
      t.equal(blocked.statusCode, 409, `the open decision still blocks the player's roll: ${blocked.body}`)
      t.match(blocked.json().detail, /known to the GM alone/, 'the refusal says the reason is the GM’s, not what it is')

      const settled = created(
        await act(app, gm, ids, scenario.gmSettles.action, body(scenario.gmSettles)),
        'the GM settles',
      )
      t.equal(settled.event.visibility, 'gm', 'settling a GM-only roll is GM-only too')
      t.equal(settled.event.causationId, hidden.event.id, 'the settlement follows the hidden roll')
      const hiddenIds = [hidden.event.id, settled.event.id]
      for (const roll of scenario.gmHidden) {
        hiddenIds.push(
          created(await act(app, gm, ids, roll.action, body(roll, 'gm')), `GM-only ${roll.action}`).event.id,
        )
      }

      for (const { by, roll } of scenario.publicRolls) {
        const res = await act(app, by === 'gm' ? gm : player, ids, roll.action, body(roll))
        const answer = created(res, `public ${roll.action} by the ${by}`)
        t.equal(answer.event.visibility, 'public', `${roll.action} is public`)
        if (by === 'player') seenByPlayer.push(res.body)
      }

      const gmView = await getCharacter(app, gm, ids)
      const playerView = await getCharacter(app, player, ids)
      t.notSame(
        scenario.hiddenPart(gmView.sheet),
        scenario.hiddenPart(sheetBeforeHidden),
        'the GM sees what the hidden rolls did',
      )
      t.same(
        scenario.hiddenPart(playerView.sheet),
        scenario.hiddenPart(sheetBeforeHidden),
        'the player sees that part of the sheet as it was before the hidden rolls',
      )
      t.notSame(playerView.sheet, sheetBeforeHidden, 'the public rolls after them do show')

      const publicEvents = await allEvents(app, player, campaign.id)
      t.notOk(
        publicEvents.some((event) => event.visibility === 'gm'),
        'the history a player reads holds no GM-only event',
      )
      const last = publicEvents.at(-1)!
      t.same(last.sheetAfter, playerView.sheet, 'the last public event ends on the sheet the player sees')
      for (const [earlier, later] of publicEvents
        .slice(0, -1)
        .map((event, i) => [event, publicEvents[i + 1]!] as const)) {
        t.same(
          later.sheetBefore,
          earlier.sheetAfter,
          `event #${later.seq} starts where #${earlier.seq} left the player's sheet`,
        )
      }

      const reads = [
        `/v1/campaigns/${campaign.id}/characters`,
        characterUrl(ids),
        `/v1/campaigns/${campaign.id}/events?sheets=full`,
        `/v1/campaigns/${campaign.id}/events?sheets=none`,
        `/v1/campaigns/${campaign.id}/events?characterId=${character.id}`,
        `/v1/campaigns/${campaign.id}/events/${last.id}`,
        `/v1/campaigns/${campaign.id}`,
      ]
      for (const url of reads) seenByPlayer.push((await app.inject({ url, headers: player })).body)
      seenByPlayer.push(await streamed(campaign.id, player, publicEvents.length))

      const players = `/hooks/${campaign.id}/players`
      const gms = `/hooks/${campaign.id}/gm`
      await eventually(
        'both webhooks to receive every event they get',
        async () => receiver.received.filter((r) => r.path === players || r.path === gms).length,
        (count) => count >= publicEvents.length * 2 + 2,
      )
      const toPlayersBodies = receiver.received.filter((r) => r.path === players).map((r) => r.body)
      t.equal(toPlayersBodies.length, publicEvents.length, 'the webhook without opt-in gets the public events only')
      t.ok(
        receiver.received.some((r) => r.path === gms && r.payload.data.id === hidden.event.id),
        'the webhook that opted in gets the hidden roll',
      )
      t.ok(toPlayers.id, 'the players’ webhook exists')

      const hiddenMarks = [
        scenario.secret,
        ...hiddenIds,
        hidden.event.summary,
        ...hidden.event.pending.map((decision) => decision.prompt),
        ...hidden.event.dice.map((die) => `"face":${die.face},"purpose":"${die.purpose}"`),
      ]
      for (const [where, bodies] of [
        ['player key answers', seenByPlayer],
        ['webhook without opt-in', toPlayersBodies],
      ] as const) {
        const all = bodies.join('\n')
        for (const mark of hiddenMarks) {
          const at = all.indexOf(mark)
          t.notOk(
            at >= 0,
            `${where}: nothing shows ${JSON.stringify(mark)}${at >= 0 ? ` (at …${all.slice(at - 300, at + 80)}…)` : ''}`,
          )
        }
      }
      const gmHistory = (await allEvents(app, gm, campaign.id)).map((event) => event.id)
      t.ok(
        hiddenIds.every((id) => gmHistory.includes(id)),
        'the GM’s history has the hidden events',
      )
    },
  )
}

t.test('reverting the GM-only rolls brings the player’s sheet back to the sheet itself', async (t) => {
  const { campaign, auth: gm } = await createCampaign(app, 'shock-meters')
  const { character } = await createCharacter(app, campaign, gm)
  const ids: Ids = { campaignId: campaign.id, characterId: character.id }
  const { auth: player } = await mintPlayerKey(app, campaign, gm, [character.id])
  const hidden = created(
    await act(app, gm, ids, 'stress-check', {
      request: { meter: 'violence', rank: 4, response: 'panic' },
      dice: provided(87),
      visibility: 'gm',
    }),
    'the hidden roll',
  )
  t.notSame((await getCharacter(app, player, ids)).sheet, (await getCharacter(app, gm, ids)).sheet, 'the two differ')
  created(await revert(app, gm, ids, hidden.event.id), 'the revert')
  t.same((await getCharacter(app, player, ids)).sheet, (await getCharacter(app, gm, ids)).sheet, 'the same again')
})

t.test('a GM’s sheet edit shows players the fields it names, as they now are', async (t) => {
  const { campaign, auth: gm } = await createCampaign(app, 'shock-meters')
  const { character } = await createCharacter(app, campaign, gm)
  const ids: Ids = { campaignId: campaign.id, characterId: character.id }
  const { auth: player } = await mintPlayerKey(app, campaign, gm, [character.id])
  created(
    await act(app, gm, ids, 'stress-check', {
      request: { meter: 'violence', rank: 4, response: 'panic' },
      dice: provided(87),
      visibility: 'gm',
    }),
    'the hidden roll',
  )
  const truth = (await getCharacter(app, gm, ids)).sheet
  t.equal((await getCharacter(app, player, ids)).sheet.meters.violence.failed, 0, 'hidden at first')
  const edit = await app.inject({
    method: 'PATCH',
    url: characterUrl(ids),
    headers: gm,
    payload: { sheet: { meters: { violence: { failed: truth.meters.violence.failed } } }, reason: 'The GM tells' },
  })
  t.equal(edit.statusCode, 200, `the edit: ${edit.body}`)
  const shown = (await getCharacter(app, player, ids)).sheet
  t.same(shown.meters.violence, truth.meters.violence, 'the named field is shown as it is')
  t.equal(shown.stressed, null, 'what the edit did not name stays hidden')
})
