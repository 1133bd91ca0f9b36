import type { FastifyPluginAsync, FastifyReply } from 'fastify'
import { pageHeaders } from '../page-headers.js'
import { readFile } from 'node:fs/promises'

/** `public/dashboard/`, found the same way from `src/` (tsx) and from `dist/` (built). */
const DASHBOARD_DIR = new URL('../../../public/dashboard/', import.meta.url)

const FILES = [
  { url: '/dashboard', file: 'index.html', type: 'text/html; charset=utf-8' },
  { url: '/dashboard/dashboard.css', file: 'dashboard.css', type: 'text/css; charset=utf-8' },
  { url: '/dashboard/dashboard.js', file: 'dashboard.js', type: 'text/javascript; charset=utf-8' },
  { url: '/dashboard/forms.js', file: 'forms.js', type: 'text/javascript; charset=utf-8' },
  { url: '/dashboard/favicon.svg', file: 'favicon.svg', type: 'image/svg+xml' },
] as const

/**
 * The page handles a GM key, so it runs only its own files: no inline script or style, no
 * third-party origin, no framing (clickjacking), and `form-action 'none'` so a form that
 * somehow submits natively can never put the key into a URL.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const securityHeaders = (reply: FastifyReply) =>
  pageHeaders(reply, DASHBOARD_CSP, {
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-cache',
  })

/** The GM dashboard: its static files read once at start, kept out of the OpenAPI document. */
const dashboardRoutes: FastifyPluginAsync = async (app) => {
  for (const { url, file, type } of FILES) {
    const body = await readFile(new URL(file, DASHBOARD_DIR))
    app.get(url, { schema: { hide: true } }, async (_request, reply) => securityHeaders(reply).type(type).send(body))
  }
  app.get('/dashboard/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard', 301))
}

export default dashboardRoutes
