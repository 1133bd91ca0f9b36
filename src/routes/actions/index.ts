import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { RULE_SETS } from '../../rules/index.js'
import { CharacterParams, IdempotencyHeaders } from '../../schemas/common.js'
import { CommandResultSchema } from '../../schemas/events.js'
import { COMMAND_LINKS } from '../../schemas/links.js'
import { created, problems, ref } from '../../schemas/ref.js'
import { commandBodySchema, pascalCase } from '../../schemas/resolution.js'
import { actionCommand } from '../../services/commands.js'
import { runCommand } from '../../services/pipeline.js'
import { onceFor, replyCreated } from '../command-reply.js'
import { routeAccess } from '../../plugins/app/route-access.js'

const RULE_SET_TAGS: Record<string, string> = {
  'shock-meters': 'Shock meters',
  'trauma-table': 'Trauma table',
  'reaction-rolls': 'Reaction rolls',
}

/** One route per action of every rule set, on a stored character: resolve, save, record — in one transaction. */
const actionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  routeAccess(app, 'member')
  const context = { store: app.store, feed: app.eventFeed, metrics: app.metrics }
  for (const ruleSet of RULE_SETS) {
    for (const action of ruleSet.actions) {
      const body = commandBodySchema(action)
      app.addSchema(body)
      app.post(
        `/v1/campaigns/:campaignId/characters/:characterId/${action.name}`,
        {
          links: { 201: COMMAND_LINKS },
          ...(action.actor === 'gm' ? { config: { access: 'gm' as const } } : {}),
          schema: {
            tags: [RULE_SET_TAGS[ruleSet.id] ?? ruleSet.title],
            operationId: `perform${pascalCase(action.name)}`,
            summary: action.summary,
            description: `${action.description}\n\nOn a stored character of a \`${ruleSet.id}\` campaign${action.actor === 'gm' ? ' (GM only)' : ''}: locks the character, resolves against its sheet, saves the new sheet and appends the event, all in one transaction. Send an \`Idempotency-Key\` to make retries safe.`,
            params: CharacterParams,
            headers: IdempotencyHeaders,
            body: ref(body),
            response: {
              201: created(
                CommandResultSchema,
                'The event recorded and the character after it.',
                'the event recorded',
                { replayable: true },
              ),
              ...problems(400, 401, 403, 404, 409, 422),
            },
          },
        },
        async (request, reply) => {
          const answer = await runCommand(
            context,
            request.principal,
            actionCommand(request.principal, request.params.characterId, action.name, request.body),
            onceFor(request, { action: action.name, character: request.params.characterId, body: request.body }),
          )
          return replyCreated(reply, answer)
        },
      )
    }
  }
}

export default actionRoutes
