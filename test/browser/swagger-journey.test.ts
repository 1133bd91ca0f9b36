import t from 'tap'
import type { Locator, Page } from 'playwright-core'
import { buildTestApp } from '../helpers/build-app.js'
import { accessible, chromiumMissing, launchBrowser, listen, SWAGGER_UI_WAIT } from '../helpers/browser.js'

// The whole file may take minutes on a busy machine (package.json gives a file 5).
t.setTimeout(SWAGGER_UI_WAIT.file)

/** What axe still finds in Swagger UI's own markup (docs/accessibility.md): its headings skip a level. */
const SWAGGER_UI_OWN = ['heading-order']

interface LiveResponse {
  status: number
  body: any
}

/** The operation's block in Swagger UI, expanded, with "Try it out" on. */
async function openOperation(page: Page, tag: string, operationId: string): Promise<Locator> {
  const block = page.locator(`[id="operations-${tag.replaceAll(' ', '_')}-${operationId}"]`)
  if (!(await block.getAttribute('class'))?.includes('is-open')) {
    await block.locator('.opblock-summary-control').click()
  }
  const tryItOut = block.getByRole('button', { name: 'Try it out' })
  if (await tryItOut.isVisible()) await tryItOut.click()
  await block.locator('button.execute').waitFor()
  return block
}

/** Clicks "Execute" and reads the status and body Swagger UI shows, as a GM would. */
async function execute(block: Locator): Promise<LiveResponse> {
  const clear = block.locator('button.btn-clear')
  if (await clear.isVisible()) await clear.click()
  await block.locator('button.execute').click()
  const row = block.locator('.live-responses-table tbody tr.response')
  await row.waitFor()
  const status = Number((await row.locator('.response-col_status').textContent())?.trim())
  const text = await row.locator('.highlight-code pre').first().textContent()
  return { status, body: JSON.parse(text ?? 'null') }
}

/** What a parameter's field holds: Nerve's Swagger UI plugin fills ids from earlier answers. */
async function parameterValue(block: Locator, name: string): Promise<string> {
  return block.locator(`tr[data-param-name="${name}"] input`).inputValue()
}

/** Opens "Authorize", logs out of any earlier key, pastes this one and applies it. */
async function authorize(page: Page, key: string, beforeApplying?: () => Promise<void>): Promise<void> {
  await page.locator('.auth-wrapper button.authorize').click()
  const modal = page.locator('.modal-ux')
  // The bearer key's form; the stream-ticket scheme has its own beside it.
  const bearer = modal.locator('form').filter({ hasText: 'bearerAuth' })
  const logout = modal.getByRole('button', { name: 'Remove authorization' })
  if (await logout.isVisible()) await logout.click()
  await bearer.locator('#auth-bearer-value').fill(key)
  await beforeApplying?.()
  await bearer.getByRole('button', { name: 'Apply credentials' }).click()
  await bearer.getByRole('button', { name: 'Remove authorization' }).waitFor()
  await modal.getByRole('button', { name: 'Close' }).first().click()
  await modal.waitFor({ state: 'detached' })
}

/** The little of the DOM the page functions below use: the type check has no DOM library. */
interface Box {
  offsetTop: number
  scrollTop: number
  textContent: string | null
  scrollIntoView(options: { block: 'start' }): void
  querySelectorAll(selector: string): ArrayLike<Box>
}

/** Scrolls the request URL and the live response below it to the top of the window, for a screenshot. */
async function showResponse(block: Locator): Promise<void> {
  await block
    .locator('.request-url')
    .evaluate((element) => (element as unknown as Box).scrollIntoView({ block: 'start' }))
}

/** Scrolls the response body so the `outcome` line is visible inside its box. */
async function showOutcome(block: Locator): Promise<void> {
  await showResponse(block)
  await block
    .locator('.live-responses-table .highlight-code pre')
    .first()
    .evaluate((element) => {
      const pre = element as unknown as Box
      const line = Array.from(pre.querySelectorAll('span')).find((span) => span.textContent === '"outcome"')
      if (line) pre.scrollTop = line.offsetTop - pre.offsetTop - 40
    })
}

