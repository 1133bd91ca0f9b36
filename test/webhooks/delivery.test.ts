import t from 'tap'
import { readFile } from 'node:fs/promises'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { Webhook } from 'standardwebhooks'
import { createCampaign, createCharacter } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { eventually, startReceiver, type ReceivedWebhook } from '../helpers/webhook-receiver.js'
import {
  allDeliveries,
  campaignWithCharacter,
  createWebhook,
  FAST_WEBHOOKS,
  getWebhook,
  newSession,
  webhooksUrl,
} from '../helpers/webhooks.js'

// Every test makes its own campaign and receiver, so one app serves them all.
const app = await buildTestApp(t, FAST_WEBHOOKS)

/** The committed OpenAPI document's `WebhookPayload`, which consumers generate their types from. */
const ajv = new Ajv2020({ strict: false })
addFormats.default(ajv)
for (const keyword of ['discriminator', 'xml', 'externalDocs', 'example']) ajv.addKeyword(keyword)
ajv.addSchema(
  {
    ...JSON.parse(await readFile(new URL('../../openapi/openapi.json', import.meta.url), 'utf8')),
    $id: 'urn:nerve:openapi',
  },
  'urn:nerve:openapi',
)
const fitsWebhookPayload = ajv.getSchema('urn:nerve:openapi#/components/schemas/WebhookPayload')!

/** Verifies a received webhook exactly as a consumer would, with the standardwebhooks library. */
function verify(secret: string, request: ReceivedWebhook): unknown {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': request.id,
    'webhook-timestamp': request.timestamp,
    'webhook-signature': request.signature,
  })
}

t.test('a webhook carries the event as { type, timestamp, data }, signed per Standard Webhooks', async (t) => {
  const receiver = await startReceiver(t)
  const { campaign, auth } = await createCampaign(app, 'shock-meters')
  const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url })
  const { event } = await createCharacter(app, campaign, auth)

  await receiver.waitFor('the character.created webhook', (received) => received.length >= 1)
  const [request] = receiver.received
  t.same(verify(webhook.secret, request!), request!.payload, 'standardwebhooks verifies the signature')
  t.match(request!.signature, /^v1,[A-Za-z0-9+/]+=*$/, 'webhook-signature is v1,<base64>')
  t.match(request!.headers['content-type'], 'application/json', 'the body is JSON')
  t.equal(request!.payload.type, 'character.created', 'type is the event type')
  t.equal(request!.payload.timestamp, event.occurredAt, 'timestamp is when the event occurred')
  t.ok(fitsWebhookPayload(request!.payload), 'the body fits the document’s WebhookPayload', {
    errors: fitsWebhookPayload.errors,
  })
  const stored = await app.inject({ url: `/v1/campaigns/${campaign.id}/events/${event.id}`, headers: auth })
  t.same(request!.payload.data, stored.json(), 'data is the event exactly as the API shows it')

  const [delivery] = await allDeliveries(app, campaign.id, auth, webhook.id)
  t.equal(request!.id, delivery!.id, 'webhook-id is the delivery id')
  t.throws(
    () =>
      verify(webhook.secret, { ...request!, body: request!.body.replace('character.created', 'character.archived') }),
    'a tampered body does not verify',
  )
  const other = await createWebhook(app, campaign.id, auth, { url: receiver.url })
  t.throws(() => verify(other.secret, request!), 'another endpoint’s secret does not verify')
})

t.test('a webhook names the character, so a bot can post the roll without another request', async (t) => {
  const receiver = await startReceiver(t)
  const { campaign, auth } = await createCampaign(app, 'shock-meters')
  await createWebhook(app, campaign.id, auth, { url: receiver.url, eventTypes: ['stress-check'] })
  const { character } = await createCharacter(app, campaign, auth, { name: 'Vera Okafor' })
  const res = await app.inject({
    method: 'POST',
    url: `/v1/campaigns/${campaign.id}/characters/${character.id}/stress-check`,
    headers: auth,
    payload: { request: { meter: 'violence', rank: 4 }, dice: { source: 'provided', faces: [5] } },
  })
  t.equal(res.statusCode, 201, `the check is recorded: ${res.body}`)
  await receiver.waitFor('the stress-check webhook', (received) => received.length >= 1)
  const data = receiver.received[0]!.payload.data as { characterName?: string; summary?: string }
  t.equal(data.characterName, 'Vera Okafor', 'the event in the webhook names the character')
  t.match(data.summary, /Violence 4/, 'beside the summary a bot posts with it')
})

