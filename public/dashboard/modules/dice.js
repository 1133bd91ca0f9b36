// @ts-check
import { $ } from './dom.js'

export function syncDiceSource() {
  const table = $('dice-provided').checked
  $('faces-field').hidden = !table
}

export function resetDice() {
  $('dice-server').checked = true
  $('dice-faces').value = ''
  syncDiceSource()
}

export function parseFaces(text) {
  return text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((face) => Number(face))
}
