import { tmpdir } from 'node:os'
import t, { type Test } from 'tap'
import type { Locator, Page } from 'playwright-core'
import { buildTestApp } from '../helpers/build-app.js'
import { accessible, chromiumMissing, IMAGES_DIR, launchBrowser, listen } from '../helpers/browser.js'
import { addCharacter, article, choose, createCampaign, fields, newestSeq, send } from '../helpers/console.js'

// These run inside Chromium (page.evaluate); the project's type check has no DOM library.
declare const document: any
declare const window: any
declare const getComputedStyle: any

type Checks = Test

/** The page fits a phone: nothing wider than the window, so no sideways scrolling. */
async function fitsPhone(t: Checks, page: Page, what: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 })
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  // Names the elements that stick out, should any.
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter(
        (element) =>
          element.getClientRects().length &&
          !['INPUT', 'SELECT', 'TEXTAREA'].includes(element.tagName) &&
          !element.closest('.visually-hidden') &&
          (element.getBoundingClientRect().right > 391 ||
            (element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX !== 'visible')),
      )
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}#${element.id}.${element.className}`),
  )
  t.ok(width <= 390, `${what} is no wider than a 390 px phone (scrollWidth ${width})`)
  t.same(wide, [], `nothing in ${what} sticks out or scrolls sideways`)
}

/** Dice: Nerve's, or the faces typed as rolled at the table. */
async function dice(page: Page, faces?: string): Promise<void> {
  if (faces === undefined) {
    // Actions that roll no dice have no Dice section.
    if (await page.getByLabel('Nerve rolls them').isVisible()) await page.getByLabel('Nerve rolls them').check()
  } else {
    await page.getByLabel('Rolled at the table').check()
    await page.getByLabel('Faces rolled').fill(faces)
  }
}

const VISIBILITY = { rules: 'As the rules decide', public: 'Everyone', gm: 'GM only (behind the screen)' }

/** Who sees it; each action starts from the rules' choice, which console-secrecy.test.ts checks. */
async function visibility(page: Page, who: keyof typeof VISIBILITY): Promise<void> {
  await page.getByLabel(VISIBILITY[who], { exact: true }).check()
}

/** A character's card as text, without its version (which a revert raises). */
const cardText = async (page: Page, name: string) =>
  ((await article(page, name).textContent()) ?? '').replace(/version \d+/, '')

/** Waits until the card with that id reads `wanted` (its version left out). */
async function cardIs(page: Page, id: string, wanted: string): Promise<void> {
  await page.waitForFunction(
    ([id, wanted]) => {
      const card = document.getElementById(id)
      return card && card.textContent.replace(/version \d+/, '') === wanted
    },
    [id, wanted],
  )
}

/**
 * Settles every open decision of the character from its Settle buttons, taking the first
 * choice each list offers (server rolls are random, so what is open is not known ahead).
 */
async function settleAll(t: Checks, page: Page, name: string): Promise<void> {
  for (let round = 0; round < 6; round++) {
    const settle = article(page, name).getByRole('button', { name: /^Settle:/ })
    if ((await settle.count()) === 0) return
    await settle.first().click()
    await page.evaluate(() => {
      for (const select of document.querySelectorAll('#action-fields select')) {
        if (select.value === '') select.selectedIndex = 1
      }
      for (const input of document.querySelectorAll('#action-fields input[required]')) {
        if (input.value === '') input.value = 'Night terrors'
      }
    })
    await dice(page)
    const answer = await send(page)
    t.ok(!answer.startsWith('Refused'), `an open decision of ${name} is settled: ${answer}`)
  }
}

interface Session {
  ruleset: string
  campaign: string
  hero: string
  other: string
  /**
   * Rolls and decisions through the console. Returns the seq of a GM-only event of the hero and
   * the hero's card as it was before the hero's latest event (what a revert must bring back).
   */
  play(t: Checks, page: Page): Promise<{ secretSeq: number; before: string }>
  /** Text only the GM may see on the hero's card (from the GM-only event), if any. */
  secret?: string
  /** Edits lists or named entries of the other character's sheet; returns what its card then shows, and not. */
  editSheet(editor: Locator): Promise<{ shows: RegExp; gone?: RegExp }>
}

