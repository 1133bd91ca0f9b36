// @ts-check
import { createServer } from 'node:http'
import { parentPort, workerData } from 'node:worker_threads'

// The receiver answers on its own thread, so a delivery's 2xx never waits behind the load
// generator that shares the benchmark's process: what is measured is Nerve's delivery.
const { port } = workerData
/** @type {import('./receiver.js').Arrival[]} */
let pending = []
let flushing = false

function flush() {
  flushing = false
  parentPort.postMessage(pending)
  pending = []
}

const server = createServer((request, response) => {
  /** @type {Buffer[]} */
  const chunks = []
  request.on('data', (chunk) => chunks.push(chunk))
  request.on('end', () => {
    const at = Date.now()
    const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    const occurredAt = Date.parse(timestamp)
    response.writeHead(204).end()
    pending.push({
      path: request.url ?? '',
      id: String(request.headers['webhook-id']),
      at,
      occurredAt,
      lag: at - occurredAt,
    })
    if (!flushing) {
      flushing = true
      setTimeout(flush, 10)
    }
  })
})
server.keepAliveTimeout = 60_000
parentPort.on('message', (message) => {
  if (message === 'close') server.close(() => parentPort.postMessage('closed'))
})
server.listen(port, '127.0.0.1', () => parentPort.postMessage('listening'))
