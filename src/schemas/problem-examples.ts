import type { Problem } from './problem.js'

const REQUEST_ID = '0193b5c2-7d4e-7a51-9c3f-2e8d6b1a4f70'
const CAMPAIGN = '0193b5c2-6f10-7c2e-8a4b-5d9e3f1c2b80'
const CHARACTER = '0193b5c2-7a31-7d4f-9b2e-6c1a0e5f3d92'
const EVENT = '0193b5c3-0b12-7e5a-8c4d-1f2a3b4c5d6e'
const LATEST_EVENT = '0193b5c3-2c40-7b81-9d5e-6f7a8b9c0d1e'
const WEBHOOK = '0193b5c2-9e21-7f3a-b6c8-4d2e1a0f9b73'
const DELIVERY = '0193b5c3-4a55-7c9d-8e1f-2a3b4c5d6e7f'
const KEY = '0193b5c2-8c72-7a1b-9f4e-3b5d7c9e1a24'

const CAMPAIGN_URL = `/v1/campaigns/${CAMPAIGN}`
const CHARACTER_URL = `${CAMPAIGN_URL}/characters/${CHARACTER}`
const WEBHOOK_URL = `${CAMPAIGN_URL}/webhooks/${WEBHOOK}`

type Example = { summary: string; value: Problem }

function example(summary: string, value: Omit<Problem, 'requestId'>): Example {
  return { summary, value: { ...value, requestId: REQUEST_ID } }
}

const validation = (instance: string, status: 400 | 422, pointer: string, detail: string) => ({
  type: 'urn:nerve:problem:validation-failed',
  title: 'Request validation failed',
  status,
  detail: `${pointer} ${detail}`,
  instance,
  code: 'VALIDATION_FAILED',
  errors: [{ pointer, detail }],
})

const notFound = (what: string, instance: string) => ({
  type: 'urn:nerve:problem:not-found',
  title: 'Not Found',
  status: 404,
  detail: `${what} not found`,
  instance,
  code: 'NOT_FOUND',
})

const conflict = (detail: string, instance: string, code = 'CONFLICT') => ({
  type: `urn:nerve:problem:${code.toLowerCase().replace(/_/g, '-')}`,
  title: code === 'CONFLICT' ? 'Conflict' : 'The sheet does not allow this now',
  status: 409,
  detail,
  instance,
  code,
})

const unauthorized = (detail: string, instance: string) => ({
  type: 'urn:nerve:problem:unauthorized',
  title: 'Unauthorized',
  status: 401,
  detail,
  instance,
  code: 'UNAUTHORIZED',
})

const forbidden = (detail: string, instance: string) => ({
  type: 'urn:nerve:problem:forbidden',
  title: 'Forbidden',
  status: 403,
  detail,
  instance,
  code: 'FORBIDDEN',
})

const badId = (name: string, instance: string) =>
  example(`\`${name}\` is not a UUID`, validation(instance, 400, `/params/${name}`, 'must match format "uuid"'))

/**
 * One realistic problem per thing that can go wrong, each exactly as the server words it (the
 * request id and ids aside). The OpenAPI document holds each once, under
 * `components.examples`; every error response of every operation refers to the ones it can meet.
 */
