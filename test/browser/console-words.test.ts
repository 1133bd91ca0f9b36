import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { createCampaign, createCharacter } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { chromiumMissing, launchBrowser, listen } from '../helpers/browser.js'
import { openCampaign } from '../helpers/console.js'

// These run inside Chromium (page.evaluate); the project's type check has no DOM library.
declare const document: any

// Issue 31 §2, "GM words, not API words": every label and help text of every action's form and
// of the sheet editor reads as the rulebook would say it, and nothing is entered as JSON only;
// the Dice section shows only for actions that roll.

/** Developer text: code, routes, JSON, a field's name in camelCase, or a title case of one ("Flip Flop Used"). */
const API_WORDS = /`|\/v1\/|\bGET\b|JSON|\bnull\b|\btrue\b|\bfalse\b|[a-z][A-Z][a-z]|Flip Flop|Stress Checks/

/** The actions that roll dice (accepting a trauma rolls its effects' dice). */
const ROLLS = new Set([
  'stress-check',
  'passion-reroll',
  'passion-flip-flop',
  'therapy-assistance',
  'trauma-roll',
  'trauma-response',
  'reaction-roll',
])

/** The labels, legends and hints inside `selector`, one string each. */
const wordsIn = (page: Page, selector: string): Promise<string[]> =>
  page.evaluate(
    (selector) =>
      [...document.querySelectorAll(`${selector} label, ${selector} legend, ${selector} .hint`)].map(
        (element: any) => element.textContent,
      ),
    selector,
  )

/** The GM console open on a new campaign of `ruleset` with one character. */
async function consoleWithCharacter(t: Test, ruleset: string, name: string): Promise<Page> {
  const app = await buildTestApp(t, { logLevel: 'warn' })
  const baseUrl = await listen(app)
  const { campaign, gmKey, auth } = await createCampaign(app, ruleset, { name: 'Words' })
  await createCharacter(app, campaign, auth, { name })
  const { page } = await launchBrowser(t)
  await page.goto(`${baseUrl}/dashboard`)
  await openCampaign(page, campaign.id, gmKey.key)
  await page.getByRole('article', { name }).waitFor()
  return page
}

for (const ruleset of ['shock-meters', 'trauma-table', 'reaction-rolls']) {
  t.test(`every form of the ${ruleset} console speaks a GM’s words`, { skip: chromiumMissing }, async (t) => {
    const page = await consoleWithCharacter(t, ruleset, 'Nell Ash')

    const actions = await page
      .locator('#action-name option')
      .evaluateAll((options: any[]) => options.map((o) => o.value))
    for (const action of actions) {
      await page.getByLabel('Action', { exact: true }).selectOption(action)
      for (const words of await wordsIn(page, '#action-fields')) t.notMatch(words, API_WORDS, `${action}: “${words}”`)
      const about = (await page.locator('#action-about').textContent()) ?? ''
      t.ok(about.length > 0, `${action}: says what it does`)
      t.notMatch(about, API_WORDS, `${action}: “${about}”`)
      t.equal(
        await page.locator('#dice-fieldset').isVisible(),
        ROLLS.has(action),
        `${action}: a Dice section only when the action rolls dice`,
      )
    }
    const creation = page.locator('#feed li[data-type="character.created"] .feed-meta')
    await creation.waitFor()
    t.match(await creation.textContent(), / · Character created · Nell Ash/, 'the feed names an event in words')
    t.notMatch(await page.locator('#feed').textContent(), /character\.created/, 'not by its type in the API')

    await page.getByRole('button', { name: 'Edit Nell Ash' }).click()
    const editor = 'form[aria-label="Edit Nell Ash"]'
    for (const words of await wordsIn(page, editor)) t.notMatch(words, API_WORDS, `sheet editor: “${words}”`)
    t.equal(await page.locator(`${editor} textarea`).count(), 0, 'nothing in the sheet editor is typed as JSON')

    // With the sheet open and scrolled to its end, the live rolls stay in view beside it (1280 px).
    await page.locator(editor).getByRole('button', { name: 'Save changes' }).scrollIntoViewIfNeeded()
    const feed = await page.locator('#feed-heading').boundingBox()
    t.ok(feed && feed.y >= 0 && feed.y + feed.height <= 900, 'the live rolls stay visible with the sheet open')
  })
}

t.test('a refused field is named by its label, not its JSON pointer', { skip: chromiumMissing }, async (t) => {
  const page = await consoleWithCharacter(t, 'reaction-rolls', 'Mira Tal')
  await page.getByLabel('Action', { exact: true }).selectOption('reaction-roll')
  await page.locator('#action-submit').click()
  const refused = page.locator('#action-result', { hasText: 'Refused' })
  await refused.waitFor()
  t.equal(await refused.innerText(), 'Refused: Pressure is required', 'the missing pressure, in words')
})

t.test(
  'a refusal names the action to take as the console does, “Trauma response”, never `trauma-response`',
  { skip: chromiumMissing },
  async (t) => {
    const page = await consoleWithCharacter(t, 'trauma-table', 'Ines Kade')
    await page.getByLabel('Action', { exact: true }).selectOption('trauma-roll')
    await page.locator('#action-submit').click()
    await page.locator('#action-result', { hasText: 'Ines Kade:' }).waitFor()
    await page
      .getByRole('article', { name: 'Ines Kade' })
      .getByRole('button', { name: /^Settle/ })
      .waitFor()

    const odds = page.locator('#odds-summary', { hasText: 'still waiting' })
    await odds.waitFor()
    t.match(
      await odds.textContent(),
      /settle it with “Trauma response”/,
      'the odds panel names the action that settles it',
    )
    t.notMatch(await odds.textContent(), /`|trauma-response/, 'by its name, not its id')

    await page.locator('#action-submit').click()
    const refused = page.locator('#action-result', { hasText: 'Refused' })
    await refused.waitFor()
    const text = (await refused.textContent()) ?? ''
    t.match(text, /settle it with “Trauma response”/, 'another roll is refused, naming the action by its name')
    t.notMatch(text, /`|trauma-response/, 'not by its id')
    t.equal(await page.locator('#status').textContent(), text, 'the message in view says the same')
  },
)
