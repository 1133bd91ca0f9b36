// @ts-check
import { api } from './api.js'
import { h } from './dom.js'
import { setStatus } from './status.js'
import { eventWords } from './event-words.js'
import { campaignPath } from './session.js'

/** While a delivery is on its way, its list is read again this often, so the GM sees it land. */
const REFRESH_MS = 1500
const SHOWN = 20

const STATUS_WORDS = {
  pending: 'waiting to be sent',
  delivering: 'being sent',
  delivered: 'delivered',
  failed: 'failed: every retry used',
  skipped: 'not sent',
}

const onItsWay = (delivery) => delivery.status === 'pending' || delivery.status === 'delivering'

/** The delivery lists on show: another campaign opening stops them all. */
const shown = new Set()

export function hideAllDeliveries() {
  for (const list of shown) list.hide()
}

/**
 * The latest deliveries to one webhook, newest first, each with a button to send it again.
 * @param {import('./api-types.js').WebhookEndpoint} endpoint
 */
export function deliveriesList(endpoint) {
  const path = `${campaignPath()}/webhooks/${encodeURIComponent(endpoint.id)}/deliveries`
  const rows = h('tbody')
  const empty = h('p', { class: 'empty' }, 'Nothing sent yet: each new event it receives is listed here.')
  const reread = h(
    'button',
    { type: 'button', class: 'secondary small', 'aria-label': `Refresh the deliveries to ${endpoint.url}` },
    'Refresh',
  )
  const element = h(
    'div',
    { class: 'deliveries', id: `deliveries-${endpoint.id}`, hidden: true },
    h('div', { class: 'actions' }, reread),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        {},
        h('caption', { class: 'visually-hidden' }, `Latest deliveries to ${endpoint.url}`),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Event', 'Status', 'Attempts', 'Last tried'].map((name) => h('th', { scope: 'col' }, name)),
            h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Action')),
          ),
        ),
        rows,
      ),
    ),
    empty,
  )
  let timer = null
  reread.addEventListener('click', () => refresh().catch(report))

  const report = (error) => setStatus(`Could not list the deliveries: ${error.message}`, true)

  async function refresh() {
    clearTimeout(timer)
    const page = await api(`${path}?limit=${SHOWN}`)
    if (!shown.has(list)) return
    rows.replaceChildren(...page.data.map(row))
    empty.hidden = page.data.length > 0
    if (page.data.some(onItsWay)) timer = setTimeout(() => refresh().catch(report), REFRESH_MS)
  }

  /** @param {import('./api-types.js').WebhookDelivery} delivery */
  function row(delivery) {
    const last = delivery.attempts.at(-1)
    const what = delivery.eventSeq === null ? eventWords(delivery.eventType) : `#${delivery.eventSeq}`
    const status =
      delivery.status === 'skipped' && delivery.skippedReason
        ? `${STATUS_WORDS.skipped}: ${delivery.skippedReason}`
        : STATUS_WORDS[delivery.status]
    const failure = delivery.status !== 'delivered' && last?.error ? ` (${last.error})` : ''
    const when = last?.attemptedAt ?? delivery.createdAt
    const again = h(
      'button',
      { type: 'button', class: 'secondary small', 'aria-label': `Send again: ${what}`, disabled: onItsWay(delivery) },
      'Send again',
    )
    again.addEventListener('click', async () => {
      again.disabled = true
      try {
        const queued = await api(`${path}/${encodeURIComponent(delivery.id)}/redeliver`, { method: 'POST' })
        setStatus(
          queued.status === 'skipped'
            ? `${what} was not sent again: ${queued.skippedReason}.`
            : `${what} is on its way to ${endpoint.url} again.`,
        )
        await refresh()
      } catch (error) {
        again.disabled = false
        setStatus(`Could not send ${what} again: ${error.message}`, true)
      }
    })
    return h(
      'tr',
      { 'data-delivery-id': delivery.id, 'data-status': delivery.status },
      h(
        'th',
        { scope: 'row' },
        what,
        delivery.eventSeq === null ? null : h('span', { class: 'hint' }, ` ${eventWords(delivery.eventType)}`),
      ),
      h('td', {}, status, failure),
      h('td', {}, String(delivery.attemptCount)),
      h('td', {}, h('time', { datetime: when }, new Date(when).toLocaleTimeString())),
      h('td', {}, again),
    )
  }

  const list = {
    element,
    get showing() {
      return shown.has(list)
    },
    show() {
      shown.add(list)
      element.hidden = false
      return refresh().catch(report)
    },
    hide() {
      clearTimeout(timer)
      shown.delete(list)
      element.hidden = true
    },
  }
  return list
}
