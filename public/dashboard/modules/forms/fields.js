// @ts-check
// Forms drawn from the API's own JSON Schemas (the OpenAPI document at /docs/json and the rule
// set's sheet schema), so every choice a form offers is one the server accepts: enums become
// select lists, numbers keep their bounds, defaults are prefilled. Each field returns a
// `read()` that gives its value, or undefined when left empty (the server fills defaults).

import { h, title } from '../dom.js'
import { inGmWords, labelOf } from './words.js'

/** Follows `$ref`s into the document's components. */
export function resolver(document) {
  const resolve = (schema) => {
    let current = schema
    for (let depth = 0; current?.$ref && depth < 20; depth++) {
      const name = current.$ref.replace('#/components/schemas/', '')
      current = {
        ...document.components.schemas[name],
        ...Object.fromEntries(Object.entries(current).filter(([key]) => key !== '$ref')),
      }
    }
    return current ?? {}
  }
  return resolve
}

/** The constant values of an enum or of an `anyOf` of single constants; null when it is not one. */
export function choicesOf(schema) {
  if (Array.isArray(schema.enum)) return schema.enum
  if ('const' in schema) return [schema.const]
  if (!Array.isArray(schema.anyOf)) return null
  const values = []
  for (const branch of schema.anyOf) {
    const nested = choicesOf(branch)
    if (!nested) return null
    values.push(...nested)
  }
  return values
}

let uniqueId = 0
export const nextId = (prefix) => `${prefix}-${++uniqueId}`

function describe(schema, id) {
  return schema.description ? h('p', { class: 'hint', id: `${id}-hint` }, schema.description) : null
}

function labelText(name, required) {
  return required ? labelOf(name) : `${labelOf(name)} (optional)`
}

/**
 * One field for `schema` named `name`. `hints[name]` offers choices the schema cannot know (the
 * character's identities, the trigger catalogue): `{ options: [{value, label}], strict }` —
 * strict gives a select list, otherwise suggestions on a text field.
 */
export function field(name, rawSchema, options) {
  const { resolve, required = false, hints = {}, prefix = 'f', labels = {} } = options
  const schema = inGmWords(name, resolve(rawSchema))
  if (schema.deprecated || schema.readOnly) return null
  const id = nextId(prefix)
  const label = labels[name] ?? labelText(name, required)
  const hintId = schema.description ? `${id}-hint` : undefined
  const choices = choicesOf(schema)
  const hint = hints[name]

  if (choices || (hint?.strict && (schema.type === 'string' || !schema.type))) {
    const values = choices ?? hint.options.map((option) => option.value)
    const labelFor = (value) =>
      hint?.options.find((option) => option.value === value)?.label ??
      (typeof value === 'string' ? title(value) : String(value))
    const select = h(
      'select',
      { id, name, 'aria-describedby': hintId },
      required && schema.default !== undefined ? null : h('option', { value: '' }, required ? 'Choose…' : '—'),
      values.map((value) =>
        h('option', { value: JSON.stringify(value), selected: schema.default === value }, labelFor(value)),
      ),
    )
    return {
      element: h('div', { class: 'field' }, h('label', { for: id }, label), select, describe(schema, id)),
      read: () => (select.value === '' ? undefined : JSON.parse(select.value)),
      focus: () => select.focus(),
    }
  }

  if (Array.isArray(schema.anyOf)) return mixedField(name, schema, { ...options, id, label, hintId })

  if (schema.type === 'boolean') {
    const input = h('input', {
      id,
      name,
      type: 'checkbox',
      checked: schema.default === true,
      'aria-describedby': hintId,
    })
    return {
      element: h('div', { class: 'field check' }, input, h('label', { for: id }, labelOf(name)), describe(schema, id)),
      read: () => input.checked,
      focus: () => input.focus(),
    }
  }

  if (schema.type === 'integer' || schema.type === 'number') {
    const input = h('input', {
      id,
      name,
      type: 'number',
      inputmode: 'numeric',
      min: schema.minimum,
      max: schema.maximum,
      step: schema.type === 'integer' ? 1 : 'any',
      value: schema.default,
      required,
      'aria-describedby': hintId,
    })
    return {
      element: h('div', { class: 'field' }, h('label', { for: id }, label), input, describe(schema, id)),
      read: () => (input.value.trim() === '' ? undefined : Number(input.value)),
      focus: () => input.focus(),
      input,
    }
  }

  if (schema.type === 'object') return objectField(name, schema, { ...options, id, label })

  if (schema.type === 'array') {
    const items = resolve(schema.items ?? {})
    if (items.type === 'object') return arrayField(name, schema, items, { ...options, id, label })
    return null
  }

  // A string, with suggestions when the hints know some.
  const listId = hint ? `${id}-list` : undefined
  const input = h('input', {
    id,
    name,
    type: 'text',
    maxlength: schema.maxLength,
    required,
    list: listId,
    autocomplete: 'off',
    'aria-describedby': hintId,
  })
  if (typeof schema.default === 'string') input.value = schema.default
  const datalist = hint
    ? h(
        'datalist',
        { id: listId },
        hint.options.map((option) => h('option', { value: option.value }, option.label)),
      )
    : null
  return {
    element: h('div', { class: 'field' }, h('label', { for: id }, label), input, datalist, describe(schema, id)),
    read: () => (input.value.trim() === '' ? undefined : input.value.trim()),
    focus: () => input.focus(),
    input,
  }
}

