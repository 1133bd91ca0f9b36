import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { createStore, type Store } from '../../repositories/index.js'

declare module 'fastify' {
  interface FastifyInstance {
    store: Store
  }
}

/** The repositories, over the database: the one place data is read and written. */
export default fp(
  async function store(app: FastifyInstance) {
    app.decorate('store', createStore(app.db))
  },
  { name: 'store', dependencies: ['database'] },
)
