import { RuleError } from '../../src/rules/errors.js'
import { resolveAction, type RuleAction, type RuleSet } from '../../src/rules/rule-set.js'

type Input = Parameters<typeof resolveAction>[2]

/**
 * `resolveAction`, held to what the server takes on trust rather than checking on every roll:
 * the sheet the rules return is already normal. Normalising it again, with the same settings,
 * changes nothing, not even the order of its fields, and refuses nothing. Every rules test
 * resolves through this, so every rule, table row and random sequence they run is a case.
 */
export function resolveChecked<Sheet, Settings>(
  ruleSet: RuleSet<Sheet, Settings>,
  action: RuleAction<Sheet, unknown, Settings>,
  input: Input,
) {
  const resolved = resolveAction(ruleSet, action, input)
  const settings = ruleSet.normalizeSettings(input.settings ?? {})
  let again: Sheet
  try {
    again = ruleSet.normalizeSheet(resolved.sheet, settings)
  } catch (error) {
    // Not a RuleError: a test that expects a refusal must not pass on a sheet the rules broke.
    const reason = error instanceof RuleError ? error.message : String(error)
    throw new Error(`${ruleSet.id}/${action.name} returned a sheet that normalising refuses: ${reason}`, {
      cause: error,
    })
  }
  if (JSON.stringify(again) !== JSON.stringify(resolved.sheet)) {
    throw new Error(
      `${ruleSet.id}/${action.name} returned a sheet that normalising changes:\n${JSON.stringify(resolved.sheet)}\n${JSON.stringify(again)}`,
    )
  }
  return resolved
}
