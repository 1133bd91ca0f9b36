import type { Principal } from '../lib/principal.js'
import { findRuleSet } from '../rules/index.js'
import type { RuleSet } from '../rules/rule-set.js'

export function ruleSetOfCampaign(principal: Principal): RuleSet {
  const ruleSet = findRuleSet(principal.campaign.ruleset)
  if (!ruleSet) throw new Error(`campaign ${principal.campaign.id} has unknown rule set ${principal.campaign.ruleset}`)
  return ruleSet
}

/** A stored sheet is re-checked against the campaign's current settings before the rules use it. */
export function sheetWithSettings(principal: Principal, sheet: unknown) {
  const ruleSet = ruleSetOfCampaign(principal)
  const settings: unknown = ruleSet.normalizeSettings(principal.campaign.settings)
  return { ruleSet, settings, sheet: ruleSet.normalizeSheet(sheet, settings) as Record<string, unknown> }
}
