import { ConflictError, InvalidFieldError, NotFoundError } from '../errors.js'
import { newId } from '../lib/ids.js'
import type { Principal } from '../lib/principal.js'
import type { Store } from '../repositories/index.js'
import type { DeliveryFilter } from './repository.js'
import { findRuleSet } from '../rules/index.js'
import { eventTypesOf, refuseUnknownType } from '../history/event-types.js'
import { pageOf, pageSize } from '../lib/pagination.js'
import {
  DEFAULT_GRACE_PERIOD_SECONDS,
  deliveryView,
  endpointView,
  type CreateWebhookEndpoint,
  type ReplayWebhook,
  type RotateWebhookSecret,
  type UpdateWebhookEndpoint,
} from './schemas.js'
import { checkWebhookUrl } from './address-guard.js'
import { generateSecret } from './signing.js'

export interface WebhookContext {
  store: Store
  /** Operator setting: allow URLs on loopback and private networks (tests, private deployments). */
  allowPrivate: boolean
  /** Tells the local dispatcher that deliveries were queued. */
  wake(): void
}

async function checkedUrl(context: WebhookContext, url: string): Promise<string> {
  const refused = await checkWebhookUrl(url, context.allowPrivate)
  if (refused) throw new InvalidFieldError('/body/url', `the URL ${refused}`)
  return url
}

/** A filter naming a type the campaign can never record is a typo: refuse it rather than stay silent forever. */
function checkedEventTypes(principal: Principal, eventTypes: string[]): string[] {
  const subscribable = eventTypesOf(findRuleSet(principal.campaign.ruleset))
    .filter((entry) => entry.subscribable)
    .map((entry) => entry.type)
  for (const [index, type] of eventTypes.entries()) {
    refuseUnknownType(type, subscribable, principal.campaign.ruleset, `/body/eventTypes/${index}`)
  }
  return eventTypes
}

async function endpointOf(context: WebhookContext, principal: Principal, webhookId: string) {
  const endpoint = await context.store.webhooks.findEndpoint(principal.campaign.id, webhookId)
  if (!endpoint) throw new NotFoundError(`webhook ${webhookId} not found`)
  return endpoint
}

export async function createEndpoint(context: WebhookContext, principal: Principal, body: CreateWebhookEndpoint) {
  const eventTypes = checkedEventTypes(principal, body.eventTypes ?? [])
  const url = await checkedUrl(context, body.url)
  const secret = generateSecret()
  const endpoint = await context.store.webhooks.createEndpoint({
    id: newId(),
    campaignId: principal.campaign.id,
    url,
    description: body.description ?? null,
    eventTypes,
    includeGmEvents: body.includeGmEvents ?? false,
    secret,
  })
  return { ...endpointView(endpoint), secret }
}

export async function listEndpoints(context: WebhookContext, principal: Principal) {
  return { data: (await context.store.webhooks.listEndpoints(principal.campaign.id)).map((e) => endpointView(e)) }
}

export async function getEndpoint(context: WebhookContext, principal: Principal, webhookId: string) {
  return endpointView(await endpointOf(context, principal, webhookId))
}

export async function updateEndpoint(
  context: WebhookContext,
  principal: Principal,
  webhookId: string,
  body: UpdateWebhookEndpoint,
) {
  await endpointOf(context, principal, webhookId)
  const changes = {
    ...(body.url === undefined ? {} : { url: await checkedUrl(context, body.url) }),
    ...(body.description === undefined ? {} : { description: body.description }),
    ...(body.eventTypes === undefined ? {} : { eventTypes: checkedEventTypes(principal, body.eventTypes) }),
    ...(body.includeGmEvents === undefined ? {} : { includeGmEvents: body.includeGmEvents }),
  }
  return endpointView(await context.store.webhooks.updateEndpoint(webhookId, changes))
}

export async function deleteEndpoint(context: WebhookContext, principal: Principal, webhookId: string) {
  await endpointOf(context, principal, webhookId)
  await context.store.webhooks.deleteEndpoint(webhookId)
}

