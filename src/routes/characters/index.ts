import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { AuditReportSchema } from '../../schemas/audit.js'
import {
  CharacterListQuery,
  CharacterListSchema,
  CharacterSchema,
  CreateCharacterSchema,
  PatchCharacterSchema,
} from '../../schemas/characters.js'
import { CampaignParams, CharacterParams, IdempotencyHeaders, Uuid } from '../../schemas/common.js'
import { CommandResultSchema } from '../../history/event.js'
import { CHARACTER_LINKS, COMMAND_LINKS, CREATED_CHARACTER_LINKS } from '../../schemas/links.js'
import { created, problems, ref } from '../../schemas/ref.js'
import { auditCharacter } from '../../services/audit.js'
import { archiveCommand, createCommand, getCharacter, listCharacters, patchCommand } from '../../services/characters.js'
import { revertCommand } from '../../services/commands.js'
import { runCommand } from '../../services/pipeline.js'
import { commandRoute } from '../command-reply.js'
import { characterUrl } from '../locations.js'
import { routeAccess } from '../../plugins/app/route-access.js'
import { MERGE_PATCH_MEDIA_TYPE } from '../../plugins/app/json-body.js'

const characterRoutes: FastifyPluginAsyncTypebox = async (app) => {
  routeAccess(app, 'gm')
  const context = { store: app.store, feed: app.eventFeed, metrics: app.metrics }
  const runAndReply = commandRoute(context)

  app.post(
    '/v1/campaigns/:campaignId/characters',
    {
      links: { 201: CREATED_CHARACTER_LINKS },
      schema: {
        tags: ['Characters'],
        operationId: 'createCharacter',
        summary: 'Create a character',
        description:
          'GM only. The sheet is validated against the campaign’s rule set; anything left out takes its default and derived values are computed. Recorded as a `character.created` event.',
        params: CampaignParams,
        headers: IdempotencyHeaders,
        body: ref(CreateCharacterSchema),
        response: {
          201: created(CommandResultSchema, 'The event recorded and the character after it.', 'the character created', {
            replayable: true,
          }),
          ...problems(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request, reply) =>
      runAndReply(request, reply, {
        command: createCommand(request.principal, request.body),
        fingerprint: { route: 'create-character', body: request.body },
        location: ({ character }) => characterUrl(character.campaignId, character.id),
      }),
  )

  app.get(
    '/v1/campaigns/:campaignId/characters',
    {
      config: { access: 'member' },
      schema: {
        tags: ['Characters'],
        operationId: 'listCharacters',
        summary: 'List the characters',
        description:
          'In creation order, a page at a time: pass `nextCursor` as `after` for the next page. A player key gets each sheet as players see it (without what GM-only events did).',
        params: CampaignParams,
        querystring: CharacterListQuery,
        response: {
          200: ref(CharacterListSchema, { description: 'A page of characters.' }),
          ...problems(400, 401, 404),
        },
      },
    },
    async (request) => listCharacters(context, request.principal, request.query),
  )

  app.get(
    '/v1/campaigns/:campaignId/characters/:characterId',
    {
      links: { 200: CHARACTER_LINKS },
      config: { access: 'member' },
      schema: {
        tags: ['Characters'],
        operationId: 'getCharacter',
        summary: 'Get a character',
        description:
          'The character and its sheet. The `ETag` header is its version: send it back as `If-Match` when editing. A player key gets the sheet players see: what GM-only events did to it is left out (docs/guides/hidden-rolls.md), while `version` still counts every event.',
        params: CharacterParams,
        response: {
          200: ref(CharacterSchema, { description: 'The character; the `ETag` header is its version.' }),
          ...problems(400, 401, 404),
        },
      },
    },
    async (request, reply) => {
      const character = await getCharacter(context, request.principal, request.params.characterId)
      return reply.header('etag', `"${character.version}"`).send(character)
    },
  )

  app.patch(
    '/v1/campaigns/:campaignId/characters/:characterId',
    {
      links: { 200: COMMAND_LINKS },
      schema: {
        tags: ['Characters'],
        operationId: 'patchCharacter',
        summary: 'Edit a character',
        description:
          'GM only. Renames the character and/or merges a JSON merge patch into its sheet; the result is validated and derived values recomputed. The body is a JSON merge patch (RFC 7396) of the character’s `name` and `sheet`, with an optional `reason` kept in the history: send it as `application/merge-patch+json` or `application/json` alike. `null` removes a sheet field, which then takes its default; the name cannot be removed. With `If-Match: "<version>"` the edit is refused (412) if someone changed the character since. Recorded as a `character.updated` event with the sheet before and after. While GM-only events keep part of the sheet from players, the fields the patch names are shown to them as they now are: send a field with its current value to reveal it.',
        params: CharacterParams,
        headers: Type.Object({
          'if-match': Type.Optional(
            Type.String({ description: 'The ETag (version) the edit was made against, e.g. `"3"`.' }),
          ),
        }),
        consumes: ['application/json', MERGE_PATCH_MEDIA_TYPE],
        body: ref(PatchCharacterSchema),
        response: {
          200: ref(CommandResultSchema, { description: 'The event recorded and the character after it.' }),
          ...problems(400, 401, 403, 404, 409, 412, 422),
        },
      },
    },
    async (request, reply) => {
      const { recorded } = await runCommand(
        context,
        request.principal,
        patchCommand(request.principal, request.params.characterId, request.body, request.headers['if-match']),
      )
      return reply.header('etag', `"${recorded.character.version}"`).send(recorded)
    },
  )

  app.delete(
    '/v1/campaigns/:campaignId/characters/:characterId',
    {
      schema: {
        tags: ['Characters'],
        operationId: 'archiveCharacter',
        summary: 'Archive a character',
        description:
          'GM only. The character leaves the list and takes no more rolls; its history stays. Recorded as a `character.archived` event, which a revert can undo.',
        params: CharacterParams,
        response: {
          200: ref(CommandResultSchema, { description: 'The event recorded and the character after it.' }),
          ...problems(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => {
      const { recorded } = await runCommand(
        context,
        request.principal,
        archiveCommand(request.principal, request.params.characterId),
      )
      return recorded
    },
  )

  app.post(
    '/v1/campaigns/:campaignId/characters/:characterId/revert',
    {
      links: { 201: COMMAND_LINKS },
      schema: {
        tags: ['Characters'],
        operationId: 'revertLatestEvent',
        summary: 'Undo the character’s latest event',
        description:
          'GM only. Appends a `revert` event that puts the whole sheet back as it was before the named event — notches, derived abilities, burn-out, conditions, pending decisions. When that reopens a decision (reverting its settlement, say), the revert’s `pending` shows it, as the roll that left it open did, and either event settles it. Only the character’s latest event can be reverted (409 otherwise); the history itself is never changed.',
        params: CharacterParams,
        headers: IdempotencyHeaders,
        body: Type.Object(
          { eventId: Uuid('The character’s latest event.') },
          { additionalProperties: false, examples: [{ eventId: '0193a5e2-7c1d-7000-8000-000000000001' }] },
        ),
        response: {
          201: created(CommandResultSchema, 'The event recorded and the character after it.', 'the revert event', {
            replayable: true,
          }),
          ...problems(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request, reply) =>
      runAndReply(request, reply, {
        command: revertCommand(request.principal, request.params.characterId, request.body.eventId),
        fingerprint: { route: 'revert', character: request.params.characterId, body: request.body },
      }),
  )

  app.get(
    '/v1/campaigns/:campaignId/characters/:characterId/audit',
    {
      schema: {
        tags: ['Characters'],
        operationId: 'auditCharacter',
        summary: 'Check the sheet against its history',
        description:
          'GM only. Rebuilds the sheet from the character’s events alone — re-resolving every roll with the dice it recorded — and reports whether it matches the stored sheet, or the first event where they part.',
        params: CharacterParams,
        response: {
          200: ref(AuditReportSchema, {
            description:
              'Whether the sheet rebuilt from the history matches the stored one, and where they part if not.',
          }),
          ...problems(400, 401, 403, 404),
        },
      },
    },
    async (request) => auditCharacter(app.store, request.principal, request.params.characterId),
  )
}

export default characterRoutes
