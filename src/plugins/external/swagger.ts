import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { readFileSync } from 'node:fs'
import packageJson from '../../../package.json' with { type: 'json' }
import { PROBLEM_EXAMPLES } from '../../schemas/ref.js'
import { withTypedSchemas } from '../../schemas/typed.js'

const TAGS = [
  { name: 'Campaigns', description: 'Start here: create a campaign, then use its GM key with "Authorize".' },
  { name: 'Keys', description: 'Player keys bound to characters, and revoking keys.' },
  { name: 'Characters', description: 'A campaign’s characters, their sheets, edits, undo and audit.' },
  {
    name: 'Shock meters',
    description: 'Stress checks and the GM actions around them, on stored characters of a `shock-meters` campaign.',
  },
  {
    name: 'Trauma table',
    description: 'Trauma rolls and the GM actions around them, on stored characters of a `trauma-table` campaign.',
  },
  {
    name: 'Reaction rolls',
    description: 'Reaction rolls and retrievals, on stored characters of a `reaction-rolls` campaign.',
  },
  {
    name: 'History',
    description: 'The append-only history of rolls and edits: pages, single events, a live stream, pending decisions.',
  },
  {
    name: 'Webhooks',
    description: 'Signed deliveries of the campaign’s events to your endpoints (Standard Webhooks).',
  },
  { name: 'Rule sets', description: 'The three rule sets Nerve knows, their sheets and their tables.' },
  {
    name: 'Resolve',
    description: 'Stateless resolution: send a sheet, get the outcome and the new sheet. Nothing is stored.',
  },
  { name: 'Health', description: 'Liveness and readiness probes.' },
]

const DESCRIPTION = `Nerve resolves the mental-stress mechanics of three tabletop rule sets — shock-meter stress checks, a d100 trauma table and reaction rolls — and keeps every roll in an append-only history.

Errors are [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457) problem details served as \`application/problem+json\`. Authenticated routes take \`Authorization: Bearer <key>\`.`

