// @ts-check
import { refreshActionHints } from './action-form.js'
import { api, post } from './api.js'
import { characters, upsertCharacter } from './characters.js'
import { $, h, nameIn } from './dom.js'
import { setStatus } from './status.js'
import { valueField } from './forms/values.js'
import { campaignPath, session } from './session.js'
import { changes, RULES_BOOKKEEPING } from './sheet-diff.js'
import { resetVisibility } from './visibility.js'

/**
 * What the rules keep of the latest roll and of a decision still open: a GM changes those through
 * the actions (settle, undo), so the sheet editor leaves them out, as it leaves out derived values.
 */
const KEPT_BY_THE_RULES = new Set([...RULES_BOOKKEEPING, 'pendingTrauma', 'pendingRetrieval'])

/** Every part of a sheet a GM sets by hand, prefilled with the sheet's values. */
function sheetFields(sheet, prefix) {
  const schema = session.resolve(session.ruleset.sheetSchema)
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).filter(([key]) => !KEPT_BY_THE_RULES.has(key)),
  )
  return valueField('sheet', { ...schema, properties }, sheet, { resolve: session.resolve, legend: false, prefix })
}

export function toggleEditor(characterId, button) {
  const slot = $(`editor-${characterId}`)
  if (slot.childElementCount) {
    slot.replaceChildren()
    button.setAttribute('aria-expanded', 'false')
    return
  }
  const character = characters.get(characterId)
  const nameId = `edit-name-${characterId}`
  const reasonId = `edit-reason-${characterId}`
  const fields = sheetFields(character.sheet, `edit-${characterId}`)
  const form = h(
    'form',
    { class: 'editor', novalidate: true, 'aria-label': `Edit ${character.name}` },
    h(
      'div',
      { class: 'field' },
      h('label', { for: nameId }, 'Name'),
      h('input', { id: nameId, value: character.name, required: true }),
    ),
    fields ? h('fieldset', { class: 'group sheet-fields' }, h('legend', {}, 'Sheet'), fields.element) : null,
    h(
      'div',
      { class: 'field' },
      h('label', { for: reasonId }, 'Reason (optional, kept with the edit)'),
      h('input', { id: reasonId }),
    ),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit' }, 'Save changes'),
      h('button', { type: 'button', class: 'secondary', 'data-cancel': '' }, 'Cancel'),
    ),
  )
  form.querySelector('[data-cancel]').addEventListener('click', () => {
    slot.replaceChildren()
    button.setAttribute('aria-expanded', 'false')
    button.focus()
  })
  form.addEventListener('submit', async (submitEvent) => {
    submitEvent.preventDefault()
    const current = characters.get(characterId)
    const body = {}
    const name = $(nameId).value.trim()
    if (name && name !== current.name) body.name = name
    let sheet
    try {
      sheet = fields ? changes(fields.read() ?? {}, current.sheet) : undefined
    } catch (error) {
      setStatus(error.message, true)
      return
    }
    if (sheet) body.sheet = sheet
    const reason = $(reasonId).value.trim()
    if (!Object.keys(body).length) {
      setStatus(`Nothing changed: ${current.name} is as it was.`)
      return
    }
    if (reason) body.reason = reason
    try {
      const answer = await api(`${campaignPath()}/characters/${encodeURIComponent(characterId)}`, {
        method: 'PATCH',
        body: JSON.stringify(body),
        headers: { 'if-match': `"${current.version}"` },
      })
      slot.replaceChildren()
      upsertCharacter(answer.character ?? answer)
      setStatus(`${name || current.name} saved.`)
    } catch (error) {
      setStatus(`Could not save ${current.name}: ${error.message}`, true)
    }
  })
  slot.replaceChildren(form)
  button.setAttribute('aria-expanded', 'true')
  $(nameId).focus()
}

let newSheetFields = null

export function setupAddCharacter() {
  newSheetFields = sheetFields(session.ruleset.defaultSheet ?? {}, 'new')
  $('new-sheet').replaceChildren(
    newSheetFields ? newSheetFields.element : h('p', { class: 'none' }, 'The rule set’s defaults.'),
  )
}

export async function addCharacter(submitEvent) {
  submitEvent.preventDefault()
  const name = nameIn('new-name', 'the character')
  if (!name) return
  const body = { name }
  try {
    const sheet = newSheetFields ? changes(newSheetFields.read() ?? {}, session.ruleset.defaultSheet) : undefined
    if (sheet) body.sheet = sheet
    const answer = await post(`${campaignPath()}/characters`, body)
    upsertCharacter(answer.character)
    $('new-name').value = ''
    setupAddCharacter()
    $('action-character').value = answer.character.id
    resetVisibility()
    refreshActionHints()
    setStatus(`${answer.character.name} joins the campaign.`)
  } catch (error) {
    setStatus(`Could not add ${name}: ${error.message}`, true)
  }
}
