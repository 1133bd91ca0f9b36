// @ts-check
import { session } from './session.js'

/** The built-in events in a GM's words; an action's event reads as the action's name. */
const BUILT_IN = {
  'character.created': 'Character created',
  'character.updated': 'Sheet edited',
  'character.archived': 'Character archived',
  'campaign.updated': 'Campaign edited',
  revert: 'Undo',
  reveal: 'Reveal',
  'webhook.ping': 'Test ping',
}

/**
 * What the console calls an event type: "Stress check", not `stress-check`.
 * @param {string} type
 */
export const eventName = (type) => BUILT_IN[type] ?? type.charAt(0).toUpperCase() + type.slice(1).replaceAll('-', ' ')

/**
 * An event as the timeline and the feed name it: its number, what it was, and whether only the GM sees it.
 * @param {{ seq: number, type: string, visibility?: string }} event
 */
export const eventLabel = (event) =>
  `#${event.seq} ${eventName(event.type)}${event.visibility === 'gm' ? ' (GM only)' : ''}`

/**
 * A server's text with the open campaign's actions named as the console names them: "settle it
 * with “Trauma response”", not "with `trauma-response`". An action's id is replaced in backticks
 * and, when it has a hyphen (so it cannot be an ordinary word), bare too; other code stays as it is.
 * @param {string} text
 */
export function namingActions(text) {
  const ids = (session.ruleset?.actions ?? []).map((action) => action.name)
  if (!ids.length) return text
  const alternatives = ids.sort((a, b) => b.length - a.length).join('|')
  const named = new RegExp(`\`(${alternatives})\`|(?<![\\w/-])(${alternatives})(?![\\w/-])`, 'g')
  return text.replace(named, (found, quoted, bare) =>
    quoted || bare.includes('-') ? `“${eventName(quoted ?? bare)}”` : found,
  )
}
