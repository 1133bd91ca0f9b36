// @ts-check
import { h, title } from '../dom.js'
import { badge, facts, list } from './parts.js'

/** How long a condition lasts, in the rulebook’s words. */
export const DURATIONS = {
  'next-check': 'until the next check',
  'next-attack': 'until the next attack',
  'next-save': 'until the next save',
  scene: 'until the end of the scene',
  'next-rest': 'until the next rest',
  encounter: 'until the end of the encounter',
  cycle: 'until the next cycle',
  permanent: 'permanent',
}

/** How long a compulsion lasts. */
export const BEHAVIOUR_DURATIONS = { 'next-turn': 'next turn', encounter: 'all encounter' }

/**
 * @param {import('../api-types.js').TraumaTableCharacter} character
 * @param {any} tables
 */
export function renderTraumaTable(character, tables) {
  const sheet = character.sheet
  const rowName = (id) => tables.rows?.find((row) => row.id === id)?.name ?? title(id)
  const traits = Object.entries(sheet.traits)
    .filter(([, has]) => has)
    .map(([trait]) => title(trait))

  const badges = []
  if (sheet.pendingTrauma) badges.push(badge(`Pending: ${rowName(sheet.pendingTrauma.finalRow)}`, 'warn'))
  if (sheet.insomnia) badges.push(badge('Insomnia', 'bad'))
  if (sheet.sleeplessNight) badges.push(badge('Sleepless night', 'bad'))
  for (const trait of traits) badges.push(badge(trait, 'ok'))

  const lasting = sheet.lastingTraumas.map((trauma) =>
    h(
      'span',
      {},
      `${trauma.name} — severity ${trauma.severity} `,
      h('meter', {
        min: 0,
        max: Math.max(100, trauma.severity),
        value: trauma.severity,
        low: 30,
        high: 60,
        optimum: 0,
        'aria-label': `${trauma.name} severity`,
      }),
      trauma.restHeals ? ' (rest heals)' : ' (socialise ritual only)',
    ),
  )
  const conditions = sheet.conditions.map(
    (condition) =>
      `${condition.name}, ${DURATIONS[condition.duration] ?? condition.duration} (from ${rowName(condition.source)})`,
  )
  const other = [
    ...sheet.saveDisadvantages.map(
      (entry) => `${title(entry.save)} saves at a disadvantage until the end of the scene`,
    ),
    ...sheet.behaviours.map(
      (entry) => `${title(entry.behaviour)} — ${BEHAVIOUR_DURATIONS[entry.duration] ?? entry.duration}`,
    ),
  ]

  return [
    h('ul', { class: 'badges' }, badges),
    facts([
      ['Scars', sheet.scars],
      ['Wounds', sheet.wounds],
      ['Experience', sheet.experience],
      ['Health lost', sheet.healthLost],
      ['Morale lost', sheet.moraleStepsLost],
      ['Nauseated', sheet.nauseatedInstances],
    ]),
    h('h4', {}, 'Conditions'),
    list(conditions, 'None.'),
    h('h4', {}, 'Lasting traumas'),
    list(lasting, 'None.'),
    other.length ? [h('h4', {}, 'Compulsions and penalties'), list(other, '')] : null,
    h('h4', {}, 'This encounter'),
    list(
      sheet.encounterTraumas.map((id) => rowName(id)),
      'No trauma yet.',
    ),
    h('p', { class: 'none' }, `Next trauma: ${sheet.standingUpgrades} up, ${sheet.standingDowngrades} down.`),
  ]
}
