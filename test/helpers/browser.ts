import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core'
import type { Test } from 'tap'
import type { App } from '../../src/app.js'

// These run inside Chromium (page.evaluate); the project's type check has no DOM library.
declare const document: any
declare const window: any

/** Debian's Chromium; `npx playwright install` cannot download browsers on these machines. */
const CHROMIUM_PATH = '/usr/bin/chromium'

/** A skip reason when Chromium is missing (CI installs it; a laptop may not have it), else false. */
export const chromiumMissing: string | false = existsSync(CHROMIUM_PATH)
  ? false
  : `Chromium not found at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) to run the browser tests`

/**
 * Swagger UI on Nerve's document is the heaviest page the tests drive: on a busy 2-core machine
 * opening one operation can take tens of seconds. Its tests wait long, per action and per file,
 * so that they fail on a wrong page, never on a slow one.
 */
export const SWAGGER_UI_WAIT = { action: 120_000, file: 1_500_000 }

/** The committed screenshots, shown by the README and the docs. */
export const IMAGES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'images')

interface TestContext {
  teardown(fn: () => unknown): void
  /** Set by `tap --snapshot` (TAP_SNAPSHOT=1), as for snapshots. */
  writeSnapshot?: boolean
}

export interface Browser {
  context: BrowserContext
  page: Page
  /**
   * Saves a PNG of the window. Into docs/images/ when snapshots are being written
   * (`npm run screenshots`); otherwise into a temporary folder, so an ordinary test run still
   * renders every screenshot but leaves the committed pictures alone. Of the whole window, or
   * of one element.
   */
  screenshot: (name: string, of?: Locator) => Promise<void>
}

/**
 * A fresh headless Chromium with its own empty profile. The background-networking flags keep
 * it from calling home, which this machine's closed network refuses.
 */
export async function launchBrowser(t: TestContext, viewport = { width: 1280, height: 900 }): Promise<Browser> {
  const scratch = await mkdtemp(join(tmpdir(), 'nerve-chromium-'))
  const userDataDir = join(scratch, 'profile')
  const imagesDir = t.writeSnapshot ? IMAGES_DIR : join(scratch, 'images')
  await mkdir(imagesDir, { recursive: true })
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    viewport,
    deviceScaleFactor: 1,
  })
  t.teardown(async () => {
    await context.close()
    await rm(scratch, { recursive: true, force: true })
  })
  // A wait fails a wrong page, not a slow one: on a machine at load 20 a console took over 15 s
  // to open its live feed. Every page of the context, a second tab's too, waits as long.
  context.setDefaultTimeout(60_000)
  const page = context.pages()[0] ?? (await context.newPage())
  return {
    context,
    page,
    screenshot: async (name, of) => {
      await (of ?? page).screenshot({ path: join(imagesDir, name) })
    },
  }
}

/** Starts the app on a free loopback port and returns its base URL. */
export async function listen(app: App): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('the app is not listening on a TCP port')
  return `http://127.0.0.1:${address.port}`
}

/** axe-core's browser bundle, when the package is installed (a dev dependency); else null. */
function axeSource(): string | null {
  const candidates = [process.env.AXE_CORE_PATH]
  try {
    candidates.push(createRequire(import.meta.url).resolve('axe-core/axe.min.js'))
  } catch {
    // not installed: the accessibility checks are skipped with a message
  }
  const path = candidates.find((candidate) => candidate && existsSync(candidate))
  return path ? readFileSync(path, 'utf8') : null
}

const AXE = axeSource()

/**
 * Runs axe on the page as it is; every violation is listed in the failure. `ignore` names rules
 * left out, each for a reason the caller gives (Swagger UI's own markup, docs/accessibility.md).
 */
export async function accessible(
  t: Test,
  page: Page,
  what: string,
  { ignore = [] }: { ignore?: string[] } = {},
): Promise<void> {
  if (!AXE) {
    t.pass(`axe finds no violation: ${what}`, { skip: 'axe-core is not installed (a dev dependency)' })
    return
  }
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE)
  const violations: string[] = await page.evaluate(async (ignore) => {
    const rules = Object.fromEntries(ignore.map((id) => [id, { enabled: false }]))
    const result = await window.axe.run(document, { resultTypes: ['violations'], rules })
    return result.violations.map(
      (violation: any) =>
        `${violation.id}: ${violation.help} — ${violation.nodes.map((node: any) => node.target.join(' ')).join(', ')}`,
    )
  }, ignore)
  t.same(violations, [], `axe finds no violation: ${what}`)
}
