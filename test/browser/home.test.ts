import t from 'tap'
import { buildTestApp } from '../helpers/build-app.js'
import { accessible, chromiumMissing, launchBrowser, listen } from '../helpers/browser.js'

t.test(
  'the home page: a GM reaches the console, Swagger UI and the guides; axe finds nothing, light or dark',
  { skip: chromiumMissing, timeout: 120_000 },
  async (t) => {
    const app = await buildTestApp(t)
    const baseUrl = await listen(app)
    const { page, screenshot } = await launchBrowser(t)
    const cspViolations: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error' && message.text().includes('Content Security Policy'))
        cspViolations.push(message.text())
    })

    await page.goto(baseUrl)
    t.equal(await page.title(), 'Nerve')
    const header = page.locator('header.site-header')
    t.equal(
      await header.evaluate((element) => (globalThis as any).getComputedStyle(element).backgroundColor),
      'rgb(27, 31, 36)',
      'the console’s dark header: its stylesheet applies',
    )
    t.ok(await page.getByRole('link', { name: 'Open the console' }).isVisible(), 'a way to the console')
    t.ok(await page.getByRole('link', { name: 'Open Swagger UI' }).isVisible(), 'a way to Swagger UI')
    t.ok(await page.getByRole('link', { name: 'Quick start for game masters' }).isVisible(), 'and to the guides')
    await screenshot('home.png')
    await accessible(t, page, 'the home page, light')

    await page.emulateMedia({ colorScheme: 'dark' })
    await accessible(t, page, 'the home page, dark')
    await page.emulateMedia({ colorScheme: 'light' })

    await page.getByRole('link', { name: 'Quick start for game masters' }).click()
    t.match(await page.locator('body').textContent(), /# Quick start for game masters/, 'the guide opens as text')
    await page.goBack()
    await page.getByRole('link', { name: 'Open the console' }).click()
    await page.waitForURL(`${baseUrl}/dashboard`)
    t.pass('the console opens')
    t.same(cspViolations, [], 'its Content-Security-Policy blocked nothing it needs')
  },
)
