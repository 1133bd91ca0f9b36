// @ts-check
import { $, h } from './dom.js'

/**
 * The campaigns this browser opened as GM, to reopen from a new tab: ids and names always, a
 * key only when the GM chose "remember on this device" (localStorage, readable by anyone using
 * this browser profile, hence opt-in).
 */
const STORAGE_KEY = 'nerve.dashboard.campaigns'

/** @typedef {{ id: string, name: string, ruleset: string, key?: string }} Remembered */

/** @returns {Remembered[]} */
function load() {
  try {
    const list = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]')
    return Array.isArray(list) ? list : []
  } catch {
    return []
  }
}

/** @param {Remembered[]} list */
function save(list) {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(list))
}

/**
 * Puts the campaign first in the list; keeps its key when `key` is given, or when the one kept
 * is the key used now.
 * @param {{ id: string, name: string, ruleset: string }} campaign
 * @param {string} usedKey
 * @param {boolean} keepKey
 */
export function rememberCampaign(campaign, usedKey, keepKey) {
  const list = load()
  const known = list.find((entry) => entry.id === campaign.id)
  const key = keepKey || known?.key === usedKey ? usedKey : undefined
  save([
    { id: campaign.id, name: campaign.name, ruleset: campaign.ruleset, ...(key ? { key } : {}) },
    ...list.filter((entry) => entry !== known),
  ])
}

/** Drops the key kept for the campaign, if any; the campaign stays listed. */
export function forgetKey(campaignId) {
  save(
    load().map((entry) =>
      entry.id === campaignId ? { id: entry.id, name: entry.name, ruleset: entry.ruleset } : entry,
    ),
  )
}

/**
 * Lists the campaigns remembered, each with Open and Remove.
 * @param {(entry: Remembered) => void} open
 */
export function showRemembered(open) {
  const list = load()
  $('remembered').hidden = list.length === 0
  $('remembered-list').replaceChildren(
    ...list.map((entry) => {
      const openButton = h('button', { type: 'button', class: 'small', 'aria-label': `Open ${entry.name}` }, 'Open')
      openButton.addEventListener('click', () => open(entry))
      const remove = h(
        'button',
        { type: 'button', class: 'secondary small', 'aria-label': `Remove ${entry.name} from this list` },
        'Remove',
      )
      remove.addEventListener('click', () => {
        save(load().filter((other) => other.id !== entry.id))
        showRemembered(open)
      })
      return h(
        'li',
        {},
        h('span', { class: 'remembered-name' }, entry.name),
        ` (${entry.ruleset}) `,
        h('code', {}, entry.id),
        entry.key ? h('span', { class: 'badge warn' }, 'key kept on this device') : null,
        ' ',
        openButton,
        ' ',
        remove,
      )
    }),
  )
}
