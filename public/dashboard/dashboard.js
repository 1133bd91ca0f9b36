// Nerve GM dashboard and console. No build step: plain ES modules. Keys live in sessionStorage
// (this tab only) and travel in the Authorization header, never in a URL: a player's link
// carries its key in the fragment, which browsers never send, and the page removes it from the
// address bar at once. EventSource cannot send that header, so the live stream is read with
// fetch() and parsed here. Every form is drawn from the API's own schemas (forms.js).

import { field, h, objectField, resolver, title, valueField } from '/dashboard/forms.js'

const STORAGE = {
  campaignId: 'nerve.dashboard.campaignId',
  key: 'nerve.dashboard.gmKey',
  character: 'nerve.dashboard.character',
}
const FEED_LENGTH = 50
const RECONNECT_MS = [1000, 2000, 5000, 10000]
const CHARACTER_ROUTE = '/v1/campaigns/{campaignId}/characters/{characterId}/'

const $ = (id) => document.getElementById(id)

const state = {
  campaignId: '',
  key: '',
  /** `gm` runs the console; `player` is the read-only view of one player's characters. */
  mode: 'gm',
  /** In the player view from a link: the one character shown. */
  only: null,
  campaign: null,
  ruleset: null,
  openapi: null,
  resolve: null,
  characters: new Map(),
  lastSeq: 0,
  seen: new Set(),
  /** Each character's latest events seen (feed, answers): which roll left a decision open, and who saw it. */
  recent: new Map(),
  /** The events in the feed, by id, to redraw one when it is revealed. */
  feedEvents: new Map(),
  /** GM-only events revealed to players: event id → the id of the reveal that stands. */
  revealed: new Map(),
  /** Events undone: event id → the id of the revert that stands. */
  reverted: new Map(),
  abort: null,
}

// ------------------------------------------------------------------ DOM helpers

/**
 * A sheet's entries in the rule set's order: stored sheets come back from PostgreSQL's jsonb,
 * which does not keep key order. Keys the order does not name follow alphabetically.
 */
function ordered(order, record) {
  const rank = (key) => (order.includes(key) ? order.indexOf(key) : order.length)
  return Object.entries(record).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
}

/** A row of boxes: `on` of `total` filled, with the count spelt out for screen readers. */
function boxes(on, total, kind, label) {
  const row = h('span', { class: 'boxes', 'aria-hidden': 'true' })
  for (let i = 0; i < total; i++) row.append(h('span', { class: `box ${kind}${i < on ? ' on' : ''}` }))
  return h('span', {}, row, h('span', { class: 'visually-hidden' }, `${on} of ${total} ${label}`))
}

function badge(text, tone) {
  return h('li', { class: `badge ${tone}` }, text)
}

function facts(entries) {
  return h(
    'dl',
    { class: 'facts' },
    entries.map(([term, value]) => h('div', {}, h('dt', {}, term), h('dd', {}, value))),
  )
}

function list(items, empty) {
  return items.length
    ? h(
        'ul',
        { class: 'plain' },
        items.map((item) => h('li', {}, item)),
      )
    : h('p', { class: 'none' }, empty)
}

function setStatus(text, isError = false) {
  const status = $('status')
  status.textContent = text
  status.classList.toggle('error', isError)
}

function setStreamState(value) {
  const element = $('stream-state')
  element.dataset.state = value
  element.textContent = value
}

// ------------------------------------------------------------------ API

class ApiError extends Error {
  constructor(status, detail) {
    super(detail)
    this.status = status
  }
}

