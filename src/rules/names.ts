import { editDistance } from '../lib/did-you-mean.js'

/**
 * Catalogue names as a GM types them: an entry is found by its id or any of its aliases (the
 * rulebook's names), whatever the case, spacing, hyphens or apostrophes; a name found nowhere
 * gets the closest entries to suggest.
 */
export interface NamedEntry {
  id: string
  aliases: readonly string[]
}

/** What is left of a name once case, spaces, hyphens and apostrophes no longer matter. */
export function nameKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

export interface NameIndex<Entry extends NamedEntry> {
  find(typed: string): Entry | undefined
  /** Up to `limit` entries whose names come closest to `typed`, closest first, as `id` or `id ("Alias")`. */
  closest(typed: string, limit?: number): string[]
}

export function nameIndex<Entry extends NamedEntry>(entries: readonly Entry[]): NameIndex<Entry> {
  const byKey = new Map<string, Entry>()
  for (const entry of entries) {
    for (const name of [entry.id, ...entry.aliases]) {
      const key = nameKey(name)
      const held = byKey.get(key)
      if (held !== undefined && held !== entry) throw new Error(`"${name}" names both ${held.id} and ${entry.id}`)
      byKey.set(key, entry)
    }
  }
  return {
    // Most names arrive as their key already (an id): one lookup, without the four rewrites.
    find: (typed) => byKey.get(typed) ?? byKey.get(nameKey(typed)),
    closest(typed, limit = 3) {
      const key = nameKey(typed)
      // A typo of a few letters, or a word of the name: near enough to suggest.
      const nearEnough = Math.max(2, Math.floor(key.length / 3))
      return entries
        .map((entry) => {
          const [best] = [entry.id, ...entry.aliases]
            .map((name) => {
              const candidate = nameKey(name)
              const contains = key.length >= 3 && (candidate.includes(key) || key.includes(candidate))
              return { name, distance: contains ? 1 : editDistance(key, candidate) }
            })
            .sort((a, b) => a.distance - b.distance)
          return { entry, ...best! }
        })
        .filter((candidate) => candidate.distance <= nearEnough)
        .sort((a, b) => a.distance - b.distance)
        .slice(0, limit)
        .map(({ entry, name }) => (name === entry.id ? entry.id : `${entry.id} ("${name}")`))
    },
  }
}
