// @ts-check
import { h, title } from '../dom.js'
import { badge, boxes, ordered, table } from './parts.js'

/**
 * @param {import('../api-types.js').ReactionRollsCharacter} character
 * @param {any} tables
 * @param {any} settings
 */
export function renderReactionRolls(character, tables, settings) {
  const sheet = character.sheet
  const topStage = settings?.emotionTopStage ?? 5
  const trackLength = settings?.xpTrackLength ?? 5
  const emotionLabel = (emotion) => tables.emotions?.find((entry) => entry.emotion === emotion)?.label ?? title(emotion)

  const badges = []
  const pending = sheet.pendingRetrieval
  if (pending) {
    badges.push(badge(`Retrieval pending: ${title(pending.ability)} ${pending.result} vs ${pending.pressure}`, 'warn'))
  }
  const emotionOrder = (tables.emotions ?? []).map((entry) => entry.emotion)
  const emotionRows = ordered(emotionOrder, sheet.emotions).map(([emotion, stage]) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, emotionLabel(emotion)),
      h('td', {}, boxes(stage, topStage, 'stage', 'stages')),
      h('td', { class: 'number' }, stage >= topStage ? `${stage} (top)` : `${stage}`),
    ),
  )
  const abilityRows = ordered([], sheet.abilities).map(([name, ability]) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, title(name)),
      h('td', {}, ability.dice),
      h('td', {}, boxes(ability.xp, trackLength, 'xp', 'XP')),
      h('td', {}, [ability.maxedOut ? 'maxed out' : '', ability.crippled ? 'crippled' : ''].filter(Boolean).join(', ')),
    ),
  )
  return [
    h('ul', { class: 'badges' }, badges),
    table('Emotions', ['Emotion', 'Stages', 'Stage'], emotionRows),
    table('Abilities', ['Ability', 'Dice', 'XP track', 'Flags'], abilityRows),
  ]
}
