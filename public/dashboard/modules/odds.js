// @ts-check
import { actionFields, actionRequest } from './action-form.js'
import { CHARACTER_ROUTE, post } from './api.js'
import { characters } from './characters.js'
import { $, h, title } from './dom.js'
import { campaignPath, session } from './session.js'

/** The lists of an odds answer that hold the chance of each way a roll ends, and what names each entry. */
/** @type {[string, (entry: any) => string][]} */
const ODDS_LISTS = [
  ['outcomes', (entry) => entry.outcome ?? entry.tier],
  ['effects', (entry) => entry.effect],
  ['rows', (entry) => entry.name],
  ['bands', (entry) => entry.band],
  ['verdicts', (entry) => entry.verdict],
]
const ODDS_FACTS = [
  ['pass', 'Passes'],
  ['fail', 'Fails'],
  ['fifthFailedNotch', 'Fifth failed notch'],
  ['relationshipFallsToZero', 'Relationship falls to 0%'],
]
const ODDS_CAPTIONS = {
  outcomes: 'Chance of each outcome',
  effects: 'Chance of each effect',
  rows: 'Chance of each trauma',
  bands: 'Chance of each band',
  verdicts: 'How the roll ends',
}

const percent = (probability) => `${probability.percent}%`

/** One table per list, the outcomes that cannot happen left out. */
function oddsTable(key, entries, nameOf) {
  const possible = entries.filter((entry) => entry.probability.fraction !== '0/1')
  return h(
    'table',
    { class: 'odds-table' },
    h('caption', {}, ODDS_CAPTIONS[key]),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Outcome'),
        h('th', { scope: 'col', class: 'number' }, 'Chance'),
        h('th', { scope: 'col' }, 'Exactly'),
      ),
    ),
    h(
      'tbody',
      {},
      possible.map((entry) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, title(nameOf(entry))),
          h('td', { class: 'number' }, percent(entry.probability)),
          h('td', { class: 'exact' }, entry.probability.fraction),
        ),
      ),
    ),
  )
}

function passionLine(entry) {
  const use = (label, choice) =>
    choice.usable ? `${label} passes ${percent(choice.odds.pass)}` : `no ${label}: ${choice.because}`
  return `${title(entry.passion)}${entry.named ? ' (in play)' : ''}: ${use('re-roll on a failure', entry.reroll)}; ${use('flip-flop when it helps', entry.flipFlop)}`
}

function renderOdds(odds) {
  const parts = []
  for (const [key, nameOf] of ODDS_LISTS) {
    if (Array.isArray(odds[key])) parts.push(oddsTable(key, odds[key], nameOf))
  }
  const facts = ODDS_FACTS.filter(([key]) => odds[key]).map(([key, label]) => `${label}: ${percent(odds[key])}`)
  if (odds.successIfRetrieved) {
    const retrieved = odds.successIfRetrieved
    facts.push(
      retrieved.possible
        ? `Success if the roll is retrieved: ${percent(retrieved.probability)}`
        : `No retrieval: ${retrieved.because}`,
    )
  }
  if (odds.selfCheck)
    facts.push(
      `If the therapist fumbles, the Self check: ${odds.selfCheck.outcomes
        .filter((entry) => entry.probability.fraction !== '0/1')
        .map((entry) => `${title(entry.outcome)} ${percent(entry.probability)}`)
        .join(', ')}`,
    )
  for (const entry of odds.passions ?? []) facts.push(passionLine(entry))
  if (facts.length)
    parts.push(
      h(
        'ul',
        { class: 'odds-facts' },
        facts.map((fact) => h('li', {}, fact)),
      ),
    )
  if (odds.sheet === 'as players see it') parts.push(h('p', { class: 'hint' }, 'Counted on the sheet players see.'))
  return parts
}

let oddsTimer = null
/** Each odds call is numbered, so an answer that arrives after a newer call was made is dropped. */
let oddsAsked = 0
/** What the odds shown were asked for: the same question (a field left, say) is not asked again. */
let oddsAskedFor = ''

function oddsRouteOf(action) {
  return session.openapi?.paths?.[`${CHARACTER_ROUTE}${action}/odds`]?.post ? `${action}/odds` : null
}

export function scheduleOdds() {
  clearTimeout(oddsTimer)
  oddsTimer = setTimeout(refreshOdds, 150)
}

/** The odds of the roll as the form now asks it, for the character chosen: shown before Roll is pressed. */
async function refreshOdds() {
  const panel = $('odds')
  const characterId = $('action-character').value
  const route = oddsRouteOf($('action-name').value)
  if (!route || !characterId) {
    ++oddsAsked
    oddsAskedFor = ''
    panel.hidden = true
    return
  }
  const request = actionFields?.read() ?? {}
  const question = JSON.stringify([characterId, route, request, characters.get(characterId)?.version])
  if (question === oddsAskedFor) return
  oddsAskedFor = question
  const asked = ++oddsAsked
  panel.hidden = false
  const summary = $('odds-summary')
  const missing = (actionRequest?.required ?? []).filter((key) => request[key] === undefined)
  if (missing.length) {
    summary.classList.remove('status', 'error')
    summary.textContent = `Fill in ${missing.map(title).join(', ')} to see the odds.`
    $('odds-detail').replaceChildren()
    return
  }
  try {
    const odds = await post(`${campaignPath()}/characters/${encodeURIComponent(characterId)}/${route}`, { request })
    if (asked !== oddsAsked) return
    summary.classList.remove('status', 'error')
    summary.textContent = odds.summary
    $('odds-detail').replaceChildren(...renderOdds(odds))
  } catch (error) {
    if (asked !== oddsAsked) return
    // The form stays usable: the roll itself will say what is wrong, or go ahead.
    summary.classList.add('status', 'error')
    summary.textContent = `No odds for this request: ${error.message}`
    $('odds-detail').replaceChildren()
  }
}
