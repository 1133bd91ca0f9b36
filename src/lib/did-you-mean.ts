/** Levenshtein distance: the fewest one-letter insertions, deletions or substitutions from a to b. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)))
    }
    previous = current
  }
  return previous[b.length]!
}

/**
 * The candidate `typed` most likely misspells, whatever the case: one within a third of its
 * length in edits (at least one), so a slip is caught and an unrelated word suggests nothing.
 */
export function closest(typed: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of candidates) {
    const distance = editDistance(typed.toLowerCase(), candidate.toLowerCase())
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance]
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(best.length / 3)) ? best : undefined
}

/** "did you mean a, b or c?" — or nothing when there is nothing close. */
export function didYouMean(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return ''
  const last = suggestions[suggestions.length - 1]
  const list = suggestions.length === 1 ? last : `${suggestions.slice(0, -1).join(', ')} or ${last}`
  return `; did you mean ${list}?`
}
