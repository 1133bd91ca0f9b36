// @ts-check
import { renderReactionRolls } from './reaction-rolls.js'
import { renderShockMeters } from './shock-meters.js'
import { renderTraumaTable } from './trauma-table.js'

/**
 * How a character's sheet is drawn, by rule set id: each renderer returns the card's body.
 * @type {Record<string, (character: any, tables: any, settings: any, events: any[]) => unknown>}
 */
export const RENDERERS = {
  'shock-meters': renderShockMeters,
  'trauma-table': renderTraumaTable,
  'reaction-rolls': renderReactionRolls,
}
