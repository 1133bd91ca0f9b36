import { readFile } from 'node:fs/promises'
import t from 'tap'
import type { Page } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { buildTestApp } from '../helpers/build-app.js'
import { accessible, chromiumMissing, launchBrowser, listen } from '../helpers/browser.js'
import { createCampaign } from '../helpers/console.js'
import { startReceiver, type ReceivedWebhook } from '../helpers/webhook-receiver.js'
import { FAST_WEBHOOKS } from '../helpers/webhooks.js'

// Issue 31 §2: webhooks and archives in the console, not only through the API. A webhook is
// added, followed to a real receiver, sent again, disabled and enabled, pinged, given a new
// secret and deleted; the campaign is exported and imported again; the player view shows neither
// panel.

// These run inside Chromium (page.evaluate); the project's type check has no DOM library.
declare const document: any

const fields = (page: Page) => page.locator('#action-fields')

/** A stress check on Vera with the table's d100, waited for under the form. */
async function stressCheck(page: Page, face: string): Promise<void> {
  await page.getByLabel('Character', { exact: true }).selectOption({ label: 'Vera Okafor' })
  await page.getByLabel('Action', { exact: true }).selectOption('stress-check')
  await fields(page).getByLabel('Meter', { exact: true }).selectOption({ label: 'Violence' })
  await fields(page).getByLabel('Rank', { exact: true }).fill('4')
  await page.getByLabel('Rolled at the table').check()
  await page.getByLabel('Faces rolled').fill(face)
  await page.locator('#action-submit').click()
  await page.locator('#action-result', { hasText: `rolled ${face}` }).waitFor()
}

