import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { EventFeed } from '../../history/feed.js'

declare module 'fastify' {
  interface FastifyInstance {
    eventFeed: EventFeed
  }
}

export default fp(
  async function eventFeed(app: FastifyInstance) {
    app.decorate('eventFeed', new EventFeed())
  },
  { name: 'event-feed' },
)
