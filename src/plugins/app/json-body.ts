import createError from '@fastify/error'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { MAX_JSON_DEPTH, nestedDeeperThan, unstorable } from '../../lib/json-limits.js'

const InvalidTextError = createError<[string]>('INVALID_TEXT', '%s', 400)

const BodyTooDeepError = createError<[number]>('BODY_TOO_DEEP', 'the JSON body is nested deeper than %d levels', 400)

/** Fastify's own 415, which the problem details explain with the types the route reads. */
const UnsupportedMediaTypeError = createError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 'Unsupported Media Type', 415)

/**
 * A JSON merge patch (RFC 7396) is JSON: the PATCH routes, whose bodies are merge patches of what
 * they change, read it as they read `application/json` and say so in their schema's `consumes`.
 */
export const MERGE_PATCH_MEDIA_TYPE = 'application/merge-patch+json'

function consumesMergePatch(request: FastifyRequest): boolean {
  const { consumes } = (request.routeOptions.schema ?? {}) as { consumes?: string[] }
  return consumes?.includes(MERGE_PATCH_MEDIA_TYPE) ?? false
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
    app.addContentTypeParser(MERGE_PATCH_MEDIA_TYPE, { parseAs: 'string' }, (request, body, done) => {
      if (!consumesMergePatch(request)) return done(new UnsupportedMediaTypeError(), undefined)
      parseBody(request, body, done)
    })
    app.addContentTypeParser('application/json', { parseAs: 'string' }, parseBody)

    function parseBody(
      request: FastifyRequest,
      body: string | Buffer,
      done: (error: Error | null, parsed: unknown) => void,
    ) {
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
    }
  },
  { name: 'json-body' },
)
