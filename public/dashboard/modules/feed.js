// @ts-check
import { api, post } from './api.js'
import { characters, upsertCharacter } from './characters.js'
import { confirmWith } from './confirm.js'
import { eventName } from './event-names.js'
import { $, h, title } from './dom.js'
import { setStatus } from './status.js'
import { campaignPath, session } from './session.js'
import { undoEvent } from './undo.js'
import { refreshVisibilityHint } from './visibility.js'

const FEED_LENGTH = 50

/** The seq of the newest event this tab knows of: the live stream resumes after it. */
export let lastSeq = 0
const seen = new Set()
/** Each character's latest events seen (feed, answers): which roll left a decision open, and who saw it. */
const recent = new Map()
/** The events in the feed, by id, to redraw one when it is revealed. */
const feedEvents = new Map()
/** GM-only events revealed to players: event id → the id of the reveal that stands. */
export const revealed = new Map()
/** Events undone: event id → the id of the revert that stands. */
const reverted = new Map()

/** A campaign opens with an empty feed, counted from `seq` on. */
export function resetFeed(seq = 0) {
  for (const known of [seen, recent, feedEvents, revealed, reverted]) known.clear()
  lastSeq = seq
  document.getElementById('feed').replaceChildren()
}

/** The events up to `seq` are known (read from the history): the stream starts after them. */
export function skipTo(seq) {
  lastSeq = Math.max(lastSeq, seq)
}

/** The character's latest events this tab has seen, oldest first. */
export const recentEventsOf = (characterId) => recent.get(characterId) ?? []

function diceText(dice) {
  return dice.map((die) => `d${die.sides}: ${die.face}${die.source === 'provided' ? ' (table)' : ''}`).join(', ')
}

/** What a reveal cannot show (the server says so too): they say nothing of their own. */
const UNREVEALABLE = new Set(['revert', 'reveal', 'character.created', 'character.archived'])

/**
 * @param {import('./api-types.js').Event} event
 * @param {boolean} isNew
 */
function feedItem(event, isNew) {
  const character = event.characterId ? characters.get(event.characterId) : null
  const time = new Date(event.occurredAt)
  const hidden = event.visibility === 'gm'
  const shownToPlayers = hidden && revealed.has(event.id)
  const undone = reverted.has(event.id)
  const canReveal = session.mode === 'gm' && hidden && !shownToPlayers && !undone && !UNREVEALABLE.has(event.type)
  // A reveal carries the event it shows: its dice are that event's.
  const dice = event.type === 'reveal' ? (event.outcome?.revealed?.dice ?? []) : event.dice
  return h(
    'li',
    { class: isNew ? 'new' : undefined, 'data-seq': event.seq, 'data-type': event.type, 'data-event-id': event.id },
    h(
      'span',
      { class: 'feed-meta' },
      `#${event.seq} · `,
      h('time', { datetime: event.occurredAt }, time.toLocaleTimeString()),
      ` · ${eventName(event.type)}`,
      character ? ` · ${character.name}` : '',
      hidden ? (shownToPlayers ? ' · GM only, revealed' : ' · GM only') : '',
      undone ? ' · undone' : '',
    ),
    h('span', { class: 'feed-summary' }, event.summary),
    dice?.length ? h('span', { class: 'dice' }, diceText(dice)) : null,
    ...(event.followUps ?? []).map(followUpItem),
    canReveal ? revealTool(event) : null,
    canUndo(event, undone) ? undoTool(event) : null,
  )
}

/** Any change to a character can be taken back from the feed, while it is that character's latest. */
const canUndo = (event, undone) =>
  session.mode === 'gm' && event.characterId && !undone && event.type !== 'character.created'

/** A feed entry's Undo: confirms with what it would change, or says why it cannot be undone. */
function undoTool(event) {
  const text = event.type === 'revert' ? 'Put back' : 'Undo'
  const button = h('button', { type: 'button', class: 'secondary small', 'aria-label': `${text} #${event.seq}` }, text)
  button.addEventListener('click', async () => {
    button.disabled = true
    try {
      await undoEvent(event)
    } catch (error) {
      setStatus(`Could not undo #${event.seq}: ${error.message}`, true)
    } finally {
      button.disabled = false
    }
  })
  return h('span', { class: 'feed-tools' }, button)
}

/** A GM-only event's Reveal button: after a confirmation, players see the event and what it did. */
function revealTool(event) {
  const button = h(
    'button',
    { type: 'button', class: 'secondary small', 'aria-label': `Reveal #${event.seq} to players` },
    'Reveal',
  )
  const note = h('span', { class: 'feed-note' })
  button.addEventListener('click', () => reveal(event, button, note))
  return h('span', { class: 'feed-tools' }, button, note)
}

