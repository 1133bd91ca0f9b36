import t from 'tap'
import type { Page } from 'playwright-core'
import { buildTestApp } from '../helpers/build-app.js'
import { accessible, chromiumMissing, launchBrowser, listen } from '../helpers/browser.js'
import { createCampaign } from '../helpers/console.js'

// These run inside Chromium (page.evaluate); the project's type check has no DOM library.
declare const navigator: any, document: any, localStorage: any, sessionStorage: any

// Issue 31 §2: keys are copied with a button, the campaigns this browser opened are listed to
// reopen (the key only when the GM asks, with a warning), and opening a campaign resets every form.

const clipboard = (page: Page): Promise<string> => page.evaluate(() => navigator.clipboard.readText())

t.test(
  'a GM copies keys with a button, reopens a campaign from the list in a new tab, and a new campaign starts with clean forms',
  { skip: chromiumMissing, timeout: 180_000 },
  async (t) => {
    const app = await buildTestApp(t, { logLevel: 'warn' })
    const baseUrl = await listen(app)
    const { context, page } = await launchBrowser(t)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl })
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(error.message))

    await page.goto(`${baseUrl}/dashboard`)
    await createCampaign(page, 'The Lantern Society')
    const gmKey = await page.getByLabel('New GM key').inputValue()
    const campaignId = await page.getByLabel('Id of the new campaign').inputValue()
    await page.getByRole('button', { name: 'Copy the GM key' }).click()
    await page.locator('#status', { hasText: 'Copied the GM key' }).waitFor()
    t.equal(await clipboard(page), gmKey, 'Copy puts the whole GM key on the clipboard')
    await page.getByRole('button', { name: 'Copy the campaign id' }).click()
    await page.locator('#status', { hasText: 'Copied the campaign id' }).waitFor()
    t.equal(await clipboard(page), campaignId, 'and the campaign id')
    await page.getByRole('button', { name: 'I have saved them' }).click()

    await page.getByLabel('Character name').fill('Ada Marsh')
    await page.getByRole('button', { name: 'Add character' }).click()
    await page.getByRole('button', { name: 'Mint a player key for Ada Marsh' }).click()
    const link = await page.getByLabel('Player link', { exact: true }).inputValue()
    await page.getByRole('button', { name: 'Copy Ada Marsh’s player link' }).click()
    await page.locator('#status', { hasText: 'Copied Ada Marsh’s player link' }).waitFor()
    t.equal(
      await page.getByRole('button', { name: 'Copy Ada Marsh’s player link' }).textContent(),
      'Copied',
      'the button far down the page says it copied, whatever the status line shows',
    )
    t.equal(await clipboard(page), link, 'a player’s link is copied with its button')
    t.equal(await page.getByRole('button', { name: 'Copy Ada Marsh’s player key' }).count(), 1, 'and so is the key')

    // A roll leaves a result under the form and a player key on show; the next campaign has neither.
    await page.getByLabel('Action', { exact: true }).selectOption('new-session')
    await page.locator('#action-submit').click()
    await page.locator('#action-result', { hasText: 'Ada Marsh' }).waitFor()
    await page.getByLabel('GM only (behind the screen)').check()
    await createCampaign(page, 'Ashfall Station')
    t.equal(await page.locator('#action-result').textContent(), '', 'the last campaign’s result is gone')
    t.equal(await page.locator('#minted').isVisible(), false, 'and so is its player key')
    t.ok(await page.getByLabel('As the rules decide').isChecked(), 'who sees it starts from the rules again')
    await page.getByRole('button', { name: 'I have saved them' }).click()

    // A new tab lists both campaigns; without a key kept here, Open asks for it.
    const second = await context.newPage()
    await second.goto(`${baseUrl}/dashboard`)
    const list = second.getByRole('region', { name: 'Opened in this browser' })
    await list.getByRole('button', { name: 'Open The Lantern Society' }).waitFor()
    t.match(await list.textContent(), /Ashfall Station.*The Lantern Society/s, 'the latest opened first')
    t.notMatch(await list.textContent(), /key kept/, 'no key is kept unless asked')
    await accessible(t, second, 'the campaigns opened in this browser')
    await second.emulateMedia({ colorScheme: 'dark' })
    await accessible(t, second, 'the campaigns opened in this browser, dark')
    await second.emulateMedia({ colorScheme: 'light' })
    await list.getByRole('button', { name: 'Open The Lantern Society' }).click()
    t.equal(
      await second.getByLabel('Campaign id', { exact: true }).inputValue(),
      campaignId,
      'Open fills in the campaign id',
    )
    await second.getByLabel('GM key', { exact: true }).fill(gmKey)
    await second.getByLabel('Remember the key on this device').check()
    await second.getByRole('button', { name: 'Show campaign' }).click()
    await second.getByRole('article', { name: 'Ada Marsh' }).waitFor()
    t.pass('the campaign opens with the key pasted once')

    // With the key kept on this device, a third tab opens it in one click.
    const third = await context.newPage()
    await third.goto(`${baseUrl}/dashboard`)
    const again = third.getByRole('region', { name: 'Opened in this browser' })
    await again.getByText('key kept on this device').waitFor()
    await again.getByRole('button', { name: 'Open The Lantern Society' }).click()
    await third.getByRole('article', { name: 'Ada Marsh' }).waitFor()
    t.pass('a campaign whose key is kept reopens in one click')

    // A rename made elsewhere (here, through the API) shows in the open console at once.
    await app.inject({
      method: 'PATCH',
      url: `/v1/campaigns/${campaignId}`,
      headers: { authorization: `Bearer ${gmKey}` },
      payload: { name: 'The Lantern Society, year two' },
    })
    await third.locator('#campaign-title', { hasText: 'The Lantern Society, year two ·' }).waitFor()
    t.equal(
      await third.title(),
      'The Lantern Society, year two — Nerve GM console',
      'the heading and the tab take the new name',
    )

    await third.getByText('Open or create a campaign').click()
    await third.getByRole('button', { name: 'Forget key' }).click()
    await again.getByText('key kept on this device').waitFor({ state: 'detached' })
    t.match(
      await again.textContent(),
      /The Lantern Society, year two/,
      'Forget key forgets it on this device, and keeps the campaign listed under its new name',
    )
    t.same(problems, [], 'no script errors')
  },
)

