/** Where each resource lives: the `Location` a 201 gives for what it created. */
export const campaignUrl = (campaignId: string) => `/v1/campaigns/${campaignId}`
export const keyUrl = (campaignId: string, keyId: string) => `${campaignUrl(campaignId)}/keys/${keyId}`
export const characterUrl = (campaignId: string, characterId: string) =>
  `${campaignUrl(campaignId)}/characters/${characterId}`
export const eventUrl = (campaignId: string, eventId: string) => `${campaignUrl(campaignId)}/events/${eventId}`
export const webhookUrl = (campaignId: string, endpointId: string) =>
  `${campaignUrl(campaignId)}/webhooks/${endpointId}`
