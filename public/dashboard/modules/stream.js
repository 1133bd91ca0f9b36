// @ts-check
import { followCampaignUpdate } from './campaign-title.js'
import { $ } from './dom.js'
import { setStatus } from './status.js'
import { lastSeq, onEvent } from './feed.js'
import { campaignPath, session } from './session.js'
import { extendTimeline } from './timeline.js'

const RECONNECT_MS = [1000, 2000, 5000, 10000]

export function setStreamState(value) {
  const element = $('stream-state')
  element.dataset.state = value
  element.textContent = value
}

/** Splits a text/event-stream into messages: blank line ends one; `:` lines are comments. */
function parseMessages(buffer, onMessage) {
  const blocks = buffer.split(/\r\n\r\n|\n\n|\r\r/)
  const rest = blocks.pop() ?? ''
  for (const block of blocks) {
    const message = { id: null, event: 'message', data: [] }
    for (const line of block.split(/\r\n|\n|\r/)) {
      if (line === '' || line.startsWith(':')) continue
      const colon = line.indexOf(':')
      const field = colon === -1 ? line : line.slice(0, colon)
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
      if (field === 'data') message.data.push(value)
      else if (field === 'id') message.id = value
      else if (field === 'event') message.event = value
    }
    if (message.data.length) onMessage({ ...message, data: message.data.join('\n') })
  }
  return rest
}

export async function follow(signal) {
  let attempt = 0
  while (!signal.aborted) {
    setStreamState(attempt === 0 ? 'connecting' : 'reconnecting')
    try {
      const response = await fetch(`${campaignPath()}/events/stream`, {
        headers: {
          accept: 'text/event-stream',
          authorization: `Bearer ${session.key}`,
          'last-event-id': String(lastSeq),
        },
        cache: 'no-store',
        signal,
      })
      if (response.status === 401 || response.status === 404) {
        setStreamState('off')
        setStatus('The live feed was refused: the key is no longer valid for this campaign.', true)
        return
      }
      if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`)
      setStreamState('live')
      attempt = 0
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
      let buffer = ''
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        buffer = parseMessages(buffer + value, (message) => {
          const event = JSON.parse(message.data)
          onEvent(event)
          extendTimeline(event)
          followCampaignUpdate(event)
        })
      }
    } catch {
      if (signal.aborted) return
    }
    attempt += 1
    setStreamState('reconnecting')
    const delay = RECONNECT_MS[Math.min(attempt - 1, RECONNECT_MS.length - 1)]
    await new Promise((resolve) => setTimeout(resolve, delay))
  }
}
