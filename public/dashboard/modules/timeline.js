// @ts-check
import { characterEvents } from './api.js'
import { $, h } from './dom.js'
import { eventLabel } from './event-names.js'
import { pointOut } from './feed.js'
import { table } from './rulesets/parts.js'
import { session } from './session.js'
import { drawChart, pointsOf, swatch } from './timeline/chart.js'
import { PICTURES } from './timeline/series.js'

/**
 * The timelines open, by character id: the character's events as this key may see them (a player
 * key never gets a GM-only event), each with the sheet after it, and the event picked last.
 * @type {Map<string, { character: any, frames: import('./timeline/series.js').Frame[], selected: number | null }>}
 */
const open = new Map()

export const timelineOpen = (characterId) => open.has(characterId)

/** A campaign opens with every timeline closed. */
export function closeTimelines() {
  open.clear()
}

/** The sheet after each event: an event that changes none carries the one before it. */
function framesOf(events) {
  let sheet = null
  return events.flatMap((event) => {
    sheet = event.sheetAfter ?? sheet ?? event.sheetBefore ?? null
    return sheet ? [{ event, sheet }] : []
  })
}

/**
 * The character card's Timeline button: opens the timeline under the card, or closes it. The
 * card is drawn again for each new version, so an open timeline keeps the newest name from here.
 */
export function timelineButton(character) {
  const state = open.get(character.id)
  if (state) state.character = character
  const button = h(
    'button',
    {
      type: 'button',
      class: 'secondary small',
      'aria-label': `Timeline of ${character.name}`,
      'aria-expanded': String(timelineOpen(character.id)),
      'aria-controls': `timeline-${character.id}`,
    },
    'Timeline',
  )
  button.addEventListener('click', () => toggleTimeline(character, button))
  return button
}

async function toggleTimeline(character, button) {
  const slot = $(`timeline-${character.id}`)
  if (open.has(character.id)) {
    open.delete(character.id)
    slot.replaceChildren()
    button.setAttribute('aria-expanded', 'false')
    return
  }
  button.setAttribute('aria-expanded', 'true')
  open.set(character.id, { character, frames: [], selected: null })
  slot.replaceChildren(h('p', { class: 'hint', role: 'status' }, 'Reading the history…'))
  try {
    const frames = framesOf(await characterEvents(character.id))
    const state = open.get(character.id)
    if (!state) return
    state.frames = frames
    draw(character.id)
  } catch (error) {
    slot.replaceChildren(
      h('p', { class: 'status error', role: 'status' }, `Could not read the history: ${error.message}`),
    )
  }
}

/** A new event of a character whose timeline is open is added to it as it arrives. */
export function extendTimeline(event) {
  const state = event.characterId ? open.get(event.characterId) : null
  if (!state || state.frames.some((frame) => frame.event.seq === event.seq)) return
  const known = state.frames.map((frame) => ({ ...frame.event, sheetAfter: frame.sheet }))
  state.frames = framesOf([...known, event].sort((a, b) => a.seq - b.seq))
  draw(event.characterId)
}

function pick(characterId, seq) {
  const state = open.get(characterId)
  if (!state) return
  state.selected = seq
  draw(characterId)
  const frame = state.frames.find((known) => known.event.seq === seq)
  const inFeed = pointOut(seq)
  const picked = $(`timeline-${characterId}`).querySelector('.timeline-picked')
  picked.textContent = frame
    ? `${eventLabel(frame.event)}: ${frame.event.summary}. ${
        inFeed ? 'Highlighted in Live rolls.' : 'Older than the events Live rolls keeps.'
      }`
    : ''
}

