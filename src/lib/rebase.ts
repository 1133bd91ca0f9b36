import { isDeepStrictEqual } from 'node:util'

/**
 * Carries the change that turned `before` into `after` over to `base`, another version of the
 * same JSON document (a three-way merge): a number moves by the same amount, an object's keys
 * are merged one by one, array items added or removed are added to or removed from `base`, and
 * anything else takes its new value. Where `base` equals `before` the result equals `after`.
 */
export function rebase(base: unknown, before: unknown, after: unknown): unknown {
  if (isDeepStrictEqual(before, after)) return base
  if (isDeepStrictEqual(base, before)) return after
  if (typeof base === 'number' && typeof before === 'number' && typeof after === 'number') {
    return base + (after - before)
  }
  if (isPlainObject(base) && isPlainObject(before) && isPlainObject(after)) return rebaseObject(base, before, after)
  if (Array.isArray(base) && Array.isArray(before) && Array.isArray(after)) return rebaseArray(base, before, after)
  return after
}

function rebaseObject(base: JsonObject, before: JsonObject, after: JsonObject): JsonObject {
  const result: JsonObject = {}
  for (const key of new Set([...Object.keys(base), ...Object.keys(after)])) {
    const [inBase, inBefore, inAfter] = [base, before, after].map((value) => Object.hasOwn(value, key))
    if (inBefore && !inAfter) continue // removed by the change
    const touched = inAfter && !(inBefore && isDeepStrictEqual(before[key], after[key]))
    if (touched) setOwn(result, key, inBefore && inBase ? rebase(base[key], before[key], after[key]) : after[key])
    else if (inBase) setOwn(result, key, base[key])
  }
  return result
}

/** Same length everywhere: item by item. Otherwise the items `after` dropped leave `base`, and those it gained join it. */
function rebaseArray(base: unknown[], before: unknown[], after: unknown[]): unknown[] {
  if (base.length === before.length && before.length === after.length) {
    return base.map((item, index) => rebase(item, before[index], after[index]))
  }
  return [...unmatched(base, unmatched(before, after)), ...unmatched(after, before)]
}

/** The items of `items` left once each item of `others` has taken away one equal item. */
function unmatched(items: unknown[], others: unknown[]): unknown[] {
  const left = [...items]
  for (const other of others) {
    const index = left.findIndex((item) => isDeepStrictEqual(item, other))
    if (index >= 0) left.splice(index, 1)
  }
  return left
}

type JsonObject = Record<string, unknown>

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A key named `__proto__` stays an own field, as JSON.parse makes it, instead of replacing the prototype. */
function setOwn(target: JsonObject, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}