t.test('event-type filters and the GM-only opt-in decide which endpoints get an event', async (t) => {
  const receiver = await startReceiver(t)
  const { campaign, auth } = await createCampaign(app, 'shock-meters')
  const url = (name: string) => `${receiver.url}/${name}`
  const everything = await createWebhook(app, campaign.id, auth, { url: url('everything') })
  const sessions = await createWebhook(app, campaign.id, auth, { url: url('sessions'), eventTypes: ['new-session'] })
  const gm = await createWebhook(app, campaign.id, auth, { url: url('gm'), includeGmEvents: true })

  const { character } = await createCharacter(app, campaign, auth)
  const ids = { campaignId: campaign.id, characterId: character.id }
  await newSession(app, auth, ids, 'public')
  const secret = await newSession(app, auth, ids, 'gm')

  await receiver.waitFor('6 webhooks', (received) => received.length >= 6)
  const delivered = async (webhookId: string) =>
    (await allDeliveries(app, campaign.id, auth, webhookId)).map((delivery) => delivery.eventType).sort()
  t.same(await delivered(everything.id), ['character.created', 'new-session'], 'no filter: every public event')
  t.same(await delivered(sessions.id), ['new-session'], 'a type filter: only that type, and only public')
  t.same(await delivered(gm.id), ['character.created', 'new-session', 'new-session'], 'opted in: the GM-only roll too')
  const gmOnly = receiver.received.filter((request) => request.payload.data.id === secret.event.id)
  t.same(
    gmOnly.map((request) => request.headers['webhook-id']),
    [(await allDeliveries(app, campaign.id, auth, gm.id)).find((d) => d.eventId === secret.event.id)!.id],
    'the GM-only event went to the opted-in endpoint alone',
  )
})

t.test('an endpoint answering 500 three times then 200 gets the event once, with 4 attempts recorded', async (t) => {
  const receiver = await startReceiver(t, {
    answer: (_request, index) => (index < 3 ? { status: 500, body: `boom ${index + 1}` } : { status: 200 }),
  })
  const { campaign, auth, ids } = await campaignWithCharacter(app)
  const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url })
  const { event } = await newSession(app, auth, ids)

  const [delivery] = await eventually(
    'the delivery to be delivered',
    () => allDeliveries(app, campaign.id, auth, webhook.id),
    (deliveries) => deliveries[0]?.status === 'delivered',
  )
  t.equal(delivery!.eventId, event.id, 'the delivery carries the event')
  t.same(
    delivery!.attempts.map((attempt) => attempt.statusCode),
    [500, 500, 500, 200],
    'four attempts, each recorded with its status',
  )
  t.same(
    delivery!.attempts.map((attempt) => attempt.responseExcerpt),
    ['boom 1', 'boom 2', 'boom 3', 'ok'],
    'each with the start of the response',
  )
  t.ok(
    delivery!.attempts.slice(0, 3).every((attempt) => attempt.error === 'the endpoint answered 500'),
    'failed attempts say why',
  )
  t.equal(delivery!.attempts[3]!.error, null, 'the successful attempt has no error')
  t.equal(new Set(receiver.received.map((request) => request.id)).size, 1, 'every attempt had the same webhook-id')
  t.equal((await getWebhook(app, campaign.id, auth, webhook.id)).failingSince, null, 'the success cleared the failure')
})

t.test('deliveries to one endpoint arrive in event order', async (t) => {
  const receiver = await startReceiver(t)
  const { campaign, auth, ids } = await campaignWithCharacter(app)
  await createWebhook(app, campaign.id, auth, { url: receiver.url })
  for (let i = 0; i < 25; i++) await newSession(app, auth, ids)
  await receiver.waitFor('25 webhooks', (received) => received.length >= 25)
  const seqs = receiver.received.map((request) => request.payload.data.seq!)
  t.same(
    seqs,
    [...seqs].sort((a, b) => a - b),
    'ascending seq',
  )
})

