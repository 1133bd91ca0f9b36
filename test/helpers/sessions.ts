import type { App } from '../../src/app.js'
import { createCampaign, createCharacter, mintPlayerKey, type Auth, type TestCampaign } from './api.js'
import { act, characterUrl, created, decide, provided, revert, type CommandResult, type Ids } from './commands.js'
import { createWebhook } from './webhooks.js'

/** A campaign after a whole session: its GM, a player bound to its first character, and both characters. */
export interface PlayedSession {
  campaign: TestCampaign
  player: Auth
  characterIds: string[]
}

type Body = { request: unknown; dice?: unknown; visibility?: 'gm' }

/**
 * Plays a session of the rule set as test/routes/journeys.test.ts does, on two characters taking
 * turns: every event type of the rule set, GM-only rolls (one left standing, so later public
 * events are shown to players otherwise than as recorded), a decision settled through its
 * event, a GM edit, reverts, and a webhook endpoint.
 */
export async function playSession(app: App, ruleset: string): Promise<PlayedSession> {
  const campaign = await createCampaign(
    app,
    ruleset,
    ruleset === 'reaction-rolls' ? { name: 'Tabletop nights', settings: { emotionTopStage: 3 } } : {},
  )
  const gm = campaign.auth
  const campaignId = campaign.campaign.id
  const vera = (await createCharacter(app, campaign.campaign, gm, { name: 'Vera Okafor', sheet: SHEETS[ruleset] }))
    .character
  const bo = (await createCharacter(app, campaign.campaign, gm, { name: 'Bo Lindqvist' })).character
  const player = (await mintPlayerKey(app, campaign.campaign, gm, [vera.id], 'Sam')).auth
  await createWebhook(app, campaignId, gm, {
    url: 'http://127.0.0.1:9/hooks',
    description: 'Discord bot',
    includeGmEvents: true,
  })
  // A campaign-level event amid the characters' ones: it has no character and no sheets.
  const renamed = await app.inject({
    method: 'PATCH',
    url: `/v1/campaigns/${campaignId}`,
    headers: gm,
    payload: { name: `${campaign.campaign.name}, season 2` },
  })
  if (renamed.statusCode !== 200) throw new Error(`renaming the campaign: ${renamed.statusCode} ${renamed.body}`)
  const on = (character: { id: string }): Ids => ({ campaignId, characterId: character.id })
  const step = async (auth: Auth, character: { id: string }, action: string, body: Body) =>
    created(await act(app, auth, on(character), action, body), `${action} on ${character.id}`)
  const settle = async (auth: Auth, event: CommandResult, body: Body & { action?: string }) =>
    created(await decide(app, auth, campaignId, event.event.id, body), `settling ${event.event.type}`)
  const undo = async (character: { id: string }, event: CommandResult) =>
    created(await revert(app, gm, on(character), event.event.id), `reverting ${event.event.type}`)
  const edit = async (character: { id: string }, payload: Record<string, unknown>) => {
    const res = await app.inject({ method: 'PATCH', url: characterUrl(on(character)), headers: gm, payload })
    if (res.statusCode !== 200) throw new Error(`editing: ${res.statusCode} ${res.body}`)
  }
  const archive = async (character: { id: string }) => {
    const res = await app.inject({ method: 'DELETE', url: characterUrl(on(character)), headers: gm })
    if (res.statusCode !== 200) throw new Error(`archiving: ${res.statusCode} ${res.body}`)
    return res.json<CommandResult>()
  }

  if (ruleset === 'shock-meters') {
    await step(player, vera, 'stress-check', {
      request: { meter: 'violence', rank: 4, trigger: 'kill-in-fight', cause: 'The cultist on the stairs' },
      dice: provided(30),
    })
    await step(gm, bo, 'stress-check', { request: { meter: 'helplessness', rank: 3 }, dice: provided(12) })
    await step(player, vera, 'stress-check', {
      request: { meter: 'self', rank: 5, passion: 'fear' },
      dice: provided(73),
    })
    await step(player, vera, 'passion-flip-flop', { request: {} })
    const unnatural = await step(player, vera, 'stress-check', {
      request: { meter: 'unnatural', rank: 6 },
      dice: provided(99),
    })
    await settle(player, unnatural, { request: { response: 'panic' } })
    await step(player, vera, 'therapy-assistance', {
      request: { identity: 'Trauma Nurse', rating: 55 },
      dice: provided(10),
    })
    await step(gm, vera, 'clear-stressed', { request: { reason: 'The thing in the well is gone' } })
    // Behind the screen: a failed check and its re-roll stay GM-only.
    await step(gm, vera, 'stress-check', {
      request: { meter: 'isolation', rank: 3, passion: 'fear' },
      dice: provided(90),
      visibility: 'gm',
    })
    await step(gm, vera, 'passion-reroll', { request: {}, dice: provided(95) })
    await step(gm, vera, 'stress-response', { request: { response: 'paralysis' } })
    // Public events while the GM-only ones stand: players see them on the sheet they knew.
    await step(gm, vera, 'record-disorder', { request: { name: 'Dread of mirrors', meter: 'self' } })
    await edit(vera, { sheet: { relationships: [{ name: 'Dr. Okafor', rating: 35 }] }, reason: 'A missed appointment' })
    await step(gm, vera, 'new-session', { request: {} })
    const treatment = await step(gm, vera, 'ongoing-treatment', {
      request: { meter: 'violence', hardened: 1, reason: 'Weeks with Dr. Okafor' },
    })
    await undo(vera, treatment)
    const archived = await archive(bo)
    await undo(bo, archived)
    await edit(bo, { name: 'Bo "Lucky" Lindqvist' })
    await archive(bo)
  } else if (ruleset === 'trauma-table') {
    const hazed = await step(player, vera, 'trauma-roll', { request: { modifier: 0 }, dice: provided(8) })
    await settle(player, hazed, { request: { response: 'accept' } })
    await step(gm, bo, 'trauma-roll', { request: { response: 'accept' }, dice: provided(42, 5) })
    await step(player, vera, 'trauma-roll', {
      request: { modifier: 0, response: { ability: 'Not Today!' } },
      dice: provided(8),
    })
    await step(player, vera, 'trauma-roll', { request: { response: 'accept' }, dice: provided(42, 5) })
    await step(gm, vera, 'end-scene', { request: {} })
    await step(gm, vera, 'rest', { request: { health: 6, severity: 10 } })
    // Behind the screen: a trauma the players do not learn of, answered in secret.
    const secret = await step(gm, vera, 'trauma-roll', { request: {}, dice: provided(28), visibility: 'gm' })
    await settle(gm, secret, { request: { response: 'accept' } })
    await edit(vera, {
      sheet: { lastingTraumas: [{ id: 'social-anxiety', name: 'Social Anxiety', severity: 80, restHeals: false }] },
      reason: 'Her years alone on the relay',
    })
    await step(gm, vera, 'socialise-ritual', { request: { trauma: 'social-anxiety', amount: 30 } })
    await step(gm, vera, 'end-encounter', { request: {} })
    const cycle = await step(gm, vera, 'end-cycle', { request: {} })
    await undo(vera, cycle)
    await step(gm, bo, 'end-cycle', { request: {} })
  } else {
    await step(player, vera, 'reaction-roll', { request: { ability: 'agility', pressure: 4 }, dice: provided(1) })
    const retrievable = await step(player, vera, 'reaction-roll', {
      request: { ability: 'agility', pressure: 6, advantage: true },
      dice: provided(2, 5),
    })
    await settle(player, retrievable, { request: { decision: 'raise', emotion: 'fear' } })
    await step(gm, bo, 'reaction-roll', { request: { ability: 'composure', pressure: 8, resist: false } })
    const secret = await step(gm, vera, 'reaction-roll', {
      request: { ability: 'insight', pressure: 4 },
      dice: provided(6),
      visibility: 'gm',
    })
    await undo(vera, secret)
    // A GM-only retrievable roll, raised in secret: it stands, and the player's next rolls are shown on the sheet they knew.
    const hidden = await step(gm, vera, 'reaction-roll', {
      request: { ability: 'insight', pressure: 6 },
      dice: provided(4),
      visibility: 'gm',
    })
    await settle(gm, hidden, { request: { decision: 'raise', emotion: 'anger' } })
    await step(player, vera, 'reaction-roll', {
      request: { ability: 'endurance', pressure: 6 },
      dice: provided(4),
    })
    await step(player, vera, 'reaction-retrieval', { request: { decision: 'decline' } })
    await edit(vera, { sheet: { abilities: { agility: { maxedOut: true } } }, reason: 'Agility mastered' })
    // Left open at the end: a retrievable roll of Bo's waits for its decision.
    await step(gm, bo, 'reaction-roll', { request: { ability: 'agility', pressure: 6 }, dice: provided(5) })
  }
  return { campaign, player, characterIds: [vera.id, bo.id] }
}

/** The first character's sheet, as the journeys start it. */
const SHEETS: Record<string, Record<string, unknown>> = {
  'shock-meters': {
    identities: [{ name: 'Soldier', rating: 45, features: [{ type: 'resists-shock', meter: 'violence' }] }],
    passions: { fear: { text: 'Being forgotten' } },
    relationships: [{ name: 'Dr. Okafor', rating: 40 }],
  },
  'trauma-table': {},
  'reaction-rolls': {},
}