const sessions: Session[] = [
  {
    ruleset: 'shock-meters',
    campaign: 'The Mercy Street Irregulars',
    hero: 'Vera Okafor',
    other: 'Sam Reyes',
    secret: 'Dread of mirrors',
    async editSheet(editor) {
      await editor.getByRole('button', { name: 'Add relationship' }).click()
      const relationship = editor.getByRole('group', { name: 'Relationship 1' })
      await relationship.getByLabel('Name', { exact: true }).fill('Tomas Reyes')
      await relationship.getByLabel('Rating', { exact: true }).fill('40')
      await editor.getByRole('group', { name: 'Fear (optional)' }).getByLabel('Text').fill('Fear: deep water')
      return { shows: /Fear: deep water/ }
    },
    async play(t, page) {
      await choose(page, 'Vera Okafor', 'stress-check')
      await fields(page).getByLabel('Meter', { exact: true }).selectOption({ label: 'Violence' })
      await fields(page).getByLabel('Rank', { exact: true }).fill('4')
      await fields(page).getByLabel('Cause (optional)').fill('A knife in the dark')
      await dice(page, '87')
      await visibility(page, 'public')
      t.match(await send(page), /Violence 4 vs Fitness 60: rolled 87, failure/, 'a check with the table’s d100')
      const vera = article(page, 'Vera Okafor')
      await vera.getByRole('button', { name: /^Settle: Stressed \(Violence\)/ }).click()
      t.equal(
        await page.getByLabel('Action', { exact: true }).inputValue(),
        'stress-response',
        'Settle opens the decision',
      )
      await fields(page).getByLabel('Response', { exact: true }).selectOption({ label: 'Panic' })
      t.match(await send(page), /panic/i, 'the stress response is settled')
      await vera.getByText('Stressed: Violence — panic').waitFor()
      t.equal(await vera.getByRole('list', { name: 'Open decisions' }).count(), 0, 'no decision is left open')

      await choose(page, 'Sam Reyes', 'stress-check')
      await fields(page).getByLabel('Meter', { exact: true }).selectOption({ label: 'Unnatural' })
      await fields(page).getByLabel('Rank', { exact: true }).fill('5')
      const triggers = await fields(page).getByLabel('Trigger (optional)').locator('option').count()
      t.ok(triggers > 10, `the rulebook’s triggers are offered (${triggers - 1})`)
      await dice(page)
      await visibility(page, 'rules')
      t.match(
        await send(page),
        /Unnatural 5.*Recorded for everyone: nothing hidden from players is involved\.$/,
        'a check rolled by Nerve, for everyone as the rules decide, said in the GM’s words',
      )
      await settleAll(t, page, 'Sam Reyes')

      await choose(page, 'Vera Okafor', 'record-disorder')
      await fields(page).getByLabel('Name', { exact: true }).fill('Dread of mirrors')
      await fields(page).getByLabel('Meter (optional)').selectOption({ label: 'Unnatural' })
      await visibility(page, 'gm')
      t.notMatch(await send(page), /^Refused/, 'a GM-only disorder is recorded')
      const secretSeq = await newestSeq(page)

      const before = await cardText(page, 'Vera Okafor')
      await choose(page, 'Vera Okafor', 'clear-stressed')
      await fields(page).getByLabel('Reason (optional)').fill('The attacker fled')
      // After the GM-only disorder, Everyone would ask first: the rules decide.
      await visibility(page, 'rules')
      t.notMatch(await send(page), /^Refused/, 'a GM action: the threat is gone')
      await vera.getByText('Stressed: Violence — panic').waitFor({ state: 'detached' })
      return { secretSeq, before }
    },
  },
  {
    ruleset: 'trauma-table',
    campaign: 'Ashfall Station',
    hero: 'Ivo Lind',
    other: 'Dana Kade',
    async editSheet(editor) {
      await editor.getByRole('button', { name: 'Add lasting trauma' }).click()
      // The one just added: the roll by Nerve may have given the character a lasting trauma already.
      const trauma = editor.getByRole('group', { name: /^Lasting Trauma \d+$/ }).last()
      await trauma.getByLabel('Id', { exact: true }).selectOption({ index: 1 })
      await trauma.getByLabel('Name', { exact: true }).fill('Fear of the dark')
      await trauma.getByLabel('Severity', { exact: true }).fill('2')
      return { shows: /Fear of the dark/ }
    },
    async play(t, page) {
      await choose(page, 'Ivo Lind', 'trauma-roll')
      await fields(page).getByLabel('Source (optional)').selectOption({ label: 'Stressful' })
      await fields(page).getByRole('button', { name: 'Add upgrade' }).click()
      await fields(page).getByLabel('Reason', { exact: true }).fill('Alone in the dark')
      await dice(page, '52')
      await visibility(page, 'public')
      t.match(await send(page), /52/, 'a trauma roll with the table’s d100 and an extra upgrade')
      await settleAll(t, page, 'Ivo Lind')

      await choose(page, 'Dana Kade', 'trauma-roll')
      await dice(page)
      await visibility(page, 'public')
      t.notMatch(await send(page), /^Refused/, 'a trauma roll by Nerve')
      await settleAll(t, page, 'Dana Kade')

      await choose(page, 'Ivo Lind', 'trauma-roll')
      await fields(page).getByLabel('Source (optional)').selectOption({ label: 'Traumatic' })
      await dice(page, '30')
      await visibility(page, 'gm')
      t.notMatch(await send(page), /^Refused/, 'a GM-only trauma roll')
      const secretSeq = await newestSeq(page)
      await settleAll(t, page, 'Ivo Lind')

      const before = await cardText(page, 'Ivo Lind')
      await choose(page, 'Ivo Lind', 'rest')
      await fields(page).getByLabel('Health (optional)').fill('2')
      await visibility(page, 'rules')
      t.notMatch(await send(page), /^Refused/, 'a GM action: a rest')
      return { secretSeq, before }
    },
  },
  {
    ruleset: 'reaction-rolls',
    campaign: 'The Long Winter',
    hero: 'Mira Tal',
    other: 'Oren Vale',
    async editSheet(editor) {
      await editor.getByRole('button', { name: 'Add ability' }).click()
      const ability = editor.getByRole('group', { name: 'Ability 6' })
      await ability.getByLabel('Name', { exact: true }).fill('stealth')
      await ability.getByLabel('Dice', { exact: true }).selectOption({ label: 'D8' })
      await editor.getByRole('group', { name: 'Ability 1' }).getByRole('button', { name: 'Remove ability' }).click()
      return { shows: /Stealth/, gone: /Agility/ }
    },
    async play(t, page) {
      await choose(page, 'Mira Tal', 'reaction-roll')
      await fields(page).getByLabel('Ability (optional)').selectOption({ label: 'Agility (d6)' })
      await fields(page).getByLabel('Pressure', { exact: true }).selectOption({ label: '6' })
      await dice(page, '4')
      await visibility(page, 'public')
      t.match(await send(page), /4/, 'a reaction roll with the table’s d6')
      const mira = article(page, 'Mira Tal')
      await mira.getByRole('button', { name: /^Settle:/ }).click()
      await fields(page).getByLabel('Decision', { exact: true }).selectOption({ label: 'Raise' })
      await fields(page).getByLabel('Emotion (optional)').selectOption({ label: 'Fear' })
      t.notMatch(await send(page), /^Refused/, 'the retrieval is settled: fear raised')
      await mira.getByRole('row', { name: /^Fear/ }).getByText('1 of 5 stages').waitFor()

      await choose(page, 'Oren Vale', 'reaction-roll')
      await fields(page).getByLabel('Ability (optional)').selectOption({ label: 'Composure (d6)' })
      await fields(page).getByLabel('Pressure', { exact: true }).selectOption({ label: '4' })
      await fields(page).getByRole('button', { name: 'Add modifier' }).click()
      await fields(page).getByLabel('Source', { exact: true }).selectOption({ label: 'Environment' })
      await fields(page).getByLabel('Weight', { exact: true }).selectOption({ label: '1' })
      await dice(page)
      await visibility(page, 'public')
      t.notMatch(await send(page), /^Refused/, 'a reaction roll by Nerve with a context modifier')
      await settleAll(t, page, 'Oren Vale')

      await choose(page, 'Mira Tal', 'reaction-roll')
      await fields(page).getByLabel('Ability (optional)').selectOption({ label: 'Agility (d6)' })
      await fields(page).getByLabel('Pressure', { exact: true }).selectOption({ label: '8' })
      await fields(page).getByLabel('Advantage', { exact: true }).check()
      await dice(page, '2 5')
      await visibility(page, 'gm')
      t.match(await send(page), /5/, 'a GM-only reaction roll with advantage: two table dice, the higher kept')
      const secretSeq = await newestSeq(page)
      await mira.getByText('Retrieval pending: Agility 5 vs 8').waitFor()
      const before = await cardText(page, 'Mira Tal')
      await settleAll(t, page, 'Mira Tal')
      return { secretSeq, before }
    },
  },
]