t.test(
  'deliveries queued by rolls and by a replay get time-ordered ids (UUIDv7) of when they were queued',
  async (t) => {
    const receiver = await startReceiver(t)
    const { campaign, auth, ids } = await campaignWithCharacter(app)
    const before = Date.now()
    const unsent = (await newSession(app, auth, ids)).event.seq
    const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url })
    for (let i = 0; i < 3; i++) await newSession(app, auth, ids)
    const replay = await app.inject({
      method: 'POST',
      url: `${webhooksUrl(campaign.id)}/${webhook.id}/replay`,
      headers: auth,
      payload: { afterSeq: unsent - 1 },
    })
    t.equal(replay.statusCode, 202, 'the replay queues the event made before the endpoint')
    const after = Date.now()
    const deliveries = await allDeliveries(app, campaign.id, auth, webhook.id)
    const timeOf = (id: string) => parseInt(id.replaceAll('-', '').slice(0, 12), 16)
    for (const delivery of deliveries) {
      t.match(
        delivery.id,
        /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        'version 7, RFC variant',
      )
      t.ok(timeOf(delivery.id) >= before && timeOf(delivery.id) <= after, 'its time is when it was queued')
    }
    const timesOf = (queuedBy: (seq: number) => boolean) =>
      deliveries
        .filter((delivery) => queuedBy(delivery.eventSeq!))
        .sort((a, b) => a.eventSeq! - b.eventSeq!)
        .map((delivery) => timeOf(delivery.id))
    const [replayed] = timesOf((seq) => seq === unsent)
    const rolled = timesOf((seq) => seq > unsent)
    t.equal(rolled.length, 3, 'the three rolls after the endpoint queued one delivery each')
    t.ok(
      rolled.every((time, i) => i === 0 || time >= rolled[i - 1]!),
      'their ids are in the order of the rolls',
    )
    t.ok(replayed !== undefined && rolled.every((time) => time <= replayed), 'the replay’s delivery came after them')
  },
)

t.test('an endpoint answering 410 Gone is disabled; re-enabling sends what was queued', async (t) => {
  let gone = true
  const receiver = await startReceiver(t, { answer: () => ({ status: gone ? 410 : 200 }) })
  const { campaign, auth, ids } = await campaignWithCharacter(app)
  const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url })
  const { event } = await newSession(app, auth, ids)

  const disabled = await eventually(
    'the endpoint to be disabled',
    () => getWebhook(app, campaign.id, auth, webhook.id),
    (endpoint) => !endpoint.enabled,
  )
  t.match(disabled.disabledReason, /410/, 'the reason names the 410')
  t.equal(receiver.received.length, 1, 'one attempt, no retries to a gone endpoint')

  await newSession(app, auth, ids)
  t.equal(
    (await allDeliveries(app, campaign.id, auth, webhook.id)).length,
    1,
    'events recorded while disabled are not queued for it',
  )

  gone = false
  const enabled = await app.inject({
    method: 'POST',
    url: `${webhooksUrl(campaign.id)}/${webhook.id}/enable`,
    headers: auth,
  })
  t.equal(enabled.statusCode, 200, 'enable answers 200')
  t.match(enabled.json(), { enabled: true, disabledReason: null, failingSince: null }, 'enabled again, record cleared')
  await receiver.waitFor('the queued delivery', (received) => received.length >= 2)
  t.equal(receiver.received[1]!.payload.data.id, event.id, 'the delivery queued before it was disabled went out')
})

t.test('a GM can disable an endpoint and nothing is sent to it', async (t) => {
  const receiver = await startReceiver(t)
  const { campaign, auth, ids } = await campaignWithCharacter(app)
  const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url })
  const res = await app.inject({
    method: 'POST',
    url: `${webhooksUrl(campaign.id)}/${webhook.id}/disable`,
    headers: auth,
  })
  t.equal(res.statusCode, 200, 'disable answers 200')
  t.match(res.json(), { enabled: false, disabledReason: 'disabled by the GM' }, 'disabled, with the reason')
  await newSession(app, auth, ids)
  t.same(await allDeliveries(app, campaign.id, auth, webhook.id), [], 'nothing queued')
  const ping = await app.inject({
    method: 'POST',
    url: `${webhooksUrl(campaign.id)}/${webhook.id}/test`,
    headers: auth,
  })
  t.equal(ping.statusCode, 409, 'a disabled endpoint cannot be tested')
})