t.test(
  'a GM creates campaigns, authorizes and resolves each mechanic from the examples in Swagger UI, pasting only the key',
  { skip: chromiumMissing, timeout: SWAGGER_UI_WAIT.file },
  async (t) => {
    const app = await buildTestApp(t)
    const baseUrl = await listen(app)
    const { page, screenshot } = await launchBrowser(t)
    page.setDefaultTimeout(SWAGGER_UI_WAIT.action)
    const pageErrors: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    const cspViolations: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error' && message.text().includes('Content Security Policy'))
        cspViolations.push(message.text())
    })

    await page.goto(`${baseUrl}/docs`)
    // Swagger UI lays out the whole document before it shows the first operation: 10 s on a busy machine.
    await page.locator('.opblock').first().waitFor({ timeout: SWAGGER_UI_WAIT.action })
    await screenshot('swagger-1-docs.png')
    await accessible(t, page, '/docs, but for Swagger UI’s own markup', { ignore: SWAGGER_UI_OWN })

    const journeys = [
      {
        ruleset: 'shock-meters',
        tag: 'Shock meters',
        operationId: 'performStressCheck',
        shot: 'swagger-5-stress-check.png',
      },
      {
        ruleset: 'trauma-table',
        tag: 'Trauma table',
        operationId: 'performTraumaRoll',
        shot: 'swagger-6-trauma-roll.png',
      },
      {
        ruleset: 'reaction-rolls',
        tag: 'Reaction rolls',
        operationId: 'performReactionRoll',
        shot: 'swagger-7-reaction-roll.png',
      },
    ]

    let lastCampaignId = ''
    for (const [index, journey] of journeys.entries()) {
      const first = index === 0

      const createCampaign = await openOperation(page, 'Campaigns', 'createCampaign')
      const campaignBody = createCampaign.locator('textarea.body-param__text')
      const example = JSON.parse(await campaignBody.inputValue())
      if (first) {
        t.equal(example.ruleset, 'shock-meters', 'the prefilled example creates a shock-meters campaign')
      } else {
        await campaignBody.fill(JSON.stringify({ ...example, ruleset: journey.ruleset }, null, 2))
      }
      const created = await execute(createCampaign)
      t.equal(created.status, 201, `POST /v1/campaigns answers 201 for a ${journey.ruleset} campaign`)
      const campaignId: string = created.body.campaign.id
      lastCampaignId = campaignId
      const gmKey: string = created.body.gmKey.key
      t.equal(created.body.campaign.ruleset, journey.ruleset, 'the campaign plays the chosen rule set')
      t.match(gmKey, /^nrv_gm_/, 'the response shows the GM key')
      if (first) {
        // The syntax colours of Swagger UI's JSON (its own theme) are left out here.
        await accessible(t, page, 'an operation open and answered', { ignore: [...SWAGGER_UI_OWN, 'color-contrast'] })
        await showResponse(createCampaign)
        await screenshot('swagger-2-campaign-created.png')
      }

      await authorize(page, gmKey, first ? () => screenshot('swagger-3-authorize.png') : undefined)

      // From here on nothing is typed: each id comes from the answer that produced it (OpenAPI links).
      const createCharacter = await openOperation(page, 'Characters', 'createCharacter')
      t.equal(
        await parameterValue(createCharacter, 'campaignId'),
        campaignId,
        'campaignId is filled from the answer that created the campaign',
      )
      const character = await execute(createCharacter)
      t.equal(character.status, 201, `POST …/characters answers 201 with its example in a ${journey.ruleset} campaign`)
      const characterId: string = character.body.character.id
      t.equal(character.body.character.ruleset, journey.ruleset, 'the character uses the campaign’s rule set')
      if (first) {
        await showResponse(createCharacter)
        await screenshot('swagger-4-character-created.png')
      }

      const action = await openOperation(page, journey.tag, journey.operationId)
      t.equal(await parameterValue(action, 'campaignId'), campaignId, `${journey.operationId}: campaignId is filled`)
      t.equal(
        await parameterValue(action, 'characterId'),
        characterId,
        `${journey.operationId}: characterId is filled from the answer that created the character`,
      )
      const roll = await execute(action)
      t.equal(roll.status, 201, `${journey.operationId} answers 201 with its example`)
      t.ok(roll.body.event.outcome, `${journey.operationId} shows the outcome`)
      t.ok(roll.body.event.summary, `${journey.operationId} shows a summary a GM can read out`)
      t.equal(roll.body.event.characterId, characterId, 'the roll is on the character just created')
      await showOutcome(action)
      await screenshot(journey.shot)

      const listEvents = await openOperation(page, 'History', 'listEvents')
      t.equal(await parameterValue(listEvents, 'campaignId'), campaignId, 'listEvents: campaignId is filled')
      const history = await execute(listEvents)
      t.equal(history.status, 200, 'the campaign’s history answers 200')
      t.ok(
        history.body.data.some((event: { id: string }) => event.id === roll.body.event.id),
        'the history holds the roll just made',
      )

      const getEvent = await openOperation(page, 'History', 'getEvent')
      t.equal(await parameterValue(getEvent, 'campaignId'), campaignId, 'getEvent: campaignId is filled')
      t.equal(
        await parameterValue(getEvent, 'eventId'),
        roll.body.event.id,
        'getEvent: eventId is filled from the roll’s answer',
      )
      const event = await execute(getEvent)
      t.equal(event.status, 200, 'the roll’s event answers 200')
      t.equal(event.body.id, roll.body.event.id, 'and is the roll')

      // Collapse the blocks used, so the next round starts from the same page a GM sees.
      for (const block of [createCampaign, createCharacter, action, listEvents, getEvent]) {
        await block.locator('.opblock-summary-control').click()
      }
    }

    // Back another day: the key (persistAuthorization) and the latest ids are still there.
    await page.reload()
    await page.locator('.opblock').first().waitFor({ timeout: SWAGGER_UI_WAIT.action })
    const getCampaign = await openOperation(page, 'Campaigns', 'getCampaign')
    t.equal(
      await parameterValue(getCampaign, 'campaignId'),
      lastCampaignId,
      'a reload offers the latest campaign again',
    )
    const campaign = await execute(getCampaign)
    t.equal(campaign.status, 200, 'and reads it with the key kept by Authorize, nothing pasted')
    t.equal(campaign.body.id, lastCampaignId)

    t.same(pageErrors, [], 'Swagger UI raised no script errors')
    t.same(cspViolations, [], 'and its Content-Security-Policy blocked nothing it needs')
  },
)
