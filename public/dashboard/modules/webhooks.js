// @ts-check
import { api, post } from './api.js'
import { $, h } from './dom.js'
import { setStatus } from './status.js'
import { eventWords, subscribableTypes } from './event-words.js'
import { campaignPath } from './session.js'
import { endpointActions } from './webhook-actions.js'
import { deliveriesList, hideAllDeliveries } from './webhook-deliveries.js'
import { dropSecret, hideSecrets, showSecrets } from './webhook-secrets.js'

/** The webhooks panel (GM only): each endpoint with its state and deliveries, and the form adding one. */

/** Each webhook's delivery list, kept while the campaign is open so a redraw leaves it as it was. */
const deliveries = new Map()

const webhooksPath = () => `${campaignPath()}/webhooks`

/** Another campaign opens: nothing of this one's webhooks stays on show. */
export function resetWebhooks() {
  hideAllDeliveries()
  deliveries.clear()
  $('webhook-list').replaceChildren()
  hideSecrets()
  $('webhook-form').reset()
}

/** Lists the open campaign's webhooks and fills the form's choice of events. */
export async function loadWebhooks() {
  const [list, types] = await Promise.all([api(webhooksPath()), subscribableTypes()])
  $('webhook-types').replaceChildren(
    ...types.map(({ type, words }) => {
      const id = `webhook-type-${type}`
      return h(
        'div',
        { class: 'field check' },
        h('input', { type: 'checkbox', id, name: 'eventTypes', value: type }),
        h('label', { for: id }, words),
      )
    }),
  )
  showEndpoints(list.data)
}

/** @param {import('./api-types.js').WebhookEndpoint[]} endpoints */
function showEndpoints(endpoints) {
  $('webhook-list').replaceChildren(...endpoints.map(endpointItem))
  $('no-webhooks').hidden = endpoints.length > 0
}

async function reload() {
  showEndpoints((await api(webhooksPath())).data)
}

/** @param {import('./api-types.js').WebhookEndpoint} endpoint */
function stateWords(endpoint) {
  if (!endpoint.enabled) return `Disabled (${endpoint.disabledReason ?? 'no reason given'}): nothing is sent to it.`
  if (endpoint.pausedUntil) {
    return `Failing: it is tried again at ${new Date(endpoint.pausedUntil).toLocaleTimeString()}.`
  }
  return 'Enabled: each new event it receives is sent at once.'
}

/** @param {import('./api-types.js').WebhookEndpoint} endpoint */
function endpointItem(endpoint) {
  const list = deliveries.get(endpoint.id) ?? deliveriesList(endpoint)
  deliveries.set(endpoint.id, list)
  const events = endpoint.eventTypes.length ? endpoint.eventTypes.map(eventWords).join(', ') : 'every event'
  const toggle = h(
    'button',
    {
      type: 'button',
      class: 'secondary small',
      'aria-label': `${endpoint.enabled ? 'Disable' : 'Enable'} the webhook to ${endpoint.url}`,
    },
    endpoint.enabled ? 'Disable' : 'Enable',
  )
  toggle.addEventListener('click', () => switchEndpoint(endpoint, toggle))
  const show = h(
    'button',
    {
      type: 'button',
      class: 'secondary small',
      'aria-expanded': String(list.showing),
      'aria-controls': list.element.id,
      'aria-label': `Deliveries to ${endpoint.url}`,
    },
    'Deliveries',
  )
  show.addEventListener('click', () => {
    if (list.showing) list.hide()
    else list.show()
    show.setAttribute('aria-expanded', String(list.showing))
  })
  const actions = endpointActions(endpoint, {
    showDeliveries: () => {
      list.show()
      show.setAttribute('aria-expanded', 'true')
    },
    reload,
    forget: () => {
      list.hide()
      deliveries.delete(endpoint.id)
      dropSecret(endpoint.id)
    },
  })
  return h(
    'li',
    { class: 'webhook', 'data-webhook-id': endpoint.id, 'data-enabled': String(endpoint.enabled) },
    h(
      'p',
      { class: 'webhook-url' },
      h('code', {}, endpoint.url),
      endpoint.description ? ` · ${endpoint.description}` : '',
    ),
    h(
      'p',
      { class: 'hint' },
      `Receives ${events}; GM-only events ${endpoint.includeGmEvents ? 'included' : 'left out'}.`,
    ),
    h('p', { class: 'webhook-state' }, stateWords(endpoint)),
    h('div', { class: 'actions' }, toggle, show, ...actions),
    list.element,
  )
}

async function switchEndpoint(endpoint, button) {
  button.disabled = true
  const verb = endpoint.enabled ? 'disable' : 'enable'
  try {
    await api(`${webhooksPath()}/${encodeURIComponent(endpoint.id)}/${verb}`, { method: 'POST' })
    setStatus(
      endpoint.enabled
        ? `The webhook to ${endpoint.url} is disabled: events wait until it is enabled again.`
        : `The webhook to ${endpoint.url} is enabled: what waited goes out now.`,
    )
    await reload()
  } catch (error) {
    button.disabled = false
    setStatus(`Could not ${verb} the webhook: ${error.message}`, true)
  }
}

export function setupWebhooks() {
  $('webhook-form').addEventListener('submit', async (submitEvent) => {
    submitEvent.preventDefault()
    const url = $('webhook-url').value.trim()
    if (!url) {
      setStatus('Give the address of the receiver.', true)
      $('webhook-url').focus()
      return
    }
    const eventTypes = [...$('webhook-types').querySelectorAll('input:checked')].map((input) => input.value)
    const description = $('webhook-description').value.trim()
    $('webhook-add').disabled = true
    try {
      /** @type {import('./api-types.js').CreatedWebhookEndpoint} */
      const created = await post(webhooksPath(), {
        url,
        eventTypes,
        includeGmEvents: $('webhook-gm').checked,
        ...(description ? { description } : {}),
      })
      $('webhook-form').reset()
      showSecrets(
        [created],
        'Shown only this once: give it to the receiver now, so it can check that each event comes from Nerve.',
      )
      setStatus(`Webhook added: events go to ${created.url}.`)
      await reload()
      $(`webhook-secret-${created.id}`).focus()
    } catch (error) {
      setStatus(`Could not add the webhook: ${error.message}`, true)
    } finally {
      $('webhook-add').disabled = false
    }
  })
}
