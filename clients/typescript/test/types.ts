/**
 * The client's compile test: `npm run typecheck` (strict tsc) compiles this file and fails when
 * an `@ts-expect-error` line compiles — so each marks a mistake the types must catch. It is never
 * run: the flow at the end (the whole VTT journey, without a cast) runs for real in
 * examples/client/vtt-example.ts (test/examples/client.test.ts).
 */
import {
  createNerveClient,
  data,
  type Character,
  type CharacterOf,
  type Event,
  type EventOf,
  type EventType,
  type RuleSetId,
  type StreamMessage,
  type components,
} from '../src/index.js'

declare const character: Character
declare const event: Event
declare const message: StreamMessage

// A rule set and an event type are enums, not any string.
const ruleSet: RuleSetId = 'trauma-table'
// @ts-expect-error -- no such rule set
const noRuleSet: RuleSetId = 'shock-meter'
const eventType: EventType = 'character.created'
// @ts-expect-error -- no such event type
const noEventType: EventType = 'stress-checks'

// After `ruleset`, the sheet is that rule set's.
if (character.ruleset === 'shock-meters') {
  const failed: number = character.sheet.meters.violence.failed
  // @ts-expect-error -- a trauma-table field, not on a shock-meters sheet
  void character.sheet.scars
  void failed
}
// @ts-expect-error -- before narrowing, the sheet is one of three: no shock-meters field on it
void character.sheet.meters

// After `type`, the outcome is that type's.
if (event.type === 'stress-check') {
  const result: 'avoided' | 'automatic-failure' | 'passed' | 'failed' | undefined = event.outcome?.result
  // @ts-expect-error -- a stress check's outcome has no `succeeded`
  void event.outcome?.succeeded
  const meters = event.sheetAfter.meters
  void result
  void meters
}
// @ts-expect-error -- no event has this type
if (event.type === 'stress-checked') void event

const shock: CharacterOf<'shock-meters'>['sheet']['meters']['self']['hardened'] = 3
void [ruleSet, noRuleSet, eventType, noEventType, shock]

export async function flow(baseUrl: string): Promise<void> {
  const nerve = createNerveClient({ baseUrl })
  const { campaign, gmKey } = data(
    await nerve.POST('/v1/campaigns', { body: { name: 'Mercy Street', ruleset: 'shock-meters' } }),
  )
  const gm = createNerveClient({ baseUrl, apiKey: gmKey.key })
  const campaignId = campaign.id

  await gm.POST('/v1/campaigns/{campaignId}/characters', {
    params: { path: { campaignId } },
    // @ts-expect-error -- a wrong sheet field: `fitnes` is on no sheet
    body: { ruleset: 'shock-meters', name: 'Vera', sheet: { fitnes: 60 } },
  })
  await gm.POST('/v1/campaigns/{campaignId}/characters', {
    params: { path: { campaignId } },
    // @ts-expect-error -- a trauma-table sheet field in a body that says shock-meters
    body: { ruleset: 'shock-meters', name: 'Vera', sheet: { scars: 2 } },
  })
  await gm.POST('/v1/campaigns/{campaignId}/characters', {
    params: { path: { campaignId } },
    // @ts-expect-error -- a meter's failed notches are a number
    body: { ruleset: 'shock-meters', name: 'Vera', sheet: { meters: { violence: { failed: 'two' } } } },
  })

  // Create, roll with the VTT's own dice, settle, read the history, open a stream: no cast.
  const { character: vera } = data(
    await gm.POST('/v1/campaigns/{campaignId}/characters', {
      params: { path: { campaignId } },
      body: { ruleset: 'shock-meters', name: 'Vera Okafor', sheet: { meters: { violence: { hardened: 2 } } } },
    }),
  )
  const { event: roll } = data(
    await gm.POST('/v1/campaigns/{campaignId}/characters/{characterId}/stress-check', {
      params: { path: { campaignId, characterId: vera.id } },
      body: { request: { meter: 'violence', rank: 4 }, dice: { source: 'provided', faces: [85] } },
    }),
  )
  await gm.POST('/v1/campaigns/{campaignId}/characters/{characterId}/stress-check', {
    params: { path: { campaignId, characterId: vera.id } },
    // @ts-expect-error -- no such meter
    body: { request: { meter: 'violent', rank: 4 } },
  })
  if (roll.type === 'stress-check' && roll.outcome?.result === 'failed') {
    const stressed = roll.sheetAfter.stressed
    data(
      await gm.POST('/v1/campaigns/{campaignId}/events/{eventId}/decision', {
        params: { path: { campaignId, eventId: roll.id } },
        body: { action: 'stress-response', request: { response: 'panic' } },
      }),
    )
    void stressed
  }
  const page = data(
    await gm.GET('/v1/campaigns/{campaignId}/events', { params: { path: { campaignId }, query: { limit: 100 } } }),
  )
  for (const listed of page.data) {
    if (listed.type === 'stress-response') void listed.outcome?.response
    if (listed.type === 'character.created') void listed.request?.name
  }
  const checks: EventOf<'stress-check'>[] = page.data.flatMap((listed) =>
    listed.type === 'stress-check' && listed.sheetAfter
      ? [{ ...listed, sheetAfter: listed.sheetAfter, sheetBefore: listed.sheetBefore ?? listed.sheetAfter }]
      : [],
  )
  const ticket = data(
    await gm.POST('/v1/campaigns/{campaignId}/events/stream-tickets', { params: { path: { campaignId } } }),
  )
  const url: string = ticket.url
  void [checks, url]
}

// A stream message is an event, narrowed by its type, or the stream's end.
if ('ended' in message) {
  const why: 'revoked' | 'closed' = message.ended
  void why
} else if (message.type === 'trauma-roll') {
  // `null` where a player's key reads a hidden roll.
  void message.outcome?.roll.finalRow
  // @ts-expect-error -- a trauma roll's outcome has no `result`
  void message.outcome?.result
}

// A webhook names event types from the same list.
const subscription: components['schemas']['CreateWebhookEndpoint'] = {
  url: 'https://vtt.example.com/hooks/nerve',
  eventTypes: ['stress-check', 'reveal'],
}
// @ts-expect-error -- no such event type to subscribe to
const noSubscription: components['schemas']['CreateWebhookEndpoint'] = { url: subscription.url, eventTypes: ['roll'] }
void noSubscription
declare const payload: components['schemas']['WebhookPayload']
// @ts-expect-error -- a webhook's type is an event type or `webhook.ping`
if (payload.type === 'ping') void payload