t.test('Retry-After on a 429 is honoured before the next attempt', async (t) => {
  const receiver = await startReceiver(t, {
    answer: (_request, index) => (index === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }),
  })
  const { campaign, auth, ids } = await campaignWithCharacter(app)
  const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url })
  await newSession(app, auth, ids)
  const [delivery] = await eventually(
    'the delivery',
    () => allDeliveries(app, campaign.id, auth, webhook.id),
    (deliveries) => deliveries[0]?.status === 'delivered',
  )
  const [first, second] = delivery!.attempts
  t.same([first!.statusCode, second!.statusCode], [429, 200], 'a 429, then a success')
  const waited = Date.parse(second!.attemptedAt) - Date.parse(first!.attemptedAt)
  // The schedule alone would retry after ~50 ms; Retry-After asked for a second.
  t.ok(waited >= 900, `the retry waited for Retry-After (waited ${waited} ms)`)
})

t.test('redirects are not followed: the attempt fails and the target is never called', async (t) => {
  const target = await startReceiver(t)
  const receiver = await startReceiver(t, { answer: () => ({ status: 302, headers: { location: target.url } }) })
  const { campaign, auth, ids } = await campaignWithCharacter(app)
  const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url })
  await newSession(app, auth, ids)
  const [delivery] = await eventually(
    'the delivery to fail',
    () => allDeliveries(app, campaign.id, auth, webhook.id),
    (deliveries) => deliveries[0]?.status === 'failed',
  )
  t.equal(delivery!.attempts.length, 5, 'the first attempt and the four scheduled retries')
  t.ok(
    delivery!.attempts.every(
      (attempt) => attempt.statusCode === 302 && /redirect .* not followed/.test(attempt.error!),
    ),
    'each attempt records the 302 and that the redirect was not followed',
  )
  t.equal(delivery!.nextAttemptAt, null, 'a failed delivery has no next attempt')
  t.equal(target.received.length, 0, 'the redirect target got nothing')
})

t.test('secret rotation: both secrets verify during the grace period, only the new one after', async (t) => {
  const receiver = await startReceiver(t)
  const { campaign, auth, ids } = await campaignWithCharacter(app)
  const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url })
  const rotate = (gracePeriodSeconds: number) =>
    app.inject({
      method: 'POST',
      url: `${webhooksUrl(campaign.id)}/${webhook.id}/rotate-secret`,
      headers: auth,
      payload: { gracePeriodSeconds },
    })

  const first = await rotate(3600)
  t.equal(first.statusCode, 200, 'rotate answers 200')
  const second = first.json()
  t.match(second.secret, /^whsec_/, 'a new whsec_ secret, shown once')
  t.not(second.secret, webhook.secret, 'it is new')
  t.ok(second.previousSecretExpiresAt, 'the old secret’s grace period is shown')
  await newSession(app, auth, ids)
  await receiver.waitFor('a webhook', (received) => received.length >= 1)
  const during = receiver.received[0]!
  t.equal(during.signature.split(' ').length, 2, 'two signatures, space-separated')
  t.ok(verify(second.secret, during), 'the new secret verifies')
  t.ok(verify(webhook.secret, during), 'the old secret still verifies')

  const third = (await rotate(0)).json()
  t.equal(third.previousSecretExpiresAt, null, 'no grace period asked: the old secret ends now')
  await newSession(app, auth, ids)
  await receiver.waitFor('a second webhook', (received) => received.length >= 2)
  const after = receiver.received[1]!
  t.equal(after.signature.split(' ').length, 1, 'one signature')
  t.ok(verify(third.secret, after), 'the newest secret verifies')
  t.throws(() => verify(second.secret, after), 'the previous secret no longer does')
  t.throws(() => verify(webhook.secret, after), 'nor the first')
  t.notOk(
    JSON.stringify(await getWebhook(app, campaign.id, auth, webhook.id)).includes('whsec_'),
    'GET never shows a secret',
  )
})

t.test('a test ping is a signed webhook.ping delivery', async (t) => {
  const receiver = await startReceiver(t)
  const { campaign, auth } = await createCampaign(app, 'trauma-table')
  const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url })
  const res = await app.inject({ method: 'POST', url: `${webhooksUrl(campaign.id)}/${webhook.id}/test`, headers: auth })
  t.equal(res.statusCode, 202, 'accepted')
  t.match(res.json(), { eventType: 'webhook.ping', eventId: null, status: 'pending' }, 'a queued ping delivery')
  await receiver.waitFor('the ping', (received) => received.length >= 1)
  const ping = receiver.received[0]!
  t.same(verify(webhook.secret, ping), ping.payload, 'it verifies')
  t.match(ping.payload, { type: 'webhook.ping', data: { endpointId: webhook.id, campaignId: campaign.id } })
  t.ok(fitsWebhookPayload(ping.payload), 'the ping fits the document’s WebhookPayload', {
    errors: fitsWebhookPayload.errors,
  })
  t.equal(ping.id, res.json().id, 'webhook-id is the delivery id')
})

