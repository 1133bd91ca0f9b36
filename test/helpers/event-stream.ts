/** Reading `text/event-stream` answers over a real socket, as a browser does. */

export interface Message {
  id: number
  event: string
  /** An event, or why the stream ended (`ended`, `reason`) in its last message. */
  data: { id: string; seq: number; type: string; visibility: string; ended?: string; reason?: string }
}

/** An open `text/event-stream`: read messages one at a time, with a deadline. */
export class Stream {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>
  readonly #decoder = new TextDecoder()
  #buffer = ''
  #ended = false

  constructor(
    readonly response: Response,
    private readonly controller: AbortController,
  ) {
    this.#reader = response.body!.getReader()
  }

  /**
   * The next message (comments such as `: connected` skipped), or null when the stream ends
   * first. The deadline only stops a test that would otherwise hang: a loaded CI machine may be slow.
   */
  async next(timeoutMs = 60_000): Promise<Message | null> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const boundary = this.#buffer.indexOf('\n\n')
      if (boundary >= 0) {
        const block = this.#buffer.slice(0, boundary)
        this.#buffer = this.#buffer.slice(boundary + 2)
        const message = parse(block)
        if (message) return message
        continue
      }
      if (this.#ended) return null
      let timer: NodeJS.Timeout | undefined
      const chunk = await Promise.race([
        this.#reader.read(),
        new Promise<'timeout'>(
          (resolve) => (timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()))),
        ),
      ])
      // A timer left running would keep the test's process alive for its whole deadline.
      clearTimeout(timer)
      if (chunk === 'timeout') throw new Error(`no message within ${timeoutMs} ms (buffer: ${this.#buffer})`)
      if (chunk.done) this.#ended = true
      else this.#buffer += this.#decoder.decode(chunk.value, { stream: true })
    }
  }

  /** Waits for the `: connected` comment, so events recorded afterwards are surely seen live. */
  async connected(): Promise<void> {
    while (!this.#buffer.includes(': connected\n\n')) {
      const chunk = await this.#reader.read()
      if (chunk.done) throw new Error('the stream ended before it was connected')
      this.#buffer += this.#decoder.decode(chunk.value, { stream: true })
    }
    this.#buffer = this.#buffer.replace(': connected\n\n', '')
  }

  close() {
    this.controller.abort()
  }
}

function parse(block: string): Message | null {
  const fields: Record<string, string> = {}
  for (const line of block.split('\n')) {
    if (line.startsWith(':') || line === '') continue
    const colon = line.indexOf(':')
    fields[line.slice(0, colon)] = line.slice(colon + 1).trimStart()
  }
  if (fields.data === undefined) return null
  return { id: Number(fields.id), event: fields.event ?? 'message', data: JSON.parse(fields.data) }
}

/** The text of a stream at `url` as sent, until it holds `count` messages with data (or 30 s passed, or it ended). */
export async function rawStream(url: string, headers: Record<string, string>, count: number): Promise<string> {
  const controller = new AbortController()
  const res = await fetch(url, { headers, signal: controller.signal })
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const deadline = Date.now() + 30_000
  while ((text.match(/^data: /gm) ?? []).length < count && Date.now() < deadline) {
    const chunk = await reader.read()
    if (chunk.done) break
    text += decoder.decode(chunk.value, { stream: true })
  }
  controller.abort()
  return text
}
