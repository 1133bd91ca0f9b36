import t from 'tap'
import type { Locator, Page } from 'playwright-core'
import { buildTestApp } from '../helpers/build-app.js'
import { accessible, chromiumMissing, launchBrowser, listen } from '../helpers/browser.js'
import { addCharacter, article, choose, createCampaign, send } from '../helpers/console.js'

// These run inside Chromium (page.evaluate); the project's type check has no DOM library.
declare const document: any
declare const window: any

// Issue 31 §2: the rule sets go by their whole names, the live feed stays in sight while a sheet is
// open, and every view of the console (light, dark, phone, the player's) has no axe violation.

const PHONE = { width: 390, height: 844 }

/** The element is inside the window, and on top there: nothing (a docked feed, a header) covers it. */
async function inSight(locator: Locator): Promise<boolean> {
  return locator.evaluate((element: any) => {
    const box = element.getBoundingClientRect()
    if (box.height === 0 || box.top < 0 || box.bottom > window.innerHeight) return false
    const onTop = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
    return element === onTop || element.contains(onTop)
  })
}

/** Opens the character's sheet editor and brings its Name field into view, as a GM about to edit. */
async function openSheet(page: Page, name: string): Promise<Locator> {
  await page.getByRole('button', { name: `Edit ${name}`, exact: true }).click()
  const nameField = page
    .getByRole('form', { name: `Edit ${name}` })
    .getByLabel('Name', { exact: true })
    .first()
  await nameField.evaluate((element: any) => element.scrollIntoView({ block: 'center' }))
  return nameField
}

t.test(
  'the rule-set selector, the campaign’s title and the campaigns opened here name each rule set in full',
  { skip: chromiumMissing, timeout: 180_000 },
  async (t) => {
    const app = await buildTestApp(t, { logLevel: 'warn' })
    const baseUrl = await listen(app)
    const { context, page } = await launchBrowser(t)
    const rulesets: { id: string; title: string }[] = (await app.inject({ url: '/v1/rulesets' })).json().data

    await page.goto(`${baseUrl}/dashboard`)
    await page.locator('#new-ruleset option').first().waitFor({ state: 'attached' })
    const options = await page
      .locator('#new-ruleset option')
      .evaluateAll((list) => list.map((option: any) => ({ id: option.value, title: option.textContent })))
    t.same(
      options,
      rulesets.map(({ id, title }) => ({ id, title })),
      'each rule set is offered by its whole name, its slug the value sent',
    )
    t.ok(
      rulesets.every(({ id, title }) => title !== id && !title.includes(id)),
      'and a whole name is not the slug',
    )

    const trauma = rulesets.find(({ id }) => id === 'trauma-table')!
    await createCampaign(page, 'Ashfall Station', 'trauma-table')
    t.equal(
      await page.locator('#campaign-title').textContent(),
      `Ashfall Station · ${trauma.title}`,
      'the campaign’s title names its rule set in full',
    )
    const next = await context.newPage()
    await next.goto(`${baseUrl}/dashboard`)
    const list = next.getByRole('region', { name: 'Opened in this browser' })
    await list.getByRole('button', { name: 'Open Ashfall Station' }).waitFor()
    t.match(await list.textContent(), `Ashfall Station (${trauma.title})`, 'and so does the list of campaigns')
    t.notMatch(await list.textContent(), 'trauma-table', 'with no slug in sight')
  },
)

