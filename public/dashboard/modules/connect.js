// @ts-check
import { setupConsole } from './action-form.js'
import { adminHeaders, campaignRefused } from './admin-token.js'
import { ApiError, api, characterEvents, loadCharacters, post } from './api.js'
import { rememberOpenCampaign, showCampaignTitle } from './campaign-title.js'
import { characters, showCharacters } from './characters.js'
import { $, h, nameIn } from './dom.js'
import { setStatus } from './status.js'
import { addToFeed, resetFeed, skipTo } from './feed.js'
import { resolver } from './forms/fields.js'
import { loadKeys } from './keys.js'
import { showRemembered } from './remembered.js'
import { campaignPath, session } from './session.js'
import { setupAddCharacter } from './sheet-editor.js'
import { follow, setStreamState } from './stream.js'
import { closeTimelines } from './timeline.js'
import { loadWebhooks, resetWebhooks } from './webhooks.js'

export const STORAGE = {
  campaignId: 'nerve.dashboard.campaignId',
  key: 'nerve.dashboard.gmKey',
  character: 'nerve.dashboard.character',
}

/** Stops the live feed of the campaign that was open. */
let abort = null

export function disconnect() {
  abort?.abort()
  abort = null
  setStreamState('off')
}

async function loadOpenApi() {
  if (session.openapi) return
  session.openapi = await fetch('/docs/json', { headers: { accept: 'application/json' } }).then((response) =>
    response.ok ? response.json() : null,
  )
  session.resolve = resolver(session.openapi ?? { components: { schemas: {} } })
}

function keyRole(key) {
  return key.startsWith('nrv_pl_') ? 'player' : 'gm'
}

/** Nothing of the campaign left carries into the next: a result, a minted key, a form half filled. */
function resetForms(campaignId) {
  $('action-result').replaceChildren()
  $('action-result').classList.remove('error')
  $('minted').replaceChildren()
  $('minted').hidden = true
  $('odds').hidden = true
  $('add-form').reset()
  resetWebhooks()
  if ($('new-campaign-id').value !== campaignId) {
    $('created').hidden = true
    $('new-gm-key').value = ''
  }
}

export async function connect(campaignId, key, only = null) {
  disconnect()
  Object.assign(session, { campaignId, key, mode: keyRole(key), only })
  characters.clear()
  closeTimelines()
  resetFeed()
  document.body.dataset.mode = session.mode
  for (const gmOnly of ['gm-tools', 'keys', 'webhooks', 'archive']) $(gmOnly).hidden = true
  resetForms(campaignId)
  setStatus('Loading the campaign…')
  try {
    session.campaign = await api(campaignPath())
    const [ruleset, list] = await Promise.all([
      fetch(`/v1/rulesets/${encodeURIComponent(session.campaign.ruleset)}`, {
        headers: { accept: 'application/json' },
      }).then((response) => (response.ok ? response.json() : null)),
      loadCharacters(),
      session.mode === 'gm' ? loadOpenApi() : null,
    ])
    session.ruleset = ruleset
    for (const character of list) characters.set(character.id, character)
    if (session.only) {
      // The player's own character only: its latest events, newest last.
      const events = (await characterEvents(session.only, 'none')).slice(-20)
      skipTo(session.campaign.eventCount)
      for (const event of events) addToFeed(event, false)
    } else {
      const after = Math.max(0, session.campaign.eventCount - 20)
      const history = await api(`${campaignPath()}/events?after=${after}&limit=20`)
      skipTo(after)
      for (const event of history.data) addToFeed(event, false)
    }
    skipTo(session.campaign.eventCount)
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

  document.querySelector('.subtitle').textContent = session.mode === 'gm' ? 'GM console' : 'player view'
  showCampaignTitle()
  if (session.mode === 'gm') {
    rememberOpenCampaign($('remember-key').checked)
    showRemembered(openRemembered)
  }
  if (session.mode === 'gm' && session.ruleset && session.openapi) {
    $('gm-tools').hidden = false
    $('keys').hidden = false
    $('webhooks').hidden = false
    $('archive').hidden = false
    setupConsole()
    setupAddCharacter()
    loadKeys().catch((error) => setStatus(`Could not list the keys: ${error.message}`, true))
    loadWebhooks().catch((error) => setStatus(`Could not list the webhooks: ${error.message}`, true))
  }
  showCharacters()
  $('board').hidden = false
  $('connect').hidden = session.mode !== 'gm'
  // The forms fold away once a campaign is open; the summary opens them again.
  $('connect-details').open = false
  $('player-bar').hidden = session.mode === 'gm'
  setStatus(
    session.mode === 'gm'
      ? `Showing ${characters.size} character(s). New rolls appear as they happen.`
      : 'Read-only view. New rolls appear as they happen.',
  )

  abort = new AbortController()
  follow(abort.signal)
}

export function rememberAndConnect(campaignId, key, only = null) {
  sessionStorage.setItem(STORAGE.campaignId, campaignId)
  sessionStorage.setItem(STORAGE.key, key)
  if (only) sessionStorage.setItem(STORAGE.character, only)
  else sessionStorage.removeItem(STORAGE.character)
  return connect(campaignId, key, only)
}

/** Opens a campaign just created or imported, its id and GM key on show once with Copy buttons. */
export async function openNewCampaign(campaign, gmKey) {
  $('campaign-id').value = campaign.id
  $('gm-key').value = gmKey
  $('new-gm-key').value = gmKey
  $('new-campaign-id').value = campaign.id
  $('created').hidden = false
  await rememberAndConnect(campaign.id, gmKey)
}

export async function setupCreate() {
  const select = $('new-ruleset')
  try {
    const rulesets = (await api('/v1/rulesets')).data
    select.replaceChildren(...rulesets.map((ruleset) => h('option', { value: ruleset.id }, ruleset.title)))
  } catch (error) {
    setStatus(`Could not list the rule sets: ${error.message}`, true)
  }
  $('create-form').addEventListener('submit', async (submitEvent) => {
    submitEvent.preventDefault()
    const name = nameIn('new-campaign-name', 'the campaign')
    if (!name) return
    try {
      const created = await post('/v1/campaigns', { name, ruleset: select.value }, adminHeaders())
      $('new-campaign-name').value = ''
      await openNewCampaign(created.campaign, created.gmKey.key)
      setStatus(`${created.campaign.name} is created. Copy its GM key now: it is shown only once.`)
    } catch (error) {
      campaignRefused(error, 'create the campaign')
    }
  })
}

/** A player's link: `#view=player&campaign=…&character=…&key=…`, read once and wiped from the address bar. */
export function readFragment() {
  if (!location.hash.includes('key=')) return null
  const params = new URLSearchParams(location.hash.slice(1))
  history.replaceState(null, '', location.pathname)
  const campaign = params.get('campaign')
  const key = params.get('key')
  return campaign && key ? { campaign, key, character: params.get('character') } : null
}

/** Reopens a campaign from the list: at once when its key is kept here, else asks for the key. */
export function openRemembered(entry) {
  $('campaign-id').value = entry.id
  if (entry.key) {
    rememberAndConnect(entry.id, entry.key)
    return
  }
  $('gm-key').value = ''
  $('gm-key').focus()
  setStatus(`Paste the GM key of ${entry.name} to open it.`)
}