/** Fields of an object; read() leaves it out when nothing in it was filled. */
export function objectField(name, schema, options) {
  const { id = nextId('o'), label = labelOf(name), legend = true } = options
  const required = new Set(schema.required ?? [])
  const fields = Object.entries(schema.properties ?? {})
    .map(([key, property]) => [key, field(key, property, { ...options, required: required.has(key), prefix: id })])
    .filter(([, built]) => built)
  const element = legend
    ? h(
        'fieldset',
        { class: 'group' },
        h('legend', {}, label),
        fields.map(([, built]) => built.element),
      )
    : h(
        'div',
        { class: 'group-plain' },
        fields.map(([, built]) => built.element),
      )
  return {
    element,
    read: () => {
      const value = {}
      for (const [key, built] of fields) {
        const entry = built.read()
        if (entry !== undefined) value[key] = entry
      }
      return Object.keys(value).length ? value : undefined
    },
    focus: () => fields[0]?.[1].focus?.(),
    fields: Object.fromEntries(fields),
  }
}

/** A list of objects (extra upgrades, context modifiers): add and remove rows. */
function arrayField(name, schema, items, options) {
  const { id, label } = options
  const rows = rowsEditor(
    label,
    singularOf(label),
    [],
    () => objectField(name, items, { ...options, legend: false, id: nextId(id) }),
    schema.maxItems,
  )
  return {
    ...rows,
    read: () => {
      const values = rows.values().filter((value) => value !== undefined)
      return values.length ? values : undefined
    },
  }
}

/** `anyOf` of constants and objects (a trauma is accepted, or answered with an ability). */
function mixedField(name, schema, options) {
  const { resolve, id, label, hintId, required } = options
  const branches = schema.anyOf.map((branch) => resolve(branch))
  const parts = branches.map((branch, index) => {
    const constant = choicesOf(branch)
    if (constant) return { value: `c${index}`, label: title(String(constant[0])), read: () => constant[0] }
    if (branch.type === 'object') {
      const built = objectField(name, branch, { ...options, legend: false, id: `${id}-b${index}` })
      const keys = Object.keys(branch.properties ?? {})
      return {
        value: `o${index}`,
        label: `Answer with ${keys.map((key) => title(key).toLowerCase()).join(', ')}`,
        built,
        read: () => built.read() ?? {},
      }
    }
    return null
  })
  const usable = parts.filter(Boolean)
  const select = h(
    'select',
    { id, name, 'aria-describedby': hintId },
    required ? null : h('option', { value: '' }, '—'),
    usable.map((part) => h('option', { value: part.value }, part.label)),
  )
  const extra = usable
    .filter((part) => part.built)
    .map((part) => {
      part.built.element.hidden = true
      return part.built.element
    })
  const sync = () => usable.forEach((part) => part.built && (part.built.element.hidden = select.value !== part.value))
  select.addEventListener('change', sync)
  sync()
  return {
    element: h('div', { class: 'field' }, h('label', { for: id }, label), select, describe(schema, id), extra),
    read: () => usable.find((part) => part.value === select.value)?.read(),
    focus: () => select.focus(),
  }
}

/** Rows that are added and removed: one fieldset per row, numbered, each with its Remove button. */
export function rowsEditor(label, singular, rows, makeRow, maxItems) {
  const list = h('div', { class: 'array-rows' })
  const add = h('button', { type: 'button', class: 'secondary small' }, `Add ${singular.toLowerCase()}`)
  const entries = []
  const refresh = () => {
    add.disabled = maxItems !== undefined && entries.length >= maxItems
    entries.forEach((entry, index) => (entry.legend.textContent = `${singular} ${index + 1}`))
  }
  const append = (value) => {
    const built = makeRow(value)
    const legend = h('legend', {})
    const remove = h('button', { type: 'button', class: 'secondary small' }, 'Remove')
    const entry = { built, legend, element: h('fieldset', { class: 'group array-row' }, legend, built.element, remove) }
    remove.setAttribute('aria-label', `Remove ${singular.toLowerCase()}`)
    remove.addEventListener('click', () => {
      entries.splice(entries.indexOf(entry), 1)
      entry.element.remove()
      refresh()
      add.focus()
    })
    entries.push(entry)
    list.append(entry.element)
    refresh()
    return built
  }
  rows.forEach(append)
  add.addEventListener('click', () => append(undefined).focus?.())
  return {
    element: h('fieldset', { class: 'group' }, h('legend', {}, label), list, add),
    values: () => entries.map((entry) => entry.built.read()),
    focus: () => add.focus(),
  }
}

export const singularOf = (label) => label.replace(' (optional)', '').replace(/ies$/, 'y').replace(/s$/, '')