t.test(
  'with a sheet open the live feed’s latest roll stays in sight: beside the sheet at 1280 px, docked under it at 390 px',
  { skip: chromiumMissing, timeout: 180_000 },
  async (t) => {
    const app = await buildTestApp(t, { logLevel: 'warn' })
    const baseUrl = await listen(app)
    const { page } = await launchBrowser(t, { width: 1280, height: 900 })
    await page.goto(`${baseUrl}/dashboard`)
    await createCampaign(page, 'The Mercy Street Irregulars')
    const campaignId = await page.getByLabel('Id of the new campaign').inputValue()
    const gmKey = await page.getByLabel('New GM key').inputValue()
    await page.getByRole('button', { name: 'I have saved them' }).click()
    await addCharacter(page, 'Vera Okafor')
    const characterId = ((await article(page, 'Vera Okafor').getAttribute('id')) ?? '').replace('character-', '')

    /** A roll from elsewhere (a VTT, another tab) while the GM edits: its entry in the feed, once the page has
     * read the character again (the redraw that follows may move the page, and must be over before it is measured). */
    const rollElsewhere = async (): Promise<Locator> => {
      const reread = page.waitForResponse(
        (response) => response.request().method() === 'GET' && response.url().endsWith(`/characters/${characterId}`),
      )
      const answer = await app.inject({
        method: 'POST',
        url: `/v1/campaigns/${campaignId}/characters/${characterId}/new-session`,
        headers: { authorization: `Bearer ${gmKey}` },
        payload: { request: {} },
      })
      t.equal(answer.statusCode, 201, 'a new session is recorded elsewhere')
      const entry = page.locator(`#feed li[data-seq="${answer.json().event.seq}"]`)
      await entry.waitFor()
      await reread
      return entry
    }

    const sheet = await openSheet(page, 'Vera Okafor')
    const wide = await rollElsewhere()
    t.ok(await inSight(sheet), '1280 px: the sheet is in view')
    t.ok(await inSight(wide.locator('.feed-summary')), 'and the latest roll is in view beside it')

    await page.setViewportSize(PHONE)
    await sheet.evaluate((element: any) => element.scrollIntoView({ block: 'center' }))
    const phone = await rollElsewhere()
    t.ok(await inSight(sheet), '390 px: the sheet is in view')
    t.ok(await inSight(phone.locator('.feed-summary')), 'and the latest roll, docked at the foot of the window')
    t.equal(await page.locator('#feed li').nth(1).isVisible(), false, 'the dock shows the latest roll only')

    const where = () => sheet.evaluate((element: any) => element.getBoundingClientRect().top)
    const scrolled = await where()
    const earlier = page.getByRole('button', { name: 'Earlier rolls' })
    await earlier.click()
    t.equal(await earlier.getAttribute('aria-expanded'), 'true', 'Earlier rolls unfolds the feed')
    t.ok(await page.locator('#feed li').nth(1).isVisible(), 'with the rolls before the latest')
    await earlier.click()
    t.equal(await page.locator('#feed li').nth(1).isVisible(), false, 'and folds it again')
    // Within a pixel: the layout may settle by a fraction of one as the feed folds.
    const moved = Math.abs((await where()) - scrolled)
    t.ok(moved < 1, `the page has not moved: the sheet is where it was (moved ${moved} px)`)
    t.ok(await inSight(sheet), 'the sheet is where the GM left it')
  },
)

const VIEWS = [
  { name: 'light', viewport: { width: 1280, height: 900 }, colorScheme: 'light' },
  { name: 'dark', viewport: { width: 1280, height: 900 }, colorScheme: 'dark' },
  { name: 'phone', viewport: PHONE, colorScheme: 'light' },
  { name: 'phone, dark', viewport: PHONE, colorScheme: 'dark' },
] as const

t.test(
  'axe finds nothing in the console’s light, dark, phone and player views with its panels open',
  { skip: chromiumMissing, timeout: 300_000 },
  async (t) => {
    const app = await buildTestApp(t, { logLevel: 'warn' })
    const baseUrl = await listen(app)
    const { context, page } = await launchBrowser(t)
    await page.goto(`${baseUrl}/dashboard`)
    await createCampaign(page, 'The Mercy Street Irregulars')
    await page.getByRole('button', { name: 'I have saved them' }).click()
    await addCharacter(page, 'Vera Okafor')
    await choose(page, 'Vera Okafor', 'new-session')
    t.notMatch(await send(page), /^Refused/, 'a new session, for the undo to take back')
    await page.getByRole('button', { name: 'Mint a player key for Vera Okafor' }).click()
    const link = await page.getByLabel('Player link', { exact: true }).inputValue()

    // Everything a GM may have open at once: the campaigns opened here, a sheet, an action's form.
    await page.getByText('Open or create a campaign').click()
    await page.getByRole('region', { name: 'Opened in this browser' }).waitFor()
    await page.getByRole('button', { name: 'Edit Vera Okafor', exact: true }).click()
    await choose(page, 'Vera Okafor', 'stress-check')
    await page.locator('#action-fields').getByLabel('Meter', { exact: true }).waitFor()

    const player = await context.newPage()
    await player.goto(link)
    await article(player, 'Vera Okafor').waitFor()

    for (const view of VIEWS) {
      for (const tab of [page, player]) {
        await tab.setViewportSize(view.viewport)
        await tab.emulateMedia({ colorScheme: view.colorScheme })
      }
      await accessible(t, page, `${view.name}: the campaigns opened here, a sheet and an action’s form open`)
      if (view.viewport === PHONE) {
        await page.getByRole('button', { name: 'Earlier rolls' }).click()
        await accessible(t, page, `${view.name}: the docked feed unfolded`)
        await page.getByRole('button', { name: 'Earlier rolls' }).click()
      }
      await page.getByRole('button', { name: 'Undo latest event of Vera Okafor' }).click()
      const confirm = page.getByRole('dialog')
      await confirm.waitFor()
      await accessible(t, page, `${view.name}: the undo’s confirmation`)
      await confirm.getByRole('button', { name: 'Go back' }).click()
      await accessible(t, player, `${view.name}: the player view`)
    }
  },
)
