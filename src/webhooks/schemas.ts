import Type, { type Static } from 'typebox'
import type { WebhookAttempt, WebhookEndpoint } from '../generated/prisma/client.js'
import type { WebhookDeliveryRow } from './repository.js'
import { PageLimit, SeqCursor, Timestamp, Uuid } from '../schemas/common.js'
import { ref } from '../schemas/ref.js'
import { builtInTypesText } from '../history/event-types.js'
import { EventSchema } from '../history/event.js'

const EXAMPLE_URL = 'https://example.com/hooks/nerve'

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'Where Nerve POSTs the events: an `http://` or `https://` URL without credentials (`user:pass@` is refused: verify the signature instead) whose host resolves to public addresses only. Loopback, private, link-local and reserved addresses, and IPv6 addresses embedding one (NAT64, 6to4, Teredo, IPv4-mapped or -compatible), are refused unless the operator sets `WEBHOOK_ALLOW_PRIVATE=true`; cloud metadata addresses are refused always. Redirects are not followed.',
})

const Description = Type.String({ maxLength: 500, description: 'What the endpoint is for, e.g. "Discord bot".' })

const EventTypes = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  maxItems: 50,
  uniqueItems: true,
  description: `Only these event types are sent (action names such as \`stress-check\`, or ${builtInTypesText((entry) => entry.subscribable)}). Empty: every type.`,
})

const IncludeGmEvents = Type.Boolean({
  description: 'Also send GM-only events (`visibility: gm`). Off by default, so a player-facing bot never sees them.',
})

export const WebhookEndpointSchema = Type.Object(
  {
    id: Uuid('Endpoint id.'),
    campaignId: Uuid('The campaign whose events it receives.'),
    url: Url,
    description: Type.Union([Description, Type.Null()]),
    eventTypes: EventTypes,
    includeGmEvents: IncludeGmEvents,
    enabled: Type.Boolean({
      description: 'Disabled endpoints receive nothing; their queued deliveries wait until they are enabled again.',
    }),
    disabledReason: Type.Union([Type.String(), Type.Null()], {
      description:
        'Why it was disabled: by the GM, because it answered 410 Gone, or because it kept failing for too long.',
    }),
    failingSince: Type.Union([Timestamp('First failure since its last success.'), Type.Null()]),
    pausedUntil: Type.Union(
      [Timestamp('After failing, the endpoint backs off: nothing is sent to it before this time.'), Type.Null()],
      { description: 'Null when it is not backing off.' },
    ),
    previousSecretExpiresAt: Type.Union([
      Timestamp('Until then every delivery is also signed with the secret before the last rotation.'),
      Type.Null(),
    ]),
    createdAt: Timestamp('When the endpoint was created.'),
    updatedAt: Timestamp('When it was last changed.'),
  },
  { $id: 'WebhookEndpoint', additionalProperties: false },
)

export const CreatedWebhookEndpointSchema = Type.Object(
  {
    ...WebhookEndpointSchema.properties,
    secret: Type.String({
      description:
        'The signing secret (`whsec_…`, Standard Webhooks format). **Shown only this once**: give it to your verifier now.',
    }),
  },
  { $id: 'CreatedWebhookEndpoint', additionalProperties: false },
)

export const CreateWebhookEndpointSchema = Type.Object(
  {
    url: Url,
    description: Type.Optional(Description),
    eventTypes: Type.Optional(EventTypes),
    includeGmEvents: Type.Optional(IncludeGmEvents),
  },
  {
    $id: 'CreateWebhookEndpoint',
    additionalProperties: false,
    examples: [{ url: EXAMPLE_URL, description: 'Discord bot', eventTypes: ['stress-check'], includeGmEvents: false }],
  },
)
export type CreateWebhookEndpoint = Static<typeof CreateWebhookEndpointSchema>

export const UpdateWebhookEndpointSchema = Type.Object(
  {
    url: Type.Optional(Url),
    description: Type.Optional(Type.Union([Description, Type.Null()])),
    eventTypes: Type.Optional(EventTypes),
    includeGmEvents: Type.Optional(IncludeGmEvents),
  },
  {
    $id: 'UpdateWebhookEndpoint',
    additionalProperties: false,
    minProperties: 1,
    examples: [{ eventTypes: [], includeGmEvents: true }],
  },
)
export type UpdateWebhookEndpoint = Static<typeof UpdateWebhookEndpointSchema>

