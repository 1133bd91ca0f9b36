import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { RULE_SETS } from '../../rules/index.js'
import { resolveAction } from '../../rules/rule-set.js'
import { problem, ref } from '../../schemas/ref.js'
import { pascalCase, resolutionSchema, resolveBodySchema } from '../../schemas/resolution.js'

/** One route per rule-set action, so each has its own exact schema and example in the OpenAPI document. */
const resolveRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const ruleSet of RULE_SETS) {
    for (const action of ruleSet.actions) {
      const body = resolveBodySchema(ruleSet, action)
      const resolution = resolutionSchema(ruleSet, action)
      app.addSchema(body)
      app.addSchema(resolution)
      app.post(
        `/v1/resolve/${ruleSet.id}/${action.name}`,
        {
          // The rule set fills a sheet's defaults (including those Ajv cannot reach inside
          // nullable parts) and names the first bad field, before the schema check.
          preValidation: async (request) => {
            const input = request.body as { sheet?: unknown; settings?: unknown } | null
            if (typeof input !== 'object' || input === null || typeof input.sheet !== 'object' || input.sheet === null)
              return
            input.sheet = ruleSet.normalizeSheet(input.sheet, ruleSet.normalizeSettings(input.settings ?? {}))
          },
          schema: {
            tags: ['Resolve'],
            operationId: `resolve${pascalCase(action.name)}`,
            summary: `${ruleSet.title}: ${action.summary}`,
            description: `${action.description}\n\nStateless: send the sheet, get the outcome, the dice and the new sheet. Nothing is stored.`,
            body: ref(body),
            response: {
              200: ref(resolution, { description: 'The outcome, every die rolled, and the sheet after it.' }),
              400: problem('The body is not valid JSON.'),
              409: problem('The sheet has a decision pending that must be settled first.'),
              422: problem('A field is invalid, or the rules do not allow this request on this sheet.'),
            },
          },
        },
        async (request) => resolveAction(ruleSet, action, { ...request.body, sheet: request.body.sheet ?? {} }),
      )
    }
  }
}

export default resolveRoutes
