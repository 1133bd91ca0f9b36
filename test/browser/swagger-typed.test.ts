import t from 'tap'
import type { Locator } from 'playwright-core'
import { buildTestApp } from '../helpers/build-app.js'
import { chromiumMissing, launchBrowser, listen } from '../helpers/browser.js'

/**
 * The document's unions (a character by rule set, an event by type: src/schemas/typed.ts) as
 * Swagger UI draws them: the example of an answer is a whole character and a whole event, not
 * an empty object, and the schema view names the branches. Swagger UI draws an event's example
 * from the schema of its first type, a stress check, and leaves `type` out of it (it looks the
 * value up in the discriminator's mapping by the union's name); a character's example is given
 * whole. Opening an operation takes seconds: its union is resolved then, on a busy machine up to
 * 15 s for an event.
 */
t.test('Swagger UI shows a character and an event of the typed unions', { skip: chromiumMissing }, async (t) => {
  const app = await buildTestApp(t)
  const base = await listen(app)
  const { page } = await launchBrowser(t)
  await page.goto(`${base}/docs`)

  async function exampleOf(tag: string, operationId: string): Promise<{ block: Locator; example: unknown }> {
    const block = page.locator(`[id="operations-${tag}-${operationId}"]`)
    await block.locator('.opblock-summary-control').click({ timeout: 120_000 })
    const response = block.locator('tr.response[data-code="200"]')
    const code = response.locator('.example.microlight, .highlight-code pre').first()
    await code.waitFor({ timeout: 120_000 })
    return { block, example: JSON.parse((await code.textContent()) ?? 'null') }
  }

  const character = await exampleOf('Characters', 'getCharacter')
  t.match(
    character.example,
    { ruleset: 'shock-meters', sheet: { meters: { violence: { hardened: Number, failed: Number } } } },
    'the character example is a shock-meters character with its sheet',
  )
  const event = await exampleOf('History', 'getEvent')
  t.match(
    event.example,
    {
      ruleset: 'shock-meters',
      request: { meter: String, rank: Number },
      outcome: { result: String },
      sheetAfter: { meters: { violence: { hardened: Number, failed: Number } } },
    },
    'the event example is a stress check, with its request, outcome and sheets',
  )

  await character.block.locator('tr.response[data-code="200"]').getByRole('tab', { name: 'Schema' }).click()
  const schema = character.block.locator('tr.response[data-code="200"] .model-box').first()
  await schema.waitFor({ timeout: 120_000 })
  t.match(await schema.textContent(), /Character/, 'the schema view names it')
})
