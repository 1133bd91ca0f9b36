import t from 'tap'
import http from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { createCampaign, createCharacter } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { act, created } from '../helpers/commands.js'

const app = await buildTestApp(t)
const address = await app.listen({ port: 0, host: '127.0.0.1' })

const decoders: Record<string, (body: Buffer) => Buffer> = { gzip: gunzipSync, br: brotliDecompressSync }

t.test('the API document comes compressed on request, gzip or br, and reads the same', async (t) => {
  const plain = await app.inject({ url: '/docs/json' })
  t.notOk(plain.headers['content-encoding'], 'not compressed when the client does not ask')
  for (const encoding of ['gzip', 'br']) {
    const res = await app.inject({ url: '/docs/json', headers: { 'accept-encoding': encoding } })
    t.equal(res.headers['content-encoding'], encoding, `${encoding} when asked`)
    t.match(res.headers.vary, /accept-encoding/i, 'Vary: Accept-Encoding, for caches')
    const body = decoders[encoding]!(res.rawPayload)
    t.same(JSON.parse(body.toString('utf8')), plain.json(), 'the same document')
    t.ok(res.rawPayload.length * 5 < plain.rawPayload.length, `${encoding}: under a fifth of the bytes`)
  }
})

t.test('history pages and exports are compressed; small answers are not', async (t) => {
  const { campaign, auth } = await createCampaign(app, 'reaction-rolls')
  const { character } = await createCharacter(app, campaign, auth)
  for (let i = 0; i < 3; i++) {
    created(
      await act(app, auth, { campaignId: campaign.id, characterId: character.id }, 'reaction-roll', {
        request: { pressure: 4, resist: false },
      }),
      'a roll',
    )
  }
  const gzip = { ...auth, 'accept-encoding': 'gzip' }

  const page = await app.inject({ url: `/v1/campaigns/${campaign.id}/events`, headers: gzip })
  t.equal(page.headers['content-encoding'], 'gzip', 'a history page is compressed')
  const plainPage = await app.inject({ url: `/v1/campaigns/${campaign.id}/events`, headers: auth })
  t.same(JSON.parse(gunzipSync(page.rawPayload).toString('utf8')), plainPage.json(), 'and reads the same')

  const archive = await app.inject({ url: `/v1/campaigns/${campaign.id}/export`, headers: gzip })
  t.equal(archive.headers['content-encoding'], 'gzip', 'an export is compressed')
  const plainArchive = await app.inject({ url: `/v1/campaigns/${campaign.id}/export`, headers: auth })
  const lines = (text: string) =>
    text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string })
  const unzipped = lines(gunzipSync(archive.rawPayload).toString('utf8'))
  t.equal(unzipped.length, lines(plainArchive.body).length, 'every line of the archive')
  t.equal(unzipped.filter((line) => line.kind === 'event').length, 4, 'the four events among them')

  const live = await app.inject({ url: '/health/live', headers: gzip })
  t.notOk(live.headers['content-encoding'], 'an answer under 1 KiB is sent as it is')
})

t.test('the event stream is never compressed, so every message arrives as it is written', async (t) => {
  const { campaign, auth } = await createCampaign(app, 'reaction-rolls')
  const { character } = await createCharacter(app, campaign, auth)
  const url = new URL(`/v1/campaigns/${campaign.id}/events/stream`, address)
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get(url, { headers: { ...auth, 'accept-encoding': 'gzip, br' } }, resolve).on('error', reject)
  })
  t.teardown(() => response.destroy())
  t.equal(response.statusCode, 200, 'open')
  t.notOk(response.headers['content-encoding'], 'no Content-Encoding although the client accepts gzip and br')
  response.setEncoding('utf8')
  let text = ''
  const arrived = (needle: string) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (text.includes(needle)) {
          response.off('data', onData)
          resolve()
        }
      }
      const onData = (chunk: string) => {
        text += chunk
        check()
      }
      response.on('data', onData)
      check()
    })
  await arrived(': connected')
  const roll = created(
    await act(app, auth, { campaignId: campaign.id, characterId: character.id }, 'reaction-roll', {
      request: { pressure: 4, resist: false },
    }),
    'a roll',
  )
  await arrived(`"id":"${roll.event.id}"`)
  t.pass('the roll’s message arrived in plain text')
})
