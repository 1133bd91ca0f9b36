import createError from '@fastify/error'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/** NUL, or a lone surrogate (with the `u` flag a well-formed pair is one code point, not `Cs`). */
const UNSTORABLE = /[\u0000\p{Cs}]/u

export const InvalidTextError = createError<[string]>('INVALID_TEXT', '%s', 400)

/**
 * The first string (or key) in a parsed body that PostgreSQL cannot store: text and jsonb
 * refuse U+0000, and jsonb refuses unpaired surrogates. Walked with an explicit stack, since
 * bodies may be nested tens of thousands of levels deep.
 */
function unstorable(root: unknown): string | undefined {
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
 * JSON bodies only, as Fastify parses them by default (prototype poisoning refused), plus one rule:
 * no string may hold a character the database cannot store, so such a body is a 400 at the
 * door rather than a 500 from deep inside a transaction.
 */
export default fp(
  async function jsonBody(app: FastifyInstance) {
    const parseJson = app.getDefaultJsonParser('error', 'error')
    // JSON is the only body Nerve reads: text/plain, which Fastify parses by default, is 415
    // like any other type, not a string that the route's schema then refuses.
    app.removeContentTypeParser(['application/json', 'text/plain'])
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      parseJson(request, body as string, (error, parsed) => {
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
