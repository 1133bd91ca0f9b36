// Nerve GM dashboard. No build step: a plain ES module. The GM key lives in sessionStorage
// (this tab only) and travels in the Authorization header, never in a URL. EventSource cannot
// send that header, so the live stream is read with fetch() and parsed here.

const STORAGE = { campaignId: 'nerve.dashboard.campaignId', key: 'nerve.dashboard.gmKey' }
const FEED_LENGTH = 50
const RECONNECT_MS = [1000, 2000, 5000, 10000]

const $ = (id) => document.getElementById(id)

const state = {
  campaignId: '',
  key: '',
  campaign: null,
  ruleset: null,
  characters: new Map(),
  lastSeq: 0,
  seen: new Set(),
  abort: null,
}

// ------------------------------------------------------------------ DOM helpers

/** Builds an element; strings become text nodes, so names from the API are never parsed as HTML. */
function h(tag, props = {}, ...children) {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue
    if (name === 'class') element.className = value
    else if (name === 'text') element.textContent = value
    else element.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue
    element.append(child instanceof Node ? child : document.createTextNode(String(child)))
  }
  return element
}

/**
 * A sheet's entries in the rule set's order: stored sheets come back from PostgreSQL's jsonb,
 * which does not keep key order. Keys the order does not name follow alphabetically.
 */
function ordered(order, record) {
  const rank = (key) => (order.includes(key) ? order.indexOf(key) : order.length)
  return Object.entries(record).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
}

const title = (word) => String(word).replace(/(^|[-\s])(\w)/g, (_m, sep, c) => (sep ? ' ' : '') + c.toUpperCase())

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
    headers: { accept: 'application/json', authorization: `Bearer ${state.key}`, ...options.headers },
    cache: 'no-store',
  })
  if (!response.ok) {
    let detail = `${response.status} ${response.statusText}`
    try {
      const problem = await response.json()
      detail = problem.detail || problem.title || detail
    } catch {
      // not a problem document: keep the status line
    }
    throw new ApiError(response.status, detail)
  }
  return response.json()
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
    ),
    body,
    character.pending?.length
      ? h(
          'ul',
          { class: 'decisions', 'aria-label': 'Open decisions' },
          ...character.pending.map((decision) =>
            h('li', {}, badge('Open', 'warn'), ` ${decision.prompt} `, h('code', {}, decision.action)),
          ),
        )
      : null,
  )
}

function showCharacters() {
  const container = $('character-list')
  const visible = [...state.characters.values()].filter((character) => !character.archivedAt)
  container.replaceChildren(...visible.map(renderCharacter))
  $('no-characters').hidden = visible.length > 0
}

/** Keeps the newest version of a character (answers may arrive out of order) and redraws only it. */
function upsertCharacter(character) {
  const known = state.characters.get(character.id)
  if (known && known.version > character.version) return
  state.characters.set(character.id, character)
  const existing = document.getElementById(`character-${character.id}`)
  if (character.archivedAt) {
    existing?.remove()
  } else if (existing) {
    const fresh = renderCharacter(character)
    fresh.classList.add('updated')
    existing.replaceWith(fresh)
  } else {
    $('character-list').append(renderCharacter(character))
  }
  $('no-characters').hidden = [...state.characters.values()].some((entry) => !entry.archivedAt)
}

// ------------------------------------------------------------------ the feed

function diceText(dice) {
  return dice.map((die) => `d${die.sides}: ${die.face}${die.source === 'provided' ? ' (table)' : ''}`).join(', ')
}

function feedItem(event, isNew) {
  const character = event.characterId ? state.characters.get(event.characterId) : null
  const time = new Date(event.occurredAt)
  return h(
    'li',
    { class: isNew ? 'new' : undefined, 'data-seq': event.seq, 'data-type': event.type },
    h(
      'span',
      { class: 'feed-meta' },
      `#${event.seq} · `,
      h('time', { datetime: event.occurredAt }, time.toLocaleTimeString()),
      ` · ${event.type}`,
      character ? ` · ${character.name}` : '',
      event.visibility === 'gm' ? ' · GM only' : '',
    ),
    h('span', { class: 'feed-summary' }, event.summary),
    event.dice?.length ? h('span', { class: 'dice' }, diceText(event.dice)) : null,
    ...(event.followUps ?? []).map(followUpItem),
  )
}

