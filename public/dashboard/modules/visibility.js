// @ts-check
import { characters } from './characters.js'
import { $ } from './dom.js'
import { namingActions } from './event-names.js'
import { recentEventsOf, revealed } from './feed.js'
import { session } from './session.js'

/**
 * What "As the rules decide" will record for the action being prepared, and why, from what the
 * console knows: the roll that left a decision open (seen in the feed or an answer) and whether
 * GM-only events changed the sheet (`hiddenFromPlayers`). Nerve decides on the server; this
 * only tells the GM beforehand, and says why "Everyone" deserves a second thought.
 */
export function visibilityCase() {
  const character = characters.get($('action-character').value)
  const action = session.ruleset?.actions.find((entry) => entry.name === $('action-name').value)
  if (!character || !action) return null
  if (action.kind === 'decision') {
    const opening = [...recentEventsOf(character.id)]
      .reverse()
      .find((event) => event.pending?.some((decision) => decision.action === action.name))
    if (opening?.visibility === 'gm' && !revealed.has(opening.id)) {
      return {
        hint: 'GM only: follows a GM-only roll.',
        why: `This settles a roll of ${character.name} made behind the screen (#${opening.seq}): players have not seen it.`,
      }
    }
  }
  if (character.hiddenFromPlayers) {
    return {
      hint: `May be GM only: part of ${character.name}’s sheet is hidden from players, and Nerve keeps the result from them if it would show what the hidden rolls did.`,
      why: `Part of ${character.name}’s sheet is hidden from players: rolls made behind the screen changed it.`,
    }
  }
  return { hint: 'Everyone: nothing hidden from players is involved.' }
}

export function refreshVisibilityHint() {
  $('visibility-hint').textContent = visibilityCase()?.hint ?? ''
}

/** Every action starts from the rules' choice: a choice made for one never carries over to the next. */
export function resetVisibility() {
  $('visibility-rules').checked = true
  refreshVisibilityHint()
}

/** The recorded visibility and Nerve's reason, in a sentence for the GM: the console's words for the API's. */
export function visibilityLine(answer) {
  // The rules' own choice with nothing hidden involved: the hint before the roll said it already.
  if (answer.visibilityReason?.code === 'default')
    return 'Recorded for everyone: nothing hidden from players is involved.'
  const recorded = answer.event?.visibility === 'gm' ? 'Recorded GM only.' : 'Recorded for everyone.'
  const detail = namingActions(answer.visibilityReason?.detail ?? '')
    .replace(/send "visibility": "public"/gi, 'choose Everyone')
    .replace(/send "visibility": "gm"/gi, 'choose GM only')
  return detail ? `${recorded} ${detail}` : recorded
}
