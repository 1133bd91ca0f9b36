import { reactionRolls } from './reaction-rolls/index.js'
import type { RuleAction, RuleSet } from './rule-set.js'
import { shockMeters } from './shock-meters/index.js'
import { traumaTable } from './trauma-table/index.js'

export const RULE_SETS: readonly RuleSet[] = [shockMeters, traumaTable, reactionRolls]

export const RULE_SET_IDS = RULE_SETS.map((ruleSet) => ruleSet.id)

export function findRuleSet(id: string): RuleSet | undefined {
  return RULE_SETS.find((ruleSet) => ruleSet.id === id)
}

/** The rule set of a stored campaign: one this Nerve knows, as checked when the campaign was made or imported. */
export function storedRuleSet(campaign: { ruleset: string }): RuleSet {
  const ruleSet = findRuleSet(campaign.ruleset)
  if (!ruleSet) throw new Error(`unknown rule set ${campaign.ruleset}`)
  return ruleSet
}

export function findAction(ruleSet: RuleSet, name: string): RuleAction | undefined {
  return ruleSet.actions.find((action) => action.name === name)
}