async function api(path, options = {}) {
  const response = await fetch(path, {
    ...options,
    headers: {
      accept: 'application/json',
      ...(state.key ? { authorization: `Bearer ${state.key}` } : {}),
      ...(options.body ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    cache: 'no-store',
  })
  if (!response.ok) {
    let detail = `${response.status} ${response.statusText}`
    try {
      const problem = await response.json()
      detail = problem.detail || problem.title || detail
      const fields = (problem.errors ?? []).map((error) =>
        [error.pointer ?? error.field, error.detail ?? error.message].filter(Boolean).join(': '),
      )
      if (fields.length) detail += ` (${fields.join('; ')})`
    } catch {
      // not a problem document: keep the status line
    }
    throw new ApiError(response.status, detail)
  }
  return response.status === 204 ? null : response.json()
}

const post = (path, body, headers = {}) => api(path, { method: 'POST', body: JSON.stringify(body), headers })

/**
 * A roll whose answer never came (the network failed, or the server answered 5xx) keeps its
 * Idempotency-Key: pressing the button again with the form unchanged sends the same key, and
 * Nerve answers with the roll it made instead of rolling twice.
 */
let unanswered = null

function idempotencyKeyFor(request) {
  if (unanswered?.request !== request) {
    // getRandomValues, unlike randomUUID, also works on a page served over plain HTTP on a LAN.
    const bytes = crypto.getRandomValues(new Uint8Array(16))
    unanswered = { request, key: [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('') }
  }
  return unanswered.key
}

const campaignPath = () => `/v1/campaigns/${encodeURIComponent(state.campaignId)}`

async function loadCharacters() {
  const characters = []
  let after = null
  do {
    const query = new URLSearchParams({ limit: '100' })
    if (after) query.set('after', after)
    const page = await api(`${campaignPath()}/characters?${query}`)
    characters.push(...page.data)
    after = page.hasMore ? page.nextCursor : null
  } while (after)
  return characters
}

/** The character's latest event, the only one a revert may undo. */
async function latestEventOf(characterId) {
  let after = 0
  let last = null
  for (;;) {
    const query = new URLSearchParams({ characterId, sheets: 'none', limit: '100', after: String(after) })
    const page = await api(`${campaignPath()}/events?${query}`)
    if (page.data.length) last = page.data[page.data.length - 1]
    if (!page.hasMore || !page.data.length) return last
    after = page.nextCursor ?? last.seq
  }
}

// ------------------------------------------------------------------ sheets, as a GM draws them

function renderShockMeters(character, tables) {
  const sheet = character.sheet
  const limits = tables.limits ?? { hardened: 9, failed: 5, burnOutTotal: 25 }
  const meterAbilities = tables.meterAbilities ?? {}
  const stressedMeter = sheet.stressed?.meter

  const rows = ordered(Object.keys(meterAbilities), sheet.meters).map(([meter, gauge]) => {
    const abilities = meterAbilities[meter] ?? {}
    const stressedHere = stressedMeter === meter
    return h(
      'tr',
      { class: stressedHere ? 'stressed-row' : undefined },
      h(
        'th',
        { scope: 'row' },
        title(meter),
        stressedHere ? h('span', { class: 'visually-hidden' }, ' (stressed)') : '',
      ),
      h('td', {}, boxes(gauge.hardened, limits.hardened, 'hardened', 'hardened')),
      h('td', {}, boxes(gauge.failed, limits.failed, 'failed', 'failed')),
      h(
        'td',
        { class: 'abilities' },
        `${title(abilities.upbeat ?? '')} ${sheet.abilities[abilities.upbeat] ?? ''} · ${title(abilities.downbeat ?? '')} ${sheet.abilities[abilities.downbeat] ?? ''}`,
      ),
    )
  })

  const badges = []
  if (sheet.burnedOut) badges.push(badge('Burned out', 'bad'))
  if (sheet.stressed) {
    const response = sheet.stressed.response === 'pending' ? 'response pending' : sheet.stressed.response
    badges.push(badge(`Stressed: ${title(sheet.stressed.meter)} — ${response}`, 'bad'))
  }
  badges.push(badge(`${sheet.totalHardened} of ${limits.burnOutTotal} hardened`, 'plain'))

  const passions = ordered(['fear', 'rage', 'noble'], sheet.passions)
    .filter(([, passion]) => passion)
    .map(([name, passion]) => `${title(name)}: ${passion.text}${passion.flipFlopUsed ? ' (flip-flop used)' : ''}`)
  const disorders = sheet.disorders.map(
    (disorder) => `${disorder.name ?? 'Unnamed — GM to record'} (${title(disorder.meter)})`,
  )
  const last = sheet.lastCheck
  return [
    h('ul', { class: 'badges' }, badges),
    h(
      'table',
      { class: 'gauge' },
      h('caption', {}, 'Shock gauge'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Meter'),
          h('th', { scope: 'col' }, 'Hardened'),
          h('th', { scope: 'col' }, 'Failed'),
          h('th', { scope: 'col' }, 'Upbeat · downbeat'),
        ),
      ),
      h('tbody', {}, rows),
    ),
    h('h4', {}, 'Disorders'),
    list(disorders, 'None.'),
    passions.length ? [h('h4', {}, 'Passions'), list(passions, '')] : null,
    last
      ? h(
          'p',
          { class: 'none' },
          `Last check #${last.number}: ${title(last.meter)} ${last.rank} — ${last.result}${last.face ? `, rolled ${String(last.face % 100).padStart(2, '0')}` : ''}.`,
        )
      : null,
  ]
}

const DURATIONS = {
  'next-check': 'until the next check',
  'next-attack': 'until the next attack',
  'next-save': 'until the next save',
  scene: 'until the end of the scene',
  'next-rest': 'until the next rest',
  encounter: 'until the end of the encounter',
  cycle: 'until the next cycle',
  permanent: 'permanent',
}

function renderTraumaTable(character, tables) {
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
      (entry) => `${title(entry.behaviour)} — ${entry.duration === 'next-turn' ? 'next turn' : 'all encounter'}`,
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

function renderReactionRolls(character, tables, settings) {
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
    h(
      'table',
      {},
      h('caption', {}, 'Emotions'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Emotion'),
          h('th', { scope: 'col' }, 'Stages'),
          h('th', { scope: 'col' }, 'Stage'),
        ),
      ),
      h('tbody', {}, emotionRows),
    ),
    h(
      'table',
      {},
      h('caption', {}, 'Abilities'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Ability'),
          h('th', { scope: 'col' }, 'Dice'),
          h('th', { scope: 'col' }, 'XP track'),
          h('th', { scope: 'col' }, 'Flags'),
        ),
      ),
      h('tbody', {}, abilityRows),
    ),
  ]
}

const RENDERERS = {
  'shock-meters': renderShockMeters,
  'trauma-table': renderTraumaTable,
  'reaction-rolls': renderReactionRolls,
}

// ------------------------------------------------------------------ characters

/** The GM's buttons on a character: settle each open decision, edit, undo, hand a player a key. */
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
  )
}

