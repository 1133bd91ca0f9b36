// @ts-check
import { $, h } from './dom.js'
import { copyField } from './copy.js'

/**
 * Shows signing secrets, once: a new webhook's, a rotated one, or those of the webhooks an
 * import brought back.
 * @param {import('./api-types.js').CreatedWebhookEndpoint[]} endpoints
 * @param {string} text  what the GM is to do with them
 */
export function showSecrets(endpoints, text) {
  if (!endpoints.length) return
  $('webhook-secret').replaceChildren(
    h('h3', {}, endpoints.length === 1 ? 'Signing secret' : 'Signing secrets'),
    h('p', {}, text),
    ...endpoints.map((endpoint) =>
      copyField(
        `webhook-secret-${endpoint.id}`,
        `Secret of ${endpoint.url}`,
        endpoint.secret,
        `the secret of ${endpoint.url}`,
      ),
    ),
  )
  $('webhook-secret').hidden = false
}

/** A deleted webhook's secret no longer means anything: it leaves the panel, and the panel goes when empty. */
export function dropSecret(endpointId) {
  $(`webhook-secret-${endpointId}`)?.closest('.field')?.remove()
  if (!$('webhook-secret').querySelector('input')) hideSecrets()
}

export function hideSecrets() {
  $('webhook-secret').replaceChildren()
  $('webhook-secret').hidden = true
}
