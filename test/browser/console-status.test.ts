import t from 'tap'
import type { Page } from 'playwright-core'
import { createCampaign, createCharacter } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { accessible, chromiumMissing, launchBrowser, listen } from '../helpers/browser.js'
import { article, openCampaign } from '../helpers/console.js'

// Issue 31, last rough edges §1: a message about a button far down the page (an undo refused, a
// webhook deleted) shows where the GM is looking, not in a status line scrolled out of view.

// These run inside Chromium (page.evaluate); the project's type check has no DOM library.
declare const window: any

const CHARACTERS = ['Ada Marsh', 'Bram Holt', 'Cass Vey', 'Dell Oro', 'Esme Quill', 'Finn Arlo']
const LAST = CHARACTERS.at(-1)!

/** Whether the element's box lies wholly inside the window. */
async function inView(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).boundingBox()
  const viewport = page.viewportSize()!
  return (
    box !== null &&
    box.height > 0 &&
    box.y >= 0 &&
    box.x >= 0 &&
    box.y + box.height <= viewport.height &&
    box.x + box.width <= viewport.width
  )
}

t.test(
  'at 1280 and 390 px, the message of an Undo far down the page is in view, and the GM can dismiss it',
  { skip: chromiumMissing, timeout: 180_000 },
  async (t) => {
    const app = await buildTestApp(t, { logLevel: 'warn' })
    const baseUrl = await listen(app)
    const { campaign, gmKey, auth } = await createCampaign(app, 'shock-meters', { name: 'Long Table' })
    for (const name of CHARACTERS) await createCharacter(app, campaign, auth, { name })
    const { page } = await launchBrowser(t)
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(error.message))
    await page.goto(`${baseUrl}/dashboard`)
    await openCampaign(page, campaign.id, gmKey.key)
    await article(page, LAST).waitFor()

    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const size = `${viewport.width} px`
      await page.setViewportSize(viewport)
      const undo = page.getByRole('button', { name: `Undo latest event of ${LAST}` })
      await undo.scrollIntoViewIfNeeded()
      t.ok((await page.evaluate(() => window.scrollY)) > 300, `${size}: the Undo is far down the page`)
      await undo.click()
      await page.locator('#status', { hasText: `Nothing to undo for ${LAST}` }).waitFor()
      t.ok(await inView(page, '#status'), `${size}: the message is in the window`)
      t.ok(await inView(page, '#status-dismiss'), `${size}: and so is its Dismiss button`)
      if (viewport.width < 600) {
        const feed = await page.locator('.feed').boundingBox()
        const message = await page.locator('.status-box').boundingBox()
        t.ok(
          feed && message && message.y + message.height <= feed.y,
          `${size}: it sits above the live rolls docked at the foot of the screen`,
        )
      }
      await accessible(t, page, `a message in view at ${size}`)
      await page.locator('#status-dismiss').click()
      t.equal(await page.locator('#status').textContent(), '', `${size}: Dismiss takes the message away`)
      t.notOk(await page.locator('#status-dismiss').isVisible(), `${size}: and its button with it`)
    }
    t.same(problems, [], 'no script errors')
  },
)
