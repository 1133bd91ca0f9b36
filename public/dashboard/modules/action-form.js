// @ts-check
import { ApiError, CHARACTER_ROUTE, answered, idempotencyKeyFor, post } from './api.js'
import { characters, upsertCharacter } from './characters.js'
import { confirmWith } from './confirm.js'
import { parseFaces, resetDice } from './dice.js'
import { $, h, title } from './dom.js'
import { addToFeed } from './feed.js'
import { objectField } from './forms/fields.js'
import { aboutAction } from './forms/words.js'
import { scheduleOdds } from './odds.js'
import { setStatus } from './status.js'
import { campaignPath, session } from './session.js'
import { refreshVisibilityHint, resetVisibility, visibilityCase, visibilityLine } from './visibility.js'

/** The request body schema of a character action, from the OpenAPI document. */
function actionBody(action) {
  const operation = session.openapi?.paths?.[`${CHARACTER_ROUTE}${action}`]?.post
  const schema = operation?.requestBody?.content?.['application/json']?.schema
  return schema ? session.resolve(schema) : null
}

/** Choices the schemas cannot know: this character's identities, abilities, traumas; the catalogue. */
function hintsFor(character) {
  const sheet = character?.sheet ?? {}
  const options = (values) => values.filter(Boolean).map((value) => ({ value, label: value }))
  const hints = {}
  const triggers = session.ruleset?.tables?.triggers
  if (Array.isArray(triggers)) {
    hints.trigger = {
      strict: true,
      options: triggers.map((trigger) => ({
        value: trigger.id,
        label: `${trigger.label} (${trigger.meters.map(title).join(trigger.meterChoice === 'both' ? ' and ' : ' or ')}${trigger.rank ? `, rank ${trigger.rank.min}–${trigger.rank.max}` : ''})`,
      })),
    }
  }
  if (Array.isArray(sheet.identities))
    hints.identity = { options: options(sheet.identities.map((entry) => entry.name)) }
  if (Array.isArray(sheet.relationships))
    hints.relationship = { options: options(sheet.relationships.map((entry) => entry.name)) }
  if (Array.isArray(sheet.disorders)) hints.disorder = { options: options(sheet.disorders.map((entry) => entry.name)) }
  if (Array.isArray(sheet.lastingTraumas))
    hints.trauma = { options: options(sheet.lastingTraumas.map((entry) => entry.name)) }
  if (sheet.abilities && character.ruleset === 'reaction-rolls') {
    hints.ability = {
      strict: true,
      options: Object.entries(sheet.abilities).map(([name, ability]) => ({
        value: name,
        label: `${title(name)} (${ability.dice})`,
      })),
    }
  }
  return hints
}

const KINDS = [
  ['roll', 'Rolls'],
  ['decision', 'Decisions'],
  ['gm', 'GM actions'],
]

export function refreshCharacterChoices() {
  const select = $('action-character')
  if (!select) return
  const current = select.value
  const active = [...characters.values()].filter((character) => !character.archivedAt)
  select.replaceChildren(...active.map((character) => h('option', { value: character.id }, character.name)))
  if (active.some((character) => character.id === current)) select.value = current
  $('action-form').hidden = active.length === 0
  $('no-console').hidden = active.length > 0
  refreshActionHints()
}

export let actionFields = null
/** The request schema of the action chosen: its `required` fields come before any odds. */
export let actionRequest = null
let hintsKey = ''

export function refreshActionHints() {
  const character = characters.get($('action-character').value)
  const key = JSON.stringify([$('action-name').value, hintsFor(character)])
  if (key !== hintsKey) buildActionFields()
  else refreshVisibilityHint()
}

/**
 * Whether the action rolls dice: those with odds do; accepting a trauma rolls its effects' dice
 * (D4, D8… health loss) without odds of its own. The others take no dice, so no Dice section.
 */
const rollsDice = (action) => Boolean(action?.oddsPath) || action?.name === 'trauma-response'

export function buildActionFields() {
  const action = $('action-name').value
  const character = characters.get($('action-character').value)
  const hints = hintsFor(character)
  hintsKey = JSON.stringify([action, hints])
  const body = actionBody(action)
  const container = $('action-fields')
  const about = session.ruleset?.actions.find((entry) => entry.name === action)
  $('action-about').textContent = about ? aboutAction(about) : ''
  if (!body) {
    actionFields = null
    container.replaceChildren(h('p', { class: 'none' }, 'This action has no form.'))
    return
  }
  const request = session.resolve(body.properties?.request ?? { type: 'object', properties: {} })
  actionRequest = request
  actionFields = objectField('request', request, {
    resolve: session.resolve,
    hints,
    legend: false,
    prefix: `act-${action}`,
  })
  container.replaceChildren(
    Object.keys(request.properties ?? {}).length
      ? actionFields.element
      : h('p', { class: 'none' }, 'Nothing to choose: this action only needs a click.'),
  )
  $('dice-fieldset').hidden = !body.properties?.dice || !rollsDice(about)
  $('visibility-fieldset').hidden = !body.properties?.visibility
  $('action-submit').textContent = about ? `${about.summary}` : 'Send'
  refreshVisibilityHint()
  scheduleOdds()
}

