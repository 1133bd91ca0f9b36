import type { FastifyPluginAsync, FastifyReply } from 'fastify'
import { pageHeaders } from '../page-headers.js'
import { readdir, readFile } from 'node:fs/promises'
import { extname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** `public/dashboard/`, found the same way from `src/` (tsx) and from `dist/` (built). */
const DASHBOARD_DIR = new URL('../../../public/dashboard/', import.meta.url)

/** The content type of each kind of file the console is made of. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  // Module scripts must come with a JavaScript type, or the browser refuses to run them.
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
}

/** Every file of the console, served at its path under `/dashboard/`; index.html at `/dashboard`. */
async function consoleFiles(): Promise<{ url: string; file: string; type: string }[]> {
  const entries = await readdir(DASHBOARD_DIR, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile() && extname(entry.name) in TYPES)
    .map((entry) => {
      const file = relative(fileURLToPath(DASHBOARD_DIR), join(entry.parentPath, entry.name)).split(sep).join('/')
      return { url: file === 'index.html' ? '/dashboard' : `/dashboard/${file}`, file, type: TYPES[extname(file)]! }
    })
}

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
  for (const { url, file, type } of await consoleFiles()) {
    const body = await readFile(new URL(file, DASHBOARD_DIR))
    app.get(url, { schema: { hide: true } }, async (_request, reply) => securityHeaders(reply).type(type).send(body))
  }
  app.get('/dashboard/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard', 301))
}

export default dashboardRoutes