t.test('redeliver sends a delivery again with the same webhook-id', async (t) => {
  const receiver = await startReceiver(t)
  const { campaign, auth, ids } = await campaignWithCharacter(app)
  const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url })
  await newSession(app, auth, ids)
  await receiver.waitFor('the webhook', (received) => received.length >= 1)
  const [delivery] = await eventually(
    'the delivery to settle',
    () => allDeliveries(app, campaign.id, auth, webhook.id),
    (deliveries) => deliveries[0]?.status === 'delivered',
  )
  const url = `${webhooksUrl(campaign.id)}/${webhook.id}/deliveries/${delivery!.id}`
  const res = await app.inject({ method: 'POST', url: `${url}/redeliver`, headers: auth })
  t.equal(res.statusCode, 202, 'accepted')
  t.match(res.json(), { status: 'pending', attemptCount: 0 }, 'queued again as a new round')
  await receiver.waitFor('the second copy', (received) => received.length >= 2)
  t.equal(receiver.received[1]!.id, receiver.received[0]!.id, 'the same webhook-id, so the consumer can de-duplicate')
  t.equal(receiver.received[1]!.body, receiver.received[0]!.body, 'the same body')
  const again = await eventually(
    'the redelivery to settle',
    async () => (await app.inject({ url, headers: auth })).json(),
    (view) => view.status === 'delivered',
  )
  t.equal(again.attempts.length, 2, 'both attempts are listed')

  const missing = await app.inject({
    method: 'POST',
    url: `${webhooksUrl(campaign.id)}/${webhook.id}/deliveries/0193a5e2-7c1d-7000-8000-000000000009/redeliver`,
    headers: auth,
  })
  t.equal(missing.statusCode, 404, 'an unknown delivery is 404')
})

t.test('replay queues the events after a sequence number, keeping webhook ids of earlier deliveries', async (t) => {
  const receiver = await startReceiver(t)
  const { campaign, auth, ids } = await campaignWithCharacter(app)
  await newSession(app, auth, ids)
  await newSession(app, auth, ids, 'gm')
  const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url, includeGmEvents: true })
  const replay = (afterSeq: number) =>
    app.inject({
      method: 'POST',
      url: `${webhooksUrl(campaign.id)}/${webhook.id}/replay`,
      headers: auth,
      payload: { afterSeq },
    })

  const res = await replay(1)
  t.equal(res.statusCode, 202, 'accepted')
  t.same(res.json(), { queued: 2 }, 'events 2 and 3 (made before the endpoint existed) queued')
  await receiver.waitFor('two webhooks', (received) => received.length >= 2)
  t.same(
    receiver.received.map((request) => request.payload.data.seq),
    [2, 3],
    'sent in event order',
  )
  await eventually(
    'the replay to settle',
    () => allDeliveries(app, campaign.id, auth, webhook.id),
    (deliveries) => deliveries.every((delivery) => delivery.status === 'delivered'),
  )
  t.same((await replay(0)).json(), { queued: 3 }, 'replaying from 0 queues all three')
  await receiver.waitFor('five webhooks', (received) => received.length >= 5)
  const bySeq = (seq: number) => new Set(receiver.received.filter((r) => r.payload.data.seq === seq).map((r) => r.id))
  t.equal(bySeq(2).size, 1, 'event 2 came twice under one webhook-id')
  t.equal(bySeq(3).size, 1, 'so did event 3')

  const listed = await allDeliveries(app, campaign.id, auth, webhook.id)
  t.same(
    listed.map((delivery) => delivery.eventSeq),
    [1, 3, 2],
    'newest first (event 1 was queued by the second replay); one replay’s deliveries newest event first',
  )

  const bad = await replay(-1)
  t.equal(bad.statusCode, 422, 'a negative sequence number is refused')
})

