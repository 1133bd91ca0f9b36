import t from 'tap'
import type { Page } from 'playwright-core'
import { createCampaign, createCharacter } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { accessible, chromiumMissing, launchBrowser, listen } from '../helpers/browser.js'
import { fields, openCampaign } from '../helpers/console.js'

// These run inside Chromium (page.evaluate); the project's type check has no DOM library.
declare const document: any

const summary = (page: Page) => page.locator('#odds-summary')

/** The title the console gives a name: `matched-success` → `Matched Success`. */
const titled = (name: string) =>
  name.replace(/(^|-)(\w)/g, (_m, dash: string, c: string) => (dash ? ' ' : '') + c.toUpperCase())

/** Waits until the odds shown are the summary wanted (the console asks as the form changes). */
async function oddsShow(page: Page, wanted: string | RegExp): Promise<string> {
  await page.waitForFunction(
    ([text, isPattern]) => {
      const shown = document.getElementById('odds-summary')?.textContent ?? ''
      return isPattern ? new RegExp(text).test(shown) : shown === text
    },
    [typeof wanted === 'string' ? wanted : wanted.source, typeof wanted !== 'string'] as const,
  )
  return (await summary(page).textContent()) ?? ''
}

t.test(
  'the console shows the odds of the roll as the GM fills the form, before Roll is pressed, as the API states them',
  { skip: chromiumMissing, timeout: 120_000 },
  async (t) => {
    const app = await buildTestApp(t)
    const baseUrl = await listen(app)
    const { campaign, auth, gmKey } = await createCampaign(app, 'shock-meters')
    const { character } = await createCharacter(app, campaign, auth, {
      name: 'Vera Okafor',
      sheet: {
        identities: [{ name: 'Soldier', rating: 45, features: [{ type: 'resists-shock', meter: 'violence' }] }],
        passions: { fear: { text: 'Being forgotten' } },
      },
    })
    const apiOdds = async (action: string, request: unknown) =>
      (
        await app.inject({
          method: 'POST',
          url: `/v1/campaigns/${campaign.id}/characters/${character.id}/${action}/odds`,
          headers: auth,
          payload: { request },
        })
      ).json()

    const { page } = await launchBrowser(t, { width: 1280, height: 1000 })
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(error.message))
    const oddsCalls: string[] = []
    page.on('request', (request) => {
      if (request.url().endsWith('/odds')) oddsCalls.push(request.postData() ?? '')
    })
    await page.goto(`${baseUrl}/dashboard`)
    await openCampaign(page, campaign.id, gmKey.key)

    await page.getByLabel('Character', { exact: true }).selectOption({ label: 'Vera Okafor' })
    await page.getByLabel('Action', { exact: true }).selectOption('stress-check')
    await fields(page).getByLabel('Meter', { exact: true }).selectOption({ label: 'Violence' })
    await fields(page).getByLabel('Rank', { exact: true }).fill('4')

    const expected = await apiOdds('stress-check', { meter: 'violence', rank: 4 })
    t.equal(await oddsShow(page, expected.summary), expected.summary, 'the API’s summary is shown')
    const rows: string[][] = await page.evaluate(() =>
      [...document.querySelectorAll('#odds-detail table tbody tr')].map((row: any) =>
        [...row.children].map((cell: any) => cell.textContent),
      ),
    )
    const possible = expected.outcomes.filter(
      (entry: { probability: { fraction: string } }) => entry.probability.fraction !== '0/1',
    )
    t.same(
      rows,
      possible.map((entry: { outcome: string; probability: { percent: number; fraction: string } }) => [
        titled(entry.outcome),
        `${entry.probability.percent}%`,
        entry.probability.fraction,
      ]),
      'one row per outcome that can happen, with the API’s percent and exact fraction',
    )
    t.match(
      await page.locator('#odds-detail').textContent(),
      /Fear: re-roll on a failure passes 69\.75%; flip-flop when it helps passes 66%/,
      'what the fear passion could do about a failure',
    )
    t.equal(await page.locator('#action-submit').isEnabled(), true, 'and Roll is still to be pressed')
    await accessible(t, page, 'the console with the odds shown')

    await fields(page).getByLabel('Rank', { exact: true }).fill('1')
    t.match(await oddsShow(page, /avoided for certain/), /Violence 1: avoided for certain/, 'the odds follow the form')

    await fields(page).getByLabel('Rank', { exact: true }).fill('2')
    await fields(page)
      .getByLabel('Trigger (optional)')
      .selectOption({ label: 'Killing someone in a fight (Violence, rank 3–5)' })
    t.match(await oddsShow(page, /^No odds for this request/), /rank/, 'a request the rules refuse says why, inline')
    t.equal(await page.locator('#action-submit').isEnabled(), true, 'without blocking the form')
    await fields(page).getByLabel('Trigger (optional)').selectOption({ index: 0 })
    const back = await apiOdds('stress-check', { meter: 'violence', rank: 2 })
    await oddsShow(page, back.summary)
    t.pass('and the odds come back once the request is fixed')

    // Once the form is still, no call is left on its way.
    await page.waitForTimeout(400)
    const calls = oddsCalls.length
    await page.getByLabel('Rolled at the table').check()
    await page.getByLabel('Faces rolled').fill('20')
    await page.waitForTimeout(400)
    t.equal(oddsCalls.length, calls, 'dice do not change the odds: they are not asked again')

    await page.locator('#action-submit').click()
    await page.waitForFunction(() => /rolled 20/.test(document.getElementById('action-result').textContent))
    // The pass hardened Violence 1 → 2: the rank-2 check the form still asks for is now avoided.
    const after = await apiOdds('stress-check', { meter: 'violence', rank: 2 })
    t.match(after.summary, /avoided for certain/, 'on the new sheet the check is avoided')
    await oddsShow(page, after.summary)
    t.pass('the odds are asked again once the roll changed the sheet')

    await page.getByLabel('Action', { exact: true }).selectOption('clear-stressed')
    await page.locator('#odds').waitFor({ state: 'hidden' })
    t.pass('a GM action rolls nothing: no odds')
    await page.getByLabel('Action', { exact: true }).selectOption('therapy-assistance')
    await fields(page).getByLabel('Identity', { exact: true }).fill('Trauma Nurse')
    await fields(page).getByLabel('Rating', { exact: true }).fill('55')
    t.match(
      await oddsShow(page, /did not mark a failed notch/),
      /^No odds for this request/,
      'a therapist’s odds after a pass: refused, inline, as the rules refuse the roll',
    )
    t.same(problems, [], 'no script errors')
  },
)

