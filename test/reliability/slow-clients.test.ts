import t from 'tap'
import { connect, type Socket } from 'node:net'
import { createCampaign, createCharacter } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { act, created, type Ids } from '../helpers/commands.js'

/** Deadlines a few hundred milliseconds long, so a test sees them pass. */
const SHORT_TIMEOUTS = { REQUEST_TIMEOUT_MS: '600', HEADERS_TIMEOUT_MS: '300' }

const app = await buildTestApp(t, SHORT_TIMEOUTS)
const address = new URL(await app.listen({ port: 0, host: '127.0.0.1' }))

interface Trickle {
  /** Everything the server sent before it closed the connection. */
  answer: Promise<string>
}

/**
 * A client that sends `head`, then `tail` one byte at a time, one byte per `paceMs`, and never
 * stops on its own: only the server closing the connection ends it.
 */
function trickle(head: string, tail: string, paceMs = 100): Trickle {
  const socket: Socket = connect(Number(address.port), address.hostname)
  let received = ''
  let sent = 0
  const timer = setInterval(() => {
    if (socket.writable) socket.write(tail[sent++ % tail.length]!)
  }, paceMs)
  socket.on('connect', () => socket.write(head))
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()))
  socket.on('error', () => {})
  const answer = new Promise<string>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer)
      resolve(received)
    }),
  )
  return { answer }
}

const body = JSON.stringify({ sheet: {}, request: { pressure: 2 } })

t.test('a client sending its body a byte at a time gets 408 and the connection is closed', async (t) => {
  const slow = trickle(
    `POST /v1/resolve/shock-meters/stress-check HTTP/1.1\r\nHost: ${address.host}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`,
    body,
  )
  const answer = await slow.answer
  t.match(answer, /^HTTP\/1\.1 408 /, 'the answer is 408 Request Timeout')
})

t.test('a client sending its headers a byte at a time gets 408 and the connection is closed', async (t) => {
  const slow = trickle('GET /health/live HTTP/1.1\r\n', `X-Padding: ${'a'.repeat(1000)}\r\n`)
  const answer = await slow.answer
  t.match(answer, /^HTTP\/1\.1 408 /, 'the answer is 408 Request Timeout')
})

t.test('an event stream stays open past the request timeout, which covers receiving the request only', async (t) => {
  const campaign = await createCampaign(app, 'reaction-rolls')
  const { character } = await createCharacter(app, campaign.campaign, campaign.auth)
  const ids: Ids = { campaignId: campaign.campaign.id, characterId: character.id }
  const controller = new AbortController()
  t.teardown(() => controller.abort())
  const stream = await fetch(`${address.origin}/v1/campaigns/${ids.campaignId}/events/stream`, {
    headers: campaign.auth,
    signal: controller.signal,
  })
  const reader = stream.body!.getReader()
  let text = new TextDecoder().decode((await reader.read()).value)
  t.match(text, ': connected', 'the stream is open')

  // A slow client that started after the stream was opened has run out of time, so the
  // stream's own request deadline has passed too, and the server has checked it.
  t.match(await trickle('GET /health/live HTTP/1.1\r\n', 'X').answer, /^HTTP\/1\.1 408 /, 'the deadline passed')

  const { event } = created(
    await act(app, campaign.auth, ids, 'reaction-roll', { request: { pressure: 4, resist: false } }),
    'a roll',
  )
  while (!text.includes(`id: ${event.seq}\n`)) {
    const chunk = await reader.read()
    if (chunk.done) break
    text += new TextDecoder().decode(chunk.value)
  }
  t.match(text, `id: ${event.seq}\n`, 'a roll made after the deadline still arrives on the stream')
})
