import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { WebhookDispatcher, type DispatcherOptions } from '../../webhooks/dispatcher.js'
import { DELIVERY_DUE_CHANNEL } from '../../webhooks/repository.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** Wakes this instance's dispatcher when deliveries were queued; a no-op when it is off. */
    webhookDispatcher: { wake(): void }
  }
}

interface WebhookDispatcherPluginOptions {
  /** Off when the outbox is drained elsewhere (`npm run worker`). */
  enabled: boolean
  options: Omit<DispatcherOptions, 'releaseLeasesOnStart'>
}

/** Runs the webhook dispatcher inside the service: started once the app is ready, stopped before the database closes. */
export default fp<WebhookDispatcherPluginOptions>(
  async function webhookDispatcher(app: FastifyInstance, { enabled, options }) {
    if (!enabled) {
      app.decorate('webhookDispatcher', { wake() {} })
      return
    }
    // Woken by this instance's own events at once, and by other instances' commits through LISTEN.
    const dispatcher = new WebhookDispatcher(
      app.store,
      app.log.child({ component: 'webhook-dispatcher' }),
      { ...options, releaseLeasesOnStart: app.db.engine === 'pglite' },
      (onCommit) => app.db.listen(DELIVERY_DUE_CHANNEL, onCommit),
    )
    app.decorate('webhookDispatcher', dispatcher)
    const unsubscribe = app.eventFeed.subscribe('*', () => dispatcher.wake())
    app.addHook('onReady', async () => dispatcher.start())
    app.addHook('onClose', async () => {
      unsubscribe()
      await dispatcher.stop()
    })
  },
  { name: 'webhook-dispatcher', dependencies: ['database', 'store', 'event-feed'] },
)