/** The pulse of the dashboard's icon and the name, for Swagger UI's top bar (an `img`, so a `data:` URL). */
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="150" height="40" viewBox="0 0 150 40"><rect x="2" y="4" width="32" height="32" rx="6" fill="#1b1f24"/><path d="M6 22h6l4-10 4 16 4-8h6" fill="none" stroke="#fff" stroke-width="3" stroke-linejoin="round" stroke-linecap="round"/><text x="44" y="29" font-family="sans-serif" font-size="24" font-weight="700" fill="#fff">Nerve</text></svg>`

const FAVICON = readFileSync(new URL('../../../public/dashboard/favicon.svg', import.meta.url))

/** `public/docs/`: Nerve's plugin and theme for Swagger UI, served as they are (no build step). */
const DOCS_DIR = new URL('../../../public/docs/', import.meta.url)
const LINKS_PLUGIN = readFileSync(new URL('swagger-links.js', DOCS_DIR), 'utf8')
const NAMES = readFileSync(new URL('swagger-names.js', DOCS_DIR), 'utf8')
const RESOLVE_PLUGIN = readFileSync(new URL('swagger-resolve.js', DOCS_DIR), 'utf8')
const THEME = readFileSync(new URL('swagger-theme.css', DOCS_DIR), 'utf8')

/**
 * A name the browser looks up, in Swagger UI's configuration. @fastify/swagger-ui writes
 * `uiConfig` into its initializer script as source text, a function as its `toString()`; this
 * function's text is `expression`, so the initializer refers to what a page script defined.
 */
function browserExpression(expression: string): () => object {
  const reference = () => ({})
  reference.toString = () => expression
  return reference
}

const HEADER = (description: string) => ({
  in: 'header' as const,
  required: true,
  schema: { type: 'string' as const },
  description,
})

/** What Nerve POSTs to a webhook endpoint: OpenAPI 3.1 `webhooks`, shown by Swagger UI under "Webhooks". */
const WEBHOOKS = {
  event: {
    post: {
      tags: ['Webhooks'],
      operationId: 'receiveWebhookEvent',
      summary: 'An event of the campaign, POSTed to your endpoint',
      description:
        'Signed per [Standard Webhooks](https://www.standardwebhooks.com/): verify `webhook-signature` over `webhook-id.webhook-timestamp.body` with the endpoint’s `whsec_…` secret before trusting the body, and de-duplicate by `webhook-id`. Any 2xx answer acknowledges the delivery; anything else (or no answer in time) is retried with backoff.',
      security: [],
      parameters: [
        {
          name: 'webhook-id',
          ...HEADER('The delivery’s id: the same on every retry, so a consumer can de-duplicate.'),
        },
        { name: 'webhook-timestamp', ...HEADER('When this attempt was signed, in Unix seconds.') },
        {
          name: 'webhook-signature',
          ...HEADER('`v1,<base64 HMAC-SHA256>` of `webhook-id.webhook-timestamp.body`, with the endpoint’s secret.'),
        },
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookPayload' } } },
      },
      responses: {
        '200': { description: 'Received: any 2xx acknowledges the delivery.' },
        '400': { description: 'The signature did not verify (or anything but a 2xx): Nerve retries, then gives up.' },
      },
    },
  },
}

/**
 * Swagger UI holds a campaign key once "Authorize" is used (and keeps it, with
 * persistAuthorization), so its page runs only its own scripts and styles, talks only to this
 * origin, and cannot be framed. Its icons are `data:` images; nothing needs inline script. The
 * one inline style it writes — the colours of its logo — is allowed by its hash, and nothing else
 * (the browser test fails if a Swagger UI upgrade changes it).
 */
const SWAGGER_LOGO_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='"

export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  `style-src 'self' ${SWAGGER_LOGO_STYLE}`,
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const DOCS_SECURITY_HEADERS = {
  'content-security-policy': DOCS_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
}

export default fp(
  async function openApi(app: FastifyInstance) {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Nerve',
          version: packageJson.version,
          description: DESCRIPTION,
          license: { name: packageJson.license, identifier: packageJson.license },
        },
        // Relative, so Try it out calls whichever host served the page, behind any proxy.
        servers: [{ url: '/', description: 'This Nerve (the server that serves this document)' }],
        webhooks: WEBHOOKS,
        tags: TAGS,
        components: {
          examples: PROBLEM_EXAMPLES,
          securitySchemes: {
            bearerAuth: {
              type: 'http',
              scheme: 'bearer',
              description:
                'A campaign key: the GM key returned when the campaign was created, or a player key it minted.',
            },
            streamTicket: {
              type: 'apiKey',
              in: 'query',
              name: 'ticket',
              description:
                'A single-use ticket, valid 60 s, minted by a key with `POST /v1/campaigns/{campaignId}/events/stream-tickets`. Accepted by the event stream only, for browsers’ `EventSource`.',
            },
          },
        },
      },
      // Component names come from each schema's $id, so they stay stable across builds.
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string | undefined) ?? `def-${i}`,
      },
      // Campaigns, characters and events as unions by rule set and by event type (src/schemas/typed.ts).
      transformObject: (document) =>
        'openapiObject' in document ? withTypedSchemas(document.openapiObject) : document.swaggerObject,
    })
    // Its own scope, so the security headers reach Swagger UI's pages and files and nothing else.
    await app.register(async function docs(scope) {
      scope.addHook('onRequest', async (_request, reply) => {
        reply.headers(DOCS_SECURITY_HEADERS)
      })
      await scope.register(swaggerUi, {
        routePrefix: '/docs',
        theme: {
          title: 'Nerve — API',
          favicon: [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: FAVICON }],
          // Loaded after Swagger UI's scripts and before it starts: define window.NerveSwaggerNames,
          // window.NerveSwaggerLinks (which uses the former) and window.NerveQuickResolve.
          js: [
            { filename: 'swagger-names.js', content: NAMES },
            { filename: 'swagger-links.js', content: LINKS_PLUGIN },
            { filename: 'swagger-resolve.js', content: RESOLVE_PLUGIN },
          ],
          css: [{ filename: 'swagger-theme.css', content: THEME }],
        },
        logo: { type: 'image/svg+xml', content: Buffer.from(LOGO), href: '/', target: '_self' },
        uiConfig: {
          deepLinking: true,
          persistAuthorization: true,
          tryItOutEnabled: true,
          displayRequestDuration: true,
          // A search box over the tags ("Characters", "Shock meters"…).
          filter: true,
          // Swagger UI's own (which fetches the document) and Nerve's: one fills each operation's ids
          // from the latest answer that produced them (public/docs/swagger-links.js), one opens an
          // operation of the typed unions in seconds (public/docs/swagger-resolve.js).
          plugins: [
            browserExpression('SwaggerUIBundle.plugins.DownloadUrl'),
            browserExpression('window.NerveSwaggerLinks'),
            browserExpression('window.NerveQuickResolve'),
          ],
        },
      })
    })
  },
  { name: 'openapi' },
)
