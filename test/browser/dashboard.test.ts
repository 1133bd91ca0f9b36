import t from 'tap'
import type { Page } from 'playwright-core'
import type { App } from '../../src/app.js'
import { buildTestApp } from '../helpers/build-app.js'
import { chromiumMissing, launchBrowser, listen } from '../helpers/browser.js'

// These run inside Chromium (page.evaluate); the project's type check has no DOM library.
declare const window: object
declare const document: { activeElement: { blur?: () => void } | null }
declare const sessionStorage: { getItem(key: string): string | null }

interface Seeded {
  campaignId: string
  key: string
  characters: Record<string, string>
}

/** A setup step through the API; anything but the expected status stops the test with the body. */
async function post(app: App, url: string, payload: unknown, key?: string): Promise<any> {
  const res = await app.inject({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    headers: key ? { authorization: `Bearer ${key}` } : {},
  })
  if (res.statusCode !== 201) throw new Error(`POST ${url}: ${res.statusCode} ${res.body.slice(0, 400)}`)
  return res.json()
}

const provided = (...faces: number[]) => ({ source: 'provided', faces })

/** A campaign of the rule set with characters, each taken through the given rolls. */
async function seed(
  app: App,
  ruleset: string,
  name: string,
  characters: { name: string; sheet?: unknown; rolls?: [string, unknown, number[]][] }[],
): Promise<Seeded> {
  const created = await post(app, '/v1/campaigns', { name, ruleset })
  const campaignId: string = created.campaign.id
  const key: string = created.gmKey.key
  const ids: Record<string, string> = {}
  for (const character of characters) {
    const body = character.sheet ? { name: character.name, sheet: character.sheet } : { name: character.name }
    const result = await post(app, `/v1/campaigns/${campaignId}/characters`, body, key)
    ids[character.name] = result.character.id
    for (const [action, request, faces] of character.rolls ?? []) {
      await post(
        app,
        `/v1/campaigns/${campaignId}/characters/${result.character.id}/${action}`,
        { request, dice: provided(...faces) },
        key,
      )
    }
  }
  return { campaignId, key, characters: ids }
}

/** Types the credentials with the keyboard only: label, Tab, Enter. */
async function signIn(page: Page, { campaignId, key }: Seeded): Promise<void> {
  // Once a campaign is open its forms fold away; the summary opens them again.
  if (!(await page.getByLabel('Campaign id', { exact: true }).isVisible()))
    await page.getByText('Open or create a campaign').click()
  await page.getByLabel('Campaign id', { exact: true }).fill('')
  await page.getByLabel('Campaign id', { exact: true }).focus()
  await page.keyboard.type(campaignId)
  await page.keyboard.press('Tab')
  await page.keyboard.press('Control+A')
  await page.keyboard.type(key)
  await page.keyboard.press('Enter')
  await page.locator('#stream-state[data-state="live"]').waitFor()
  // Screenshots show the page, not the focus ring left on the key field.
  await page.evaluate(() => document.activeElement?.blur?.())
}

const character = (page: Page, name: string) => page.getByRole('article', { name })

/** Scrolls the characters to the top of the window: the pictures show them, below the console. */
const showCharacters = (page: Page) => page.locator('#characters').evaluate((element: any) => element.scrollIntoView())

