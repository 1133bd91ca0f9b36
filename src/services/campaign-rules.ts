import type { Principal } from '../lib/principal.js'
import { storedRuleSet } from '../rules/index.js'
import type { RuleSet } from '../rules/rule-set.js'

export function ruleSetOfCampaign(principal: Principal): RuleSet {
  return storedRuleSet(principal.campaign)
}

/** A stored sheet is re-checked against the campaign's current settings before the rules use it. */
export function sheetWithSettings(principal: Principal, sheet: unknown) {
  const ruleSet = ruleSetOfCampaign(principal)
  const settings: unknown = ruleSet.normalizeSettings(principal.campaign.settings)
  return { ruleSet, settings, sheet: ruleSet.normalizeSheet(sheet, settings) as Record<string, unknown> }
}
