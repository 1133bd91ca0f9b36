// @ts-check
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { parentPort, workerData } from 'node:worker_threads'

// A webhook consumer on its own thread for bench/webhook-client-cpu.ts: reads each request's
// body, answers 204 (or `status` with `responseBytes` of body), and counts requests and the TCP
// connections they came on. Asked 'stats', it reports those counts and its own thread's CPU
// time, so the client's CPU can be told apart from the receiver's in one process.
const { port, status = 204, responseBytes = 0 } = workerData
const responseBody = 'x'.repeat(responseBytes)
let requests = 0
let connections = 0

/** This thread's user + system CPU time in µs (/proc/thread-self/stat, clock ticks of 10 ms). */
function threadCpuMicros() {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // Fields 14 and 15 of stat(5), counted from the state (field 3).
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

const server = createServer((request, response) => {
  request.resume()
  request.on('end', () => {
    requests++
    if (responseBytes > 0) response.writeHead(status, { 'content-type': 'text/plain' }).end(responseBody)
    else response.writeHead(status).end()
  })
})
server.on('connection', () => connections++)
server.keepAliveTimeout = 60_000
parentPort?.on('message', (message) => {
  if (message === 'stats') parentPort?.postMessage({ requests, connections, cpuMicros: threadCpuMicros() })
  if (message === 'close') {
    server.closeAllConnections()
    server.close(() => parentPort?.postMessage('closed'))
  }
})
server.listen(port, '127.0.0.1', () => parentPort?.postMessage('listening'))
