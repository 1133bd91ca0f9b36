// @ts-check
import { h } from './dom.js'
import { setStatus } from './status.js'

/**
 * A Copy button for a read-only field (a key, a link, an id). The clipboard API needs a secure
 * page (HTTPS or localhost); elsewhere the field's text is selected for the GM to copy by hand.
 * @param {HTMLInputElement} input
 * @param {string} what  what is copied, as the button's name says it ("the GM key")
 */
export function copyButton(input, what) {
  const button = h('button', { type: 'button', class: 'secondary small copy', 'aria-label': `Copy ${what}` }, 'Copy')
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(input.value)
      setStatus(`Copied ${what}.`)
      // The button says it too, where the GM's eyes are, after the message has faded.
      button.textContent = 'Copied'
    } catch {
      input.focus()
      input.select()
      setStatus(`Could not reach the clipboard: ${what} is selected, copy it with the keyboard.`, true)
    }
  })
  return button
}

/** A read-only field with its label and Copy button. */
export function copyField(id, label, value, what) {
  const input = /** @type {HTMLInputElement} */ (h('input', { id, readonly: true, value, spellcheck: 'false' }))
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    h('div', { class: 'copy-row' }, input, copyButton(input, what)),
  )
}