for (const session of sessions) {
  t.test(
    `a GM plays a whole ${session.ruleset} session from the console alone`,
    { skip: chromiumMissing, timeout: 240_000 },
    async (t) => {
      const app = await buildTestApp(t)
      const baseUrl = await listen(app)
      const { context, page, screenshot } = await launchBrowser(t, { width: 1440, height: 1000 })
      const problems: string[] = []
      page.on('pageerror', (error) => problems.push(error.message))
      page.on('console', (message) => {
        // The odds shown as the form is filled may be refused, as the roll would be, and say so inline.
        if (message.type() === 'error' && !message.location().url.endsWith('/odds')) problems.push(message.text())
      })

      await page.goto(`${baseUrl}/dashboard`)
      await accessible(t, page, 'the start page')
      await createCampaign(page, session.campaign, session.ruleset)
      const gmKey = await page.getByLabel('New GM key').inputValue()
      t.match(gmKey, /^nrv_gm_/, 'the new GM key is shown once')
      t.equal(page.url(), `${baseUrl}/dashboard`, 'nothing reaches the address bar')
      await page.getByRole('button', { name: 'I have saved them' }).click()
      t.equal(await page.getByLabel('New GM key').isVisible(), false, 'the key is put away once saved')

      for (const name of [session.hero, session.other]) await addCharacter(page, name)

      const { secretSeq, before } = await session.play(t, page)
      const secretItem = page.locator(`#feed li[data-seq="${secretSeq}"]`)
      t.match(await secretItem.textContent(), /GM only/, 'the GM sees the GM-only event in the feed')
      if (session.secret) t.match(await article(page, session.hero).textContent(), session.secret, 'and its effect')

      // Undo: asks first, naming the event and what it changes; then the card is drawn as before it.
      const feedBefore = await newestSeq(page)
      const heroCard = (await article(page, session.hero).getAttribute('id')) ?? ''
      const after = await cardText(page, session.hero)
      await page.getByRole('button', { name: `Undo latest event of ${session.hero}` }).click()
      const confirm = page.getByRole('dialog')
      t.match(await confirm.getByRole('heading').textContent(), `for ${session.hero}?`, 'the undo asks first')
      t.ok((await confirm.getByRole('listitem').count()) > 0, 'and lists what it changes on the sheet')
      t.notMatch(await confirm.textContent(), /Last Check|Stress Checks/, 'not the rules’ own bookkeeping')
      t.notMatch(await confirm.textContent(), /\bset\b/, 'an entry is named by its words, not “set”')
      await accessible(t, page, 'the undo’s confirmation')
      await confirm.getByRole('button', { name: /^Undo #\d+$/ }).click()
      await page.locator(`#feed li[data-seq="${feedBefore + 1}"]`).waitFor()
      t.match(await page.locator('#feed li').first().textContent(), /revert/i, 'the revert is in the feed')
      await cardIs(page, heroCard, before)
      t.pass('the hero’s card is drawn as before the latest event')
      t.match(
        await page.locator('#action-result').textContent(),
        `Undone: #${feedBefore}`,
        'the answer under the form, that event’s, says it is undone',
      )

      // Undo twice: the second click does not take the undo back, and says why.
      await page.getByRole('button', { name: `Undo latest event of ${session.hero}` }).click()
      await page.locator('#status', { hasText: 'Nothing more to undo' }).waitFor()
      t.equal(await confirm.isVisible(), false, 'no confirmation is asked')
      t.equal(await newestSeq(page), feedBefore + 1, 'a second Undo records nothing')

      // From the feed, the undo itself is taken back (the event stands again), and that too.
      await page.getByRole('button', { name: `Put back #${feedBefore + 1}` }).click()
      t.match(await confirm.getByRole('heading').textContent(), `Put back what #${feedBefore + 1} undid?`)
      await confirm.getByRole('button', { name: 'Put it back' }).click()
      await page.locator(`#feed li[data-seq="${feedBefore + 2}"]`).waitFor()
      await cardIs(page, heroCard, after)
      t.pass('putting an undo back redraws the card as after the event')
      await page.getByRole('button', { name: `Put back #${feedBefore + 2}` }).click()
      await confirm.getByRole('button', { name: 'Put it back' }).click()
      await page.locator(`#feed li[data-seq="${feedBefore + 3}"]`).waitFor()
      await cardIs(page, heroCard, before)
      t.pass('and undoing that from the feed takes the event back again')

      // Edit: rename the other character through its form.
      await page.getByRole('button', { name: `Edit ${session.other}` }).click()
      const editor = page.getByRole('form', { name: `Edit ${session.other}` })
      await editor.getByLabel('Name', { exact: true }).first().fill(`${session.other} Jr.`)
      await editor.getByLabel(/^Reason/).fill('A new name')
      await editor.getByRole('button', { name: 'Save changes' }).click()
      await article(page, `${session.other} Jr.`).waitFor()
      t.pass('a character is renamed')

      // Edit again: lists and named entries of the sheet (relationships, lasting traumas, abilities).
      await page.getByRole('button', { name: `Edit ${session.other} Jr.` }).click()
      const sheetEditor = page.getByRole('form', { name: `Edit ${session.other} Jr.` })
      const { shows, gone } = await session.editSheet(sheetEditor)
      await sheetEditor.getByRole('button', { name: 'Save changes' }).click()
      await sheetEditor.waitFor({ state: 'detached' })
      const card = await article(page, `${session.other} Jr.`).textContent()
      t.match(card, shows, 'an entry added to the sheet is drawn on the card')
      if (gone) t.notMatch(card, gone, 'and one removed is gone')
      await page.getByRole('button', { name: `Edit ${session.other} Jr.` }).click()
      await accessible(t, page, 'the sheet editor')
      await page
        .getByRole('form', { name: `Edit ${session.other} Jr.` })
        .getByRole('button', { name: 'Cancel' })
        .click()

      await page.evaluate(() => {
        document.activeElement?.blur?.()
        window.scrollTo(0, 0)
      })
      await screenshot(`console-${session.ruleset}.png`)
      await accessible(t, page, 'the console, light')

      // A player key for the hero, and the read-only view it opens.
      await page.getByRole('button', { name: `Mint a player key for ${session.hero}` }).click()
      const link = await page.getByLabel('Player link', { exact: true }).inputValue()
      t.match(link, /#view=player&.*key=nrv_pl_/, 'the player link carries the key in its fragment only')
      t.notMatch(link.split('#')[0], /key=/, 'no key in the query')

      const player = await context.newPage()
      player.on('pageerror', (error) => problems.push(`player: ${error.message}`))
      await player.goto(link)
      await article(player, session.hero).waitFor()
      await player.locator('#stream-state[data-state="live"]').waitFor()
      t.equal(player.url(), `${baseUrl}/dashboard`, 'the key is wiped from the address bar')
      t.equal(await article(player, `${session.other} Jr.`).count(), 0, 'only the player’s character is shown')
      t.equal(await player.locator('#gm-tools').isVisible(), false, 'no console in the player view')
      t.equal(await player.getByRole('button', { name: /^Settle|^Undo|^Edit/ }).count(), 0, 'no GM buttons')
      t.equal(await player.locator(`#feed li[data-seq="${secretSeq}"]`).count(), 0, 'the GM-only event is not shown')
      t.notMatch(await player.locator('#feed').textContent(), /GM only/, 'no GM-only entry in the player’s feed')
      if (session.secret) t.notMatch(await player.locator('main').textContent(), session.secret, 'nor its effect')
      t.ok((await player.locator('#feed li').count()) > 0, 'the player sees the public rolls')
      await player.setViewportSize({ width: 390, height: 844 })
      await player.emulateMedia({ colorScheme: 'dark' })
      await fitsPhone(t, player, 'the player view')
      if (session.ruleset === 'shock-meters')
        await player.screenshot({ path: await pathOf(t, 'console-player-view.png') })
      await accessible(t, player, 'the player view, dark')

      // Revoking the key closes the player view on its next load.
      await page.getByRole('button', { name: `Revoke ${session.hero} (player)` }).click()
      await page.locator('#key-rows tr.revoked').waitFor()
      await player.reload()
      await player.getByText(/do not match a campaign/).waitFor()
      t.pass('a revoked key opens nothing')

      // The same console on a phone, in dark mode.
      await page.emulateMedia({ colorScheme: 'dark' })
      await fitsPhone(t, page, 'the console')
      await page.evaluate(() => window.scrollTo(0, 0))
      await screenshot(`console-${session.ruleset}-phone-dark.png`)
      await accessible(t, page, 'the console, dark, phone width')

      t.same(problems, [], 'no script errors and no Content-Security-Policy violations')
    },
  )
}

t.test(
  'a roll whose answer is lost is sent again with the same Idempotency-Key and recorded once',
  { skip: chromiumMissing, timeout: 240_000 },
  async (t) => {
    const app = await buildTestApp(t)
    const baseUrl = await listen(app)
    const { page } = await launchBrowser(t)
    await page.goto(`${baseUrl}/dashboard`)
    await createCampaign(page, 'Lost Answers', 'shock-meters')
    const campaignId = await page.getByLabel('Id of the new campaign').inputValue()
    const gmKey = await page.getByLabel('New GM key').inputValue()
    await addCharacter(page, 'Vera Okafor')

    // The roll reaches Nerve, but its answer never reaches the page.
    const keys: string[] = []
    await page.route(
      '**/stress-check',
      async (route) => {
        keys.push(route.request().headers()['idempotency-key'] ?? '')
        await route.fetch()
        await route.abort('connectionreset')
      },
      { times: 1 },
    )
    page.on('request', (request) => {
      if (request.url().endsWith('/stress-check') && keys.length === 1 && request.method() === 'POST')
        keys.push(request.headers()['idempotency-key'] ?? '')
    })
    await choose(page, 'Vera Okafor', 'stress-check')
    await fields(page).getByLabel('Meter', { exact: true }).selectOption({ label: 'Violence' })
    await fields(page).getByLabel('Rank', { exact: true }).fill('2')
    // The table's d100, so no roll leaves her stressed and refusing the next check.
    await dice(page, '10')
    await visibility(page, 'public')
    t.match(
      await send(page),
      /^No answer .*Send it again: Nerve will not roll twice/,
      'the GM is told to send it again',
    )
    t.match(await send(page), /Violence 2/, 'the same form sent again gets the roll’s answer')
    t.equal(keys.length, 2, 'two requests were sent')
    t.match(keys[0], /^[0-9a-f]{32}$/, 'the first carried an Idempotency-Key')
    t.equal(keys[1], keys[0], 'the second carried the same key')

    const history = await app.inject({
      url: `/v1/campaigns/${campaignId}/events?type=stress-check`,
      headers: { authorization: `Bearer ${gmKey}` },
    })
    t.equal(history.json().data.length, 1, 'Nerve recorded the roll once')

    await dice(page, '10')
    t.match(await send(page), /Violence 2/, 'after an answer, the same form sent again is a new roll')
    const after = await app.inject({
      url: `/v1/campaigns/${campaignId}/events?type=stress-check`,
      headers: { authorization: `Bearer ${gmKey}` },
    })
    t.equal(after.json().data.length, 2, 'and is recorded as one')
  },
)

/** Where `screenshot` would put a picture, for a second page: docs/images only for `npm run screenshots`. */
async function pathOf(t: { writeSnapshot?: boolean }, name: string): Promise<string> {
  return t.writeSnapshot ? `${IMAGES_DIR}/${name}` : `${tmpdir()}/nerve-${name}`
}