function decisionItem(character, decision) {
  const children = [h('span', { class: 'badge warn' }, 'Open'), ` ${decision.prompt} `, h('code', {}, decision.action)]
  if (state.mode === 'gm') {
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

function renderCharacter(character) {
  const render = RENDERERS[character.ruleset]
  const headingId = `character-${character.id}-name`
  const body = render
    ? render(character, state.ruleset?.tables ?? {}, state.campaign?.settings)
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
    state.mode === 'gm' ? gmTools(character) : null,
    h('div', { class: 'editor-slot', id: `editor-${character.id}` }),
  )
}

const shown = (character) => !character.archivedAt && (!state.only || character.id === state.only)

function showCharacters() {
  const container = $('character-list')
  const visible = [...state.characters.values()].filter(shown)
  container.replaceChildren(...visible.map(renderCharacter))
  $('no-characters').hidden = visible.length > 0
  refreshCharacterChoices()
}

/** Keeps the newest version of a character (answers may arrive out of order) and redraws only it. */
function upsertCharacter(character) {
  const known = state.characters.get(character.id)
  if (known && known.version > character.version) return
  const isNew = !known
  state.characters.set(character.id, character)
  if (!shown(character) && !character.archivedAt) return
  const existing = document.getElementById(`character-${character.id}`)
  if (character.archivedAt) {
    existing?.remove()
  } else if (existing) {
    const fresh = renderCharacter(character)
    fresh.classList.add('updated')
    // An edit in progress survives the redraw.
    const editor = existing.querySelector('.editor-slot')
    if (editor?.childElementCount) fresh.querySelector('.editor-slot').replaceWith(editor)
    existing.replaceWith(fresh)
  } else {
    $('character-list').append(renderCharacter(character))
  }
  $('no-characters').hidden = [...state.characters.values()].some(shown)
  if (isNew || known?.name !== character.name) refreshCharacterChoices()
  if ($('action-character')?.value === character.id) {
    refreshActionHints()
    // The character's sheet changed: so may the odds of the roll being prepared.
    scheduleOdds()
  }
}

// ------------------------------------------------------------------ the console: every action

/** The request body schema of a character action, from the OpenAPI document. */
function actionBody(action) {
  const operation = state.openapi?.paths?.[`${CHARACTER_ROUTE}${action}`]?.post
  const schema = operation?.requestBody?.content?.['application/json']?.schema
  return schema ? state.resolve(schema) : null
}

/** Choices the schemas cannot know: this character's identities, abilities, traumas; the catalogue. */
function hintsFor(character) {
  const sheet = character?.sheet ?? {}
  const options = (values) => values.filter(Boolean).map((value) => ({ value, label: value }))
  const hints = {}
  const triggers = state.ruleset?.tables?.triggers
  if (Array.isArray(triggers)) {
    hints.trigger = {
      strict: true,
      options: triggers.map((trigger) => ({
        value: trigger.id,
        label: `${trigger.label} (${trigger.meters.map(title).join(trigger.meterChoice === 'both' ? ' and ' : ' or ')}${trigger.rank ? `, rank ${trigger.rank.min}–${trigger.rank.max}` : ''})`,
      })),
    }
  }
  if (Array.isArray(sheet.identities))
    hints.identity = { options: options(sheet.identities.map((entry) => entry.name)) }
  if (Array.isArray(sheet.relationships))
    hints.relationship = { options: options(sheet.relationships.map((entry) => entry.name)) }
  if (Array.isArray(sheet.disorders)) hints.disorder = { options: options(sheet.disorders.map((entry) => entry.name)) }
  if (Array.isArray(sheet.lastingTraumas))
    hints.trauma = { options: options(sheet.lastingTraumas.map((entry) => entry.name)) }
  if (sheet.abilities && character.ruleset === 'reaction-rolls') {
    hints.ability = {
      strict: true,
      options: Object.entries(sheet.abilities).map(([name, ability]) => ({
        value: name,
        label: `${title(name)} (${ability.dice})`,
      })),
    }
  }
  return hints
}

const KINDS = [
  ['roll', 'Rolls'],
  ['decision', 'Decisions'],
  ['gm', 'GM actions'],
]

function refreshCharacterChoices() {
  const select = $('action-character')
  if (!select) return
  const current = select.value
  const characters = [...state.characters.values()].filter((character) => !character.archivedAt)
  select.replaceChildren(...characters.map((character) => h('option', { value: character.id }, character.name)))
  if (characters.some((character) => character.id === current)) select.value = current
  $('action-form').hidden = characters.length === 0
  $('no-console').hidden = characters.length > 0
  refreshActionHints()
}

let actionFields = null
/** The request schema of the action chosen: its `required` fields come before any odds. */
let actionRequest = null
let hintsKey = ''

function refreshActionHints() {
  const character = state.characters.get($('action-character').value)
  const key = JSON.stringify([$('action-name').value, hintsFor(character)])
  if (key !== hintsKey) buildActionFields()
  else refreshVisibilityHint()
}

function buildActionFields() {
  const action = $('action-name').value
  const character = state.characters.get($('action-character').value)
  const hints = hintsFor(character)
  hintsKey = JSON.stringify([action, hints])
  const body = actionBody(action)
  const container = $('action-fields')
  const about = state.ruleset?.actions.find((entry) => entry.name === action)
  $('action-about').textContent = about?.description ?? ''
  if (!body) {
    actionFields = null
    container.replaceChildren(h('p', { class: 'none' }, 'This action has no form.'))
    return
  }
  const request = state.resolve(body.properties?.request ?? { type: 'object', properties: {} })
  actionRequest = request
  actionFields = objectField('request', request, {
    resolve: state.resolve,
    hints,
    legend: false,
    prefix: `act-${action}`,
  })
  container.replaceChildren(
    Object.keys(request.properties ?? {}).length
      ? actionFields.element
      : h('p', { class: 'none' }, 'Nothing to choose: this action only needs a click.'),
  )
  $('dice-fieldset').hidden = !body.properties?.dice
  $('visibility-fieldset').hidden = !body.properties?.visibility
  $('action-submit').textContent = about ? `${about.summary}` : 'Send'
  refreshVisibilityHint()
  scheduleOdds()
}

// ------------------------------------------------------------------ who sees it

/**
 * What "As the rules decide" will record for the action being prepared, and why, from what the
 * console knows: the roll that left a decision open (seen in the feed or an answer) and whether
 * GM-only events changed the sheet (`hiddenFromPlayers`). Nerve decides on the server; this
 * only tells the GM beforehand, and says why "Everyone" deserves a second thought.
 */
function visibilityCase() {
  const character = state.characters.get($('action-character').value)
  const action = state.ruleset?.actions.find((entry) => entry.name === $('action-name').value)
  if (!character || !action) return null
  if (action.kind === 'decision') {
    const opening = [...(state.recent.get(character.id) ?? [])]
      .reverse()
      .find((event) => event.pending?.some((decision) => decision.action === action.name))
    if (opening?.visibility === 'gm' && !state.revealed.has(opening.id)) {
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

function refreshVisibilityHint() {
  $('visibility-hint').textContent = visibilityCase()?.hint ?? ''
}

/** Every action starts from the rules' choice: a choice made for one never carries over to the next. */
function resetVisibility() {
  $('visibility-rules').checked = true
  refreshVisibilityHint()
}

/** The recorded visibility and Nerve's reason, in a sentence for the GM: the console's words for the API's. */
function visibilityLine(answer) {
  const recorded = answer.event?.visibility === 'gm' ? 'Recorded GM only.' : 'Recorded for everyone.'
  const detail = (answer.visibilityReason?.detail ?? '')
    .replace(/send "visibility": "public"/gi, 'choose Everyone')
    .replace(/send "visibility": "gm"/gi, 'choose GM only')
  return detail ? `${recorded} ${detail}` : recorded
}

/** Asks in a modal dialog; resolves true for the confirming button, false for Go back or Escape. */
function confirmWith({ heading, text, yes }) {
  const dialog = $('confirm-dialog')
  const opener = document.activeElement
  $('confirm-heading').textContent = heading
  $('confirm-text').textContent = text
  $('confirm-yes').textContent = yes
  return new Promise((resolve) => {
    let done = false
    const finish = (answer) => {
      if (done) return
      done = true
      $('confirm-yes').removeEventListener('click', onYes)
      $('confirm-no').removeEventListener('click', onNo)
      dialog.removeEventListener('close', onNo)
      if (dialog.open) dialog.close()
      opener?.focus?.()
      resolve(answer)
    }
    const onYes = () => finish(true)
    const onNo = () => finish(false)
    $('confirm-yes').addEventListener('click', onYes)
    $('confirm-no').addEventListener('click', onNo)
    // Escape closes the dialog: the same as Go back.
    dialog.addEventListener('close', onNo)
    dialog.showModal()
    $('confirm-no').focus()
  })
}

// ------------------------------------------------------------------ the odds before the roll

/** The lists of an odds answer that hold the chance of each way a roll ends, and what names each entry. */
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
  return state.openapi?.paths?.[`${CHARACTER_ROUTE}${action}/odds`]?.post ? `${action}/odds` : null
}

function scheduleOdds() {
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
  const question = JSON.stringify([characterId, route, request, state.characters.get(characterId)?.version])
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

/** Dice and visibility do not change the odds; everything else in the form does. */
function onFormChange(event) {
  if (event.target.closest?.('#dice-fieldset, #visibility-fieldset')) return
  scheduleOdds()
}

function openConsole(characterId, action) {
  $('action-character').value = characterId
  if (action) $('action-name').value = action
  buildActionFields()
  resetDice()
  resetVisibility()
  $('console').scrollIntoView({ block: 'start' })
  ;($('action-fields').querySelector('input, select') ?? $('action-name')).focus()
}

function setupConsole() {
  const actionSelect = $('action-name')
  actionSelect.replaceChildren(
    ...KINDS.map(([kind, label]) => {
      const actions = state.ruleset.actions.filter((action) => action.kind === kind)
      return actions.length
        ? h(
            'optgroup',
            { label },
            actions.map((action) => h('option', { value: action.name }, `${action.summary} (${action.name})`)),
          )
        : null
    }).filter(Boolean),
  )
  refreshCharacterChoices()
  buildActionFields()
  resetDice()
  resetVisibility()
}

function syncDiceSource() {
  const table = $('dice-provided').checked
  $('faces-field').hidden = !table
}

function resetDice() {
  $('dice-server').checked = true
  $('dice-faces').value = ''
  syncDiceSource()
}

function parseFaces(text) {
  return text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((face) => Number(face))
}

async function submitAction(submitEvent) {
  submitEvent.preventDefault()
  const characterId = $('action-character').value
  const action = $('action-name').value
  const body = actionBody(action)
  const result = $('action-result')
  const payload = { request: actionFields?.read() ?? {} }
  if (body?.properties?.dice && $('dice-provided').checked) {
    const faces = parseFaces($('dice-faces').value)
    if (!faces.length || faces.some((face) => !Number.isInteger(face))) {
      result.textContent = 'Type the faces rolled at the table as whole numbers, e.g. 85 or 3 5.'
      result.classList.add('error')
      $('dice-faces').focus()
      return
    }
    payload.dice = { source: 'provided', faces }
  }
  if (body?.properties?.visibility) {
    // Left out, Nerve decides (GM-only when it follows a GM-only roll or reads what one did).
    const chosen = $('visibility-gm').checked ? 'gm' : $('visibility-public').checked ? 'public' : null
    const risk = visibilityCase()
    if (chosen === 'public' && risk?.why) {
      const sure = await confirmWith({
        heading: 'Show this to everyone?',
        text: `${risk.why} Sent for everyone, players see that it happened, with what you chose and the dice, but not what only the hidden rolls established. To show them a hidden roll itself, use Reveal in the live rolls.`,
        yes: 'Send for everyone',
      })
      if (!sure) {
        result.classList.remove('error')
        result.textContent = 'Not sent. Choose who sees it, then send again.'
        return
      }
    }
    if (chosen) payload.visibility = chosen
  }
  const button = $('action-submit')
  button.disabled = true
  result.classList.remove('error')
  result.textContent = 'Sending…'
  const path = `${campaignPath()}/characters/${encodeURIComponent(characterId)}/${action}`
  const key = idempotencyKeyFor(JSON.stringify([path, payload]))
  try {
    const answer = await post(path, payload, { 'idempotency-key': key })
    unanswered = null
    if (answer.event) addToFeed(answer.event, true)
    if (answer.character) upsertCharacter(answer.character)
    result.replaceChildren(
      h('span', { class: 'result-summary' }, `${answer.character?.name ?? ''}: ${answer.event?.summary ?? 'done'}`),
      ' ',
      h('span', { class: 'result-visibility' }, visibilityLine(answer)),
    )
    // Each roll says where its dice come from, and who sees it: the next starts from Nerve's dice and the rules again.
    if (payload.dice) resetDice()
    resetVisibility()
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) unanswered = null
    result.textContent =
      error instanceof ApiError
        ? `Refused: ${error.message}`
        : `No answer (${error.message}). Send it again: Nerve will not roll twice.`
    result.classList.add('error')
  } finally {
    button.disabled = false
  }
}

// ------------------------------------------------------------------ undo, keys

async function revertLatest(characterId, button) {
  const character = state.characters.get(characterId)
  button.disabled = true
  try {
    const latest = await latestEventOf(characterId)
    if (!latest) throw new Error('nothing to undo yet')
    const answer = await post(`${campaignPath()}/characters/${encodeURIComponent(characterId)}/revert`, {
      eventId: latest.id,
    })
    if (answer.event) addToFeed(answer.event, true)
    if (answer.character) upsertCharacter(answer.character)
    setStatus(`Undone for ${character?.name}: ${latest.summary ?? latest.type}.`)
  } catch (error) {
    setStatus(`Could not undo ${character?.name}’s latest event: ${error.message}`, true)
  } finally {
    button.disabled = false
  }
}

/** The player's link: the key rides in the fragment, which never leaves the browser. */
function playerLink(characterId, key) {
  const fragment = new URLSearchParams({ view: 'player', campaign: state.campaignId, character: characterId, key })
  return `${location.origin}/dashboard#${fragment}`
}

async function mintPlayerKey(characterId, button) {
  const character = state.characters.get(characterId)
  button.disabled = true
  try {
    const minted = await post(`${campaignPath()}/keys`, { label: character.name, characterIds: [characterId] })
    const link = playerLink(characterId, minted.key)
    const keyId = `minted-key-${minted.id}`
    const linkId = `minted-link-${minted.id}`
    $('minted').replaceChildren(
      h('h3', {}, `Player key for ${character.name}`),
      h(
        'p',
        {},
        'Shown once: hand it to the player now. The link opens their read-only view; the key is in its #fragment, which the browser never sends to a server.',
      ),
      h(
        'div',
        { class: 'field' },
        h('label', { for: linkId }, 'Player link'),
        h('input', { id: linkId, readonly: true, value: link, spellcheck: 'false' }),
      ),
      h(
        'div',
        { class: 'field' },
        h('label', { for: keyId }, 'Player key'),
        h('input', { id: keyId, readonly: true, value: minted.key, spellcheck: 'false' }),
      ),
    )
    $('minted').hidden = false
    await loadKeys()
    $(linkId).focus()
    $(linkId).select()
  } catch (error) {
    setStatus(`Could not mint a key for ${character?.name}: ${error.message}`, true)
  } finally {
    button.disabled = false
  }
}

async function loadKeys() {
  const keys = (await api(`${campaignPath()}/keys`)).data
  const names = (ids) => ids.map((id) => state.characters.get(id)?.name ?? id.slice(0, 8)).join(', ')
  const rows = keys.map((key) => {
    const own = state.key.startsWith(key.prefix)
    let action = h('span', {}, key.revokedAt ? 'revoked' : own ? 'this tab' : '')
    if (!key.revokedAt && !own) {
      action = h(
        'button',
        { type: 'button', class: 'secondary small', 'aria-label': `Revoke ${key.label ?? key.prefix} (${key.role})` },
        'Revoke',
      )
      action.addEventListener('click', async () => {
        action.disabled = true
        try {
          await api(`${campaignPath()}/keys/${encodeURIComponent(key.id)}`, { method: 'DELETE' })
          setStatus(`Key ${key.label ?? key.prefix} revoked: it no longer opens anything.`)
          await loadKeys()
        } catch (error) {
          action.disabled = false
          setStatus(`Could not revoke the key: ${error.message}`, true)
        }
      })
    }
    return h(
      'tr',
      { 'data-key-id': key.id, class: key.revokedAt ? 'revoked' : undefined },
      h('th', { scope: 'row' }, key.label ?? key.prefix),
      h('td', {}, key.role === 'gm' ? 'GM' : 'player'),
      h('td', {}, key.role === 'gm' ? 'all' : names(key.characterIds)),
      h('td', {}, action),
    )
  })
  $('key-rows').replaceChildren(...rows)
}

// ------------------------------------------------------------------ adding and editing characters

/** Same JSON, whatever the order of keys (stored sheets come back from jsonb in its own order). */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
    .join(',')}}`
}

/** Only what changed, as a JSON merge patch of the sheet: a changed list is sent whole. */
function changes(after, before) {
  if (after === null || typeof after !== 'object' || Array.isArray(after)) {
    return canonical(after) === canonical(before) ? undefined : after
  }
  if (before === null || typeof before !== 'object') return after
  const patch = {}
  for (const [key, value] of Object.entries(after)) {
    const changed = changes(value, before[key])
    if (changed !== undefined) patch[key] = changed
  }
  return Object.keys(patch).length ? patch : undefined
}

/**
 * What the rules keep of the latest roll and of a decision still open: a GM changes those through
 * the actions (settle, undo), so the sheet editor leaves them out, as it leaves out derived values.
 */
const KEPT_BY_THE_RULES = new Set(['lastCheck', 'pendingTrauma', 'pendingRetrieval'])

/** Every part of a sheet a GM sets by hand, prefilled with the sheet's values. */
function sheetFields(sheet, prefix) {
  const schema = state.resolve(state.ruleset.sheetSchema)
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).filter(([key]) => !KEPT_BY_THE_RULES.has(key)),
  )
  return valueField('sheet', { ...schema, properties }, sheet, { resolve: state.resolve, legend: false, prefix })
}

function toggleEditor(characterId, button) {
  const slot = $(`editor-${characterId}`)
  if (slot.childElementCount) {
    slot.replaceChildren()
    button.setAttribute('aria-expanded', 'false')
    return
  }
  const character = state.characters.get(characterId)
  const nameId = `edit-name-${characterId}`
  const reasonId = `edit-reason-${characterId}`
  const fields = sheetFields(character.sheet, `edit-${characterId}`)
  const result = h('p', { class: 'status', role: 'status' })
  const form = h(
    'form',
    { class: 'editor', novalidate: true, 'aria-label': `Edit ${character.name}` },
    h(
      'div',
      { class: 'field' },
      h('label', { for: nameId }, 'Name'),
      h('input', { id: nameId, value: character.name, required: true }),
    ),
    fields ? h('fieldset', { class: 'group sheet-fields' }, h('legend', {}, 'Sheet'), fields.element) : null,
    h(
      'div',
      { class: 'field' },
      h('label', { for: reasonId }, 'Reason (optional, kept with the edit)'),
      h('input', { id: reasonId }),
    ),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit' }, 'Save changes'),
      h('button', { type: 'button', class: 'secondary', 'data-cancel': '' }, 'Cancel'),
    ),
    result,
  )
  form.querySelector('[data-cancel]').addEventListener('click', () => {
    slot.replaceChildren()
    button.setAttribute('aria-expanded', 'false')
    button.focus()
  })
  form.addEventListener('submit', async (submitEvent) => {
    submitEvent.preventDefault()
    const current = state.characters.get(characterId)
    const body = {}
    const name = $(nameId).value.trim()
    if (name && name !== current.name) body.name = name
    let sheet
    try {
      sheet = fields ? changes(fields.read() ?? {}, current.sheet) : undefined
    } catch (error) {
      result.textContent = error.message
      result.classList.add('error')
      return
    }
    if (sheet) body.sheet = sheet
    const reason = $(reasonId).value.trim()
    if (!Object.keys(body).length) {
      result.textContent = 'Nothing changed.'
      return
    }
    if (reason) body.reason = reason
    try {
      const answer = await api(`${campaignPath()}/characters/${encodeURIComponent(characterId)}`, {
        method: 'PATCH',
        body: JSON.stringify(body),
        headers: { 'if-match': `"${current.version}"` },
      })
      slot.replaceChildren()
      upsertCharacter(answer.character ?? answer)
      setStatus(`${name || current.name} saved.`)
    } catch (error) {
      result.textContent = `Refused: ${error.message}`
      result.classList.add('error')
    }
  })
  slot.replaceChildren(form)
  button.setAttribute('aria-expanded', 'true')
  $(nameId).focus()
}

let newSheetFields = null

function setupAddCharacter() {
  newSheetFields = sheetFields(state.ruleset.defaultSheet ?? {}, 'new')
  $('new-sheet').replaceChildren(
    newSheetFields ? newSheetFields.element : h('p', { class: 'none' }, 'The rule set’s defaults.'),
  )
}

async function addCharacter(submitEvent) {
  submitEvent.preventDefault()
  const name = $('new-name').value.trim()
  if (!name) {
    setStatus('Give the character a name.', true)
    $('new-name').focus()
    return
  }
  const body = { name }
  try {
    const sheet = newSheetFields ? changes(newSheetFields.read() ?? {}, state.ruleset.defaultSheet) : undefined
    if (sheet) body.sheet = sheet
    const answer = await post(`${campaignPath()}/characters`, body)
    upsertCharacter(answer.character)
    $('new-name').value = ''
    setupAddCharacter()
    $('action-character').value = answer.character.id
    resetVisibility()
    refreshActionHints()
    setStatus(`${answer.character.name} joins the campaign.`)
  } catch (error) {
    setStatus(`Could not add ${name}: ${error.message}`, true)
  }
}

// ------------------------------------------------------------------ the feed

function diceText(dice) {
  return dice.map((die) => `d${die.sides}: ${die.face}${die.source === 'provided' ? ' (table)' : ''}`).join(', ')
}

/** What a reveal cannot show (the server says so too): they say nothing of their own. */
const UNREVEALABLE = new Set(['revert', 'reveal', 'character.created', 'character.archived'])

function feedItem(event, isNew) {
  const character = event.characterId ? state.characters.get(event.characterId) : null
  const time = new Date(event.occurredAt)
  const hidden = event.visibility === 'gm'
  const revealed = hidden && state.revealed.has(event.id)
  const undone = state.reverted.has(event.id)
  const canReveal = state.mode === 'gm' && hidden && !revealed && !undone && !UNREVEALABLE.has(event.type)
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
      ` · ${event.type}`,
      character ? ` · ${character.name}` : '',
      hidden ? (revealed ? ' · GM only, revealed' : ' · GM only') : '',
      undone ? ' · undone' : '',
    ),
    h('span', { class: 'feed-summary' }, event.summary),
    dice?.length ? h('span', { class: 'dice' }, diceText(dice)) : null,
    ...(event.followUps ?? []).map(followUpItem),
    canReveal ? revealTool(event) : null,
  )
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
  const name = event.characterName ?? state.characters.get(event.characterId)?.name
  const sure = await confirmWith({
    heading: 'Reveal this to players?',
    text: `Players will see #${event.seq} (${event.summary})${name ? ` and what it did to ${name}’s sheet` : ''}: a reveal event tells them, live and in the history. Undo latest${name ? ` on ${name}` : ''} takes the reveal back while it is the latest event.`,
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
    state.revealed.set(event.id, answer.event?.id ?? '')
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
  const event = state.feedEvents.get(eventId)
  const item = document.querySelector(`#feed li[data-event-id="${CSS.escape(eventId)}"]`)
  if (event && item) item.replaceWith(feedItem(event, false))
}

