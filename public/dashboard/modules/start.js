// @ts-check
import { buildActionFields, onFormChange, refreshActionHints, submitAction } from './action-form.js'
import {
  STORAGE,
  connect,
  disconnect,
  openNewCampaign,
  openRemembered,
  readFragment,
  rememberAndConnect,
  setupCreate,
} from './connect.js'
import { setupArchives } from './archives.js'
import { copyButton } from './copy.js'
import { forgetKey, showRemembered } from './remembered.js'
import { syncDiceSource } from './dice.js'
import { $ } from './dom.js'
import { setStatus, setupStatus } from './status.js'
import { setupFeedToggle } from './feed.js'
import { scheduleOdds } from './odds.js'
import { session } from './session.js'
import { addCharacter } from './sheet-editor.js'
import { resetVisibility } from './visibility.js'
import { setupWebhooks } from './webhooks.js'

export function start() {
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
    session.key = ''
    $('board').hidden = true
    $('campaign-title').hidden = true
    $('created').hidden = true
    $('connect').hidden = false
    $('connect-details').open = true
    $('player-bar').hidden = true
    if (session.campaignId) forgetKey(session.campaignId)
    showRemembered(openRemembered)
    setStatus('The key is forgotten in this tab and on this device.')
    keyInput.focus()
  }
  $('forget-button').addEventListener('click', forget)
  $('new-campaign-id').after(copyButton($('new-campaign-id'), 'the campaign id'))
  $('new-gm-key').after(copyButton($('new-gm-key'), 'the GM key'))
  showRemembered(openRemembered)
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
  setupStatus()
  setupFeedToggle()
  setupCreate()
  setupWebhooks()
  setupArchives(openNewCampaign)

  const link = readFragment()
  if (link) rememberAndConnect(link.campaign, link.key, link.character)
  else if (campaignInput.value && keyInput.value) {
    connect(campaignInput.value, keyInput.value, sessionStorage.getItem(STORAGE.character))
  }
}
