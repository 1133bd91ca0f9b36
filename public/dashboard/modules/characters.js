// @ts-check
import { recentEventsOf } from './feed.js'
import { RENDERERS } from './rulesets/index.js'
import { openConsole, refreshActionHints, refreshCharacterChoices } from './action-form.js'
import { $, h } from './dom.js'
import { mintPlayerKey } from './keys.js'
import { scheduleOdds } from './odds.js'
import { session } from './session.js'
import { toggleEditor } from './sheet-editor.js'
import { timelineButton } from './timeline.js'
import { revertLatest } from './undo.js'
import { eventName } from './event-names.js'

/** Every character of the open campaign, by id: the newest version seen of each. */
export const characters = new Map()

/** The GM's buttons on a character: act, edit, undo, hand a player a key, see its timeline. */
function gmTools(character) {
  const name = character.name
  const tool = (text, label, onClick) => {
    const button = h('button', { type: 'button', class: 'secondary small', 'aria-label': label }, text)
    button.addEventListener('click', () => onClick(button))
    return button
  }
  return h(
    'div',
    { class: 'character-tools' },
    tool('Roll or act', `Roll or act for ${name}`, () => openConsole(character.id)),
    tool('Edit', `Edit ${name}`, (button) => toggleEditor(character.id, button)),
    tool('Undo latest', `Undo latest event of ${name}`, (button) => revertLatest(character.id, button)),
    tool('Player key', `Mint a player key for ${name}`, (button) => mintPlayerKey(character.id, button)),
    timelineButton(character),
  )
}

/**
 * @param {import('./api-types.js').Character} character
 * @param {import('./api-types.js').PendingDecision} decision
 */
function decisionItem(character, decision) {
  const children = [h('span', { class: 'badge warn' }, 'Open'), ` ${decision.prompt} (${eventName(decision.action)})`]
  if (session.mode === 'gm') {
    const button = h(
      'button',
      { type: 'button', class: 'small', 'aria-label': `Settle: ${decision.prompt} (${character.name})` },
      'Settle',
    )
    button.addEventListener('click', () => openConsole(character.id, decision.action))
    children.push(' ', button)
  }
  return h('li', {}, children)
}

/**
 * @param {import('./api-types.js').Character} character
 */
function renderCharacter(character) {
  const render = RENDERERS[character.ruleset]
  const headingId = `character-${character.id}-name`
  const body = render
    ? render(character, session.ruleset?.tables ?? {}, session.campaign?.settings, recentEventsOf(character.id))
    : h('p', {}, 'This rule set has no drawing yet.')
  return h(
    'article',
    {
      class: 'character',
      id: `character-${character.id}`,
      'aria-labelledby': headingId,
      'data-version': character.version,
    },
    h(
      'div',
      { class: 'character-head' },
      h('h3', { id: headingId }, character.name),
      h('span', { class: 'version' }, `version ${character.version}`),
      character.archivedAt ? h('span', { class: 'badge plain' }, 'archived') : null,
      character.hiddenFromPlayers ? h('span', { class: 'badge warn' }, 'partly hidden from players') : null,
    ),
    body,
    character.pending?.length
      ? h(
          'ul',
          { class: 'decisions', 'aria-label': 'Open decisions' },
          ...character.pending.map((decision) => decisionItem(character, decision)),
        )
      : null,
    session.mode === 'gm' ? gmTools(character) : h('div', { class: 'character-tools' }, timelineButton(character)),
    h('div', { class: 'editor-slot', id: `editor-${character.id}` }),
    h('div', { class: 'timeline-slot', id: `timeline-${character.id}` }),
  )
}

const shown = (character) => !character.archivedAt && (!session.only || character.id === session.only)

export function showCharacters() {
  const container = $('character-list')
  const visible = [...characters.values()].filter(shown)
  container.replaceChildren(...visible.map(renderCharacter))
  $('no-characters').hidden = visible.length > 0
  refreshCharacterChoices()
}

/**
 * Keeps the newest version of a character (answers may arrive out of order) and redraws only it.
 * @param {import('./api-types.js').Character} character
 */
export function upsertCharacter(character) {
  const known = characters.get(character.id)
  if (known && known.version > character.version) return
  const isNew = !known
  characters.set(character.id, character)
  if (!shown(character) && !character.archivedAt) return
  const existing = document.getElementById(`character-${character.id}`)
  if (character.archivedAt) {
    existing?.remove()
  } else if (existing) {
    const fresh = renderCharacter(character)
    fresh.classList.add('updated')
    // An edit in progress and an open timeline survive the redraw.
    for (const slot of ['.editor-slot', '.timeline-slot']) {
      const kept = existing.querySelector(slot)
      if (kept?.childElementCount) fresh.querySelector(slot).replaceWith(kept)
    }
    existing.replaceWith(fresh)
  } else {
    $('character-list').append(renderCharacter(character))
  }
  $('no-characters').hidden = [...characters.values()].some(shown)
  if (isNew || known?.name !== character.name) refreshCharacterChoices()
  if ($('action-character')?.value === character.id) {
    refreshActionHints()
    // The character's sheet changed: so may the odds of the roll being prepared.
    scheduleOdds()
  }
}
