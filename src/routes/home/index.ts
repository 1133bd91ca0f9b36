import type { FastifyPluginAsync } from 'fastify'
import packageJson from '../../../package.json' with { type: 'json' }

/** Where a person or a client goes from the root. */
const INDEX = {
  name: 'Nerve',
  version: packageJson.version,
  description: packageJson.description,
  docs: '/docs',
  openapi: '/docs/json',
  dashboard: '/dashboard',
  health: '/health/ready',
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Nerve</title>
<link rel="icon" href="/dashboard/favicon.svg" type="image/svg+xml">
</head>
<body>
<h1>Nerve</h1>
<p>${packageJson.description}</p>
<ul>
<li><a href="/docs">API documentation</a> — try every mechanic with “Try it out” (Swagger UI)</li>
<li><a href="/dashboard">GM dashboard</a> — a campaign’s characters and its live roll feed</li>
<li><a href="/docs/json">OpenAPI document</a> (JSON)</li>
</ul>
</body>
</html>
`

/** A page with nothing to run: no script, no style, nothing from elsewhere. */
const HOME_CSP = "default-src 'none'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/**
 * `GET /`: a browser (which asks for `text/html`) gets a page leading to the API documentation and the dashboard; a client
 * asking for JSON gets the same links as data. Kept out of the OpenAPI document, like the dashboard.
 */
const homeRoutes: FastifyPluginAsync = async (app) => {
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    reply.header('vary', 'accept')
    if (/\btext\/html\b/.test(request.headers.accept ?? '')) {
      return reply
        .headers({
          'content-security-policy': HOME_CSP,
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'no-referrer',
          'x-frame-options': 'DENY',
        })
        .type('text/html; charset=utf-8')
        .send(PAGE)
    }
    return INDEX
  })
}

export default homeRoutes
