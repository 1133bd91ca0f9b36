import t from 'tap'
import type { Page } from 'playwright-core'
import type { App } from '../../src/app.js'
import { createCampaign, createCharacter, mintPlayerKey, type Auth, type EventView } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { accessible, chromiumMissing, launchBrowser, listen } from '../helpers/browser.js'
import { act, provided, type Ids } from '../helpers/commands.js'

// These run inside Chromium (page.evaluate); the project's type check has no DOM library.
declare const document: any

type Play = (send: (action: string, body: object) => Promise<void>) => Promise<void>

interface Session {
  ruleset: string
  hero: string
  /** A short session; the GM-only event is the one `send` gets with visibility `gm`. */
  play: Play
  /** One more event of the hero, recorded while its timeline is open. */
  live: [action: string, body: object]
  /** What the table alternative must read after each event of the hero, in columns the session changes. */
  reads(event: EventView): Record<string, string>
}

const sessions: Session[] = [
  {
    ruleset: 'shock-meters',
    hero: 'Vera Okafor',
    async play(send) {
      await send('stress-check', { request: { meter: 'violence', rank: 2 }, dice: provided(10) })
      await send('stress-check', { request: { meter: 'violence', rank: 3 }, dice: provided(12) })
      await send('stress-check', {
        request: { meter: 'unnatural', rank: 4, response: 'panic' },
        dice: provided(95),
        visibility: 'gm',
      })
    },
    live: ['clear-stressed', { request: { reason: 'The attacker fled' } }],
    reads: (event) => ({
      'Violence hardened': String(event.sheetAfter.meters.violence.hardened),
      'Unnatural failed': String(event.sheetAfter.meters.unnatural.failed),
    }),
  },
  {
    ruleset: 'trauma-table',
    hero: 'Ivo Lind',
    async play(send) {
      await send('trauma-roll', { request: { response: 'accept' }, dice: provided(68) })
      await send('trauma-roll', { request: { response: 'accept' }, dice: provided(30) })
      await send('trauma-roll', { request: { source: 'traumatic', response: 'accept' }, dice: provided(52, 5) })
      await send('rest', { request: { health: 2, severity: 10 }, visibility: 'gm' })
    },
    live: ['rest', { request: { health: 1, severity: 5 } }],
    reads: (event) => ({
      'Over-Stimulated severity': String(
        event.sheetAfter.lastingTraumas.find((trauma: { id: string }) => trauma.id === 'over-stimulated')?.severity ??
          'none',
      ),
    }),
  },
  {
    ruleset: 'reaction-rolls',
    hero: 'Mira Tal',
    async play(send) {
      const retrieve = { decision: 'raise', emotion: 'fear' }
      await send('reaction-roll', { request: { ability: 'agility', pressure: 6, retrieve }, dice: provided(4) })
      await send('reaction-roll', { request: { ability: 'agility', pressure: 4 }, dice: provided(6) })
      await send('reaction-roll', {
        request: { ability: 'agility', pressure: 8, retrieve: { decision: 'raise', emotion: 'anger' } },
        dice: provided(5),
        visibility: 'gm',
      })
    },
    live: ['reaction-roll', { request: { ability: 'agility', pressure: 4 }, dice: provided(6) }],
    reads: (event) => ({
      Fear: String(event.sheetAfter.emotions.fear),
      'Agility XP': String(event.sheetAfter.abilities.agility.xp),
    }),
  },
]

/** The hero's events as the GM's key reads them. */
async function history(app: App, auth: Auth, ids: Ids): Promise<EventView[]> {
  const res = await app.inject({
    url: `/v1/campaigns/${ids.campaignId}/events?characterId=${ids.characterId}&limit=100`,
    headers: auth,
  })
  return res.json().data
}

