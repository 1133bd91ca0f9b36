// @ts-check

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