/** Keeps what the console needs of an event: the character's recent events, and which reveals and reverts stand. */
function remember(event) {
  const target = event.causationId
  if (event.type === 'reveal' && target) {
    state.revealed.set(target, event.id)
    redrawFeedItem(target)
  } else if (event.type === 'revert' && target) {
    state.reverted.set(target, event.id)
    redrawFeedItem(target)
    // Undoing a reveal hides the event again; undoing a revert brings its event back.
    for (const [id, by] of [...state.revealed, ...state.reverted]) {
      if (by !== target) continue
      if (state.revealed.get(id) === target) state.revealed.delete(id)
      if (state.reverted.get(id) === target) state.reverted.delete(id)
      redrawFeedItem(id)
    }
  }
  if (!event.characterId) return
  const recent = state.recent.get(event.characterId) ?? []
  if (recent.some((known) => known.seq === event.seq)) return
  recent.push(event)
  recent.sort((a, b) => a.seq - b.seq)
  if (recent.length > FEED_LENGTH) recent.shift()
  state.recent.set(event.characterId, recent)
  if ($('action-character')?.value === event.characterId) refreshVisibilityHint()
}

/** A roll the result calls for: the GM makes it in one click, at the lowest rank the trigger allows. */
function followUpItem(followUp) {
  const label = `${title(followUp.request.meter ?? followUp.action)} ${followUp.ranks.min}–${followUp.ranks.max}`
  const button = h('button', { type: 'button', class: 'follow-up-make' }, `Make the ${label} check`)
  if (state.mode !== 'gm') return h('span', { class: 'follow-up' }, `Follow-up: ${label}, because ${followUp.because}`)
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

function addToFeed(event, isNew) {
  remember(event)
  if (state.only && event.characterId !== state.only) return
  if (state.seen.has(event.seq)) return
  state.seen.add(event.seq)
  state.feedEvents.set(event.id, event)
  state.lastSeq = Math.max(state.lastSeq, event.seq)
  const feed = $('feed')
  // Newest first, whatever order the answer and the stream arrive in.
  const later = [...feed.children].findLast((item) => Number(item.dataset.seq) > event.seq)
  if (later) later.after(feedItem(event, isNew))
  else feed.prepend(feedItem(event, isNew))
  while (feed.children.length > FEED_LENGTH) {
    state.feedEvents.delete(feed.lastElementChild.dataset.eventId)
    feed.lastElementChild.remove()
  }
}

async function onEvent(event) {
  addToFeed(event, true)
  if (!event.characterId || (state.only && event.characterId !== state.only)) return
  try {
    upsertCharacter(await api(`${campaignPath()}/characters/${event.characterId}`))
  } catch (error) {
    // The event carries the sheet after it: draw that when the character cannot be read.
    const known = state.characters.get(event.characterId)
    if (known && event.sheetAfter) upsertCharacter({ ...known, sheet: event.sheetAfter, version: known.version + 1 })
    else setStatus(`Could not refresh a character: ${error.message}`, true)
  }
}

/** Splits a text/event-stream into messages: blank line ends one; `:` lines are comments. */
function parseMessages(buffer, onMessage) {
  const blocks = buffer.split(/\r\n\r\n|\n\n|\r\r/)
  const rest = blocks.pop() ?? ''
  for (const block of blocks) {
    const message = { id: null, event: 'message', data: [] }
    for (const line of block.split(/\r\n|\n|\r/)) {
      if (line === '' || line.startsWith(':')) continue
      const colon = line.indexOf(':')
      const field = colon === -1 ? line : line.slice(0, colon)
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
      if (field === 'data') message.data.push(value)
      else if (field === 'id') message.id = value
      else if (field === 'event') message.event = value
    }
    if (message.data.length) onMessage({ ...message, data: message.data.join('\n') })
  }
  return rest
}

async function follow(signal) {
  let attempt = 0
  while (!signal.aborted) {
    setStreamState(attempt === 0 ? 'connecting' : 'reconnecting')
    try {
      const response = await fetch(`${campaignPath()}/events/stream`, {
        headers: {
          accept: 'text/event-stream',
          authorization: `Bearer ${state.key}`,
          'last-event-id': String(state.lastSeq),
        },
        cache: 'no-store',
        signal,
      })
      if (response.status === 401 || response.status === 404) {
        setStreamState('off')
        setStatus('The live feed was refused: the key is no longer valid for this campaign.', true)
        return
      }
      if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`)
      setStreamState('live')
      attempt = 0
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
      let buffer = ''
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        buffer = parseMessages(buffer + value, (message) => {
          const event = JSON.parse(message.data)
          onEvent(event)
        })
      }
    } catch (error) {
      if (signal.aborted) return
    }
    attempt += 1
    setStreamState('reconnecting')
    const delay = RECONNECT_MS[Math.min(attempt - 1, RECONNECT_MS.length - 1)]
    await new Promise((resolve) => setTimeout(resolve, delay))
  }
}

// ------------------------------------------------------------------ connecting

function disconnect() {
  state.abort?.abort()
  state.abort = null
  setStreamState('off')
}

async function loadOpenApi() {
  if (state.openapi) return
  state.openapi = await fetch('/docs/json', { headers: { accept: 'application/json' } }).then((response) =>
    response.ok ? response.json() : null,
  )
  state.resolve = resolver(state.openapi ?? { components: { schemas: {} } })
}

function keyRole(key) {
  return key.startsWith('nrv_pl_') ? 'player' : 'gm'
}

async function connect(campaignId, key, only = null) {
  disconnect()
  Object.assign(state, {
    campaignId,
    key,
    mode: keyRole(key),
    only,
    characters: new Map(),
    seen: new Set(),
    recent: new Map(),
    feedEvents: new Map(),
    revealed: new Map(),
    reverted: new Map(),
    lastSeq: 0,
  })
  document.body.dataset.mode = state.mode
  $('gm-tools').hidden = true
  $('keys').hidden = true
  $('minted').hidden = true
  setStatus('Loading the campaign…')
  try {
    state.campaign = await api(campaignPath())
    const [ruleset, characters] = await Promise.all([
      fetch(`/v1/rulesets/${encodeURIComponent(state.campaign.ruleset)}`, {
        headers: { accept: 'application/json' },
      }).then((response) => (response.ok ? response.json() : null)),
      loadCharacters(),
      state.mode === 'gm' ? loadOpenApi() : null,
    ])
    state.ruleset = ruleset
    for (const character of characters) state.characters.set(character.id, character)
    $('feed').replaceChildren()
    if (state.only) {
      // The player's own character only: its latest events, newest last.
      let after = 0
      let events = []
      for (;;) {
        const query = new URLSearchParams({
          characterId: state.only,
          sheets: 'none',
          limit: '100',
          after: String(after),
        })
        const page = await api(`${campaignPath()}/events?${query}`)
        events = events.concat(page.data).slice(-20)
        if (!page.hasMore || !page.data.length) break
        after = page.nextCursor ?? page.data[page.data.length - 1].seq
      }
      state.lastSeq = state.campaign.eventCount
      for (const event of events) addToFeed(event, false)
    } else {
      const after = Math.max(0, state.campaign.eventCount - 20)
      const history = await api(`${campaignPath()}/events?after=${after}&limit=20`)
      state.lastSeq = after
      for (const event of history.data) addToFeed(event, false)
    }
    state.lastSeq = Math.max(state.lastSeq, state.campaign.eventCount)
  } catch (error) {
    setStatus(
      error instanceof ApiError && (error.status === 401 || error.status === 404)
        ? 'That campaign id and key do not match a campaign. Check both and try again.'
        : `Could not load the campaign: ${error.message}`,
      true,
    )
    $('board').hidden = true
    $('connect').hidden = false
    $('connect-details').open = true
    return
  }

  const heading = $('campaign-title')
  heading.textContent = `${state.campaign.name} · ${state.ruleset?.title ?? state.campaign.ruleset}`
  document.querySelector('.subtitle').textContent = state.mode === 'gm' ? 'GM console' : 'player view'
  heading.hidden = false
  document.title = `${state.campaign.name} — Nerve ${state.mode === 'gm' ? 'GM console' : 'player view'}`
  if (state.mode === 'gm' && state.ruleset && state.openapi) {
    $('gm-tools').hidden = false
    $('keys').hidden = false
    setupConsole()
    setupAddCharacter()
    loadKeys().catch((error) => setStatus(`Could not list the keys: ${error.message}`, true))
  }
  showCharacters()
  $('board').hidden = false
  $('connect').hidden = state.mode !== 'gm'
  // The forms fold away once a campaign is open; the summary opens them again.
  $('connect-details').open = false
  $('player-bar').hidden = state.mode === 'gm'
  setStatus(
    state.mode === 'gm'
      ? `Showing ${state.characters.size} character(s). New rolls appear as they happen.`
      : 'Read-only view. New rolls appear as they happen.',
  )

  state.abort = new AbortController()
  follow(state.abort.signal)
}

function rememberAndConnect(campaignId, key, only = null) {
  sessionStorage.setItem(STORAGE.campaignId, campaignId)
  sessionStorage.setItem(STORAGE.key, key)
  if (only) sessionStorage.setItem(STORAGE.character, only)
  else sessionStorage.removeItem(STORAGE.character)
  return connect(campaignId, key, only)
}

async function setupCreate() {
  const select = $('new-ruleset')
  try {
    const rulesets = (await api('/v1/rulesets')).data
    select.replaceChildren(...rulesets.map((ruleset) => h('option', { value: ruleset.id }, ruleset.title)))
  } catch (error) {
    setStatus(`Could not list the rule sets: ${error.message}`, true)
  }
  $('create-form').addEventListener('submit', async (submitEvent) => {
    submitEvent.preventDefault()
    const name = $('new-campaign-name').value.trim()
    if (!name) {
      setStatus('Give the campaign a name.', true)
      $('new-campaign-name').focus()
      return
    }
    try {
      state.key = ''
      const created = await post('/v1/campaigns', { name, ruleset: select.value })
      $('campaign-id').value = created.campaign.id
      $('gm-key').value = created.gmKey.key
      $('new-gm-key').value = created.gmKey.key
      $('new-campaign-id').value = created.campaign.id
      $('created').hidden = false
      $('new-campaign-name').value = ''
      await rememberAndConnect(created.campaign.id, created.gmKey.key)
      setStatus(`${created.campaign.name} is created. Copy its GM key now: it is shown only once.`)
    } catch (error) {
      setStatus(`Could not create the campaign: ${error.message}`, true)
    }
  })
}

/** A player's link: `#view=player&campaign=…&character=…&key=…`, read once and wiped from the address bar. */
function readFragment() {
  if (!location.hash.includes('key=')) return null
  const params = new URLSearchParams(location.hash.slice(1))
  history.replaceState(null, '', location.pathname)
  const campaign = params.get('campaign')
  const key = params.get('key')
  return campaign && key ? { campaign, key, character: params.get('character') } : null
}

function start() {
  const form = $('connect-form')
  const campaignInput = $('campaign-id')
  const keyInput = $('gm-key')
  campaignInput.value = sessionStorage.getItem(STORAGE.campaignId) ?? ''
  keyInput.value = sessionStorage.getItem(STORAGE.key) ?? ''

  form.addEventListener('submit', (submitEvent) => {
    submitEvent.preventDefault()
    const campaignId = campaignInput.value.trim()
    const key = keyInput.value.trim()
    if (!campaignInput.checkValidity() || !key) {
      setStatus('Enter the campaign id (a UUID) and its key.', true)
      ;(campaignInput.checkValidity() ? keyInput : campaignInput).focus()
      return
    }
    rememberAndConnect(campaignId, key)
  })

  const forget = () => {
    for (const name of Object.values(STORAGE)) sessionStorage.removeItem(name)
    keyInput.value = ''
    disconnect()
    state.key = ''
    $('board').hidden = true
    $('campaign-title').hidden = true
    $('created').hidden = true
    $('connect').hidden = false
    $('connect-details').open = true
    $('player-bar').hidden = true
    setStatus('The key is forgotten in this tab.')
    keyInput.focus()
  }
  $('forget-button').addEventListener('click', forget)
  $('saved-button').addEventListener('click', () => {
    $('created').hidden = true
    $('new-gm-key').value = ''
    $('action-character').focus()
  })
  $('leave-button').addEventListener('click', forget)
  $('action-form').addEventListener('submit', submitAction)
  $('action-name').addEventListener('change', buildActionFields)
  $('action-character').addEventListener('change', () => {
    resetVisibility()
    refreshActionHints()
  })
  $('action-form').addEventListener('input', onFormChange)
  $('action-form').addEventListener('change', onFormChange)
  // Adding or removing a row of a list (an upgrade, a modifier) changes the request too.
  $('action-fields').addEventListener('click', (event) => {
    if (event.target.closest?.('button')) scheduleOdds()
  })
  $('dice-server').addEventListener('change', syncDiceSource)
  $('dice-provided').addEventListener('change', syncDiceSource)
  $('add-form').addEventListener('submit', addCharacter)
  syncDiceSource()
  setupCreate()

  const link = readFragment()
  if (link) rememberAndConnect(link.campaign, link.key, link.character)
  else if (campaignInput.value && keyInput.value) {
    connect(campaignInput.value, keyInput.value, sessionStorage.getItem(STORAGE.character))
  }
}

start()
