// @ts-check
import { h } from '../dom.js'
import { eventLabel } from '../event-names.js'

const SVG = 'http://www.w3.org/2000/svg'
/** Colours, marker shapes and dash patterns a series cycles through (timeline.css): never colour alone. */
export const STYLES = 6
const SHAPES = ['circle', 'square', 'triangle', 'diamond', 'down', 'plus']
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '', '6 3']

const MIN_STEP = 46
const MAX_STEP = 90
const LEFT = 40
const RIGHT = 24
const LINES_HEIGHT = 84
const LANE_HEIGHT = 30
const TITLE_HEIGHT = 22
const GAP = 12
const AXIS_HEIGHT = 34

/** An SVG element; like `h`, text is never parsed as markup. */
function s(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) element.setAttribute(name, String(value))
  }
  for (const child of children.flat()) {
    if (child) element.append(child instanceof Node ? child : document.createTextNode(String(child)))
  }
  return element
}

/** A marker of the series' shape centred on (x, y); `hollow` when what it marks has gone. */
export function marker(style, x, y, hollow = false) {
  const shape = SHAPES[style % STYLES]
  const r = 5
  const props = { class: `marker${hollow ? ' hollow' : ''}` }
  if (shape === 'circle') return s('circle', { ...props, cx: x, cy: y, r })
  if (shape === 'square') return s('rect', { ...props, x: x - r, y: y - r, width: 2 * r, height: 2 * r })
  const path = {
    triangle: `M${x},${y - r - 1}L${x + r + 1},${y + r}L${x - r - 1},${y + r}Z`,
    diamond: `M${x},${y - r - 1}L${x + r + 1},${y}L${x},${y + r + 1}L${x - r - 1},${y}Z`,
    down: `M${x - r - 1},${y - r}L${x + r + 1},${y - r}L${x},${y + r + 1}Z`,
    plus: `M${x - 2},${y - r - 1}h4v${r - 1}h${r - 1}v4h-${r - 1}v${r - 1}h-4v-${r - 1}h-${r - 1}v-4h${r - 1}Z`,
  }[shape]
  return s('path', { ...props, d: path })
}

/** A legend's swatch: the series' line (a lane's bar) and marker. */
export function swatch(style, kind) {
  const line =
    kind === 'lanes'
      ? s('line', { class: 'lane', x1: 5, y1: 7, x2: 29, y2: 7 })
      : s('line', { class: 'line', x1: 1, y1: 7, x2: 33, y2: 7, 'stroke-dasharray': DASHES[style % STYLES] || null })
  return s(
    'svg',
    { class: `swatch series-${style % STYLES}`, width: 34, height: 14, viewBox: '0 0 34 14', 'aria-hidden': 'true' },
    line,
    marker(style, kind === 'lanes' ? 5 : 17, 7),
  )
}

const changed = (before, now) => (before ?? null) !== (now ?? null)

/**
 * The points of a series: one where its value changes (or first shows), named by what happened.
 * @param {import('./series.js').Panel} panel
 * @param {any} series
 * @param {import('./series.js').Frame[]} frames
 */
export function pointsOf(panel, series, frames) {
  const points = []
  series.values.forEach((value, index) => {
    // What a character starts with is a point when it is something: a notch, a trauma, an effect.
    const before = index === 0 ? (value === null ? null : panel.kind === 'lines' ? 0 : null) : series.values[index - 1]
    if (!changed(before, value)) return
    const { event } = frames[index]
    const what = eventLabel(event)
    let happened
    if (value === null) happened = `${series.label} ${panel.kind === 'lines' ? 'gone' : 'ended'}`
    else if (panel.kind === 'lanes') happened = `${series.label}, ${value}`
    else happened = `${series.label} ${value}${before !== null && index > 0 ? ` (was ${before})` : ''}`
    points.push({ index, value, seq: event.seq, name: `${what}: ${happened}` })
  })
  return points
}