export const PROBLEM_EXAMPLES = {
  InvalidJson: example('The body is not valid JSON', {
    type: 'about:blank',
    title: 'Bad Request',
    status: 400,
    detail: "Body is not valid JSON but content-type is set to 'application/json'",
    instance: '/v1/campaigns',
    code: 'FST_ERR_CTP_INVALID_JSON_BODY',
  }),
  BadCampaignId: badId('campaignId', '/v1/campaigns/not-a-campaign-id'),
  BadCharacterId: badId('characterId', `${CAMPAIGN_URL}/characters/not-a-character-id`),
  BadEventId: badId('eventId', `${CAMPAIGN_URL}/events/not-an-event-id`),
  BadKeyId: badId('keyId', `${CAMPAIGN_URL}/keys/not-a-key-id`),
  BadWebhookId: badId('webhookId', `${CAMPAIGN_URL}/webhooks/not-a-webhook-id`),
  BadDeliveryId: badId('deliveryId', `${WEBHOOK_URL}/deliveries/not-a-delivery-id`),
  MissingKey: example(
    'No Authorization header',
    unauthorized('this route needs a campaign key: Authorization: Bearer <key>', CAMPAIGN_URL),
  ),
  UnknownKey: example(
    'A revoked or mistyped key',
    unauthorized('the key is unknown or has been revoked', CAMPAIGN_URL),
  ),
  AdminTokenRequired: example(
    'ADMIN_TOKEN is set and was not sent',
    unauthorized('creating a campaign needs the admin token: Authorization: Bearer <ADMIN_TOKEN>', '/v1/campaigns'),
  ),
  GmOnly: example(
    'A player key asked for a GM action',
    forbidden('only the GM key may do this', `${CAMPAIGN_URL}/keys`),
  ),
  NotYourCharacter: example(
    'A player key acting for another player’s character',
    forbidden(`this player key does not act for character ${CHARACTER}`, `${CHARACTER_URL}/stress-check`),
  ),
  CampaignNotFound: example(
    'No such campaign, or not the campaign of this key',
    notFound(`campaign ${CAMPAIGN}`, CAMPAIGN_URL),
  ),
  CharacterNotFound: example('No such character in this campaign', notFound(`character ${CHARACTER}`, CHARACTER_URL)),
  EventNotFound: example(
    'No such event in this campaign',
    notFound(`event ${EVENT}`, `${CAMPAIGN_URL}/events/${EVENT}`),
  ),
  KeyNotFound: example('No such key in this campaign', notFound(`key ${KEY}`, `${CAMPAIGN_URL}/keys/${KEY}`)),
  WebhookNotFound: example('No such webhook in this campaign', notFound(`webhook ${WEBHOOK}`, WEBHOOK_URL)),
  DeliveryNotFound: example(
    'No such delivery of this webhook',
    notFound(`delivery ${DELIVERY}`, `${WEBHOOK_URL}/deliveries/${DELIVERY}`),
  ),
  RuleSetNotFound: example('No rule set has that id', {
    type: 'urn:nerve:problem:not-found',
    title: 'Not Found',
    status: 404,
    detail: 'no rule set "shock-meter"; known: shock-meters, trauma-table, reaction-rolls',
    instance: '/v1/rulesets/shock-meter',
    code: 'NOT_FOUND',
  }),
  DecisionPending: example(
    'A decision of an earlier roll waits',
    conflict(
      'the character is stressed and has not chosen a response yet: settle it with stress-response first',
      `${CHARACTER_URL}/stress-check`,
      'RESPONSE_PENDING',
    ),
  ),
  CharacterArchived: example(
    'The character is archived',
    conflict(`character ${CHARACTER} is archived`, `${CHARACTER_URL}/stress-check`),
  ),
  IdempotencyInFlight: example(
    'The same Idempotency-Key is still being processed',
    conflict(
      'a request with this Idempotency-Key is still being processed; retry shortly',
      `${CHARACTER_URL}/stress-check`,
    ),
  ),
  SettingsDoNotFit: example(
    'A sheet exceeds the new settings',
    conflict(
      `Vera Okafor (${CHARACTER}) does not fit the new settings: anger is at stage 4, above this campaign's top stage 3. Edit the sheet first.`,
      CAMPAIGN_URL,
    ),
  ),
  NotLatestEvent: example(
    'Only the latest event can be reverted',
    conflict(
      `only the character's latest event can be reverted (that is event ${LATEST_EVENT}, #12)`,
      `${CHARACTER_URL}/revert`,
    ),
  ),
  DecisionSettled: example(
    'The decision was already settled',
    conflict(`event ${EVENT} was already settled by event ${LATEST_EVENT}`, `${CAMPAIGN_URL}/events/${EVENT}/decision`),
  ),
  NoDecisionPending: example(
    'The event leaves nothing to decide',
    conflict(`event ${EVENT} has no decision pending`, `${CAMPAIGN_URL}/events/${EVENT}/decision`),
  ),
  DeliveryInFlight: example(
    'The delivery is being sent',
    conflict(
      `delivery ${DELIVERY} is being sent right now; try again once it has settled`,
      `${WEBHOOK_URL}/deliveries/${DELIVERY}/redeliver`,
    ),
  ),
  WebhookDisabled: example(
    'The webhook is disabled',
    conflict(`webhook ${WEBHOOK} is disabled; enable it before testing it`, `${WEBHOOK_URL}/test`),
  ),
  StaleVersion: example('Someone changed the character since it was read', {
    type: 'urn:nerve:problem:precondition-failed',
    title: 'Precondition Failed',
    status: 412,
    detail: 'the character is at version 4, not 3: fetch it again and reapply the edit',
    instance: CHARACTER_URL,
    code: 'PRECONDITION_FAILED',
  }),
  BodyTooLarge: example('The body is over BODY_LIMIT_BYTES', {
    type: 'about:blank',
    title: 'Payload Too Large',
    status: 413,
    detail: 'Request body is too large',
    instance: '/v1/campaigns',
    code: 'FST_ERR_CTP_BODY_TOO_LARGE',
  }),
  NotJson: example('The body was sent as text/plain', {
    type: 'about:blank',
    title: 'Unsupported Media Type',
    status: 415,
    detail: 'Send the body as application/json, not text/plain.',
    instance: '/v1/campaigns',
    code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  }),
  UnknownField: example(
    'A field the schema does not know',
    validation('/v1/campaigns', 422, '/body/colour', 'is not a known field'),
  ),
  UnknownRuleSet: example(
    'A rule set Nerve does not know',
    validation(
      '/v1/campaigns',
      422,
      '/body/ruleset',
      'must be one of shock-meters, trauma-table, reaction-rolls (did you mean shock-meters?)',
    ),
  ),
  EmptyName: example(
    'An empty name',
    validation(CAMPAIGN_URL, 422, '/body/name', 'must NOT have fewer than 1 characters'),
  ),
  MissingRequest: example(
    'No `request` in the body',
    validation(`${CHARACTER_URL}/stress-check`, 422, '/body/request', 'is required'),
  ),
  RankTooHigh: example(
    'A rank above 10',
    validation(`${CHARACTER_URL}/stress-check`, 422, '/body/request/rank', 'must be <= 10'),
  ),
  IdempotencyKeyReused: example('The same Idempotency-Key with another body', {
    type: 'urn:nerve:problem:unprocessable',
    title: 'Unprocessable Entity',
    status: 422,
    detail: 'this Idempotency-Key was already used with a different request',
    instance: `${CHARACTER_URL}/stress-check`,
    code: 'UNPROCESSABLE',
  }),
  CharacterNotInCampaign: example('A key bound to a character of another campaign', {
    type: 'urn:nerve:problem:invalid-field',
    title: 'Request validation failed',
    status: 422,
    detail: `/body/characterIds/0 character ${CHARACTER} is not in this campaign`,
    instance: `${CAMPAIGN_URL}/keys`,
    code: 'INVALID_FIELD',
    errors: [{ pointer: '/body/characterIds/0', detail: `character ${CHARACTER} is not in this campaign` }],
  }),
  WebhookUrlNotHttp: example('A webhook URL that is not http(s)', {
    type: 'urn:nerve:problem:invalid-field',
    title: 'Request validation failed',
    status: 422,
    detail: '/body/url the URL must be an http:// or https:// URL',
    instance: `${CAMPAIGN_URL}/webhooks`,
    code: 'INVALID_FIELD',
    errors: [{ pointer: '/body/url', detail: 'the URL must be an http:// or https:// URL' }],
  }),
  ArchiveDoesNotReplay: example('An archived event does not replay', {
    type: 'urn:nerve:problem:archive-does-not-replay',
    title: 'The archive cannot be imported',
    status: 422,
    detail: 'line 57 (seq 54): re-resolving the roll with its recorded dice gives a different outcome',
    instance: '/v1/campaigns/import',
    code: 'ARCHIVE_DOES_NOT_REPLAY',
    line: 57,
    seq: 54,
  }),
  ArchiveTruncated: example('The archive was cut short', {
    type: 'urn:nerve:problem:archive-truncated',
    title: 'The archive cannot be imported',
    status: 422,
    detail: 'line 1204 (seq 1201): the archive stops after line 1203, where the event line was due: it is incomplete',
    instance: '/v1/campaigns/import',
    code: 'ARCHIVE_TRUNCATED',
    line: 1204,
    seq: 1201,
  }),
  RateLimited: example('Over the rate limit', {
    type: 'urn:nerve:problem:rate-limited',
    title: 'Too Many Requests',
    status: 429,
    detail: 'rate limit of 1200 requests per 1 minute reached; retry in 42 s',
    instance: `${CHARACTER_URL}/stress-check`,
    code: 'RATE_LIMITED',
  }),
  Overloaded: example('The server sheds load', {
    type: 'about:blank',
    title: 'Service Unavailable',
    status: 503,
    detail: 'the service is overloaded (its event loop is lagging); retry in 10 s',
    instance: `${CHARACTER_URL}/stress-check`,
    code: 'SERVICE_UNAVAILABLE',
  }),
  DatabaseUnreachable: example('The readiness probe cannot reach the database', {
    type: 'about:blank',
    title: 'Service Unavailable',
    status: 503,
    detail: 'the database is unreachable',
    instance: '/health/ready',
    code: 'SERVICE_UNAVAILABLE',
  }),
  DatabaseUnavailable: example('The database cannot be reached', {
    type: 'about:blank',
    title: 'Service Unavailable',
    status: 503,
    detail: 'The database is unavailable right now; retry shortly.',
    instance: `${CHARACTER_URL}/stress-check`,
    code: 'DATABASE_UNAVAILABLE',
  }),
} satisfies Record<string, Example>