t.test(
  'reaction rolls: advantage and modifiers change the odds shown, and they match the API',
  { skip: chromiumMissing, timeout: 120_000 },
  async (t) => {
    const app = await buildTestApp(t)
    const baseUrl = await listen(app)
    const { campaign, auth, gmKey } = await createCampaign(app, 'reaction-rolls')
    const { character } = await createCharacter(app, campaign, auth, { name: 'Mira Tal' })
    const { page } = await launchBrowser(t)
    await page.goto(`${baseUrl}/dashboard`)
    await openCampaign(page, campaign.id, gmKey.key)
    await page.getByLabel('Action', { exact: true }).selectOption('reaction-roll')
    await fields(page).getByLabel('Ability (optional)').selectOption({ label: 'Agility (d6)' })
    await fields(page).getByLabel('Pressure', { exact: true }).selectOption({ label: '6' })
    await fields(page).getByLabel('Advantage', { exact: true }).check()
    await fields(page).getByRole('button', { name: 'Add modifier' }).click()
    await fields(page).getByLabel('Source', { exact: true }).selectOption({ label: 'Environment' })
    await fields(page).getByLabel('Weight', { exact: true }).selectOption({ label: '2' })
    const expected = (
      await app.inject({
        method: 'POST',
        url: `/v1/campaigns/${campaign.id}/characters/${character.id}/reaction-roll/odds`,
        headers: auth,
        payload: {
          request: {
            ability: 'agility',
            pressure: 6,
            advantage: true,
            modifiers: [{ source: 'environment', weight: 2 }],
          },
        },
      })
    ).json()
    t.match(expected.summary, /with advantage \+ 2 vs pressure 6/, 'the API counts two dice and the +2')
    t.equal(await oddsShow(page, expected.summary), expected.summary, 'the console shows the same odds')
    t.match(
      await page.locator('#odds-detail').textContent(),
      new RegExp(`Success if the roll is retrieved: ${expected.successIfRetrieved.probability.percent}%`),
      'and the chance of success when the GM allows a retrieval',
    )
    await accessible(t, page, 'the console with reaction-roll odds')
  },
)