const panelHeight = (panel) => (panel.kind === 'lines' ? LINES_HEIGHT : panel.series.length * LANE_HEIGHT)

/** Room for each lane's label ("Frightened, until the end of the scene") right of where it starts. */
function labelsEnd(picture, x) {
  const ends = picture.panels.flatMap((panel) =>
    panel.kind === 'lanes'
      ? panel.series.flatMap((lane) =>
          lane.values.map((value, index) =>
            value === null ? 0 : x(index) + 14 + 6.2 * `${lane.label}, ${value}`.length,
          ),
        )
      : [],
  )
  return Math.max(0, ...ends)
}

/**
 * The timeline as one SVG: a panel under the other, one column per event, numbered as the feed
 * numbers events; the columns spread over `room` pixels, or scroll when there are too many.
 * Each point is a button (one tab stop, arrow keys between points).
 * @param {import('./series.js').Picture} picture
 * @param {import('./series.js').Frame[]} frames
 * @param {{ name: string, room: number, selected: number | null, onPick: (seq: number) => void }} options
 */
export function drawChart(picture, frames, { name, room, selected, onPick }) {
  const columns = Math.max(frames.length - 1, 1)
  const step = Math.max(MIN_STEP, Math.min(MAX_STEP, (room - LEFT - RIGHT) / columns))
  const x = (index) => LEFT + index * step
  const width = Math.ceil(Math.max(x(columns) + RIGHT, labelsEnd(picture, x)))
  const layers = {
    plots: s('g', { 'aria-hidden': 'true' }),
    columns: s('g', { 'aria-hidden': 'true' }),
    marks: s('g', { 'aria-hidden': 'true' }),
    text: s('g', { 'aria-hidden': 'true' }),
    points: s('g', {}),
  }
  const plotWidth = x(columns) - LEFT + 20
  let top = 0
  for (const panel of picture.panels) {
    layers.text.append(s('text', { class: 'panel-title', x: 4, y: top + 14 }, panel.title))
    top += TITLE_HEIGHT
    const height = panelHeight(panel)
    layers.plots.append(s('rect', { class: 'plot', x: LEFT - 10, y: top, width: plotWidth, height }))
    frames.forEach(({ event }, index) => {
      const hidden = event.visibility === 'gm'
      const column = { x1: x(index), x2: x(index), y1: top, y2: top + height }
      layers.columns.append(s('line', { class: `column${hidden ? ' gm-only' : ''}`, ...column }))
    })
    if (panel.kind === 'lines') drawLines(panel, frames, { top, height, x, layers })
    else drawLanes(panel, frames, { top, x, step, layers })
    top += height + GAP
  }
  frames.forEach(({ event }, index) => {
    if (event.seq === selected)
      layers.plots.append(s('rect', { class: 'picked', x: x(index) - step / 2, y: 0, width: step, height: top + 30 }))
    layers.text.append(s('text', { class: 'seq', x: x(index), y: top + 12 }, `#${event.seq}`))
    if (event.visibility === 'gm')
      layers.text.append(s('text', { class: 'seq gm-only', x: x(index), y: top + 26 }, 'GM'))
  })
  const svg = s(
    'svg',
    {
      class: 'timeline-chart',
      width,
      height: top + AXIS_HEIGHT,
      viewBox: `0 0 ${width} ${top + AXIS_HEIGHT}`,
      role: 'group',
      'aria-label': `${name}: each point is an event; arrow keys move between points, Enter opens the event`,
    },
    Object.values(layers),
  )
  roving(svg, selected, onPick)
  return h('div', { class: 'timeline-scroll' }, svg)
}

