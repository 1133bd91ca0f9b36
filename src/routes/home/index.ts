import type { FastifyPluginAsync, FastifyReply } from 'fastify'
import { pageHeaders } from '../page-headers.js'
import { readdir, readFile } from 'node:fs/promises'
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

/** `docs/guides/`, found the same way from `src/` (tsx) and from `dist/` (built); the image copies it too. */
const GUIDES_DIR = new URL('../../../docs/guides/', import.meta.url)
const HOME_CSS = new URL('../../../public/home/home.css', import.meta.url)

/** The guides in the order a GM meets them; one missing from this list comes after, by name. */
const GUIDE_ORDER = [
  'quick-start-gm.md',
  'hidden-rolls.md',
  'backups-and-moving.md',
  'vtt-integration.md',
  'webhooks.md',
]

interface Guide {
  file: string
  title: string
  text: Buffer
}

/** The guides shipped beside the server (none when the folder is absent): their Markdown and first heading. */
async function loadGuides(): Promise<Guide[]> {
  let files: string[]
  try {
    files = (await readdir(GUIDES_DIR)).filter((file) => file.endsWith('.md'))
  } catch {
    return []
  }
  const rank = (file: string) => (GUIDE_ORDER.includes(file) ? GUIDE_ORDER.indexOf(file) : GUIDE_ORDER.length)
  files.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
  return Promise.all(
    files.map(async (file) => {
      const text = await readFile(new URL(file, GUIDES_DIR))
      const title = /^# (.+)$/m.exec(text.toString('utf8'))?.[1] ?? file
      return { file, title, text }
    }),
  )
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)

/** The page: what Nerve is and where to go, in the console's look (its stylesheet and colours). */
function page(guides: Guide[]): string {
  const guideList = guides.length
    ? `<ul class="guides">
${guides.map((guide) => `<li><a href="/guides/${guide.file}">${escapeHtml(guide.title)}</a></li>`).join('\n')}
</ul>
<p class="hint">Plain text (Markdown), the same files as <code>docs/guides/</code> in Nerve’s folder.</p>`
    : `<p>In Nerve’s folder, <code>docs/guides/</code>: start with <code>quick-start-gm.md</code>.</p>`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Nerve</title>
<link rel="icon" href="/dashboard/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/dashboard/dashboard.css">
<link rel="stylesheet" href="/home.css">
</head>
<body>
<header class="site-header">
<h1>Nerve <span class="subtitle">for the mental-stress side of your table</span></h1>
</header>
<main class="home">
<section class="home-intro" aria-labelledby="what">
<h2 id="what">What Nerve does</h2>
<p>Nerve knows three rule sets — <strong>shock-meter</strong> stress checks (Unknown Armies), a d100 <strong>trauma table</strong> and <strong>reaction rolls</strong>. It rolls the dice (or takes the faces rolled at the table), applies every consequence the rules call for, and writes each roll into a history nobody can quietly edit. Rolls can be hidden behind the screen: players see only what the rules let them.</p>
</section>
<nav class="home-ways" aria-label="Where to go">
<section class="home-card" aria-labelledby="console">
<h2 id="console"><a href="/dashboard">GM console</a></h2>
<p>Run the session: create or open a campaign, add characters, roll from forms drawn from the rules, settle decisions, undo, and watch the live feed. No ids to copy.</p>
<p><a class="button" href="/dashboard">Open the console</a></p>
</section>
<section class="home-card" aria-labelledby="docs">
<h2 id="docs"><a href="/docs">Try the API by clicking (Swagger UI)</a></h2>
<p>Every request, with a ready example: open one and press <strong>Execute</strong>. Each answer fills the ids of the next request; paste only your key, once, in <strong>Authorize</strong>.</p>
<p><a class="button secondary" href="/docs">Open Swagger UI</a></p>
<p class="hint">For VTT and bot developers: <a href="/docs/json">the OpenAPI document (JSON)</a>.</p>
</section>
<section class="home-card" aria-labelledby="guides">
<h2 id="guides">Guides</h2>
${guideList}
</section>
</nav>
</main>
<footer class="site-footer"><p>Nerve ${escapeHtml(packageJson.version)} · <a href="/health/ready">health</a></p></footer>
</body>
</html>
`
}

/** A page with nothing to run: no script, no inline style, nothing from elsewhere. */
const HOME_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const securityHeaders = (reply: FastifyReply) => pageHeaders(reply, HOME_CSP)

/**
 * `GET /`: a browser (which asks for `text/html`) gets a page saying what Nerve is and leading to
 * the console, Swagger UI and the guides; a client asking for JSON gets the links as data. Kept
 * out of the OpenAPI document, like the dashboard, with its stylesheet and the guides.
 */
const homeRoutes: FastifyPluginAsync = async (app) => {
  const guides = await loadGuides()
  const body = page(guides)
  const css = await readFile(HOME_CSS)
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    reply.header('vary', 'accept')
    if (/\btext\/html\b/.test(request.headers.accept ?? '')) {
      return securityHeaders(reply).type('text/html; charset=utf-8').send(body)
    }
    return INDEX
  })
  app.get('/home.css', { schema: { hide: true } }, async (_request, reply) =>
    securityHeaders(reply).header('cache-control', 'no-cache').type('text/css; charset=utf-8').send(css),
  )
  for (const guide of guides) {
    app.get(`/guides/${guide.file}`, { schema: { hide: true } }, async (_request, reply) =>
      securityHeaders(reply).type('text/plain; charset=utf-8').send(guide.text),
    )
  }
}

export default homeRoutes