t.test(
  'the GM dashboard draws each rule set’s characters and shows a roll made through the API without reloading',
  { skip: chromiumMissing, timeout: 120_000 },
  async (t) => {
    const app = await buildTestApp(t)
    const baseUrl = await listen(app)

    const shock = await seed(app, 'shock-meters', 'The Mercy Street Irregulars', [
      {
        name: 'Vera Okafor',
        sheet: { meters: { violence: { hardened: 3 }, unnatural: { hardened: 2, failed: 1 } } },
        rolls: [
          ['stress-check', { meter: 'helplessness', rank: 5, response: 'panic', cause: 'Locked in the vault' }, [88]],
        ],
      },
      {
        name: 'Sam Reyes',
        sheet: {
          meters: {
            violence: { hardened: 9 },
            self: { hardened: 9 },
            isolation: { hardened: 4, failed: 4 },
            helplessness: { hardened: 3 },
            unnatural: { hardened: 2 },
          },
        },
      },
    ])
    const trauma = await seed(app, 'trauma-table', 'Ashfall Station', [
      {
        name: 'Ivo Lind',
        sheet: { scars: 1, traits: { composure: true } },
        rolls: [
          ['trauma-roll', { modifier: 0, source: 'none' }, [52]],
          ['trauma-response', { response: 'accept' }, []],
          ['trauma-roll', { modifier: 0, source: 'none' }, [77]],
          ['trauma-response', { response: 'accept' }, []],
        ],
      },
    ])
    const reactions = await seed(app, 'reaction-rolls', 'The Long Winter', [
      {
        name: 'Mira Tal',
        rolls: [
          ['reaction-roll', { ability: 'agility', pressure: 6 }, [4]],
          ['reaction-retrieval', { decision: 'raise', emotion: 'fear' }, []],
        ],
      },
    ])

    const { page, screenshot } = await launchBrowser(t, { width: 1440, height: 960 })
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(error.message))
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text())
    })

    await page.goto(`${baseUrl}/dashboard`)
    await signIn(page, shock)
    await character(page, 'Vera Okafor').waitFor()
    t.equal(page.url(), `${baseUrl}/dashboard`, 'the campaign id and key never reach the address bar')
    t.equal(
      await page.evaluate(() => sessionStorage.getItem('nerve.dashboard.gmKey')),
      shock.key,
      'the key is kept in session storage',
    )

    const vera = character(page, 'Vera Okafor')
    const helplessness = vera.getByRole('row', { name: /^Helplessness/ })
    t.match(await helplessness.textContent(), /1 of 9 hardened.*1 of 5 failed/, 'the failed check is drawn as a notch')
    t.match(await vera.textContent(), /Stressed: Helplessness — panic/, 'the stressed state and response are shown')
    t.match(
      await vera.getByRole('row', { name: /^Violence/ }).textContent(),
      /3 of 9 hardened.*Connect 50.*Struggle 30/,
      'derived abilities follow the hardened notches',
    )
    t.match(await character(page, 'Sam Reyes').textContent(), /Burned out/, 'burn-out is shown')

    // Roll through the API while the page is open: it must arrive over the stream.
    await page.evaluate(() => Object.assign(window, { notReloaded: true }))
    const before = await page.locator('#feed li').count()
    const res = await fetch(
      `${baseUrl}/v1/campaigns/${shock.campaignId}/characters/${shock.characters['Sam Reyes']}/stress-check`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${shock.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          request: { meter: 'isolation', rank: 6, response: 'frenzy', cause: 'Nobody came to the funeral' },
          dice: provided(91),
        }),
      },
    )
    t.equal(res.status, 201, 'the roll is recorded')
    const { event } = (await res.json()) as { event: { seq: number; summary: string } }

    const item = page.locator(`#feed li[data-seq="${event.seq}"]`)
    await item.waitFor()
    t.match(await item.textContent(), event.summary, 'the new roll appears in the feed with its summary')
    t.equal(await page.locator('#feed li').count(), before + 1, 'exactly one new feed entry')
    t.equal(await page.locator('#feed li').first().getAttribute('data-seq'), String(event.seq), 'newest first')
    const sam = character(page, 'Sam Reyes')
    await sam.getByText('Stressed: Isolation — frenzy').waitFor()
    t.match(
      await sam.getByRole('row', { name: /^Isolation/ }).textContent(),
      /4 of 9 hardened.*5 of 5 failed/,
      'the rolled character is redrawn with its new notch',
    )
    t.ok(await page.evaluate(() => 'notReloaded' in window), 'the page was not reloaded')
    await showCharacters(page)
    await screenshot('dashboard.png')

    await signIn(page, trauma)
    const ivo = character(page, 'Ivo Lind')
    await ivo.waitFor()
    const ivoText = await ivo.textContent()
    t.match(ivoText, /Hazed, until the next rest/, 'trauma conditions are listed with their duration')
    t.match(ivoText, /Social Anxiety — severity 80/, 'lasting traumas show their severity')
    t.match(ivoText, /Scars1/, 'scars are counted')
    t.match(ivoText, /Composure/, 'traits are shown')
    await showCharacters(page)
    await screenshot('dashboard-trauma-table.png')

    await signIn(page, reactions)
    const mira = character(page, 'Mira Tal')
    await mira.waitFor()
    t.match(await mira.getByRole('row', { name: /^Fear/ }).textContent(), /1 of 5 stages/, 'emotion stages are drawn')
    t.match(await mira.getByRole('row', { name: /^Agility/ }).textContent(), /d6.*1 of 5 XP/, 'XP tracks are drawn')
    await showCharacters(page)
    await screenshot('dashboard-reaction-rolls.png')

    t.same(problems, [], 'no script errors and no Content-Security-Policy violations')
  },
)

t.test(
  'the dashboard lists open decisions and makes a follow-up check in one click',
  { skip: chromiumMissing, timeout: 120_000 },
  async (t) => {
    const app = await buildTestApp(t)
    const baseUrl = await listen(app)
    const shock = await seed(app, 'shock-meters', 'Therapy night', [
      { name: 'Undecided', rolls: [['stress-check', { meter: 'violence', rank: 4 }, [87]]] },
      {
        name: 'Lena Marsh',
        sheet: { relationships: [{ name: 'Dr. Okafor', rating: 5 }] },
        rolls: [['stress-check', { meter: 'violence', rank: 4, response: 'panic' }, [87]]],
      },
    ])
    const { page } = await launchBrowser(t)
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(error.message))
    await page.goto(`${baseUrl}/dashboard`)
    await signIn(page, shock)
    const decisions = character(page, 'Undecided').getByRole('list', { name: 'Open decisions' })
    t.match(
      await decisions.textContent(),
      /Stressed \(Violence\): choose the response.*\(Stress response\)/,
      'the open decision is listed, with the action that settles it',
    )

    // A therapist's matched failure drops the relationship to 0%: Isolation 4–5 follows.
    const therapy = await post(
      app,
      `/v1/campaigns/${shock.campaignId}/characters/${shock.characters['Lena Marsh']}/therapy-assistance`,
      { request: { identity: 'Trauma Nurse', rating: 55, relationship: 'Dr. Okafor' }, dice: provided(66) },
      shock.key,
    )
    const make = page.getByRole('button', { name: 'Make the Isolation 4–5 check' })
    await make.waitFor()
    await make.click()
    const followUp = page.locator(`#feed li[data-seq="${therapy.event.seq + 1}"]`)
    await followUp.waitFor()
    t.match(
      await followUp.textContent(),
      /Stress check · Lena Marsh/,
      'the follow-up check is made and arrives in the feed',
    )
    t.same(problems, [], 'no script errors')
  },
)
