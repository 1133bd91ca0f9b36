import type { TSchema } from 'typebox'
import { DiceRequestSchema, DieRollSchema } from '../rules/dice.js'
import { RULE_SETS } from '../rules/index.js'
import {
  ArchiveCampaignSchema,
  ArchiveCharacterSchema,
  ArchiveEndSchema,
  ArchiveEventSchema,
  ArchiveHeaderSchema,
  ArchiveLineSchema,
  ArchiveWebhookSchema,
  ImportedCampaignSchema,
} from '../history/archive.js'
import { AuditReportSchema } from './audit.js'
import {
  ApiKeyListSchema,
  ApiKeySchema,
  CampaignSchema,
  CreateCampaignSchema,
  CreatedCampaignSchema,
  MintedKeySchema,
  MintKeySchema,
  UpdateCampaignSchema,
} from './campaigns.js'
import { CharacterListSchema, CharacterSchema, CreateCharacterSchema, PatchCharacterSchema } from './characters.js'
import {
  CommandResultSchema,
  EventListSchema,
  EventSchema,
  ListedEventSchema,
  StreamEndSchema,
  StreamTicketSchema,
} from '../history/event.js'
import { LivenessSchema, ReadinessSchema } from './health.js'
import { ProblemSchema } from './problem.js'
import { FollowUpSchema, oddsSchema, PendingDecisionSchema } from './resolution.js'
import { RuleSetActionSchema, RuleSetDetailSchema, RuleSetListSchema, RuleSetSummarySchema } from './rulesets.js'
import { sheetInputSchema, sheetSchema } from './sheets.js'
import {
  CreatedWebhookEndpointSchema,
  CreateWebhookEndpointSchema,
  ReplayWebhookSchema,
  RotateWebhookSecretSchema,
  UpdateWebhookEndpointSchema,
  WebhookAttemptSchema,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookPayloadSchema,
  WebhookReplaySchema,
} from '../webhooks/schemas.js'

const RULE_SET_SCHEMAS: TSchema[] = RULE_SETS.flatMap((ruleSet) => [
  sheetSchema(ruleSet.sheet),
  sheetInputSchema(ruleSet.sheet),
  ruleSet.settings,
  ...ruleSet.actions.flatMap((action) => [
    action.request,
    action.outcome,
    ...(action.odds ? [oddsSchema(ruleSet, action)] : []),
  ]),
])

/** Schemas registered once with `app.addSchema`: routes refer to them and OpenAPI names them by `$id`. */
export const SHARED_SCHEMAS: TSchema[] = uniqueById([
  ProblemSchema,
  LivenessSchema,
  ReadinessSchema,
  DiceRequestSchema,
  DieRollSchema,
  PendingDecisionSchema,
  FollowUpSchema,
  RuleSetActionSchema,
  RuleSetSummarySchema,
  RuleSetListSchema,
  RuleSetDetailSchema,
  ...RULE_SET_SCHEMAS,
  CampaignSchema,
  CreateCampaignSchema,
  UpdateCampaignSchema,
  ApiKeySchema,
  MintedKeySchema,
  CreatedCampaignSchema,
  MintKeySchema,
  ApiKeyListSchema,
  CharacterSchema,
  CreateCharacterSchema,
  PatchCharacterSchema,
  CharacterListSchema,
  EventSchema,
  ListedEventSchema,
  EventListSchema,
  CommandResultSchema,
  StreamTicketSchema,
  AuditReportSchema,
  WebhookEndpointSchema,
  CreatedWebhookEndpointSchema,
  CreateWebhookEndpointSchema,
  UpdateWebhookEndpointSchema,
  WebhookEndpointListSchema,
  RotateWebhookSecretSchema,
  WebhookAttemptSchema,
  WebhookDeliverySchema,
  WebhookDeliveryListSchema,
  ReplayWebhookSchema,
  WebhookReplaySchema,
  WebhookPayloadSchema,
  ArchiveHeaderSchema,
  ArchiveCampaignSchema,
  ArchiveCharacterSchema,
  ArchiveEventSchema,
  ArchiveWebhookSchema,
  ArchiveEndSchema,
  ArchiveLineSchema,
  ImportedCampaignSchema,
  StreamEndSchema,
])

/** Actions may share a schema (two passion actions, one outcome); each is registered once. */
function uniqueById(schemas: TSchema[]): TSchema[] {
  return [...new Map(schemas.map((schema) => [(schema as { $id?: string }).$id, schema])).values()]
}