/** Opens a campaign in the console with a key, as a GM (or a player's key) would. */
async function open(page: Page, baseUrl: string, campaignId: string, key: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard`)
  await page.getByLabel('Campaign id', { exact: true }).fill(campaignId)
  await page.getByLabel('GM key', { exact: true }).fill(key)
  await page.getByRole('button', { name: 'Show campaign' }).click()
  await page.locator('#stream-state[data-state="live"]').waitFor()
}

/** The table alternative: a row per event, keyed by its first cell, a cell per column heading. */
async function tableOf(page: Page, hero: string): Promise<Record<string, Record<string, string>>> {
  return page.evaluate((hero) => {
    const table = [...document.querySelectorAll('.timeline-table')].find((one: any) =>
      one.caption.textContent.includes(hero),
    )
    const headings = [...table.tHead.rows[0].cells].map((cell: any) => cell.textContent)
    return Object.fromEntries(
      [...table.tBodies[0].rows].map((row: any) => [
        row.dataset.seq,
        Object.fromEntries([...row.cells].map((cell: any, index: number) => [headings[index], cell.textContent])),
      ]),
    )
  }, hero)
}

async function openTimeline(page: Page, hero: string): Promise<void> {
  await page.getByRole('button', { name: `Timeline of ${hero}` }).click()
  await page.getByRole('region', { name: new RegExp(`^Timeline of ${hero}`) }).waitFor()
}

for (const session of sessions) {
  t.test(`the ${session.ruleset} timeline after a session`, { skip: chromiumMissing, timeout: 240_000 }, async (t) => {
    const app = await buildTestApp(t)
    const baseUrl = await listen(app)
    const { campaign, auth, gmKey } = await createCampaign(app, session.ruleset, { name: 'Timeline' })
    const { character } = await createCharacter(app, campaign, auth, { name: session.hero })
    await createCharacter(app, campaign, auth, { name: 'Someone Else' })
    const ids = { campaignId: campaign.id, characterId: character.id }
    await session.play(async (action, body) => {
      const res = await act(app, auth, ids, action, body as { request: unknown })
      t.equal(res.statusCode, 201, `${action} is recorded: ${res.body.slice(0, 200)}`)
    })
    const events = await history(app, auth, ids)
    const secret = events.find((event) => event.visibility === 'gm')
    if (!secret) throw new Error('the session has no GM-only event')

    const { page, screenshot } = await launchBrowser(t, { width: 1280, height: 900 })
    // A redrawn card flashes; the pictures show it settled.
    await page.emulateMedia({ reducedMotion: 'reduce' })
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(error.message))
    await open(page, baseUrl, campaign.id, gmKey.key)
    await openTimeline(page, session.hero)
    const timeline = page.getByRole('region', { name: new RegExp(`^Timeline of ${session.hero}`) })

    // The table alternative has a row per event of the hero, each reading as its sheet after.
    let table = await tableOf(page, session.hero)
    t.same(
      Object.keys(table).map(Number),
      events.map((event) => event.seq),
      'a row per event, GM-only ones included',
    )
    for (const event of events) {
      const row = table[String(event.seq)] ?? {}
      for (const [column, value] of Object.entries(session.reads(event)))
        t.equal(row[column], value, `#${event.seq}: ${column} ${value}`)
    }
    const points = timeline.getByRole('button', { name: /^#\d+ / })
    t.ok((await points.count()) > 0, `points are drawn (${await points.count()})`)
    t.ok(
      (await timeline.locator(`.point[data-seq="${secret.seq}"]`).count()) > 0,
      'the GM-only event is a point in the GM’s timeline',
    )
    t.match(table[String(secret.seq)]?.Event, /GM only/, 'and says so in the table')

    // A point opens its event: named in the timeline, marked in the feed.
    const point = points.first()
    const seq = Number(await point.getAttribute('data-seq'))
    await point.click()
    await page.locator(`#feed li.picked[data-seq="${seq}"]`).waitFor()
    t.match(await timeline.locator('.timeline-picked').textContent(), new RegExp(`^#${seq} `), 'the event is named')
    // From the keyboard too: the next point, then Enter.
    await page.keyboard.press('ArrowRight')
    const next = Number(await page.evaluate(() => document.activeElement.getAttribute('data-seq')))
    await page.keyboard.press('Enter')
    await page.locator(`#feed li.picked[data-seq="${next}"]`).waitFor()
    t.pass(`the arrow keys move to #${next} and Enter opens it`)

    // Live: a new event of the hero joins the open timeline.
    const [action, body] = session.live
    const res = await act(app, auth, ids, action, body as { request: unknown })
    t.equal(res.statusCode, 201, `${action} is recorded: ${res.body.slice(0, 200)}`)
    const later = await history(app, auth, ids)
    await page.locator(`.timeline-table tr[data-seq="${later.at(-1)?.seq}"]`).waitFor({ state: 'attached' })
    table = await tableOf(page, session.hero)
    t.equal(Object.keys(table).length, later.length, 'events recorded after it opened join the timeline live')

    // The picture for docs/images: the GM-only event picked.
    await timeline.locator(`.point[data-seq="${secret.seq}"]`).first().click()
    await page.evaluate(() => document.activeElement?.blur?.())
    await screenshot(`timeline-${session.ruleset}.png`, timeline)
    await page.getByText('The timeline as a table').click()
    await accessible(t, page, 'the timeline, light')
    await page.emulateMedia({ colorScheme: 'dark' })
    await accessible(t, page, 'the timeline, dark')
    await page.setViewportSize({ width: 390, height: 844 })
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth)
    t.ok(overflow <= 390, `the page stays within a phone’s width (${overflow})`)
    await accessible(t, page, 'the timeline, dark, phone width')

    // The player's view: the same history as a player key reads it, without the GM-only event.
    const player = await mintPlayerKey(app, campaign, auth, [character.id])
    const playerPage = await page.context().newPage()
    await open(playerPage, baseUrl, campaign.id, player.key.key)
    await openTimeline(playerPage, session.hero)
    const seen = await tableOf(playerPage, session.hero)
    t.notOk(String(secret.seq) in seen, 'the GM-only event is not in the player’s timeline')
    t.equal(await playerPage.locator(`.point[data-seq="${secret.seq}"]`).count(), 0, 'nor a point for it in the chart')
    const shown = await playerPage.getByRole('region', { name: new RegExp(`^Timeline of ${session.hero}`) }).innerText()
    t.notMatch(shown, /GM only|GM-only/, 'nothing in the player’s timeline says GM only')
    await accessible(t, playerPage, 'the player’s timeline')
    t.same(problems, [], 'no script errors')
  })
}
