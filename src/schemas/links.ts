/**
 * OpenAPI links: which ids of an answer the next call takes, so Swagger UI shows, under a
 * response, where to go from there and with what (`campaignId`, `characterId`, `eventId`,
 * `keyId`). The key itself travels in "Authorize", not in a parameter.
 */
type Link = { operationId: string; parameters?: Record<string, string>; description: string }

const campaignOf = (pointer: string) => ({ campaignId: `$response.body#${pointer}` })

export const CREATED_CAMPAIGN_LINKS: Record<string, Link> = {
  GetCampaign: {
    operationId: 'getCampaign',
    parameters: campaignOf('/campaign/id'),
    description: 'Read the campaign back. First put `gmKey.key` from this answer in "Authorize" (Bearer).',
  },
  CreateCharacter: {
    operationId: 'createCharacter',
    parameters: campaignOf('/campaign/id'),
    description: 'Add a character to the campaign, authorized with `gmKey.key` from this answer.',
  },
  MintPlayerKey: {
    operationId: 'mintPlayerKey',
    parameters: campaignOf('/campaign/id'),
    description: 'Mint a player key, authorized with `gmKey.key` from this answer.',
  },
  RevokeGmKey: {
    operationId: 'revokeKey',
    parameters: { ...campaignOf('/campaign/id'), keyId: '$response.body#/gmKey/id' },
    description: 'Revoke this GM key (say, after it leaked).',
  },
  ListEvents: {
    operationId: 'listEvents',
    parameters: campaignOf('/campaign/id'),
    description: 'Read the campaign’s history.',
  },
  CreateWebhook: {
    operationId: 'createWebhook',
    parameters: campaignOf('/campaign/id'),
    description: 'Send the campaign’s events to an endpoint of yours.',
  },
}

export const MINTED_KEY_LINKS: Record<string, Link> = {
  RevokeKey: {
    operationId: 'revokeKey',
    parameters: { campaignId: '$request.path.campaignId', keyId: '$response.body#/id' },
    description: 'Revoke the key just minted.',
  },
}

const character = {
  campaignId: '$response.body#/character/campaignId',
  characterId: '$response.body#/character/id',
}

const firstRolls = (character: Record<string, string>): Record<string, Link> => ({
  PerformStressCheck: {
    operationId: 'performStressCheck',
    parameters: character,
    description: 'A stress check on this character (a `shock-meters` campaign).',
  },
  PerformTraumaRoll: {
    operationId: 'performTraumaRoll',
    parameters: character,
    description: 'A trauma roll on this character (a `trauma-table` campaign).',
  },
  PerformReactionRoll: {
    operationId: 'performReactionRoll',
    parameters: character,
    description: 'A reaction roll on this character (a `reaction-rolls` campaign).',
  },
})

/** After a command on a character: the character, the event, its decisions, its undo. */
export const COMMAND_LINKS: Record<string, Link> = {
  GetCharacter: {
    operationId: 'getCharacter',
    parameters: character,
    description: 'Read the character (its `ETag` is the version to send as `If-Match` when editing).',
  },
  GetEvent: {
    operationId: 'getEvent',
    parameters: { campaignId: '$response.body#/event/campaignId', eventId: '$response.body#/event/id' },
    description: 'Read the event just recorded.',
  },
  SettleDecision: {
    operationId: 'settleDecision',
    parameters: { campaignId: '$response.body#/event/campaignId', eventId: '$response.body#/event/id' },
    description: 'Settle a decision the event left open (see `event.pending`).',
  },
  RevertLatestEvent: {
    operationId: 'revertLatestEvent',
    parameters: character,
    description: 'Undo this event (GM only): send `{ "eventId": <event.id> }`.',
  },
  RevealEvent: {
    operationId: 'revealEvent',
    parameters: { campaignId: '$response.body#/event/campaignId', eventId: '$response.body#/event/id' },
    description: 'Show players this event later, when it was recorded GM-only (GM only; see `event.visibility`).',
  },
}

export const CREATED_CHARACTER_LINKS: Record<string, Link> = {
  ...firstRolls(character),
  GetCharacter: COMMAND_LINKS.GetCharacter!,
  PatchCharacter: {
    operationId: 'patchCharacter',
    parameters: character,
    description: 'Edit the character’s name or sheet.',
  },
  AuditCharacter: {
    operationId: 'auditCharacter',
    parameters: character,
    description: 'Check the sheet against its history.',
  },
}

export const CHARACTER_LINKS: Record<string, Link> = {
  ...firstRolls({ campaignId: '$response.body#/campaignId', characterId: '$response.body#/id' }),
  PatchCharacter: {
    operationId: 'patchCharacter',
    parameters: {
      campaignId: '$response.body#/campaignId',
      characterId: '$response.body#/id',
      'header.if-match': '$response.header.ETag',
    },
    description: 'Edit this version of the character: a change by someone else since is refused (412).',
  },
}

export const EVENT_LINKS: Record<string, Link> = {
  SettleDecision: {
    operationId: 'settleDecision',
    parameters: { campaignId: '$response.body#/campaignId', eventId: '$response.body#/id' },
    description: 'Settle a decision this event left open (see `pending`).',
  },
  RevealEvent: {
    operationId: 'revealEvent',
    parameters: { campaignId: '$response.body#/campaignId', eventId: '$response.body#/id' },
    description: 'Show players this GM-only event (GM only; `visibility` is `gm`).',
  },
}

const webhook = { campaignId: '$response.body#/campaignId', webhookId: '$response.body#/id' }

/** After a webhook endpoint is created: check it, read it, follow its deliveries. */
export const CREATED_WEBHOOK_LINKS: Record<string, Link> = {
  TestWebhook: {
    operationId: 'testWebhook',
    parameters: webhook,
    description: 'Send the endpoint a signed test ping.',
  },
  GetWebhook: { operationId: 'getWebhook', parameters: webhook, description: 'Read the endpoint back.' },
  ListWebhookDeliveries: {
    operationId: 'listWebhookDeliveries',
    parameters: webhook,
    description: 'Follow what was sent to the endpoint, and how it answered.',
  },
}

/** After a delivery is queued (a test ping): its attempts. */
export const QUEUED_DELIVERY_LINKS: Record<string, Link> = {
  GetWebhookDelivery: {
    operationId: 'getWebhookDelivery',
    parameters: {
      campaignId: '$request.path.campaignId',
      webhookId: '$request.path.webhookId',
      deliveryId: '$response.body#/id',
    },
    description: 'Read the delivery with every attempt, once the dispatcher has tried it.',
  },
}