t.test(
  'a GM adds a webhook, sees its deliveries, sends one again, disables and enables it, then exports and imports the campaign',
  { skip: chromiumMissing, timeout: 240_000 },
  async (t) => {
    const receiver = await startReceiver(t)
    const app = await buildTestApp(t, { logLevel: 'warn', ...FAST_WEBHOOKS })
    const baseUrl = await listen(app)
    const { context, page } = await launchBrowser(t)
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(error.message))

    await page.goto(`${baseUrl}/dashboard`)
    await createCampaign(page, 'Mercy Street')
    const campaignId = await page.getByLabel('Id of the new campaign').inputValue()
    await page.getByRole('button', { name: 'I have saved them' }).click()
    await page.getByLabel('Character name').fill('Vera Okafor')
    await page.getByRole('button', { name: 'Add character' }).click()
    await page.getByRole('article', { name: 'Vera Okafor' }).waitFor()

    const webhooks = page.getByRole('region', { name: 'Webhooks' })
    await webhooks.getByLabel('Face a stress check').waitFor()
    t.equal(
      await webhooks.getByRole('checkbox', { name: 'Face a stress check', exact: true }).count(),
      1,
      'each event type is a check-box, in the rule set’s words',
    )
    t.ok(await webhooks.getByLabel('Character created').isVisible(), 'the built-in types are offered in GM words')
    await webhooks.getByLabel('Receiver’s address').fill(receiver.url)
    await webhooks.getByLabel('Face a stress check').check()
    await webhooks.getByRole('button', { name: 'Add webhook' }).click()
    const secret = webhooks.getByLabel(`Secret of ${receiver.url}`, { exact: true })
    await secret.waitFor()
    const firstSecret = await secret.inputValue()
    t.match(firstSecret, /^whsec_/, 'the signing secret is shown once')
    t.equal(
      await webhooks.getByRole('button', { name: `Copy the secret of ${receiver.url}` }).count(),
      1,
      'with a Copy button',
    )
    const item = page.locator('#webhook-list li.webhook')
    await item.waitFor()
    t.match(await item.textContent(), /Receives Face a stress check; GM-only events left out/, 'the endpoint is listed')

    await stressCheck(page, '30')
    await receiver.waitFor('the stress check', (received) => received.length === 1)
    t.equal(receiver.received[0]!.payload.type, 'stress-check', 'the receiver gets the roll')

    await webhooks.getByRole('button', { name: `Deliveries to ${receiver.url}`, exact: true }).click()
    const delivered = item.locator('tr[data-status="delivered"]')
    await delivered.waitFor()
    t.match(
      await delivered.textContent(),
      /#2 Face a stress check\s*delivered\s*1/,
      'the delivery is listed, delivered',
    )
    await accessible(t, page, 'the webhooks panel with a secret and deliveries, light')
    await page.emulateMedia({ colorScheme: 'dark' })
    await accessible(t, page, 'the webhooks panel with a secret and deliveries, dark')
    await page.emulateMedia({ colorScheme: 'light' })
    await page.setViewportSize({ width: 390, height: 844 })
    await accessible(t, page, 'the webhooks panel on a phone')
    t.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= 390),
      'on a phone, nothing of the panels scrolls sideways',
    )
    await page.setViewportSize({ width: 1280, height: 900 })

    await item.getByRole('button', { name: 'Send again: #2' }).click()
    await receiver.waitFor('the delivery sent again', (received) => received.length === 2)
    t.equal(receiver.received[1]!.id, receiver.received[0]!.id, 'sent again with the same webhook-id')
    await page.locator('#status', { hasText: 'is on its way' }).waitFor()

    await webhooks.getByRole('button', { name: `Disable the webhook to ${receiver.url}` }).click()
    await page.locator('#webhook-list li[data-enabled="false"]', { hasText: 'Disabled (disabled by the GM)' }).waitFor()
    await stressCheck(page, '40')
    await webhooks.getByRole('button', { name: `Enable the webhook to ${receiver.url}` }).click()
    await page.locator('#webhook-list li[data-enabled="true"]').waitFor()
    await page.getByRole('button', { name: `Refresh the deliveries to ${receiver.url}` }).click()
    await page.locator('#webhook-list tr[data-status="delivered"]').first().waitFor()
    t.equal(await item.locator('tbody tr').count(), 1, 'nothing was queued for it while it was disabled')
    t.equal(receiver.received.length, 2, 'nor sent')
    await stressCheck(page, '50')
    await receiver.waitFor('the roll after enabling', (received) => received.length === 3)
    t.pass('enabled again, it receives the next roll')

    const archive = page.getByRole('region', { name: 'Archive' })
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      archive.getByRole('button', { name: 'Download an archive' }).click(),
    ])
    t.match(download.suggestedFilename(), /^mercy-street-.*\.ndjson$/, 'the file has the name Nerve gives it')
    const file = await download.path()
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    t.match(lines[0], { kind: 'archive', counts: { characters: 1, events: 4, webhooks: 1 } }, 'it is the archive')
    t.same(
      lines.filter((line) => line.kind === 'event').map((line) => line.event.type),
      ['character.created', 'stress-check', 'stress-check', 'stress-check'],
      'with every event',
    )
    t.equal(lines.at(-1).kind, 'end', 'whole, to its end line')
    await page.locator('#status').getByText('Downloaded mercy-street-').waitFor()

    await page.getByText('Open or create a campaign').click()
    await page.getByLabel('Archive file').setInputFiles(file)
    await page.getByRole('button', { name: 'Import campaign' }).click()
    await page.locator('#status', { hasText: 'Imported Mercy Street as a new campaign' }).waitFor()
    const importedId = await page.getByLabel('Id of the new campaign').inputValue()
    t.not(importedId, campaignId, 'the archive became a new campaign')
    t.match(await page.getByLabel('New GM key').inputValue(), /^nrv_gm_/, 'with its GM key on show once')
    await page.locator('#stream-state[data-state="live"]').waitFor()
    await page.getByRole('article', { name: 'Vera Okafor' }).waitFor()
    t.match(await page.locator('#feed').textContent(), /#4/, 'the imported campaign is open, its history with it')
    await page.locator('#webhook-list li[data-enabled="false"]').waitFor()
    const importedSecret = await webhooks.getByLabel(`Secret of ${receiver.url}`, { exact: true }).inputValue()
    t.match(importedSecret, /^whsec_/, 'its webhook came back disabled, with a new secret shown once')
    t.not(importedSecret, firstSecret, 'nothing of the first campaign’s panel is left on show')
    await accessible(t, page, 'the campaign just imported')

    await page.getByRole('button', { name: 'I have saved them' }).click()
    await page.getByRole('button', { name: 'Mint a player key for Vera Okafor' }).click()
    const link = await page.getByLabel('Player link', { exact: true }).inputValue()
    const player = await context.newPage()
    player.on('pageerror', (error) => problems.push(`player: ${error.message}`))
    await player.goto(link)
    await player.locator('#stream-state[data-state="live"]').waitFor()
    t.equal(await player.getByRole('region', { name: 'Webhooks' }).count(), 0, 'the player view has no webhooks')
    t.equal(await player.getByRole('region', { name: 'Archive' }).count(), 0, 'nor an archive')
    t.notOk(await player.getByLabel('Archive file').isVisible(), 'nor the import')
    await accessible(t, player, 'the player view')
    t.same(problems, [], 'no script errors')
  },
)