/** A roll the result calls for: the GM makes it in one click, at the lowest rank the trigger allows. */
function followUpItem(followUp) {
  const label = `${title(followUp.request.meter ?? followUp.action)} ${followUp.ranks.min}–${followUp.ranks.max}`
  const button = h('button', { type: 'button', class: 'follow-up-make' }, `Make the ${label} check`)
  button.addEventListener('click', async () => {
    button.disabled = true
    try {
      await api(followUp.route, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ request: followUp.request }),
      })
      button.textContent = `${label} check made`
    } catch (error) {
      button.disabled = false
      setStatus(`The follow-up check failed: ${error.message}`, true)
    }
  })
  return h('span', { class: 'follow-up' }, `Follow-up: ${label}, because ${followUp.because} `, button)
}

function addToFeed(event, isNew) {
  if (state.seen.has(event.seq)) return
  state.seen.add(event.seq)
  state.lastSeq = Math.max(state.lastSeq, event.seq)
  const feed = $('feed')
  feed.prepend(feedItem(event, isNew))
  while (feed.children.length > FEED_LENGTH) feed.lastElementChild.remove()
}

async function onEvent(event) {
  addToFeed(event, true)
  if (!event.characterId) return
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

async function connect(campaignId, key) {
  disconnect()
  Object.assign(state, { campaignId, key, characters: new Map(), seen: new Set(), lastSeq: 0 })
  setStatus('Loading the campaign…')
  try {
    state.campaign = await api(campaignPath())
    const [ruleset, characters] = await Promise.all([
      fetch(`/v1/rulesets/${encodeURIComponent(state.campaign.ruleset)}`, {
        headers: { accept: 'application/json' },
      }).then((response) => (response.ok ? response.json() : null)),
      loadCharacters(),
    ])
    state.ruleset = ruleset
    for (const character of characters) state.characters.set(character.id, character)
    const after = Math.max(0, state.campaign.eventCount - 20)
    const history = await api(`${campaignPath()}/events?after=${after}&limit=20`)
    state.lastSeq = after
    $('feed').replaceChildren()
    for (const event of history.data) addToFeed(event, false)
  } catch (error) {
    setStatus(
      error instanceof ApiError && (error.status === 401 || error.status === 404)
        ? 'That campaign id and key do not match a campaign. Check both and try again.'
        : `Could not load the campaign: ${error.message}`,
      true,
    )
    $('board').hidden = true
    return
  }

  const heading = $('campaign-title')
  heading.textContent = `${state.campaign.name} · ${state.ruleset?.title ?? state.campaign.ruleset}`
  heading.hidden = false
  document.title = `${state.campaign.name} — Nerve GM dashboard`
  showCharacters()
  $('board').hidden = false
  setStatus(`Showing ${state.characters.size} character(s). New rolls appear as they happen.`)

  state.abort = new AbortController()
  follow(state.abort.signal)
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
      setStatus('Enter the campaign id (a UUID) and its GM key.', true)
      ;(campaignInput.checkValidity() ? keyInput : campaignInput).focus()
      return
    }
    sessionStorage.setItem(STORAGE.campaignId, campaignId)
    sessionStorage.setItem(STORAGE.key, key)
    connect(campaignId, key)
  })

  $('forget-button').addEventListener('click', () => {
    sessionStorage.removeItem(STORAGE.campaignId)
    sessionStorage.removeItem(STORAGE.key)
    keyInput.value = ''
    disconnect()
    $('board').hidden = true
    $('campaign-title').hidden = true
    setStatus('The key is forgotten in this tab.')
    keyInput.focus()
  })

  if (campaignInput.value && keyInput.value) connect(campaignInput.value, keyInput.value)
}

start()
