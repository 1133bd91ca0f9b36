import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { RULE_SETS } from '../../rules/index.js'
import { oddsOf, oddsOfNormalized, resolveAction, resolveNormalized, type RuleSet } from '../../rules/rule-set.js'
import { problem, ref } from '../../schemas/ref.js'
import {
  oddsCheck,
  oddsResolveBodySchema,
  oddsSchema,
  pascalCase,
  resolutionCheck,
  resolutionSchema,
  resolveBodySchema,
} from '../../schemas/resolution.js'

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

type Normalized = WeakMap<object, { sheet: unknown; settings: unknown }>

/**
 * The rule set fills a sheet's defaults (including those Ajv cannot reach inside nullable
 * parts), names the first bad field and checks the whole sheet against its schema, before the
 * schema check of the body. The sheet then leaves the body, so that check covers the rest and
 * does not walk the sheet a second time.
 */
function normalizesSheet(ruleSet: RuleSet, normalized: Normalized) {
  return async (request: FastifyRequest) => {
    const input = request.body as { sheet?: unknown; settings?: unknown } | null
    if (typeof input !== 'object' || input === null || typeof input.sheet !== 'object' || input.sheet === null) return
    const settings: unknown = ruleSet.normalizeSettings(input.settings ?? {})
    normalized.set(request, { sheet: ruleSet.normalizeSheet(input.sheet, settings), settings })
    input.sheet = undefined
  }
}

/** One route per rule-set action, so each has its own exact schema and example in the OpenAPI document. */
const resolveRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const ruleSet of RULE_SETS) {
    for (const action of ruleSet.actions) {
      const body = resolveBodySchema(ruleSet, action)
      const resolution = resolutionSchema(ruleSet, action)
      const fits = resolutionCheck(ruleSet, action)
      const normalized: Normalized = new WeakMap()
      app.addSchema(body)
      app.addSchema(resolution)
      app.post(
        `/v1/resolve/${ruleSet.id}/${action.name}`,
        {
          preValidation: normalizesSheet(ruleSet, normalized),
          schema: {
            tags: ['Resolve'],
            operationId: `resolve${pascalCase(action.name)}`,
            security: [],
            summary: `${ruleSet.title}: ${action.summary}`,
            description: `${action.description}\n\nStateless: send the sheet, get the outcome, the dice and the new sheet. Nothing is stored.${action.odds ? ` The odds of every outcome, before rolling: \`POST /v1/resolve/${ruleSet.id}/${action.name}/odds\`.` : ''}`,
            body: ref(body),
            response: {
              200: ref(resolution, { description: 'The outcome, every die rolled, and the sheet after it.' }),
              400: problem('The body is not valid JSON.', ['InvalidJson']),
              409: problem('The sheet has a decision pending that must be settled first.'),
              422: problem('A field is invalid, or the rules do not allow this request on this sheet.'),
            },
          },
        },
        async (request, reply) => {
          const { request: asked, dice, settings } = request.body
          const checked = normalized.get(request)
          const resolved =
            checked === undefined
              ? resolveAction(ruleSet, action, { sheet: {}, request: asked, dice, settings })
              : resolveNormalized(ruleSet, action, {
                  sheet: checked.sheet,
                  settings: checked.settings,
                  request: asked,
                  dice,
                })
          // Checked against the response schema, so it is sent exactly as it is. A custom
          // serializer leaves the content type unset (Fastify cannot know what it produces).
          if (!fits(resolved)) throw new Error(`the ${action.name} resolution does not fit its response schema`)
          return reply.type(JSON_CONTENT_TYPE).serializer(JSON.stringify).send(resolved)
        },
      )

      if (action.odds === undefined) continue
      const oddsBody = oddsResolveBodySchema(ruleSet, action)
      const oddsFit = oddsCheck(ruleSet, action)
      app.addSchema(oddsBody)
      app.post(
        `/v1/resolve/${ruleSet.id}/${action.name}/odds`,
        {
          preValidation: normalizesSheet(ruleSet, normalized),
          schema: {
            tags: ['Resolve'],
            operationId: `resolve${pascalCase(action.name)}Odds`,
            security: [],
            summary: `${ruleSet.title}: the odds of “${action.summary.charAt(0).toLowerCase()}${action.summary.slice(1)}”`,
            description: `The exact chance of every outcome of \`${action.name}\` for this sheet and request, before anything is rolled: counted over every face of the dice, as fractions in lowest terms. The request is checked as the roll checks it (the same 422 and 409 answers).\n\nStateless: send the sheet and the request, without dice. Nothing is rolled or stored.`,
            body: ref(oddsBody),
            response: {
              200: ref(oddsSchema(ruleSet, action), { description: 'The odds of every outcome, on the sheet sent.' }),
              400: problem('The body is not valid JSON.', ['InvalidJson']),
              409: problem('The sheet has a decision pending that must be settled first.'),
              422: problem('A field is invalid, or the rules do not allow this request on this sheet.'),
            },
          },
        },
        async (request, reply) => {
          const { request: asked, settings } = request.body
          const checked = normalized.get(request)
          const odds =
            checked === undefined
              ? oddsOf(ruleSet, action, { sheet: {}, request: asked, settings })
              : oddsOfNormalized(action, { sheet: checked.sheet, settings: checked.settings, request: asked })
          const answer = { sheet: 'as sent', ...odds }
          if (!oddsFit(answer)) throw new Error(`the ${action.name} odds do not fit their response schema`)
          return reply.type(JSON_CONTENT_TYPE).serializer(JSON.stringify).send(answer)
        },
      )
    }
  }
}

export default resolveRoutes