export type ProblemExampleName = keyof typeof PROBLEM_EXAMPLES

const BAD_ID: Record<string, ProblemExampleName> = {
  campaignId: 'BadCampaignId',
  characterId: 'BadCharacterId',
  eventId: 'BadEventId',
  keyId: 'BadKeyId',
  webhookId: 'BadWebhookId',
  deliveryId: 'BadDeliveryId',
}

const NOT_FOUND: Record<string, ProblemExampleName> = {
  campaignId: 'CampaignNotFound',
  characterId: 'CharacterNotFound',
  eventId: 'EventNotFound',
  keyId: 'KeyNotFound',
  webhookId: 'WebhookNotFound',
  deliveryId: 'DeliveryNotFound',
  ruleset: 'RuleSetNotFound',
}

/** Conflicts particular to one operation; commands on a character meet those of `perform…`. */
const CONFLICTS: Record<string, ProblemExampleName[]> = {
  updateCampaign: ['SettingsDoNotFit'],
  patchCharacter: ['CharacterArchived'],
  archiveCharacter: ['CharacterArchived'],
  revertLatestEvent: ['NotLatestEvent'],
  settleDecision: ['NoDecisionPending', 'DecisionSettled'],
  redeliverWebhookDelivery: ['DeliveryInFlight'],
  testWebhook: ['WebhookDisabled'],
}

