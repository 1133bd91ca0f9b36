// Forms drawn from the API's own JSON Schemas (the OpenAPI document at /docs/json and the rule
// set's sheet schema), so every choice a form offers is one the server accepts: enums become
// select lists, numbers keep their bounds, defaults are prefilled. Each field returns a
// `read()` that gives its value, or undefined when left empty (the server fills defaults).

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
    if ('const' in branch) values.push(branch.const)
    else if (Array.isArray(branch.enum)) values.push(...branch.enum)
    else return null
  }
  return values
}

let uniqueId = 0
const nextId = (prefix) => `${prefix}-${++uniqueId}`

function describe(schema, id) {
  return schema.description ? h('p', { class: 'hint', id: `${id}-hint` }, schema.description) : null
}

function labelText(name, required) {
  return required ? title(name) : `${title(name)} (optional)`
}

/**
 * One field for `schema` named `name`. `hints[name]` offers choices the schema cannot know (the
 * character's identities, the trigger catalogue): `{ options: [{value, label}], strict }` —
 * strict gives a select list, otherwise suggestions on a text field.
 */
export function field(name, rawSchema, options) {
  const { resolve, required = false, hints = {}, prefix = 'f', labels = {} } = options
  const schema = resolve(rawSchema)
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
      element: h('div', { class: 'field check' }, input, h('label', { for: id }, title(name)), describe(schema, id)),
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
  const { resolve, id = nextId('o'), label = title(name), legend = true } = options
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

// ------------------------------------------------------------------ editing a stored value

const isNullBranch = (branch) => branch.type === 'null' || ('const' in branch && branch.const === null)

/**
 * A field prefilled with `value` (a stored sheet's entry) whose read() gives the whole new value:
 * lists and named entries can be added and removed, a nullable entry left empty reads as null.
 * What no form can draw well (a list of mixed kinds) is edited as JSON.
 */
export function valueField(name, rawSchema, value, options) {
  const { resolve, prefix = 'v' } = options
  const schema = resolve(rawSchema)
  if (schema.readOnly || schema.deprecated) return null
  const nullable = Array.isArray(schema.anyOf) && schema.anyOf.some((branch) => isNullBranch(resolve(branch)))
  const others = nullable ? schema.anyOf.map(resolve).filter((branch) => !isNullBranch(branch)) : []
  if (nullable && others.length === 1) {
    const inner = valueField(name, { description: schema.description, ...others[0] }, value ?? undefined, {
      ...options,
      optional: true,
    })
    return inner && { ...inner, read: () => inner.read() ?? null }
  }
  const id = nextId(prefix)
  const label = options.label ?? (options.optional ? `${title(name)} (optional)` : title(name))
  const prefilled = { ...schema, default: value === undefined ? schema.default : value }
  if (choicesOf(schema) || ['integer', 'number', 'boolean', 'string'].includes(schema.type)) {
    return field(name, prefilled, { ...options, prefix: id, labels: { [name]: label } })
  }
  if (schema.type === 'object' && schema.properties)
    return objectValueField(name, schema, value, { ...options, id, label })
  if (schema.type === 'object' && schema.patternProperties)
    return namedEntriesField(name, schema, value, { ...options, id, label })
  if (schema.type === 'array' && resolve(schema.items ?? {}).type === 'object') {
    return listField(name, schema, value, { ...options, id, label })
  }
  return jsonField(name, schema, value, { id, label })
}

function objectValueField(name, schema, value, options) {
  const { id, label, legend = true } = options
  const fields = Object.entries(schema.properties)
    .map(([key, property]) => [
      key,
      valueField(key, property, value?.[key], {
        ...options,
        label: undefined,
        optional: false,
        legend: true,
        prefix: id,
      }),
    ])
    .filter(([, built]) => built)
  const children = fields.map(([, built]) => built.element)
  return {
    element: legend
      ? h('fieldset', { class: 'group' }, h('legend', {}, label), h('div', { class: 'group-plain' }, children))
      : h('div', { class: 'group-plain' }, children),
    read: () => {
      const read = {}
      for (const [key, built] of fields) {
        const entry = built.read()
        if (entry !== undefined) read[key] = entry
      }
      // An optional entry is there only when all it needs is filled in (a passion's text, a meter).
      const incomplete = (schema.required ?? []).some((key) => read[key] === undefined || read[key] === null)
      return options.optional && incomplete ? undefined : read
    },
    focus: () => fields[0]?.[1].focus?.(),
  }
}

/** Rows that are added and removed: one fieldset per row, numbered, each with its Remove button. */
function rowsEditor(label, singular, rows, makeRow, maxItems) {
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

const singularOf = (label) => label.replace(' (optional)', '').replace(/ies$/, 'y').replace(/s$/, '')

function listField(name, schema, value, options) {
  const { resolve, id, label } = options
  const items = schema.items
  const rows = rowsEditor(
    label,
    singularOf(label),
    Array.isArray(value) ? value : [],
    (row) => valueField(name, items, row, { resolve, prefix: nextId(id), legend: false, label: undefined }),
    schema.maxItems,
  )
  return { ...rows, read: () => rows.values().filter((row) => row !== undefined) }
}

/** Entries under names the GM chooses (a character's abilities). */
function namedEntriesField(name, schema, value, options) {
  const { resolve, id, label } = options
  const [pattern, entrySchema] = Object.entries(schema.patternProperties)[0]
  const rows = rowsEditor(
    label,
    singularOf(label),
    Object.entries(value ?? {}),
    (row) => {
      const rowId = nextId(id)
      const key = field(
        'name',
        { type: 'string', pattern, default: row?.[0] },
        { resolve, required: true, prefix: rowId },
      )
      const entry = valueField(name, entrySchema, row?.[1], { resolve, prefix: rowId, legend: false, label: undefined })
      return {
        element: h('div', { class: 'group-plain' }, key.element, entry.element),
        read: () => [key.read(), entry.read()],
        focus: () => key.focus(),
      }
    },
    schema.maxProperties,
  )
  // A merge patch removes an entry by setting it to null.
  const removed = Object.fromEntries(Object.keys(value ?? {}).map((key) => [key, null]))
  return {
    ...rows,
    read: () => ({ ...removed, ...Object.fromEntries(rows.values().filter(([key]) => key !== undefined)) }),
  }
}

function jsonField(name, schema, value, { id, label }) {
  const hintId = `${id}-hint`
  const area = h('textarea', { id, name, rows: 4, spellcheck: 'false', 'aria-describedby': hintId })
  area.value = JSON.stringify(value ?? schema.default ?? null, null, 2)
  const hint = [schema.description, 'Written as JSON.'].filter(Boolean).join(' ')
  return {
    element: h(
      'div',
      { class: 'field wide' },
      h('label', { for: id }, label),
      area,
      h('p', { class: 'hint', id: hintId }, hint),
    ),
    read: () => {
      try {
        return JSON.parse(area.value)
      } catch {
        throw new Error(`${label} is not valid JSON`)
      }
    },
    focus: () => area.focus(),
  }
}