/** Verifies a received webhook as a consumer would, with the standardwebhooks library. */
const verifies = (secret: string, request: ReceivedWebhook): unknown =>
  new Webhook(secret).verify(request.body, {
    'webhook-id': request.id,
    'webhook-timestamp': request.timestamp,
    'webhook-signature': request.signature,
  })

t.test(
  'a GM sends a webhook a test ping, gives it a new secret and deletes it, each after saying what it does',
  { skip: chromiumMissing, timeout: 180_000 },
  async (t) => {
    const receiver = await startReceiver(t)
    const app = await buildTestApp(t, { logLevel: 'warn', ...FAST_WEBHOOKS })
    const baseUrl = await listen(app)
    const { page } = await launchBrowser(t)
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(error.message))

    await page.goto(`${baseUrl}/dashboard`)
    await createCampaign(page, 'Ashfall Station')
    const campaignId = await page.getByLabel('Id of the new campaign').inputValue()
    const gmKey = await page.getByLabel('New GM key').inputValue()
    await page.getByRole('button', { name: 'I have saved them' }).click()
    const webhooks = page.getByRole('region', { name: 'Webhooks' })
    await webhooks.getByLabel('Receiver’s address').fill(receiver.url)
    await webhooks.getByRole('button', { name: 'Add webhook' }).click()
    const secret = webhooks.getByLabel(`Secret of ${receiver.url}`, { exact: true })
    await secret.waitFor()
    const firstSecret = await secret.inputValue()

    await webhooks.getByRole('button', { name: `Send a test ping to ${receiver.url}` }).click()
    await receiver.waitFor('the test ping', (received) => received.length === 1)
    const ping = receiver.received[0]!
    t.equal(ping.payload.type, 'webhook.ping', 'the receiver gets a ping')
    t.match(verifies(firstSecret, ping), { type: 'webhook.ping' }, 'signed with the webhook’s secret')
    const pinged = page.locator('#webhook-list tr[data-status="delivered"]', { hasText: 'Test ping' })
    await pinged.waitFor()
    t.pass('the ping is listed in the deliveries, which open by themselves, delivered')
    t.equal(
      await webhooks
        .getByRole('button', { name: `Deliveries to ${receiver.url}`, exact: true })
        .getAttribute('aria-expanded'),
      'true',
      'the Deliveries button says its list is open',
    )

    await webhooks.getByRole('button', { name: `Rotate the secret of ${receiver.url}` }).click()
    const confirm = page.getByRole('dialog')
    t.match(
      await confirm.textContent(),
      /old one keeps working for 24 hours/,
      'the rotation says how long the old secret works',
    )
    await accessible(t, page, 'the rotation’s confirmation')
    await confirm.getByRole('button', { name: 'Rotate the secret' }).click()
    await page.locator('#webhook-secret', { hasText: 'The old one keeps working until' }).waitFor()
    const newSecret = await secret.inputValue()
    t.match(newSecret, /^whsec_/, 'the new secret is shown once')
    t.not(newSecret, firstSecret, 'and it is a new one')
    t.equal(await webhooks.getByRole('button', { name: `Copy the secret of ${receiver.url}` }).count(), 1, 'with Copy')

    await webhooks.getByRole('button', { name: `Send a test ping to ${receiver.url}` }).click()
    await receiver.waitFor('the ping after the rotation', (received) => received.length === 2)
    const second = receiver.received[1]!
    t.match(verifies(newSecret, second), { type: 'webhook.ping' }, 'the next delivery verifies with the new secret')
    t.match(verifies(firstSecret, second), { type: 'webhook.ping' }, 'and, for the grace period, with the old one')

    await webhooks.getByRole('button', { name: `Delete the webhook to ${receiver.url}` }).click()
    t.match(
      await confirm.getByRole('heading').textContent(),
      `Delete the webhook to ${receiver.url}?`,
      'the deletion asks first, naming the address',
    )
    await confirm.getByRole('button', { name: 'Delete the webhook' }).click()
    await page.locator('#status', { hasText: `Deleted the webhook to ${receiver.url}` }).waitFor()
    await page.locator('#webhook-list li').waitFor({ state: 'detached' })
    t.ok(await page.locator('#no-webhooks').isVisible(), 'the panel lists no webhook')
    t.notOk(await page.locator('#webhook-secret').isVisible(), 'nor the deleted webhook’s secret')
    const listed = await app.inject({
      url: `/v1/campaigns/${campaignId}/webhooks`,
      headers: { authorization: `Bearer ${gmKey}` },
    })
    t.same(listed.json().data, [], 'the API lists none')
    await accessible(t, page, 'the webhooks panel after a deletion')
    t.same(problems, [], 'no script errors')
  },
)
