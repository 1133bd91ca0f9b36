// @ts-check

/**
 * What the rules keep for their own use: the number of checks faced and the latest one (for a
 * passion's re-roll or flip-flop). A GM neither edits nor reads them as part of the sheet.
 */
export const RULES_BOOKKEEPING = new Set(['lastCheck', 'stressChecks'])

/** Same JSON, whatever the order of keys (stored sheets come back from jsonb in its own order). */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
    .join(',')}}`
}

/** Only what changed, as a JSON merge patch of the sheet: a changed list is sent whole. */
export function changes(after, before) {
  if (after === null || typeof after !== 'object' || Array.isArray(after)) {
    return canonical(after) === canonical(before) ? undefined : after
  }
  if (before === null || typeof before !== 'object') return after
  const patch = {}
  for (const [key, value] of Object.entries(after)) {
    const changed = changes(value, before[key])
    if (changed !== undefined) patch[key] = changed
  }
  return Object.keys(patch).length ? patch : undefined
}