/** A new secret; the old one keeps signing alongside it for the grace period, so consumers can switch without a gap. */
export async function rotateSecret(
  context: WebhookContext,
  principal: Principal,
  webhookId: string,
  body: RotateWebhookSecret,
) {
  const endpoint = await endpointOf(context, principal, webhookId)
  const secret = generateSecret()
  const grace = (body.gracePeriodSeconds ?? DEFAULT_GRACE_PERIOD_SECONDS) * 1000
  const updated = await context.store.webhooks.updateEndpoint(webhookId, {
    secret,
    previousSecret: grace > 0 ? endpoint.secret : null,
    previousSecretExpiresAt: grace > 0 ? new Date(Date.now() + grace) : null,
  })
  return { ...endpointView(updated), secret }
}

export async function enableEndpoint(context: WebhookContext, principal: Principal, webhookId: string) {
  await endpointOf(context, principal, webhookId)
  const updated = await context.store.transaction(async (tx) => {
    const endpoint = await tx.webhooks.updateEndpoint(webhookId, {
      enabled: true,
      disabledReason: null,
      failingSince: null,
      consecutiveFailures: 0,
      pausedUntil: null,
    })
    await tx.webhooks.resume(webhookId)
    return endpoint
  })
  context.wake()
  return endpointView(updated)
}

export async function disableEndpoint(context: WebhookContext, principal: Principal, webhookId: string) {
  const endpoint = await endpointOf(context, principal, webhookId)
  if (!endpoint.enabled) return endpointView(endpoint)
  return endpointView(
    await context.store.webhooks.updateEndpoint(webhookId, { enabled: false, disabledReason: 'disabled by the GM' }),
  )
}

export async function listDeliveries(
  context: WebhookContext,
  principal: Principal,
  webhookId: string,
  query: Omit<DeliveryFilter, 'limit'> & { limit?: number | undefined },
) {
  await endpointOf(context, principal, webhookId)
  if (query.after && !(await context.store.webhooks.findDelivery(webhookId, query.after))) {
    throw new NotFoundError(`delivery ${query.after} (the cursor) not found`)
  }
  const limit = pageSize(query.limit)
  const rows = await context.store.webhooks.listDeliveries(webhookId, { ...query, limit })
  const { page, hasMore, nextCursor } = pageOf(rows, limit, (row) => row.id)
  return { data: page.map(deliveryView), hasMore, nextCursor }
}

async function deliveryOf(context: WebhookContext, webhookId: string, deliveryId: string) {
  const delivery = await context.store.webhooks.findDelivery(webhookId, deliveryId)
  if (!delivery) throw new NotFoundError(`delivery ${deliveryId} not found`)
  return delivery
}

export async function getDelivery(
  context: WebhookContext,
  principal: Principal,
  webhookId: string,
  deliveryId: string,
) {
  await endpointOf(context, principal, webhookId)
  return deliveryView(await deliveryOf(context, webhookId, deliveryId))
}

export async function redeliver(context: WebhookContext, principal: Principal, webhookId: string, deliveryId: string) {
  await endpointOf(context, principal, webhookId)
  await deliveryOf(context, webhookId, deliveryId)
  // Read in the transaction that queues it: its commit wakes dispatchers (a trigger NOTIFYs), and
  // the answer must show the delivery as queued, not as one of them has already claimed it.
  const queued = await context.store.transaction(async (tx) =>
    (await tx.webhooks.requeue(deliveryId)) ? tx.webhooks.findDelivery(webhookId, deliveryId) : null,
  )
  if (!queued) {
    // Not queued: either it is in flight, or retention removed it meanwhile (then 404).
    await deliveryOf(context, webhookId, deliveryId)
    throw new ConflictError(`delivery ${deliveryId} is being sent right now; try again once it has settled`)
  }
  context.wake()
  return deliveryView(queued)
}

export async function replay(context: WebhookContext, principal: Principal, webhookId: string, body: ReplayWebhook) {
  const endpoint = await endpointOf(context, principal, webhookId)
  const queued = await context.store.webhooks.replay(endpoint, body.afterSeq)
  context.wake()
  return { queued }
}

export async function sendTestPing(context: WebhookContext, principal: Principal, webhookId: string) {
  const endpoint = await endpointOf(context, principal, webhookId)
  if (!endpoint.enabled) throw new ConflictError(`webhook ${webhookId} is disabled; enable it before testing it`)
  const delivery = await context.store.webhooks.createPing({
    id: newId(),
    campaignId: endpoint.campaignId,
    endpointId: endpoint.id,
  })
  context.wake()
  return deliveryView(delivery)
}
