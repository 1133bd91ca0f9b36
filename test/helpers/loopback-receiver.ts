import type { Test } from 'tap'
import { createServer, type RequestListener } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo, Socket } from 'node:net'
import { createAgents } from '../../src/webhooks/http-client.js'

/**
 * A real receiver on 127.0.0.1 that keeps the connections it was sent on, and the webhook
 * client's agents to post to it: both closed with the test.
 */
export async function loopbackReceiver(t: Test, handler: RequestListener) {
  const server = createServer(handler).listen(0, '127.0.0.1')
  const sockets: Socket[] = []
  server.on('connection', (socket: Socket) => sockets.push(socket))
  await once(server, 'listening')
  t.teardown(() => {
    server.closeAllConnections()
    server.close()
  })
  const agents = createAgents()
  t.teardown(() => agents.close())
  const { port } = server.address() as AddressInfo
  return { port, url: `http://127.0.0.1:${port}`, agents, sockets }
}