t.test(
  'on a server with an admin token, the GM is told to enter it, and with it creates a campaign',
  { skip: chromiumMissing, timeout: 120_000 },
  async (t) => {
    const adminToken = 'the-operators-admin-token'
    const app = await buildTestApp(t, { logLevel: 'warn', ADMIN_TOKEN: adminToken })
    const baseUrl = await listen(app)
    const { page } = await launchBrowser(t)
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(error.message))
    await page.goto(`${baseUrl}/dashboard`)

    await page.getByLabel('Name', { exact: true }).fill('Gated Hall')
    await page.getByRole('button', { name: 'Create campaign' }).click()
    await page.locator('#status.error', { hasText: 'Could not create the campaign' }).waitFor()
    t.match(
      await page.locator('#status').textContent(),
      /asks for its admin token first\. Enter it in “Server admin token”/,
      'without the token, the GM reads what to do',
    )
    t.notMatch(await page.locator('#status').textContent(), /ADMIN_TOKEN|Bearer/, 'in GM words, not the API’s')
    t.equal(await page.evaluate(() => document.activeElement?.id), 'admin-token', 'and the token’s field is focused')

    await page.getByLabel('Archive file').setInputFiles({
      name: 'hall.nerve.ndjson',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from('{"kind":"archive"}\n'),
    })
    await page.getByRole('button', { name: 'Import campaign' }).click()
    await page.locator('#status', { hasText: 'Could not import hall.nerve.ndjson' }).waitFor()
    t.match(await page.locator('#status').textContent(), /Enter it in “Server admin token”/, 'an import says the same')

    await page.getByLabel('Server admin token (optional)').fill('not-the-token-at-all')
    await page.getByRole('button', { name: 'Create campaign' }).click()
    await page.locator('#status', { hasText: 'did not accept that admin token' }).waitFor()
    t.pass('a wrong token is named as such')

    await page.getByLabel('Server admin token (optional)').fill(adminToken)
    await accessible(t, page, 'the campaign forms with the admin token')
    await page.getByRole('button', { name: 'Create campaign' }).click()
    await page.locator('#campaign-title', { hasText: 'Gated Hall' }).waitFor()
    t.match(await page.getByLabel('New GM key').inputValue(), /^nrv_gm_/, 'with the token, the campaign is created')
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }))
    t.notMatch(stored, adminToken, 'the token is kept in neither storage')
    t.same(problems, [], 'no script errors')
  },
)
