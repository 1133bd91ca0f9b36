import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'

/** One POST as the receiver saw it: the raw body, exactly as a consumer must verify it. */
export interface ReceivedWebhook {
  /** The request path, which tells endpoints sharing one receiver apart. */
  path: string
  id: string
  timestamp: string
  signature: string
  headers: IncomingHttpHeaders
  body: string
  payload: { type: string; timestamp: string; data: Record<string, unknown> & { id?: string; seq?: number } }
}

interface Answer {
  status: number
  headers?: Record<string, string>
  body?: string
  /** Hold the answer back this long. */
  delayMs?: number
}

export interface ReceiverOptions {
  /** Listen on this port (to come back up where a previous receiver was). */
  port?: number
  /** What to answer to the nth request (0-based); 200 by default. */
  answer?: (request: ReceivedWebhook, index: number) => Answer
  /** Called when a request arrives and when its answer has been sent. */
  onRequest?: (request: ReceivedWebhook) => void
  onAnswered?: (request: ReceivedWebhook) => void
}

interface Teardown {
  teardown(fn: () => unknown): void
}

/** A real HTTP server on 127.0.0.1 standing in for a webhook consumer. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = []
  #server: Server | undefined
  #port: number | undefined
  readonly #options: ReceiverOptions

  constructor(options: ReceiverOptions = {}) {
    this.#options = options
    this.#port = options.port
  }

  get port(): number {
    if (this.#port === undefined) throw new Error('the receiver has not listened yet')
    return this.#port
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`
  }

  async listen(): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8')
        const request: ReceivedWebhook = {
          path: req.url ?? '',
          id: String(req.headers['webhook-id']),
          timestamp: String(req.headers['webhook-timestamp']),
          signature: String(req.headers['webhook-signature']),
          headers: req.headers,
          body,
          payload: JSON.parse(body),
        }
        const index = this.received.length
        this.received.push(request)
        this.#options.onRequest?.(request)
        const answer = this.#options.answer?.(request, index) ?? { status: 200 }
        setTimeout(() => {
          res.writeHead(answer.status, answer.headers).end(answer.body ?? 'ok')
          this.#options.onAnswered?.(request)
        }, answer.delayMs ?? 0)
      })
    })
    server.listen(this.#port ?? 0, '127.0.0.1')
    await once(server, 'listening')
    this.#port = (server.address() as AddressInfo).port
    this.#server = server
    return this
  }

  async close(): Promise<void> {
    const server = this.#server
    this.#server = undefined
    if (!server) return
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }

  /** Waits until the condition holds; fails the test with what was received if it never does. */
  async waitFor(what: string, condition: (received: ReceivedWebhook[]) => boolean, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs
    while (!condition(this.received)) {
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${what}; received ${this.received.length} webhooks`)
      }
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  /** Unique event ids received (a webhook may arrive more than once). */
  eventIds(): Set<string> {
    return new Set(this.received.map((request) => String(request.payload.data.id)))
  }
}

export async function startReceiver(t: Teardown, options: ReceiverOptions = {}): Promise<WebhookReceiver> {
  const receiver = new WebhookReceiver(options)
  t.teardown(() => receiver.close())
  return receiver.listen()
}

/** A port nothing listens on (yet): for a receiver that is down. */
export async function unusedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Polls until the condition holds, or fails with a message. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: last saw ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
