import { createServer } from 'node:http'
import t from 'tap'
import { createCampaign, createCharacter } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { chromiumMissing, launchBrowser, listen } from '../helpers/browser.js'
import { act, created, type Ids } from '../helpers/commands.js'

// These run inside Chromium (page.evaluate); the project's type check has no DOM library.
declare const window: { received: { type: string; id: string }[]; streamOpen: boolean }
declare class EventSource {
  constructor(url: string)
  onopen: (() => void) | null
  addEventListener(type: string, listener: (message: { data: string; lastEventId: string }) => void): void
}

/** A VTT's page: another origin than the API's, as Foundry's `http://localhost:30000` is. */
async function serveVttPage(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end('<!doctype html><html><head><title>A VTT</title></head><body><main>Table</main></body></html>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('the page server is not on a TCP port')
  return `http://127.0.0.1:${address.port}`
}

t.test(
  'a page on another origin rolls with fetch and its key, and follows the events with EventSource and a ticket',
  { skip: chromiumMissing, timeout: 120_000 },
  async (t) => {
    const app = await buildTestApp(t)
    const api = await listen(app)
    const vtt = await serveVttPage(t)
    t.not(new URL(api).origin, new URL(vtt).origin, 'the page and the API are different origins')

    const campaign = await createCampaign(app, 'reaction-rolls')
    const { character } = await createCharacter(app, campaign.campaign, campaign.auth)
    const ids: Ids = { campaignId: campaign.campaign.id, characterId: character.id }

    const { page } = await launchBrowser(t)
    const pageErrors: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(vtt)

    const roll = await page.evaluate(
      async ({ api, key, ids }) => {
        const response = await fetch(
          `${api}/v1/campaigns/${ids.campaignId}/characters/${ids.characterId}/reaction-roll`,
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${key}`,
              'content-type': 'application/json',
              'idempotency-key': 'vtt-roll-1',
            },
            body: JSON.stringify({ request: { pressure: 4, resist: false } }),
          },
        )
        return {
          status: response.status,
          replayed: response.headers.get('idempotent-replayed'),
          requestId: response.headers.get('x-request-id'),
          body: (await response.json()) as { event: { type: string } },
        }
      },
      { api, key: campaign.gmKey.key, ids },
    )
    t.equal(roll.status, 201, 'the cross-origin roll, preflighted for its Authorization header, is recorded')
    t.equal(roll.body.event.type, 'reaction-roll', 'the page reads the event')
    t.equal(roll.replayed, 'false', 'and the exposed Idempotent-Replayed header')
    t.match(roll.requestId, /^[0-9a-f-]{36}$/, 'and the exposed x-request-id header')

    await page.evaluate(
      async ({ api, key, campaignId }) => {
        const minted = await fetch(`${api}/v1/campaigns/${campaignId}/events/stream-tickets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}` },
        })
        const { url } = (await minted.json()) as { url: string }
        window.received = []
        window.streamOpen = false
        const source = new EventSource(url)
        source.onopen = () => {
          window.streamOpen = true
        }
        source.addEventListener('reaction-roll', (message) => {
          window.received.push({ type: 'reaction-roll', id: JSON.parse(message.data).id })
        })
      },
      { api, key: campaign.gmKey.key, campaignId: ids.campaignId },
    )
    await page.waitForFunction(() => window.streamOpen)

    const live = created(
      await act(app, campaign.auth, ids, 'reaction-roll', { request: { pressure: 6, resist: false } }),
      'a roll made elsewhere',
    )
    await page.waitForFunction(() => window.received.length > 0)
    t.same(
      await page.evaluate(() => window.received),
      [{ type: 'reaction-roll', id: live.event.id }],
      'the roll arrives live in the page through EventSource, with no key in its URL',
    )
    t.same(pageErrors, [], 'the page raised no errors')
  },
)
