// @ts-check
import { api, latestEventOf, post } from './api.js'
import { characters, upsertCharacter } from './characters.js'
import { confirmWith } from './confirm.js'
import { $, title } from './dom.js'
import { setStatus } from './status.js'
import { addToFeed } from './feed.js'
import { campaignPath } from './session.js'
import { changes, RULES_BOOKKEEPING } from './sheet-diff.js'

const MAX_LINES = 8

/** A sheet value as a GM reads it. */
function shown(value) {
  if (value === null || value === undefined) return 'none'
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (Array.isArray(value)) return value.length === 1 ? '1 entry' : `${value.length} entries`
  if (typeof value === 'object') return shownEntry(value)
  return String(value)
}

/** An entry as its words: "Violence, Panic, A knife in the dark" for a stressed state, not "set". */
function shownEntry(entry) {
  const words = Object.values(entry)
    .filter((value) => typeof value === 'string' || typeof value === 'number')
    .map((value) => (typeof value === 'string' && /^[a-z][a-zA-Z-]*$/.test(value) ? title(value) : String(value)))
  return words.length ? words.join(', ') : 'set'
}

/** Each value an undo puts back, as "Emotions › Fear: 1 → 0", read from the sheet's merge patch. */
function lines(patch, now, path = []) {
  const shownToTheGm = Object.entries(patch).filter(([key]) => path.length || !RULES_BOOKKEEPING.has(key))
  return shownToTheGm.flatMap(([key, value]) => {
    const current = now?.[key]
    const here = [...path, title(key)]
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object')
      return lines(value, current, here)
    return [`${here.join(' › ')}: ${shown(current)} → ${shown(value)}`]
  })
}

/**
 * What taking back `event` does to the sheet: every value it changed, back as it was (notches,
 * derived abilities, conditions…), so the GM sees the knock-on before confirming.
 * @param {import('./api-types.js').Event} event
 */
async function knockOn(event) {
  const full = await api(`${campaignPath()}/events/${encodeURIComponent(event.id)}`)
  const patch = changes(full.sheetBefore ?? {}, full.sheetAfter ?? {})
  const all = patch ? lines(patch, full.sheetAfter) : []
  return all.length > MAX_LINES ? [...all.slice(0, MAX_LINES), `…and ${all.length - MAX_LINES} more`] : all
}

/**
 * Takes `event` back after the GM confirms, naming it and its knock-on. Nerve reverts only a
 * character's latest event (409 otherwise): an earlier one is refused here with the reason.
 * @param {import('./api-types.js').Event} event
 */
export async function undoEvent(event) {
  const name = characters.get(event.characterId)?.name ?? 'the character'
  const latest = await latestEventOf(event.characterId)
  if (latest?.id !== event.id) {
    setStatus(
      `#${event.seq} cannot be undone: only ${name}’s latest event can, and #${latest?.seq} (${latest?.summary}) came after it. Undo that first.`,
      true,
    )
    return
  }
  const undoingAnUndo = event.type === 'revert'
  const effects = await knockOn(event)
  const sure = await confirmWith({
    heading: undoingAnUndo ? `Put back what #${event.seq} undid?` : `Undo #${event.seq} for ${name}?`,
    text: `${undoingAnUndo ? 'This takes back the undo' : 'This takes back'} #${event.seq} (${event.summary}) and puts ${name}’s sheet back as it was before it. The history keeps both.${effects.length ? ' It changes:' : ' It changes nothing on the sheet.'}`,
    list: effects,
    yes: undoingAnUndo ? 'Put it back' : `Undo #${event.seq}`,
  })
  if (!sure) {
    setStatus(`Nothing undone: #${event.seq} stands.`)
    return
  }
  const answer = await post(`${campaignPath()}/characters/${encodeURIComponent(event.characterId)}/revert`, {
    eventId: event.id,
  })
  if (answer.event) addToFeed(answer.event, true)
  if (answer.character) upsertCharacter(answer.character)
  setStatus(`Undone for ${name}: #${event.seq}, ${event.summary}`)
  // The answer under the roll form no longer stands when it is the event just taken back.
  const result = $('action-result')
  if (result.dataset.eventId === event.id) result.textContent = `Undone: #${event.seq}, ${event.summary}`
}

/**
 * The character's Undo: takes back the latest change that is not itself an undo. Nerve reverts
 * only the latest event, so when that is an undo, nothing before it can be taken back: the GM
 * is told why instead of the undo being undone.
 */
export async function revertLatest(characterId, button) {
  const character = characters.get(characterId)
  button.disabled = true
  try {
    const latest = await latestEventOf(characterId)
    if (!latest || latest.type === 'character.created') {
      setStatus(`Nothing to undo for ${character?.name}: no change since it was added.`, true)
    } else if (latest.type === 'revert') {
      setStatus(
        `Nothing more to undo for ${character?.name}: the latest change is already an undo (#${latest.seq}, ${latest.summary}). Only the latest event can be taken back; to put #${latest.outcome?.reverted?.seq ?? 'it'} back, use Put back on #${latest.seq} in the live rolls.`,
        true,
      )
    } else {
      await undoEvent(latest)
    }
  } catch (error) {
    setStatus(`Could not undo ${character?.name}’s latest event: ${error.message}`, true)
  } finally {
    button.disabled = false
  }
}
