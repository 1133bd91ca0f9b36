// @ts-check
import { title } from '../dom.js'
import { ordered } from '../rulesets/parts.js'
import { BEHAVIOUR_DURATIONS, DURATIONS } from '../rulesets/trauma-table.js'

/**
 * What each rule set's timeline plots, from the character's sheet after each of its events (a
 * frame). A `lines` panel has numeric series (null where the thing is absent); a `lanes` panel
 * has one lane per effect, whose value is how long it lasts while it is active (else null).
 * `quiet` names what did not change, with its value, and is left out of the picture.
 *
 * @typedef {{ event: import('../api-types.js').Event, sheet: any }} Frame
 * @typedef {{ id: string, label: string, legend?: string, style?: number, values: (number | null)[] }} LineSeries
 * @typedef {{ id: string, label: string, legend?: string, style?: number, values: (string | null)[] }} Lane
 * @typedef {{ kind: 'lines', title: string, max: number, series: LineSeries[] }
 *   | { kind: 'lanes', title: string, series: Lane[] }} Panel
 * @typedef {{ panels: Panel[], quiet: string[] }} Picture
 */

const changes = (series) => series.values.some((value) => value !== series.values[0])

/** The keys of a record across every frame, in the rule set's order. */
function keysOf(frames, read, order = []) {
  const all = {}
  for (const frame of frames) Object.assign(all, read(frame.sheet) ?? {})
  return ordered(order, all).map(([key]) => key)
}

/**
 * A lines panel of the series that change; those that do not are named in `quiet` with their
 * value. `whole` keeps every series of the panel when one changes (a meter's two notches).
 * Styles follow on from `firstStyle`, so no two series of a picture look alike.
 * @returns {Panel[]}
 */
function linesPanel(panelTitle, max, series, quiet, { firstStyle = 0, whole = false } = {}) {
  const kept = whole && series.some(changes) ? series : series.filter(changes)
  for (const one of series) if (!kept.includes(one)) quiet.push(`${one.label} ${one.values[0] ?? 'none'}`)
  const top = Math.max(max, ...kept.flatMap((one) => one.values.filter((value) => value !== null)))
  const styled = kept.map((one, index) => ({ style: firstStyle + index, ...one }))
  return kept.length ? [{ kind: 'lines', title: panelTitle, max: top, series: styled }] : []
}

/**
 * @param {Frame[]} frames
 * @returns {Picture}
 */
function shockMeters(frames, tables) {
  const limits = tables.limits ?? { hardened: 9, failed: 5 }
  const meters = keysOf(frames, (sheet) => sheet.meters, Object.keys(tables.meterAbilities ?? {}))
  const quiet = []
  const panels = meters.flatMap((meter) =>
    linesPanel(
      `${title(meter)} meter`,
      limits.hardened,
      ['hardened', 'failed'].map((notch, style) => ({
        id: `${meter}-${notch}`,
        label: `${title(meter)} ${notch}`,
        legend: `${title(notch)} notches`,
        style,
        values: frames.map((frame) => frame.sheet.meters?.[meter]?.[notch] ?? null),
      })),
      quiet,
      { whole: true },
    ),
  )
  return { panels, quiet }
}

/**
 * @param {Frame[]} frames
 * @returns {Picture}
 */
function traumaTable(frames) {
  const traumas = new Map()
  for (const frame of frames) for (const trauma of frame.sheet.lastingTraumas ?? []) traumas.set(trauma.id, trauma.name)
  const severity = [...traumas].map(([id, name]) => ({
    id: `trauma-${id}`,
    label: `${name} severity`,
    values: frames.map((frame) => frame.sheet.lastingTraumas?.find((trauma) => trauma.id === id)?.severity ?? null),
  }))
  const effectsOf = (sheet) => [
    ...(sheet.conditions ?? []).map((entry) => [entry.name, DURATIONS[entry.duration] ?? entry.duration]),
    ...(sheet.behaviours ?? []).map((entry) => [
      title(entry.behaviour),
      BEHAVIOUR_DURATIONS[entry.duration] ?? entry.duration,
    ]),
    ...(sheet.saveDisadvantages ?? []).map((entry) => [
      `${title(entry.save)} saves at a disadvantage`,
      'until the end of the scene',
    ]),
  ]
  const effects = [...new Set(frames.flatMap((frame) => effectsOf(frame.sheet).map(([name]) => name)))]
  const lanes = effects.map((name, index) => ({
    id: `effect-${name}`,
    label: name,
    style: traumas.size + index,
    values: frames.map((frame) => effectsOf(frame.sheet).find(([active]) => active === name)?.[1] ?? null),
  }))
  const quiet = []
  const panels = [
    ...linesPanel('Lasting trauma severity', 100, severity, quiet),
    ...(lanes.length ? [/** @type {Panel} */ ({ kind: 'lanes', title: 'Active effects', series: lanes })] : []),
  ]
  if (!traumas.size) quiet.push('Lasting traumas: none')
  if (!lanes.length) quiet.push('Active effects: none')
  return { panels, quiet }
}

/**
 * @param {Frame[]} frames
 * @returns {Picture}
 */
function reactionRolls(frames, tables, settings) {
  const emotionLabel = (emotion) => tables.emotions?.find((entry) => entry.emotion === emotion)?.label ?? title(emotion)
  const emotions = keysOf(
    frames,
    (sheet) => sheet.emotions,
    (tables.emotions ?? []).map((entry) => entry.emotion),
  )
  const abilities = keysOf(frames, (sheet) => sheet.abilities)
  const quiet = []
  const emotionPanel = linesPanel(
    'Emotions (stage)',
    settings?.emotionTopStage ?? 5,
    emotions.map((emotion) => ({
      id: `emotion-${emotion}`,
      label: emotionLabel(emotion),
      values: frames.map((frame) => frame.sheet.emotions?.[emotion] ?? null),
    })),
    quiet,
  )
  const panels = [
    ...emotionPanel,
    ...linesPanel(
      'XP',
      settings?.xpTrackLength ?? 5,
      abilities.map((ability) => ({
        id: `xp-${ability}`,
        label: `${title(ability)} XP`,
        values: frames.map((frame) => frame.sheet.abilities?.[ability]?.xp ?? null),
      })),
      quiet,
      { firstStyle: emotionPanel[0]?.series.length ?? 0 },
    ),
  ]
  return { panels, quiet }
}

/**
 * Each rule set's picture, by rule set id.
 * @type {Record<string, (frames: Frame[], tables: any, settings: any) => Picture>}
 */
export const PICTURES = {
  'shock-meters': shockMeters,
  'trauma-table': traumaTable,
  'reaction-rolls': reactionRolls,
}
