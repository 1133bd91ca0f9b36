import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import packageJson from '../../../package.json' with { type: 'json' }
import { PROBLEM_EXAMPLES } from '../../schemas/ref.js'

export const TAGS = [
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
    })
    // Its own scope, so the security headers reach Swagger UI's pages and files and nothing else.
    await app.register(async function docs(scope) {
      scope.addHook('onRequest', async (_request, reply) => {
        reply.headers(DOCS_SECURITY_HEADERS)
      })
      await scope.register(swaggerUi, {
        routePrefix: '/docs',
        uiConfig: {
          deepLinking: true,
          persistAuthorization: true,
          tryItOutEnabled: true,
          displayRequestDuration: true,
        },
      })
    })
  },
  { name: 'openapi' },
)