const UNPROCESSABLE: Record<string, ProblemExampleName[]> = {
  createCampaign: ['UnknownRuleSet', 'UnknownField'],
  updateCampaign: ['EmptyName', 'UnknownField'],
  mintPlayerKey: ['CharacterNotInCampaign'],
  createWebhook: ['WebhookUrlNotHttp'],
  updateWebhook: ['WebhookUrlNotHttp'],
  performStressCheck: ['RankTooHigh'],
  resolveStressCheck: ['RankTooHigh'],
  oddsOfStressCheck: ['RankTooHigh'],
  resolveStressCheckOdds: ['RankTooHigh'],
  // No body: only its Idempotency-Key can be refused.
  revealEvent: [],
}

export interface ProblemRoute {
  url: string
  operationId: string
  access?: string
  hasBody: boolean
  idempotent: boolean
}

/** The examples of the problems an operation may answer with `status`, as it meets them. */
export function problemExamplesFor(route: ProblemRoute, status: number): ProblemExampleName[] {
  const params = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]!)
  const innermost = params.at(-1)
  // The odds of a roll are refused as the roll is: on a stored character (`oddsOf…`) or not (`resolve…Odds`).
  const stored = route.operationId.startsWith('perform') || route.operationId.startsWith('oddsOf')
  const command = stored || route.operationId.startsWith('resolve')
  switch (status) {
    case 400: {
      const names: ProblemExampleName[] = route.hasBody ? ['InvalidJson'] : []
      const bad = innermost === undefined ? undefined : BAD_ID[innermost]
      return bad ? [...names, bad] : names
    }
    case 401:
      return route.access === 'admin' ? ['AdminTokenRequired'] : ['MissingKey', 'UnknownKey']
    case 403:
      return route.access === 'gm' ? ['GmOnly'] : ['NotYourCharacter']
    case 404:
      return [...params]
        .reverse()
        .map((name) => NOT_FOUND[name])
        .filter((name) => name !== undefined)
    case 409: {
      const names = CONFLICTS[route.operationId] ?? (command ? ['DecisionPending'] : [])
      const archived = stored ? (['CharacterArchived'] as const) : []
      return [...names, ...archived, ...(route.idempotent ? (['IdempotencyInFlight'] as const) : [])]
    }
    case 412:
      return ['StaleVersion']
    case 413:
      return ['BodyTooLarge']
    case 415:
      return ['NotJson']
    case 422: {
      const names = UNPROCESSABLE[route.operationId] ?? (command ? ['MissingRequest'] : ['UnknownField'])
      return route.idempotent ? [...names, 'IdempotencyKeyReused'] : names
    }
    case 429:
      return ['RateLimited']
    case 503:
      return route.operationId === 'getReadiness'
        ? ['DatabaseUnreachable', 'Overloaded']
        : ['Overloaded', 'DatabaseUnavailable']
    default:
      return []
  }
}
