// @ts-check
import { setStatus } from './status.js'

/** Builds an element; strings become text nodes, so names from the API are never parsed as HTML. */
export function h(tag, props = {}, ...children) {
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

export const title = (word) =>
  String(word)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/(^|[-\s])(\w)/g, (_m, sep, c) => (sep ? ' ' : '') + c.toUpperCase())

/**
 * An element of index.html by id. Loosely typed on purpose: which kind of element an id names is
 * index.html's business, and the browser tests read every one of them.
 * @param {string} id
 * @returns {any}
 */
export const $ = (id) => document.getElementById(id)

/** The name typed in the field, trimmed; when it is empty, says so, focuses the field, and gives ''. */
export function nameIn(id, what) {
  const name = $(id).value.trim()
  if (!name) {
    setStatus(`Give ${what} a name.`, true)
    $(id).focus()
  }
  return name
}
