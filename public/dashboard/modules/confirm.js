// @ts-check
import { $, h } from './dom.js'

/**
 * Asks in a modal dialog; resolves true for the confirming button, false for Go back or Escape.
 * `list`: what the answer will change, one line each (an undo's knock-on).
 * @param {{ heading: string, text: string, yes: string, list?: string[] }} question
 */
export function confirmWith({ heading, text, yes, list = [] }) {
  const dialog = $('confirm-dialog')
  const opener = /** @type {HTMLElement | null} */ (document.activeElement)
  $('confirm-heading').textContent = heading
  $('confirm-text').textContent = text
  $('confirm-yes').textContent = yes
  $('confirm-list').replaceChildren(...list.map((line) => h('li', {}, line)))
  $('confirm-list').hidden = list.length === 0
  return new Promise((resolve) => {
    let done = false
    const finish = (answer) => {
      if (done) return
      done = true
      $('confirm-yes').removeEventListener('click', onYes)
      $('confirm-no').removeEventListener('click', onNo)
      dialog.removeEventListener('close', onNo)
      if (dialog.open) dialog.close()
      opener?.focus?.()
      resolve(answer)
    }
    const onYes = () => finish(true)
    const onNo = () => finish(false)
    $('confirm-yes').addEventListener('click', onYes)
    $('confirm-no').addEventListener('click', onNo)
    // Escape closes the dialog: the same as Go back.
    dialog.addEventListener('close', onNo)
    dialog.showModal()
    $('confirm-no').focus()
  })
}