t.test('deliveries are listed newest first, with a status filter and a cursor', async (t) => {
  const receiver = await startReceiver(t)
  const { campaign, auth, ids } = await campaignWithCharacter(app)
  const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url })
  for (let i = 0; i < 5; i++) await newSession(app, auth, ids)
  await eventually(
    'all five delivered',
    () => allDeliveries(app, campaign.id, auth, webhook.id, 'delivered'),
    (deliveries) => deliveries.length === 5,
  )
  const base = `${webhooksUrl(campaign.id)}/${webhook.id}/deliveries`
  const first = (await app.inject({ url: `${base}?limit=2`, headers: auth })).json()
  t.equal(first.data.length, 2, 'a page of two')
  t.equal(first.hasMore, true, 'more follow')
  const second = (await app.inject({ url: `${base}?limit=2&after=${first.nextCursor}`, headers: auth })).json()
  t.same(
    [...first.data, ...second.data].map((delivery: { eventSeq: number }) => delivery.eventSeq),
    [6, 5, 4, 3],
    'newest first across pages',
  )
  const pending = (await app.inject({ url: `${base}?status=pending`, headers: auth })).json()
  t.same(pending.data, [], 'nothing pending')
  const bad = await app.inject({ url: `${base}?status=lost`, headers: auth })
  t.equal(bad.statusCode, 400, 'an unknown status is a bad query')
})

t.test(
  'an endpoint subscribed to campaign.updated is sent the GM’s rename, signed, and again by a replay',
  async (t) => {
    const receiver = await startReceiver(t)
    const { campaign, auth, ids } = await campaignWithCharacter(app)
    const webhook = await createWebhook(app, campaign.id, auth, {
      url: `${receiver.url}/campaign`,
      eventTypes: ['campaign.updated'],
    })
    await createWebhook(app, campaign.id, auth, { url: `${receiver.url}/sessions`, eventTypes: ['new-session'] })
    const renamed = await app.inject({
      method: 'PATCH',
      url: `/v1/campaigns/${campaign.id}`,
      headers: auth,
      payload: { name: 'The Long Night' },
    })
    t.equal(renamed.statusCode, 200, 'the GM renames the campaign')
    await newSession(app, auth, ids)

    await receiver.waitFor('both webhooks', (received) => received.length >= 2)
    const sent = receiver.received.find((request) => request.path === '/hooks/campaign')!
    t.equal(sent.payload.type, 'campaign.updated', 'the endpoint was sent the campaign event')
    t.same(verify(webhook.secret, sent), sent.payload, 'standardwebhooks verifies the signature')
    t.match(
      sent.payload.data,
      {
        type: 'campaign.updated',
        characterId: null,
        visibility: 'public',
        outcome: { before: { name: campaign.name }, after: { name: 'The Long Night' } },
      },
      'its data is the event',
    )
    t.ok(fitsWebhookPayload(sent.payload), 'the body fits the document’s WebhookPayload', {
      errors: fitsWebhookPayload.errors,
    })
    t.same(
      receiver.received.map((request) => `${request.path} ${request.payload.type}`).sort(),
      ['/hooks/campaign campaign.updated', '/hooks/sessions new-session'],
      'each endpoint gets only the types it subscribed to',
    )

    const replay = await app.inject({
      method: 'POST',
      url: `${webhooksUrl(campaign.id)}/${webhook.id}/replay`,
      headers: auth,
      payload: { afterSeq: 0 },
    })
    t.equal(replay.statusCode, 202, 'a replay of the whole history is accepted')
    const deliveries = await allDeliveries(app, campaign.id, auth, webhook.id)
    t.same(
      deliveries.map((delivery) => delivery.eventType),
      ['campaign.updated'],
      'and selects the campaign event by the same filter (it keeps its delivery, and webhook-id)',
    )
  },
)

t.test('a webhook filter names campaign.updated among the campaign’s types', async (t) => {
  const { campaign, auth } = await createCampaign(app, 'trauma-table')
  const res = await app.inject({
    method: 'POST',
    url: webhooksUrl(campaign.id),
    headers: auth,
    payload: { url: 'http://127.0.0.1:9/hooks', eventTypes: ['campaign.renamed'] },
  })
  t.equal(res.statusCode, 422, 'an unknown type is refused')
  t.match(res.body, /campaign\.updated/, 'and the answer lists campaign.updated among the known ones')
})
