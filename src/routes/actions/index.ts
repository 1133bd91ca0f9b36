import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { RULE_SETS } from '../../rules/index.js'
import { CharacterParams, IdempotencyHeaders } from '../../schemas/common.js'
import { CommandResultSchema } from '../../history/event.js'
import { COMMAND_LINKS } from '../../schemas/links.js'
import { created, problems, ref } from '../../schemas/ref.js'
import { commandBodySchema, oddsCommandBodySchema, oddsSchema, pascalCase } from '../../schemas/resolution.js'
import { actionCommand } from '../../services/commands.js'
import { characterOdds } from '../../services/odds.js'
import { commandRoute } from '../command-reply.js'
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
  const runAndReply = commandRoute(context)
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
            description: `${action.description}\n\nOn a stored character of a \`${ruleSet.id}\` campaign${action.actor === 'gm' ? ' (GM only)' : ''}: resolves against the character's sheet, then saves the new sheet and appends the event in one write (if another command changed the character meanwhile, it resolves again against the new sheet). Send an \`Idempotency-Key\` to make retries safe. Who sees it: leave \`visibility\` out and Nerve decides — GM-only when it follows a GM-only event or its result would differ on the sheet players know, public otherwise; the answer's \`visibilityReason\` says which and why (docs/api.md, "Who sees an event").${action.odds ? ` The odds of every outcome, before rolling: \`POST …/${action.name}/odds\`.` : ''}`,
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
        async (request, reply) =>
          runAndReply(request, reply, {
            command: actionCommand(request.principal, request.params.characterId, action.name, request.body),
            fingerprint: { action: action.name, character: request.params.characterId, body: request.body },
          }),
      )

      if (action.odds === undefined) continue
      const oddsBody = oddsCommandBodySchema(action)
      app.addSchema(oddsBody)
      app.post(
        `/v1/campaigns/:campaignId/characters/:characterId/${action.name}/odds`,
        {
          ...(action.actor === 'gm' ? { config: { access: 'gm' as const } } : {}),
          schema: {
            tags: [RULE_SET_TAGS[ruleSet.id] ?? ruleSet.title],
            operationId: `oddsOf${pascalCase(action.name)}`,
            summary: `The odds of “${action.summary.charAt(0).toLowerCase()}${action.summary.slice(1)}”`,
            description: `The exact chance of every outcome of \`${action.name}\` for this character and request, before anything is rolled: counted over every face of the dice, as fractions in lowest terms. Reads the character and writes nothing: no event, no Idempotency-Key. Allowed to whoever may make the roll, and refused as the roll would be (the same 409 and 422 answers). A player key gets the odds on the sheet players see (\`sheet: "as players see it"\`), never on what GM-only rolls did to it; the GM key on the sheet itself.`,
            params: CharacterParams,
            body: ref(oddsBody),
            response: {
              200: ref(oddsSchema(ruleSet, action), {
                description: 'The odds of every outcome, on the character’s sheet.',
              }),
              ...problems(400, 401, 403, 404, 409, 422),
            },
          },
        },
        async (request) =>
          characterOdds(context, request.principal, request.params.characterId, action.name, request.body),
      )
    }
  }
}

export default actionRoutes