export const WebhookEndpointListSchema = Type.Object(
  { data: Type.Array(ref(WebhookEndpointSchema)) },
  { $id: 'WebhookEndpointList', additionalProperties: false },
)

/** A rotation keeps the old secret signing for a day unless asked otherwise, so consumers are not cut off mid-switch. */
export const DEFAULT_GRACE_PERIOD_SECONDS = 24 * 60 * 60

export const RotateWebhookSecretSchema = Type.Object(
  {
    gracePeriodSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 7 * 24 * 60 * 60,
        default: DEFAULT_GRACE_PERIOD_SECONDS,
        description:
          'How long deliveries stay signed with the old secret too (default 24 h, at most 7 days; 0 ends it at once).',
      }),
    ),
  },
  { $id: 'RotateWebhookSecret', additionalProperties: false, examples: [{ gracePeriodSeconds: 3600 }] },
)
export type RotateWebhookSecret = Static<typeof RotateWebhookSecretSchema>

const DeliveryStatusSchema = Type.Union(
  [
    Type.Literal('pending'),
    Type.Literal('delivering'),
    Type.Literal('delivered'),
    Type.Literal('failed'),
    Type.Literal('skipped'),
  ],
  {
    description:
      '`pending`: queued or waiting for its next retry; `delivering`: being sent; `delivered`: the endpoint answered 2xx; `failed`: every retry was used up; `skipped`: never sent, and never will be — `skippedReason` says why (a GM-only event, and the endpoint stopped including GM-only events after it was queued).',
  },
)

export const WebhookAttemptSchema = Type.Object(
  {
    id: Uuid('Attempt id.'),
    attemptedAt: Timestamp('When the request was sent.'),
    statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'The HTTP status; null when none came.' }),
    latencyMs: Type.Integer({ description: 'How long the endpoint took to answer, in milliseconds.' }),
    error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the attempt failed: a non-2xx status, a timeout, a refused connection, a redirect…',
    }),
    responseExcerpt: Type.Union([Type.String(), Type.Null()], {
      description: 'The start of the response body.',
    }),
  },
  { $id: 'WebhookAttempt', additionalProperties: false },
)

export const WebhookDeliverySchema = Type.Object(
  {
    id: Uuid(
      'Delivery id, sent as the `webhook-id` header: the same for one event and endpoint on every retry, redelivery and replay, so consumers de-duplicate by it.',
    ),
    endpointId: Uuid('The endpoint.'),
    eventId: Type.Union([Uuid('The event delivered.'), Type.Null()], { description: 'Null for a test ping.' }),
    eventSeq: Type.Union([Type.Integer(), Type.Null()], { description: 'The event’s `seq`; null for a test ping.' }),
    eventType: Type.String({ description: 'The event’s type, or `webhook.ping`.' }),
    status: DeliveryStatusSchema,
    attemptCount: Type.Integer({
      description: 'Attempts in the current round; a redelivery or replay starts a new round.',
    }),
    nextAttemptAt: Type.Union([Timestamp('When the next attempt is due.'), Type.Null()], {
      description: 'Null once delivered, failed or skipped.',
    }),
    deliveredAt: Type.Union([Timestamp('When the endpoint accepted it.'), Type.Null()]),
    skippedReason: Type.Union([Type.String(), Type.Null()], {
      description: 'Why a `skipped` delivery was not sent; null for every other status.',
    }),
    createdAt: Timestamp('When the delivery was queued.'),
    attempts: Type.Array(ref(WebhookAttemptSchema), { description: 'Every attempt, oldest first.' }),
  },
  { $id: 'WebhookDelivery', additionalProperties: false },
)