async function reveal(event, button, note) {
  const name = event.characterName ?? characters.get(event.characterId)?.name
  const sure = await confirmWith({
    heading: 'Reveal this to players?',
    text: `Players will see #${event.seq} (${event.summary})${name ? ` and what it did to ${name}’s sheet` : ''}: a reveal event tells them, live and in the history. Undo takes the reveal back while it is ${name ? `${name}’s` : 'the'} latest event.`,
    yes: 'Reveal to players',
  })
  if (!sure) return
  button.disabled = true
  note.classList.remove('error')
  note.textContent = ''
  try {
    const answer = await post(`${campaignPath()}/events/${encodeURIComponent(event.id)}/reveal`, {})
    if (answer.event) addToFeed(answer.event, true)
    if (answer.character) upsertCharacter(answer.character)
    revealed.set(event.id, answer.event?.id ?? '')
    redrawFeedItem(event.id)
    setStatus(`Revealed to players: #${event.seq}, ${event.summary}`)
  } catch (error) {
    button.disabled = false
    note.classList.add('error')
    note.textContent = `Not revealed: ${error.message}`
    setStatus(`Could not reveal #${event.seq}: ${error.message}`, true)
  }
}

function redrawFeedItem(eventId) {
  const event = feedEvents.get(eventId)
  const item = document.querySelector(`#feed li[data-event-id="${CSS.escape(eventId)}"]`)
  if (event && item) item.replaceWith(feedItem(event, false))
}

/** Keeps what the console needs of an event: the character's recent events, and which reveals and reverts stand. */
function remember(event) {
  const target = event.causationId
  if (event.type === 'reveal' && target) {
    revealed.set(target, event.id)
    redrawFeedItem(target)
  } else if (event.type === 'revert' && target) {
    reverted.set(target, event.id)
    redrawFeedItem(target)
    // Undoing a reveal hides the event again; undoing a revert brings its event back.
    for (const [id, by] of [...revealed, ...reverted]) {
      if (by !== target) continue
      if (revealed.get(id) === target) revealed.delete(id)
      if (reverted.get(id) === target) reverted.delete(id)
      redrawFeedItem(id)
    }
  }
  if (!event.characterId) return
  const latest = recent.get(event.characterId) ?? []
  if (latest.some((known) => known.seq === event.seq)) return
  latest.push(event)
  latest.sort((a, b) => a.seq - b.seq)
  if (latest.length > FEED_LENGTH) latest.shift()
  recent.set(event.characterId, latest)
  if ($('action-character')?.value === event.characterId) refreshVisibilityHint()
}

/**
 * A roll the result calls for: the GM makes it in one click, at the lowest rank the trigger allows.
 * @param {import('./api-types.js').FollowUp} followUp
 */
function followUpItem(followUp) {
  const label = `${title(followUp.request.meter ?? followUp.action)} ${followUp.ranks.min}–${followUp.ranks.max}`
  const button = h('button', { type: 'button', class: 'follow-up-make' }, `Make the ${label} check`)
  if (session.mode !== 'gm')
    return h('span', { class: 'follow-up' }, `Follow-up: ${label}, because ${followUp.because}`)
  button.addEventListener('click', async () => {
    button.disabled = true
    try {
      await post(followUp.route, { request: followUp.request })
      button.textContent = `${label} check made`
    } catch (error) {
      button.disabled = false
      setStatus(`The follow-up check failed: ${error.message}`, true)
    }
  })
  return h('span', { class: 'follow-up' }, `Follow-up: ${label}, because ${followUp.because} `, button)
}

/**
 * @param {import('./api-types.js').Event} event
 * @param {boolean} isNew
 */
export function addToFeed(event, isNew) {
  remember(event)
  if (session.only && event.characterId !== session.only) return
  if (seen.has(event.seq)) return
  seen.add(event.seq)
  feedEvents.set(event.id, event)
  lastSeq = Math.max(lastSeq, event.seq)
  const feed = $('feed')
  // Newest first, whatever order the answer and the stream arrive in.
  const later = [...feed.children].findLast((item) => Number(item.dataset.seq) > event.seq)
  if (later) later.after(feedItem(event, isNew))
  else feed.prepend(feedItem(event, isNew))
  while (feed.children.length > FEED_LENGTH) {
    feedEvents.delete(feed.lastElementChild.dataset.eventId)
    feed.lastElementChild.remove()
  }
}

/**
 * Shows the GM an event the timeline points at: the feed's entry is marked, scrolled to and
 * announced. False when the feed no longer holds it.
 */
export function pointOut(seq) {
  for (const item of document.querySelectorAll('#feed li.picked')) item.classList.remove('picked')
  const item = document.querySelector(`#feed li[data-seq="${seq}"]`)
  if (!item) return false
  item.classList.add('picked')
  item.scrollIntoView({ block: 'nearest' })
  return true
}

export async function onEvent(event) {
  addToFeed(event, true)
  if (!event.characterId || (session.only && event.characterId !== session.only)) return
  try {
    upsertCharacter(await api(`${campaignPath()}/characters/${event.characterId}`))
  } catch (error) {
    // The event carries the sheet after it: draw that when the character cannot be read.
    const known = characters.get(event.characterId)
    if (known && event.sheetAfter) upsertCharacter({ ...known, sheet: event.sheetAfter, version: known.version + 1 })
    else setStatus(`Could not refresh a character: ${error.message}`, true)
  }
}

/** On a phone the feed is docked showing the latest roll; its button unfolds the earlier ones over the page. */
export function setupFeedToggle() {
  const toggle = $('feed-toggle')
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true'
    toggle.setAttribute('aria-expanded', String(open))
    toggle.closest('.feed').classList.toggle('open', open)
  })
}
