// @ts-check
import { api, post } from './api.js'
import { confirmWith } from './confirm.js'
import { $, h } from './dom.js'
import { campaignPath, session } from './session.js'
import { setStatus } from './status.js'
import { showSecrets } from './webhook-secrets.js'

/** What the GM does to one webhook beyond switching it on and off: a test ping, a new secret, deleting it. */

const endpointPath = (endpoint) => `${campaignPath()}/webhooks/${encodeURIComponent(endpoint.id)}`

/** How long an old secret keeps working after a rotation: the API's default, read from its document. */
function gracePeriod() {
  const seconds =
    session.openapi?.components?.schemas?.RotateWebhookSecret?.properties?.gracePeriodSeconds?.default ?? 0
  if (seconds % 3600 === 0) return seconds === 3600 ? 'one hour' : `${seconds / 3600} hours`
  return `${Math.round(seconds / 60)} minutes`
}

/**
 * @typedef {object} EndpointHooks
 * @property {() => void} showDeliveries  opens the webhook's delivery list (a ping shows there)
 * @property {() => Promise<void>} reload  lists the webhooks again
 * @property {() => void} forget  drops what the panel keeps of a deleted webhook
 */

/**
 * @param {import('./api-types.js').WebhookEndpoint} endpoint
 * @param {HTMLButtonElement} button
 * @param {EndpointHooks} hooks
 */
async function sendPing(endpoint, button, hooks) {
  if (!endpoint.enabled) {
    setStatus(`The webhook to ${endpoint.url} is disabled: enable it first, then send a test ping.`, true)
    return
  }
  button.disabled = true
  try {
    await api(`${endpointPath(endpoint)}/test`, { method: 'POST' })
    setStatus(`A test ping is on its way to ${endpoint.url}: see it land in its deliveries.`)
    hooks.showDeliveries()
  } catch (error) {
    setStatus(`Could not send a test ping to ${endpoint.url}: ${error.message}`, true)
  } finally {
    button.disabled = false
  }
}

/**
 * @param {import('./api-types.js').WebhookEndpoint} endpoint
 * @param {HTMLButtonElement} button
 */
async function rotateSecret(endpoint, button) {
  const sure = await confirmWith({
    heading: `Give ${endpoint.url} a new secret?`,
    text: `Nerve makes a new signing secret, shown only once. The old one keeps working for ${gracePeriod()}: until then every delivery is signed with both, so the receiver can switch to the new one without missing an event. After that only the new one works.`,
    yes: 'Rotate the secret',
  })
  if (!sure) return
  button.disabled = true
  try {
    /** @type {import('./api-types.js').CreatedWebhookEndpoint} */
    const rotated = await post(`${endpointPath(endpoint)}/rotate-secret`, {})
    const until = rotated.previousSecretExpiresAt
      ? `The old one keeps working until ${new Date(rotated.previousSecretExpiresAt).toLocaleString()}.`
      : 'The old one no longer works.'
    showSecrets([rotated], `The new secret, shown only this once: give it to the receiver now. ${until}`)
    setStatus(`New secret for ${endpoint.url}: copy it now, it is shown only once. ${until}`)
    $(`webhook-secret-${rotated.id}`).focus()
  } catch (error) {
    setStatus(`Could not rotate the secret of ${endpoint.url}: ${error.message}`, true)
  } finally {
    button.disabled = false
  }
}

/**
 * @param {import('./api-types.js').WebhookEndpoint} endpoint
 * @param {HTMLButtonElement} button
 * @param {EndpointHooks} hooks
 */
async function deleteEndpoint(endpoint, button, hooks) {
  const sure = await confirmWith({
    heading: `Delete the webhook to ${endpoint.url}?`,
    text: `Nothing more is sent to ${endpoint.url}, and what is still queued for it goes, with the record of its deliveries. This cannot be taken back: to stop it for a while, use Disable instead.`,
    yes: 'Delete the webhook',
  })
  if (!sure) return
  button.disabled = true
  try {
    await api(endpointPath(endpoint), { method: 'DELETE' })
    hooks.forget()
    setStatus(`Deleted the webhook to ${endpoint.url}: nothing more is sent to it.`)
    await hooks.reload()
  } catch (error) {
    button.disabled = false
    setStatus(`Could not delete the webhook to ${endpoint.url}: ${error.message}`, true)
  }
}

/**
 * The webhook's Send a test ping, Rotate the secret and Delete buttons.
 * @param {import('./api-types.js').WebhookEndpoint} endpoint
 * @param {EndpointHooks} hooks
 */
export function endpointActions(endpoint, hooks) {
  /** @type {[string, string, (button: HTMLButtonElement) => Promise<void>][]} */
  const actions = [
    ['Send a test ping', `Send a test ping to ${endpoint.url}`, (button) => sendPing(endpoint, button, hooks)],
    ['Rotate the secret', `Rotate the secret of ${endpoint.url}`, (button) => rotateSecret(endpoint, button)],
    ['Delete', `Delete the webhook to ${endpoint.url}`, (button) => deleteEndpoint(endpoint, button, hooks)],
  ]
  return actions.map(([text, label, act]) => {
    const button = /** @type {HTMLButtonElement} */ (
      h('button', { type: 'button', class: 'secondary small', 'aria-label': label }, text)
    )
    button.addEventListener('click', () => act(button))
    return button
  })
}
