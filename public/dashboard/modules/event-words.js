// @ts-check
import { api } from './api.js'
import { eventName } from './event-names.js'
import { session } from './session.js'

/** Every rule set's action names, read once: the registry's types that are none of them are built in. */
let everyAction = null

/** What an event of this type is: an action as the action picker shows it, a built-in type by its name. */
export function eventWords(type) {
  const action = session.ruleset?.actions.find((entry) => entry.name === type)
  return action?.summary ?? eventName(type)
}

/**
 * The event types a webhook of the open campaign may receive, from the registry the API document
 * publishes (`CreateWebhookEndpoint.eventTypes`): this rule set's actions, then the built-in types.
 * @returns {Promise<{ type: string, words: string }[]>}
 */
export async function subscribableTypes() {
  const registry = session.openapi?.components?.schemas?.CreateWebhookEndpoint?.properties?.eventTypes?.items?.enum
  if (!Array.isArray(registry)) return []
  everyAction ??= api('/v1/rulesets').then(
    (list) => new Set(list.data.flatMap((ruleset) => ruleset.actions.map((action) => action.name))),
    (error) => {
      everyAction = null
      throw error
    },
  )
  const actions = await everyAction
  const own = (session.ruleset?.actions ?? []).map((action) => action.name).filter((type) => registry.includes(type))
  const builtIn = registry.filter((type) => !actions.has(type))
  return [...own, ...builtIn].map((type) => ({ type, words: eventWords(type) }))
}
