// The API's shapes for the console's JSDoc: the typed client's, generated from the OpenAPI
// document (`npm run client:types`), so a field renamed in the API breaks `npm run typecheck`,
// not the table. Types only: nothing here is served or fetched.
import type {
  Character,
  components,
  Event as RecordedEvent,
  ListedEvent,
} from '../../../clients/typescript/src/index.js'

type Schemas = components['schemas']

export type { Character }
/** An event as an answer or the stream carries it, or as a history page lists it. */
export type Event = RecordedEvent | ListedEvent
export type ShockMetersCharacter = Schemas['ShockMetersCharacter']
export type TraumaTableCharacter = Schemas['TraumaTableCharacter']
export type ReactionRollsCharacter = Schemas['ReactionRollsCharacter']
export type PendingDecision = Schemas['PendingDecision']
export type FollowUp = Schemas['FollowUp']
export type WebhookEndpoint = Schemas['WebhookEndpoint']
export type CreatedWebhookEndpoint = Schemas['CreatedWebhookEndpoint']
export type WebhookDelivery = Schemas['WebhookDelivery']
export type ImportedCampaign = Schemas['ImportedCampaign']
