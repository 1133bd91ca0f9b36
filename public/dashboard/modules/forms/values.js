// @ts-check
import { h } from '../dom.js'
import { choicesOf, field, nextId, rowsEditor, singularOf } from './fields.js'
import { inGmWords, labelOf } from './words.js'

const isNullBranch = (branch) => branch.type === 'null' || ('const' in branch && branch.const === null)

/**
 * A field prefilled with `value` (a stored sheet's entry) whose read() gives the whole new value:
 * lists and named entries can be added and removed, a nullable entry left empty reads as null.
 * What no form can draw well (a list of mixed kinds) is edited as JSON.
 */
export function valueField(name, rawSchema, value, options) {
  const { resolve, prefix = 'v' } = options
  const schema = inGmWords(name, resolve(rawSchema))
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
  const label = options.label ?? (options.optional ? `${labelOf(name)} (optional)` : labelOf(name))
  const prefilled = { ...schema, default: value === undefined ? schema.default : value }
  if (choicesOf(schema) || ['integer', 'number', 'boolean', 'string'].includes(schema.type)) {
    return field(name, prefilled, { ...options, prefix: id, labels: { [name]: label } })
  }
  if (schema.type === 'object' && schema.properties)
    return objectValueField(name, schema, value, { ...options, id, label })
  if (schema.type === 'object' && schema.patternProperties)
    return namedEntriesField(name, schema, value, { ...options, id, label })
  // A list of entries, or of plain values (the traumas of this encounter), row by row.
  if (schema.type === 'array' && schema.items) {
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
