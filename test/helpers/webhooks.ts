import type { Static } from 'typebox'
import type { Test } from 'tap'
import { Writable } from 'node:stream'
import { buildApp, type App } from '../../src/app.js'
import type { Config } from '../../src/config.js'
import type {
  CreatedWebhookEndpointSchema,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
} from '../../src/webhooks/schemas.js'
import { createCampaign, createCharacter, type Auth } from './api.js'
import { act, created, type CommandResult } from './commands.js'

export type CreatedWebhook = Static<typeof CreatedWebhookEndpointSchema>
export type WebhookView = Static<typeof WebhookEndpointSchema>
export type DeliveryView = Static<typeof WebhookDeliverySchema>

/** Settings every webhook test needs: loopback receivers allowed, retries fast, polling frequent. */
export const FAST_WEBHOOKS = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SCHEDULE: '0.05,0.05,0.05,0.05',
  WEBHOOK_POLL_INTERVAL_MS: '50',
}

/**
 * An app on `config` whose log tells which deliveries it sent: `sent` collects the delivery id
 * of every "webhook delivered" line, so a test running two instances can tell them apart.
 */
export async function startLoggingInstance(t: Test, config: Config): Promise<{ app: App; sent: string[] }> {
  const sent: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) {
        if (line.includes('"webhook delivered"')) sent.push(JSON.parse(line).deliveryId)
      }
      done()
    },
  })
  const app = await buildApp(config, { logger: { level: 'debug', stream } })
  t.teardown(() => app.close())
  await app.ready()
  return { app, sent }
}

export const webhooksUrl = (campaignId: string) => `/v1/campaigns/${campaignId}/webhooks`

/** `POST …/webhooks` as the GM; stops the test with the problem when it is not 201. */
export async function createWebhook(
  app: App,
  campaignId: string,
  auth: Auth,
  body: { url: string; eventTypes?: string[]; includeGmEvents?: boolean; description?: string },
): Promise<CreatedWebhook> {
  const res = await app.inject({ method: 'POST', url: webhooksUrl(campaignId), headers: auth, payload: body })
  if (res.statusCode !== 201) throw new Error(`creating a webhook: expected 201, got ${res.statusCode}: ${res.body}`)
  return res.json()
}

export async function getWebhook(app: App, campaignId: string, auth: Auth, webhookId: string): Promise<WebhookView> {
  const res = await app.inject({ url: `${webhooksUrl(campaignId)}/${webhookId}`, headers: auth })
  if (res.statusCode !== 200) throw new Error(`get webhook: expected 200, got ${res.statusCode}: ${res.body}`)
  return res.json()
}

/** Every delivery of an endpoint (newest first), following the cursor. */
export async function allDeliveries(
  app: App,
  campaignId: string,
  auth: Auth,
  webhookId: string,
  status?: string,
): Promise<DeliveryView[]> {
  const deliveries: DeliveryView[] = []
  let after: string | null = null
  do {
    const search = new URLSearchParams({ limit: '100', ...(after ? { after } : {}), ...(status ? { status } : {}) })
    const res = await app.inject({
      url: `${webhooksUrl(campaignId)}/${webhookId}/deliveries?${search.toString()}`,
      headers: auth,
    })
    if (res.statusCode !== 200) throw new Error(`deliveries: expected 200, got ${res.statusCode}: ${res.body}`)
    const page: { data: DeliveryView[]; nextCursor: string | null } = res.json()
    deliveries.push(...page.data)
    after = page.nextCursor
  } while (after)
  return deliveries
}

/** A shock-meters campaign with one character, ready to record events. */
export async function campaignWithCharacter(app: App) {
  const { campaign, auth } = await createCampaign(app, 'shock-meters')
  const { character } = await createCharacter(app, campaign, auth)
  return { campaign, auth, ids: { campaignId: campaign.id, characterId: character.id } }
}

/** A GM-only stress check that fails (a 99 against rank 4), its cause the secret a test looks for. */
export async function hiddenStressCheck(
  app: App,
  auth: Auth,
  ids: { campaignId: string; characterId: string },
  cause: string,
): Promise<CommandResult> {
  return created(
    await act(app, auth, ids, 'stress-check', {
      request: { meter: 'violence', rank: 4, cause },
      dice: { source: 'provided', faces: [99] },
      visibility: 'gm',
    }),
    'stress-check',
  )
}

/** The cheapest event to record: a GM `new-session` on the character. */
export async function newSession(
  app: App,
  auth: Auth,
  ids: { campaignId: string; characterId: string },
  visibility: 'public' | 'gm' = 'public',
): Promise<CommandResult> {
  return created(await act(app, auth, ids, 'new-session', { request: {}, visibility }), 'new-session')
}