function draw(characterId) {
  const state = open.get(characterId)
  const slot = $(`timeline-${characterId}`)
  if (!state || !slot) return
  const { character, frames, selected } = state
  const build = PICTURES[character.ruleset]
  const rulesetName = session.ruleset?.title ?? character.ruleset
  const heading = `Timeline of ${character.name} · ${rulesetName}`
  if (!build || !frames.length) {
    slot.replaceChildren(h('p', { class: 'none' }, `${heading}: no events yet.`))
    return
  }
  const picture = build(frames, session.ruleset?.tables ?? {}, session.campaign?.settings)
  const focused = slot.contains(document.activeElement) ? document.activeElement : null
  const focusedKey = focused?.classList.contains('point')
    ? `.point[data-seq="${focused.getAttribute('data-seq')}"][data-series="${CSS.escape(focused.getAttribute('data-series'))}"]`
    : null
  const headingId = `timeline-${characterId}-heading`
  const hidden = frames.some((frame) => frame.event.visibility === 'gm')
  const section = h(
    'section',
    { class: 'timeline', 'aria-labelledby': headingId },
    h('h4', { id: headingId }, heading),
    picture.panels.length
      ? drawChart(picture, frames, {
          name: heading,
          room: slot.clientWidth,
          selected,
          onPick: (seq) => pick(characterId, seq),
        })
      : h('p', { class: 'none' }, 'Nothing to plot yet.'),
    legend(picture, hidden),
    picture.quiet.length ? h('p', { class: 'none' }, `Unchanged throughout: ${picture.quiet.join(', ')}.`) : null,
    h('p', { class: 'timeline-picked', role: 'status' }),
    h(
      'details',
      { class: 'timeline-data' },
      h('summary', {}, 'The timeline as a table'),
      dataTable(heading, picture, frames),
    ),
  )
  // A redraw keeps what the GM had open: the picked event's words and the table.
  section.querySelector('.timeline-picked').textContent = slot.querySelector('.timeline-picked')?.textContent ?? ''
  section.querySelector('details').open = slot.querySelector('details')?.open ?? false
  slot.replaceChildren(section)
  if (focusedKey) /** @type {HTMLElement | null} */ (section.querySelector(focusedKey))?.focus()
}

/** One entry per look: a meter's notches look alike in every meter's panel. */
function legend(picture, hidden) {
  const entries = new Map()
  for (const panel of picture.panels)
    for (const series of panel.series) entries.set(series.legend ?? series.label, [series.style ?? 0, panel.kind])
  const items = [...entries].map(([label, [style, kind]]) => h('li', {}, swatch(style, kind), ` ${label}`))
  if (hidden) items.push(h('li', {}, h('span', { class: 'gm-key', 'aria-hidden': 'true' }, 'GM'), ' GM-only event'))
  items.push(h('li', { class: 'hint' }, 'Hollow marker: gone or ended'))
  return h('ul', { class: 'timeline-legend', 'aria-label': 'Legend' }, items)
}

/** The chart's text alternative: a row per event, a column per series, what changed marked. */
function dataTable(heading, picture, frames) {
  const columns = picture.panels.flatMap((panel) => panel.series.map((series) => ({ panel, series })))
  const changes = new Map(
    columns.map(({ panel, series }) => [
      series.id,
      new Set(pointsOf(panel, series, frames).map((point) => point.index)),
    ]),
  )
  const rows = frames.map(({ event }, index) =>
    h(
      'tr',
      { 'data-seq': event.seq },
      h('th', { scope: 'row' }, eventLabel(event)),
      columns.map(({ panel, series }) => {
        const value = series.values[index]
        const text = value === null ? (panel.kind === 'lanes' ? '—' : 'none') : String(value)
        return h('td', { class: changes.get(series.id).has(index) ? 'changed' : undefined }, text)
      }),
    ),
  )
  const wrap = h(
    'div',
    // Focusable, so that a keyboard scrolls it when it is wider than the card.
    { class: 'table-wrap', tabindex: 0 },
    table(heading, ['Event', ...columns.map(({ series }) => series.label)], rows, { class: 'timeline-table' }),
  )
  return [h('p', { class: 'hint' }, 'Bold: changed by that event.'), wrap]
}
