import t, { type Test } from 'tap'
import type { Locator } from 'playwright-core'
import { buildTestApp } from '../helpers/build-app.js'
import { chromiumMissing, launchBrowser, listen, SWAGGER_UI_WAIT } from '../helpers/browser.js'

// The whole file may take minutes on a busy machine (package.json gives a file 5).
t.setTimeout(SWAGGER_UI_WAIT.file)

// These run inside Chromium (page.evaluate); the project's type check has no DOM library.
declare const window: any

/** Nerve, and Swagger UI on its /docs in a fresh Chromium, waiting as Swagger UI needs. */
async function openDocs(t: Test) {
  const app = await buildTestApp(t)
  const base = await listen(app)
  const { page } = await launchBrowser(t)
  page.setDefaultTimeout(SWAGGER_UI_WAIT.action)
  await page.goto(`${base}/docs`)
  return page
}

/**
 * The document's unions (a character by rule set, an event by type: src/schemas/typed.ts) as
 * Swagger UI draws them: the example of an answer is a whole character and a whole event, not
 * an empty object, and the schema view names the branches. Swagger UI draws an event's example
 * from the schema of its first type, a stress check, and leaves `type` out of it (it looks the
 * value up in the discriminator's mapping by the union's name); a character's example is given
 * whole. Opening an operation resolves its union then: a few seconds with Nerve's resolver
 * (public/docs/swagger-resolve.js), up to 16 s with Swagger UI's own on a busy machine.
 */
t.test(
  'Swagger UI shows a character and an event of the typed unions',
  { skip: chromiumMissing, timeout: SWAGGER_UI_WAIT.file },
  async (t) => {
    const page = await openDocs(t)

    async function exampleOf(tag: string, operationId: string): Promise<{ block: Locator; example: unknown }> {
      const block = page.locator(`[id="operations-${tag}-${operationId}"]`)
      await block.locator('.opblock-summary-control').click({ timeout: SWAGGER_UI_WAIT.action })
      const response = block.locator('tr.response[data-code="200"]')
      const code = response.locator('.example.microlight, .highlight-code pre').first()
      await code.waitFor({ timeout: SWAGGER_UI_WAIT.action })
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
    await schema.waitFor({ timeout: SWAGGER_UI_WAIT.action })
    t.match(await schema.textContent(), /Character/, 'the schema view names it')
  },
)

/**
 * public/docs/swagger-resolve.js hands Swagger UI's resolver the document labelled OpenAPI 3.0,
 * which resolves an operation's subtree alone instead of the whole document. It must give the
 * same tree as swagger-client's 3.1 resolution: two Swagger UI systems on the page, one plain
 * and one with the plugin, resolve the same operations, the resolvers' notes aside. Swagger UI's own 3.1 resolution takes seconds per operation, hence
 * two operations: an event and a character, each a union.
 */
const RESOLVER_NOTES = [
  // Where a resolved part came from.
  '$$ref',
  // The 3.0 strategy's copy of an operation's id, for Swagger UI's deep links (equal to it here).
  '__originalOperationId',
]

t.test(
  'Swagger UI resolves operations to the same tree with the quick resolver',
  { skip: chromiumMissing, timeout: SWAGGER_UI_WAIT.file },
  async (t) => {
    const page = await openDocs(t)
    await page.waitForFunction(() => typeof window.NerveQuickResolve === 'function')

    const paths = [
      ['paths', '/v1/campaigns/{campaignId}/events/{eventId}', 'get'],
      ['paths', '/v1/campaigns/{campaignId}/characters/{characterId}', 'get'],
    ]
    // No named functions in here: the test's compiler would wrap them in a helper the page lacks.
    const compared = await page.evaluate(
      async ([paths, NOTES]) => {
        const spec = await (await fetch('/docs/json')).json()
        const [plain, quick] = [[], [window.NerveQuickResolve]].map((plugins) =>
          window.SwaggerUIBundle({ spec, dom_id: null, presets: [window.SwaggerUIBundle.presets.apis], plugins }),
        )
        const results = []
        for (const path of paths) {
          const answers = [await plain.fn.resolveSubtree(spec, path, {}), await quick.fn.resolveSubtree(spec, path, {})]
          const [asIs, quickly] = answers.map((answer) =>
            JSON.stringify(answer.spec, (key, value) => (NOTES.includes(key) ? undefined : value)),
          )
          results.push({
            path: path.join(' '),
            same: asIs === quickly,
            size: quickly?.length ?? 0,
            errors: answers[0].errors.length + answers[1].errors.length,
          })
        }
        return results
      },
      [paths, RESOLVER_NOTES] as const,
    )

    for (const { path, same, size, errors } of compared) {
      t.ok(same, `${path}: the same tree both ways`)
      t.ok(size > 10_000, `${path}: resolved in full (${size} characters)`)
      t.equal(errors, 0, `${path}: no resolver errors`)
    }
  },
)
