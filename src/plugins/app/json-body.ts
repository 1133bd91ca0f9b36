import createError from '@fastify/error'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/** NUL, or a lone surrogate (with the `u` flag a well-formed pair is one code point, not `Cs`). */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE = /[\u0000\p{Cs}]/u

const InvalidTextError = createError<[string]>('INVALID_TEXT', '%s', 400)

/** Deeper than any body Nerve takes; far shallower than what would overflow a recursive walk. */
export const MAX_JSON_DEPTH = 64

const BodyTooDeepError = createError<[number]>('BODY_TOO_DEEP', 'the JSON body is nested deeper than %d levels', 400)

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

/**
 * JSON bodies only, as Fastify parses them by default (prototype poisoning refused), plus two rules:
 * nesting is bounded, and no string may hold a character the database cannot store, so such a
 * body is a 400 at the door rather than a 500 from deep inside a transaction.
 */
export default fp(
  async function jsonBody(app: FastifyInstance) {
    const parseJson = app.getDefaultJsonParser('error', 'error')
    // JSON is the only body Nerve reads: text/plain, which Fastify parses by default, is 415
    // like any other type, not a string that the route's schema then refuses.
    app.removeContentTypeParser(['application/json', 'text/plain'])
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (nestedDeeperThan(body as string, MAX_JSON_DEPTH)) {
        return done(new BodyTooDeepError(MAX_JSON_DEPTH), undefined)
      }
      void parseJson(request, body as string, (error, parsed) => {
        if (error) return done(error, undefined)
        // Only a `\u` escape can put NUL or a lone surrogate into a parsed string: JSON refuses a
        // raw NUL, and decoding UTF-8 turns a stray surrogate into U+FFFD. Most bodies skip the walk.
        if ((body as string).includes('\\u') && unstorable(parsed) !== undefined) {
          return done(
            new InvalidTextError('text in the body may not contain U+0000 (NUL) or unpaired UTF-16 surrogates'),
            undefined,
          )
        }
        done(null, parsed)
      })
    })
  },
  { name: 'json-body' },
)