/** Dice and visibility do not change the odds; everything else in the form does. */
export function onFormChange(event) {
  if (event.target.closest?.('#dice-fieldset, #visibility-fieldset')) return
  scheduleOdds()
}

export function openConsole(characterId, action) {
  $('action-character').value = characterId
  if (action) $('action-name').value = action
  buildActionFields()
  resetDice()
  resetVisibility()
  $('console').scrollIntoView({ block: 'start' })
  ;($('action-fields').querySelector('input, select') ?? $('action-name')).focus()
}

export function setupConsole() {
  const actionSelect = $('action-name')
  actionSelect.replaceChildren(
    ...KINDS.map(([kind, label]) => {
      const actions = session.ruleset.actions.filter((action) => action.kind === kind)
      return actions.length
        ? h(
            'optgroup',
            { label },
            actions.map((action) => h('option', { value: action.name }, `${action.summary} (${action.name})`)),
          )
        : null
    }).filter(Boolean),
  )
  refreshCharacterChoices()
  buildActionFields()
  resetDice()
  resetVisibility()
}

/**
 * The form's answer: kept under the button as the record of the last roll, and shown in view (and
 * read out) as every message of the page is.
 */
function showAnswer(text, isError = false) {
  const result = $('action-result')
  result.textContent = text
  result.classList.toggle('error', isError)
  setStatus(text, isError)
}

export async function submitAction(submitEvent) {
  submitEvent.preventDefault()
  const characterId = $('action-character').value
  const action = $('action-name').value
  const body = actionBody(action)
  const result = $('action-result')
  const payload = { request: actionFields?.read() ?? {} }
  if (!$('dice-fieldset').hidden && $('dice-provided').checked) {
    const faces = parseFaces($('dice-faces').value)
    if (!faces.length || faces.some((face) => !Number.isInteger(face))) {
      showAnswer('Type the faces rolled at the table as whole numbers, e.g. 85 or 3 5.', true)
      $('dice-faces').focus()
      return
    }
    payload.dice = { source: 'provided', faces }
  }
  if (body?.properties?.visibility) {
    // Left out, Nerve decides (GM-only when it follows a GM-only roll or reads what one did).
    const chosen = $('visibility-gm').checked ? 'gm' : $('visibility-public').checked ? 'public' : null
    const risk = visibilityCase()
    if (chosen === 'public' && risk?.why) {
      const sure = await confirmWith({
        heading: 'Show this to everyone?',
        text: `${risk.why} Sent for everyone, players see that it happened, with what you chose and the dice, but not what only the hidden rolls established. To show them a hidden roll itself, use Reveal in the live rolls.`,
        yes: 'Send for everyone',
      })
      if (!sure) {
        showAnswer('Not sent. Choose who sees it, then send again.')
        return
      }
    }
    if (chosen) payload.visibility = chosen
  }
  const button = $('action-submit')
  button.disabled = true
  result.classList.remove('error')
  result.textContent = 'Sending…'
  delete result.dataset.eventId
  const path = `${campaignPath()}/characters/${encodeURIComponent(characterId)}/${action}`
  const key = idempotencyKeyFor(JSON.stringify([path, payload]))
  try {
    const answer = await post(path, payload, { 'idempotency-key': key })
    answered()
    if (answer.event) addToFeed(answer.event, true)
    if (answer.character) upsertCharacter(answer.character)
    // Which event the answer speaks of: an undo of it says so here (undo.js).
    result.dataset.eventId = answer.event?.id ?? ''
    const summary = `${answer.character?.name ?? ''}: ${answer.event?.summary ?? 'done'}`
    result.replaceChildren(
      h('span', { class: 'result-summary' }, summary),
      ' ',
      h('span', { class: 'result-visibility' }, visibilityLine(answer)),
    )
    setStatus(`${summary} ${visibilityLine(answer)}`)
    // Each roll says where its dice come from, and who sees it: the next starts from Nerve's dice and the rules again.
    if (payload.dice) resetDice()
    resetVisibility()
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) answered()
    showAnswer(
      error instanceof ApiError
        ? `Refused: ${error.message}`
        : `No answer (${error.message}). Send it again: Nerve will not roll twice.`,
      true,
    )
  } finally {
    button.disabled = false
  }
}