function drawLines(panel, frames, { top, height, x, layers }) {
  const y = (value) => top + height - 6 - ((height - 12) * value) / panel.max
  for (const tick of [0, Math.round(panel.max / 2), panel.max]) {
    layers.text.append(s('text', { class: 'tick', x: LEFT - 14, y: y(tick) + 4 }, String(tick)))
    layers.plots.append(
      s('line', { class: 'tick-line', x1: LEFT - 10, x2: x(frames.length - 1) + 10, y1: y(tick), y2: y(tick) }),
    )
  }
  for (const series of panel.series) {
    const style = (series.style ?? 0) % STYLES
    const runs = []
    series.values.forEach((value, index) => {
      if (value === null) return
      const point = `${x(index)},${y(value)}`
      if (index > 0 && series.values[index - 1] !== null) runs.at(-1).push(point)
      else runs.push([point])
    })
    const dash = DASHES[style] || null
    for (const run of runs)
      layers.marks.append(
        s('polyline', { class: `line series-${style}`, points: run.join(' '), 'stroke-dasharray': dash }),
      )
    for (const point of pointsOf(panel, series, frames))
      layers.points.append(button(point, series, x(point.index), y(point.value ?? 0)))
  }
}

function drawLanes(panel, frames, { top, x, step, layers }) {
  panel.series.forEach((lane, row) => {
    const style = (lane.style ?? 0) % STYLES
    const cy = top + row * LANE_HEIGHT + LANE_HEIGHT - 9
    let start = null
    lane.values.forEach((value, index) => {
      const last = index === lane.values.length - 1
      if (value !== null && start === null) start = index
      if (value === null || (!last && lane.values[index + 1] === value)) return
      const end = x(index) + (last ? 10 : step / 2)
      layers.marks.append(s('line', { class: `lane series-${style}`, x1: x(start), x2: end, y1: cy, y2: cy }))
      layers.text.append(s('text', { class: 'lane-label', x: x(start) + 8, y: cy - 7 }, `${lane.label}, ${value}`))
      start = null
    })
    for (const point of pointsOf(panel, lane, frames)) layers.points.append(button(point, lane, x(point.index), cy))
  })
}

function button(point, series, cx, cy) {
  return s(
    'g',
    {
      class: `point series-${(series.style ?? 0) % STYLES}`,
      role: 'button',
      tabindex: -1,
      'aria-label': point.name,
      'data-seq': point.seq,
      'data-series': series.id,
    },
    s('circle', { class: 'hit', cx, cy, r: 12 }),
    marker(series.style ?? 0, cx, cy, point.value === null),
  )
}

/** One tab stop for the whole chart: arrows and Home/End move between points, Enter or Space opens. */
function roving(svg, selected, onPick) {
  const seqOf = (point) => Number(point.getAttribute('data-seq'))
  // In time order; at one event, panel by panel.
  const points = () => [...svg.querySelectorAll('.point')].sort((a, b) => seqOf(a) - seqOf(b))
  const first = points().find((point) => seqOf(point) === selected) ?? points()[0]
  first?.setAttribute('tabindex', '0')
  const focus = (point) => {
    for (const other of points()) other.setAttribute('tabindex', other === point ? '0' : '-1')
    point.focus()
  }
  svg.addEventListener('click', (clickEvent) => {
    const point = /** @type {Element} */ (clickEvent.target).closest('.point')
    if (!point) return
    focus(point)
    onPick(seqOf(point))
  })
  svg.addEventListener('keydown', (keyEvent) => {
    const point = /** @type {Element} */ (keyEvent.target).closest('.point')
    if (!point) return
    const all = points()
    const at = all.indexOf(point)
    const to = {
      ArrowRight: at + 1,
      ArrowDown: at + 1,
      ArrowLeft: at - 1,
      ArrowUp: at - 1,
      Home: 0,
      End: all.length - 1,
    }[keyEvent.key]
    if (to !== undefined) {
      keyEvent.preventDefault()
      focus(all[Math.max(0, Math.min(all.length - 1, to))])
    } else if (keyEvent.key === 'Enter' || keyEvent.key === ' ') {
      keyEvent.preventDefault()
      onPick(seqOf(point))
    }
  })
}
