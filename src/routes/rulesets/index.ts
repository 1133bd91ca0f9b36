import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { NotFoundError } from '../../errors.js'
import { findRuleSet, RULE_SETS } from '../../rules/index.js'
import type { RuleSet } from '../../rules/rule-set.js'
import { problem, ref } from '../../schemas/ref.js'
import { RuleSetDetailSchema, RuleSetListSchema } from '../../schemas/rulesets.js'

function summaryOf(ruleSet: RuleSet) {
  return {
    id: ruleSet.id,
    version: ruleSet.version,
    title: ruleSet.title,
    description: ruleSet.description,
    actions: ruleSet.actions.map((action) => ({
      name: action.name,
      kind: action.kind,
      actor: action.actor,
      summary: action.summary,
      description: action.description,
      ...(action.amends ? { amends: [...action.amends] } : {}),
      resolvePath: `/v1/resolve/${ruleSet.id}/${action.name}`,
      ...(action.odds ? { oddsPath: `/v1/resolve/${ruleSet.id}/${action.name}/odds` } : {}),
    })),
  }
}

const rulesetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/rulesets',
    {
      schema: {
        tags: ['Rule sets'],
        operationId: 'listRuleSets',
        security: [],
        summary: 'List the rule sets',
        description: 'Every rule set Nerve resolves, with its actions. Public: no key needed.',
        response: { 200: ref(RuleSetListSchema, { description: 'The rule sets Nerve knows.' }) },
      },
    },
    async () => ({ data: RULE_SETS.map(summaryOf) }),
  )

  app.get(
    '/v1/rulesets/:ruleset',
    {
      schema: {
        tags: ['Rule sets'],
        operationId: 'getRuleSet',
        security: [],
        summary: 'Get a rule set with its sheet schema and tables',
        description:
          'The sheet JSON Schema (with defaults), the sheet of a new character, campaign settings, and every reference table of the rule set as data: trigger catalog, trauma table, pressure bands. Public: no key needed.',
        params: Type.Object({
          ruleset: Type.String({
            description: 'Rule set id.',
            examples: RULE_SETS.map((ruleSet) => ruleSet.id),
          }),
        }),
        response: {
          200: ref(RuleSetDetailSchema, {
            description: 'The rule set: its sheet schema, a new sheet, its settings and its tables.',
          }),
          404: problem('No rule set has that id.'),
        },
      },
    },
    async (request) => {
      const ruleSet = findRuleSet(request.params.ruleset)
      if (!ruleSet) {
        throw new NotFoundError(
          `no rule set "${request.params.ruleset}"; known: ${RULE_SETS.map((known) => known.id).join(', ')}`,
        )
      }
      return {
        ...summaryOf(ruleSet),
        sheetSchema: ruleSet.sheet,
        defaultSheet: ruleSet.normalizeSheet({}) as Record<string, unknown>,
        settingsSchema: ruleSet.settings,
        tables: ruleSet.tables,
      }
    },
  )
}

export default rulesetRoutes
