/*
 * What makes a JSON text or value unfit to store, checked before anything walks it: the body
 * parser (src/plugins/app/json-body.ts) and an archive's import (src/history/archive-import.ts).
 */

/** NUL, or a lone surrogate (with the `u` flag a well-formed pair is one code point, not `Cs`). */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE = /[\u0000\p{Cs}]/u

/** Deeper than any body Nerve takes; far shallower than what would overflow a recursive walk. */
export const MAX_JSON_DEPTH = 64

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const OPEN_OBJECT = 0x7b
const CLOSE_ARRAY = 0x5d
const CLOSE_OBJECT = 0x7d

/**
 * Whether the JSON text opens more than `limit` arrays or objects inside one another, counted on
 * the raw text (brackets inside strings do not count) without recursion, before anything parses
 * or walks it: cloning, merge patches and hashing recurse, and a deep enough body would
 * overflow the stack. Malformed text is left for the parser to refuse.
 */
export function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === BACKSLASH) i++
      else if (code === QUOTE) inString = false
    } else if (code === QUOTE) {
      inString = true
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > limit) return true
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth--
    }
  }
  return false
}

/**
 * The first string (or key) in a parsed body that PostgreSQL cannot store: text and jsonb
 * refuse U+0000, and jsonb refuses unpaired surrogates.
 */
export function unstorable(root: unknown): string | undefined {
  const stack: unknown[] = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) return value
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item)
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        stack.push(key, item)
      }
    }
  }
  return undefined
}
