import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { CampaignParams } from '../../schemas/common.js'
import { created, problems, ref } from '../../schemas/ref.js'
import { CREATED_WEBHOOK_LINKS, QUEUED_DELIVERY_LINKS } from '../../schemas/links.js'
import {
  CreatedWebhookEndpointSchema,
  CreateWebhookEndpointSchema,
  ReplayWebhookSchema,
  RotateWebhookSecretSchema,
  UpdateWebhookEndpointSchema,
  WebhookDeliveryListQuery,
  WebhookDeliveryListSchema,
  WebhookDeliveryParams,
  WebhookDeliverySchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookParams,
  WebhookReplaySchema,
} from '../../webhooks/schemas.js'
import {
  createEndpoint,
  deleteEndpoint,
  disableEndpoint,
  enableEndpoint,
  getDelivery,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  redeliver,
  replay,
  rotateSecret,
  sendTestPing,
  updateEndpoint,
  type WebhookContext,
} from '../../webhooks/endpoints.js'
import { webhookUrl } from '../locations.js'
import { routeAccess } from '../../plugins/app/route-access.js'

const tags = ['Webhooks']

interface WebhookRoutesOptions {
  allowPrivate: boolean
}

const webhookRoutes: FastifyPluginAsyncTypebox<WebhookRoutesOptions> = async (app, options) => {
  routeAccess(app, 'gm')
  const context: WebhookContext = {
    store: app.store,
    allowPrivate: options.allowPrivate,
    wake: () => app.webhookDispatcher.wake(),
  }

  app.post(
    '/v1/campaigns/:campaignId/webhooks',
    {
      links: { 201: CREATED_WEBHOOK_LINKS },
      schema: {
        tags,
        operationId: 'createWebhook',
        summary: 'Create a webhook endpoint',
        description:
          'GM only. From now on every event of the campaign that the filters select is POSTed to the URL, signed per [Standard Webhooks](https://www.standardwebhooks.com/), at least once, in event order, retried with backoff. **The signing secret is shown only this once.** URLs with credentials, and URLs on loopback, private or link-local addresses (in any IPv6 encoding too) are refused (422), the latter unless the operator allows them.',
        params: CampaignParams,
        body: ref(CreateWebhookEndpointSchema),
        response: {
          201: created(
            CreatedWebhookEndpointSchema,
            'The endpoint and its signing secret (shown once).',
            'the endpoint',
          ),
          ...problems(400, 401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const endpoint = await createEndpoint(context, request.principal, request.body)
      return reply.code(201).header('location', webhookUrl(endpoint.campaignId, endpoint.id)).send(endpoint)
    },
  )

  app.get(
    '/v1/campaigns/:campaignId/webhooks',
    {
      schema: {
        tags,
        operationId: 'listWebhooks',
        summary: 'List the webhook endpoints',
        description: 'GM only. Every endpoint of the campaign, enabled or not. Secrets are never shown again.',
        params: CampaignParams,
        response: {
          200: ref(WebhookEndpointListSchema, { description: 'The campaign’s webhooks.' }),
          ...problems(400, 401, 403, 404),
        },
      },
    },
    async (request) => listEndpoints(context, request.principal),
  )

  app.get(
    '/v1/campaigns/:campaignId/webhooks/:webhookId',
    {
      schema: {
        tags,
        operationId: 'getWebhook',
        summary: 'Get a webhook endpoint',
        description: 'GM only. Its URL, filters, and whether it is enabled (and if not, why).',
        params: WebhookParams,
        response: { 200: ref(WebhookEndpointSchema, { description: 'The webhook.' }), ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => getEndpoint(context, request.principal, request.params.webhookId),
  )

  app.patch(
    '/v1/campaigns/:campaignId/webhooks/:webhookId',
    {
      schema: {
        tags,
        operationId: 'updateWebhook',
        summary: 'Change a webhook endpoint',
        description:
          'GM only. Changes the URL, description or filters; fields left out stay as they are. New filters apply to events recorded from now on, except `includeGmEvents: false`, which applies at once to what is queued too: a GM-only event’s delivery still waiting is never sent, it ends `skipped` (a delivery already being sent when the change is made finishes).',
        params: WebhookParams,
        body: ref(UpdateWebhookEndpointSchema),
        response: {
          200: ref(WebhookEndpointSchema, { description: 'The webhook as it now is.' }),
          ...problems(400, 401, 403, 404, 422),
        },
      },
    },
    async (request) => updateEndpoint(context, request.principal, request.params.webhookId, request.body),
  )

  app.delete(
    '/v1/campaigns/:campaignId/webhooks/:webhookId',
    {
      schema: {
        tags,
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint',
        description: 'GM only. The endpoint, its queued deliveries and their attempt records are removed.',
        params: WebhookParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await deleteEndpoint(context, request.principal, request.params.webhookId)
      return reply.code(204).send(null)
    },
  )

  app.post(
    '/v1/campaigns/:campaignId/webhooks/:webhookId/rotate-secret',
    {
      schema: {
        tags,
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the signing secret',
        description:
          'GM only. Issues a new secret (**shown only this once**). For the grace period every delivery carries two signatures — one per secret, space-separated in `webhook-signature` — so consumers verify with either while they switch. Send `{}` for the default grace period of 24 hours.',
        params: WebhookParams,
        body: ref(RotateWebhookSecretSchema),
        response: {
          200: ref(CreatedWebhookEndpointSchema, { description: 'The endpoint and its new secret (shown once).' }),
          ...problems(400, 401, 403, 404, 422),
        },
      },
    },
    async (request) => rotateSecret(context, request.principal, request.params.webhookId, request.body),
  )

  app.post(
    '/v1/campaigns/:campaignId/webhooks/:webhookId/enable',
    {
      schema: {
        tags,
        operationId: 'enableWebhook',
        summary: 'Enable a webhook endpoint',
        description:
          'GM only. Clears the disabled reason and the failure record; deliveries queued while it was disabled go out at once, in event order. Events recorded while it was disabled were not queued: replay them.',
        params: WebhookParams,
        response: {
          200: ref(WebhookEndpointSchema, { description: 'The webhook, now enabled.' }),
          ...problems(400, 401, 403, 404),
        },
      },
    },
    async (request) => enableEndpoint(context, request.principal, request.params.webhookId),
  )

  app.post(
    '/v1/campaigns/:campaignId/webhooks/:webhookId/disable',
    {
      schema: {
        tags,
        operationId: 'disableWebhook',
        summary: 'Disable a webhook endpoint',
        description:
          'GM only. Nothing more is sent to it and new events are not queued for it; deliveries already queued wait until it is enabled again.',
        params: WebhookParams,
        response: {
          200: ref(WebhookEndpointSchema, { description: 'The webhook, now disabled.' }),
          ...problems(400, 401, 403, 404),
        },
      },
    },
    async (request) => disableEndpoint(context, request.principal, request.params.webhookId),
  )

  app.get(
    '/v1/campaigns/:campaignId/webhooks/:webhookId/deliveries',
    {
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: 'List an endpoint’s deliveries',
        description:
          'GM only. Newest first, each with its status and every attempt (time, HTTP status, latency, error, start of the response). Filter by status; page with `after`. Deliveries delivered or failed longer ago than the retention period (`WEBHOOK_RETENTION_DAYS`, 30 days by default) are removed with their attempts; pending ones are kept however old.',
        params: WebhookParams,
        querystring: WebhookDeliveryListQuery,
        response: {
          200: ref(WebhookDeliveryListSchema, { description: 'A page of the webhook’s deliveries, newest first.' }),
          ...problems(400, 401, 403, 404),
        },
      },
    },
    async (request) => listDeliveries(context, request.principal, request.params.webhookId, request.query),
  )

  app.get(
    '/v1/campaigns/:campaignId/webhooks/:webhookId/deliveries/:deliveryId',
    {
      schema: {
        tags,
        operationId: 'getWebhookDelivery',
        summary: 'Get a delivery',
        description: 'GM only. One delivery with its status and every attempt.',
        params: WebhookDeliveryParams,
        response: {
          200: ref(WebhookDeliverySchema, { description: 'The delivery with every attempt.' }),
          ...problems(400, 401, 403, 404),
        },
      },
    },
    async (request) => getDelivery(context, request.principal, request.params.webhookId, request.params.deliveryId),
  )

  app.post(
    '/v1/campaigns/:campaignId/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    {
      schema: {
        tags,
        operationId: 'redeliverWebhookDelivery',
        summary: 'Send a delivery again',
        description:
          'GM only. Queues the delivery again, due now, with a fresh round of retries — delivered, failed or skipped alike. It keeps its id, so the consumer sees the same `webhook-id`. A GM-only event’s delivery to an endpoint that no longer includes GM-only events is not queued: the answer shows it `skipped`, with its `skippedReason`. 409 while it is being sent; 404 once retention has removed it (final longer ago than `WEBHOOK_RETENTION_DAYS`): replay its event instead.',
        params: WebhookDeliveryParams,
        response: {
          202: ref(WebhookDeliverySchema, { description: 'Queued again (or skipped, see above).' }),
          ...problems(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await redeliver(context, request.principal, request.params.webhookId, request.params.deliveryId)),
  )

  app.post(
    '/v1/campaigns/:campaignId/webhooks/:webhookId/replay',
    {
      schema: {
        tags,
        operationId: 'replayWebhookEvents',
        summary: 'Replay events since a sequence number',
        description:
          'GM only. Queues every event after `afterSeq` that the endpoint’s filters select, including events recorded while it was disabled or before it existed. Events it already had a delivery for keep their `webhook-id`, unless retention has removed that delivery: then a new one is queued, with a new `webhook-id`.',
        params: WebhookParams,
        body: ref(ReplayWebhookSchema),
        response: {
          202: ref(WebhookReplaySchema, { description: 'How many deliveries were queued.' }),
          ...problems(400, 401, 403, 404, 422),
        },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await replay(context, request.principal, request.params.webhookId, request.body)),
  )

  app.post(
    '/v1/campaigns/:campaignId/webhooks/:webhookId/test',
    {
      links: { 202: QUEUED_DELIVERY_LINKS },
      schema: {
        tags,
        operationId: 'testWebhook',
        summary: 'Send a test ping',
        description:
          'GM only. Queues a signed `webhook.ping` delivery to the endpoint, to check that it is reachable and verifies signatures. Follow its result in the deliveries list. 409 when the endpoint is disabled.',
        params: WebhookParams,
        response: {
          202: ref(WebhookDeliverySchema, { description: 'The ping delivery, queued.' }),
          ...problems(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await sendTestPing(context, request.principal, request.params.webhookId)),
  )
}

export default webhookRoutes
