import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import {
  ApiKeyListSchema,
  ApiKeySchema,
  CampaignSchema,
  CreateCampaignSchema,
  CreatedCampaignSchema,
  MintedKeySchema,
  MintKeySchema,
  UpdateCampaignSchema,
} from '../../schemas/campaigns.js'
import { CampaignParams, Uuid } from '../../schemas/common.js'
import { CREATED_CAMPAIGN_LINKS, MINTED_KEY_LINKS } from '../../schemas/links.js'
import { created, problems, ref } from '../../schemas/ref.js'
import {
  createCampaign,
  deleteCampaign,
  getCampaign,
  listKeys,
  mintPlayerKey,
  revokeKey,
  updateCampaign,
} from '../../services/campaigns.js'
import { campaignUrl, keyUrl } from '../locations.js'
import { routeAccess } from '../../plugins/app/route-access.js'

const campaignRoutes: FastifyPluginAsyncTypebox = async (app) => {
  routeAccess(app, 'gm')
  const context = { store: app.store, feed: app.eventFeed, metrics: app.metrics }
  app.post(
    '/v1/campaigns',
    {
      links: { 201: CREATED_CAMPAIGN_LINKS },
      config: { access: 'admin' },
      schema: {
        tags: ['Campaigns'],
        operationId: 'createCampaign',
        summary: 'Create a campaign',
        description:
          'Creates a campaign of one rule set and returns it with its GM key. **The key is shown only this once**: copy it, then use "Authorize" with it. No credentials are needed unless the operator set `ADMIN_TOKEN`; then send that admin token as the bearer token here (not a campaign key), or get 401.',
        body: ref(CreateCampaignSchema),
        response: {
          201: created(CreatedCampaignSchema, 'The campaign and its GM key (shown once).', 'the campaign'),
          ...problems(400, 401, 422),
        },
      },
    },
    async (request, reply) => {
      const result = await createCampaign(app.store, request.body)
      return reply.code(201).header('location', campaignUrl(result.campaign.id)).send(result)
    },
  )

  app.get(
    '/v1/campaigns/:campaignId',
    {
      config: { access: 'member' },
      schema: {
        tags: ['Campaigns'],
        operationId: 'getCampaign',
        summary: 'Get the campaign',
        description: 'The campaign this key belongs to: name, rule set, settings and how many events it has.',
        params: CampaignParams,
        response: { 200: ref(CampaignSchema, { description: 'The campaign.' }), ...problems(401, 404) },
      },
    },
    async (request) => getCampaign(app.store, request.params.campaignId),
  )

  app.patch(
    '/v1/campaigns/:campaignId',
    {
      schema: {
        tags: ['Campaigns'],
        operationId: 'updateCampaign',
        summary: 'Rename the campaign or change its settings',
        description:
          'GM only. Settings are validated against the rule set’s settings schema; anything left out takes its default. Settings that a character’s sheet already exceeds (say, a top stage below an emotion’s current stage) are refused with 409: edit the sheet first. A change is recorded as a `campaign.updated` event (public; webhooks may subscribe to it); a request that changes nothing records nothing.',
        params: CampaignParams,
        body: ref(UpdateCampaignSchema),
        response: {
          200: ref(CampaignSchema, { description: 'The campaign as it now is.' }),
          ...problems(401, 403, 404, 409, 422),
        },
      },
    },
    async (request) => updateCampaign(context, request.principal, request.body),
  )

  app.delete(
    '/v1/campaigns/:campaignId',
    {
      schema: {
        tags: ['Campaigns'],
        operationId: 'deleteCampaign',
        summary: 'Close the campaign',
        description:
          'GM only. The campaign and every key of it stop answering (404 / 401), and its open event streams end within a second. Its append-only history is kept in the database.',
        params: CampaignParams,
        response: { 204: Type.Null({ description: 'Closed.' }), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await deleteCampaign(context, request.params.campaignId)
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/v1/campaigns/:campaignId/keys',
    {
      schema: {
        tags: ['Keys'],
        operationId: 'listKeys',
        summary: 'List the campaign’s keys',
        description:
          'GM only. Every key with its prefix, role, characters and whether it is revoked. Secrets are never shown again.',
        params: CampaignParams,
        response: {
          200: ref(ApiKeyListSchema, { description: 'Every key of the campaign, without secrets.' }),
          ...problems(401, 403, 404),
        },
      },
    },
    async (request) => listKeys(app.store, request.params.campaignId),
  )

  app.post(
    '/v1/campaigns/:campaignId/keys',
    {
      links: { 201: MINTED_KEY_LINKS },
      schema: {
        tags: ['Keys'],
        operationId: 'mintPlayerKey',
        summary: 'Mint a player key',
        description:
          'GM only. A player key reads the campaign’s public data and acts for the characters it is bound to. **The key is shown only this once.**',
        params: CampaignParams,
        body: ref(MintKeySchema),
        response: {
          201: created(MintedKeySchema, 'The key, shown this once.', 'the key (`DELETE` it to revoke it)'),
          ...problems(400, 401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const key = await mintPlayerKey(app.store, request.params.campaignId, request.body)
      return reply.code(201).header('location', keyUrl(request.params.campaignId, key.id)).send(key)
    },
  )

  app.delete(
    '/v1/campaigns/:campaignId/keys/:keyId',
    {
      schema: {
        tags: ['Keys'],
        operationId: 'revokeKey',
        summary: 'Revoke a key',
        description:
          'GM only. The key stops working at once, and its open event streams end within a second. Revoking twice is harmless.',
        params: Type.Object({ campaignId: Uuid('The campaign.'), keyId: Uuid('The key to revoke.') }),
        response: { 200: ref(ApiKeySchema, { description: 'The key, now revoked.' }), ...problems(401, 403, 404) },
      },
    },
    async (request) => revokeKey(context, request.params.campaignId, request.params.keyId),
  )
}

export default campaignRoutes
