import compress from '@fastify/compress'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { constants } from 'node:zlib'

/**
 * Answers are compressed when the client asks (`Accept-Encoding`: br or gzip) and worth it (1 KiB
 * or more): the API document, history pages and exports shrink to a fraction. The event stream
 * is written past Fastify's reply, so it is never buffered by a compressor. Request bodies are
 * not decompressed: Nerve reads JSON as sent.
 */
export default fp(
  async function compression(app: FastifyInstance) {
    await app.register(compress, {
      encodings: ['br', 'gzip'],
      threshold: 1024,
      // JSON, problem details and an export's JSON lines; `text/event-stream` never (see above).
      customTypes: /^application\/(?:[a-z.+-]+\+)?(?:json|x-ndjson)(?:;|$)/,
      globalDecompression: false,
      // Brotli's default (11) is for files compressed once; 4 costs about what gzip's default does.
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    })
  },
  { name: 'compress' },
)
