// @ts-check
import { h } from '../dom.js'

/**
 * A sheet's entries in the rule set's order: stored sheets come back from PostgreSQL's jsonb,
 * which does not keep key order. Keys the order does not name follow alphabetically.
 */
export function ordered(order, record) {
  const rank = (key) => (order.includes(key) ? order.indexOf(key) : order.length)
  return Object.entries(record).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
}

/** A row of boxes: `on` of `total` filled, with the count spelt out for screen readers. */
export function boxes(on, total, kind, label) {
  const row = h('span', { class: 'boxes', 'aria-hidden': 'true' })
  for (let i = 0; i < total; i++) row.append(h('span', { class: `box ${kind}${i < on ? ' on' : ''}` }))
  return h('span', {}, row, h('span', { class: 'visually-hidden' }, `${on} of ${total} ${label}`))
}

export function badge(text, tone) {
  return h('li', { class: `badge ${tone}` }, text)
}

export function facts(entries) {
  return h(
    'dl',
    { class: 'facts' },
    entries.map(([term, value]) => h('div', {}, h('dt', {}, term), h('dd', {}, value))),
  )
}

export function list(items, empty) {
  return items.length
    ? h(
        'ul',
        { class: 'plain' },
        items.map((item) => h('li', {}, item)),
      )
    : h('p', { class: 'none' }, empty)
}

/** A table with its caption and column headings; `rows` are its body's rows. */
export function table(caption, headings, rows, props = {}) {
  return h(
    'table',
    props,
    h('caption', {}, caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        headings.map((heading) => h('th', { scope: 'col' }, heading)),
      ),
    ),
    h('tbody', {}, rows),
  )
}