export const WebhookDeliveryListSchema = Type.Object(
  {
    data: Type.Array(ref(WebhookDeliverySchema)),
    hasMore: Type.Boolean({ description: 'True when another page follows.' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `after` to get the next page.' }),
  },
  { $id: 'WebhookDeliveryList', additionalProperties: false },
)

export const WebhookDeliveryListQuery = Type.Object({
  status: Type.Optional(DeliveryStatusSchema),
  after: Type.Optional(Uuid('Cursor: the `nextCursor` of the previous page.')),
  limit: PageLimit,
})

export const ReplayWebhookSchema = Type.Object(
  {
    afterSeq: SeqCursor(
      'Replay every event with a greater `seq` (0: the whole history) that the endpoint’s filters select — typically the last `seq` your consumer processed.',
    ),
  },
  { $id: 'ReplayWebhook', additionalProperties: false, examples: [{ afterSeq: 0 }] },
)
export type ReplayWebhook = Static<typeof ReplayWebhookSchema>

export const WebhookReplaySchema = Type.Object(
  {
    queued: Type.Integer({ description: 'Deliveries queued (again).' }),
  },
  { $id: 'WebhookReplay', additionalProperties: false },
)

/** The `data` of a test delivery (`webhook.ping`). */
const PingDataSchema = Type.Object(
  {
    endpointId: Uuid('The endpoint tested.'),
    campaignId: Uuid('Its campaign.'),
    message: Type.String(),
  },
  { additionalProperties: false },
)

export const WebhookPayloadSchema = Type.Object(
  {
    type: Type.String({ description: 'The event’s type (`stress-check`, `character.created`…), or `webhook.ping`.' }),
    timestamp: Timestamp('When the event occurred.'),
    data: Type.Union([ref(EventSchema), PingDataSchema], {
      description:
        'The event, exactly as `GET …/events/{eventId}` shows it (`Event`; as players see it unless the endpoint takes GM-only events), or for `webhook.ping` what the test delivery is for.',
    }),
  },
  {
    $id: 'WebhookPayload',
    additionalProperties: false,
    description:
      'The JSON body of every webhook POST, with the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`; several space-separated during a secret rotation).',
  },
)

export const WebhookParams = Type.Object({
  campaignId: Uuid('The campaign.'),
  webhookId: Uuid('The webhook endpoint.'),
})

export const WebhookDeliveryParams = Type.Object({
  campaignId: Uuid('The campaign.'),
  webhookId: Uuid('The webhook endpoint.'),
  deliveryId: Uuid('The delivery.'),
})

/** What the API shows of endpoints, deliveries and their attempts: never a secret. */
export function endpointView(endpoint: WebhookEndpoint, now = new Date()) {
  return {
    id: endpoint.id,
    campaignId: endpoint.campaignId,
    url: endpoint.url,
    description: endpoint.description,
    eventTypes: endpoint.eventTypes,
    includeGmEvents: endpoint.includeGmEvents,
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    failingSince: endpoint.failingSince?.toISOString() ?? null,
    pausedUntil: endpoint.pausedUntil && endpoint.pausedUntil > now ? endpoint.pausedUntil.toISOString() : null,
    previousSecretExpiresAt:
      endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now
        ? endpoint.previousSecretExpiresAt.toISOString()
        : null,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  }
}

function attemptView(attempt: WebhookAttempt) {
  return {
    id: attempt.id,
    attemptedAt: attempt.attemptedAt.toISOString(),
    statusCode: attempt.statusCode,
    latencyMs: attempt.latencyMs,
    error: attempt.error,
    responseExcerpt: attempt.responseExcerpt,
  }
}

export function deliveryView(delivery: WebhookDeliveryRow) {
  const open = delivery.status === 'pending' || delivery.status === 'delivering'
  return {
    id: delivery.id,
    endpointId: delivery.endpointId,
    eventId: delivery.eventId,
    eventSeq: delivery.eventSeq === null ? null : Number(delivery.eventSeq),
    eventType: delivery.eventType,
    status: delivery.status as Static<typeof DeliveryStatusSchema>,
    attemptCount: delivery.attemptCount,
    nextAttemptAt: open ? delivery.nextAttemptAt.toISOString() : null,
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
    skippedReason: delivery.status === 'skipped' ? delivery.skippedReason : null,
    createdAt: delivery.createdAt.toISOString(),
    attempts: delivery.attempts.map(attemptView),
  }
}
