import underPressure from '@fastify/under-pressure'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { ServiceUnavailableError } from '../../errors.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: answered even when the process is overloaded (liveness, the metrics scrape). */
    loadShedding?: false
  }
}

interface LoadSheddingOptions {
  /** Mean event-loop delay (ms) over a sample above which requests are refused; 0 turns the check off. */
  maxEventLoopDelayMs: number
  /** V8 heap in use (bytes) above which requests are refused; 0 turns the check off. */
  maxHeapUsedBytes: number
  sampleIntervalMs: number
}

const RETRY_AFTER_SECONDS = 10

const REASONS: Record<string, string> = {
  eventLoopDelay: 'its event loop is lagging',
  heapUsedBytes: 'its memory is nearly exhausted',
}

/**
 * Load shedding: while the process is saturated it answers 503 problem details with
 * `Retry-After` at once, instead of queueing work it cannot finish in time. `/health/ready`
 * is shed too, so a load balancer sends traffic elsewhere until the pressure passes.
 */
export default fp<LoadSheddingOptions>(
  async function loadShedding(app: FastifyInstance, options) {
    if (options.maxEventLoopDelayMs === 0 && options.maxHeapUsedBytes === 0) return
    // The first samples measure the start itself (opening the embedded database, compiling
    // schemas), which blocks the event loop for seconds; that is not load, so shed nothing
    // until a sample taken wholly after the app was ready.
    let shedFrom = Infinity
    app.addHook('onReady', async () => {
      shedFrom = Date.now() + 2 * options.sampleIntervalMs
    })
    await app.register(underPressure, {
      maxEventLoopDelay: options.maxEventLoopDelayMs,
      maxHeapUsedBytes: options.maxHeapUsedBytes,
      sampleInterval: options.sampleIntervalMs,
      // Returning a rejected promise hands the error to the problem-details handler.
      pressureHandler: async (request, reply, type) => {
        if (request.routeOptions.config.loadShedding === false || Date.now() < shedFrom) return
        reply.header('retry-after', RETRY_AFTER_SECONDS)
        throw new ServiceUnavailableError(
          `the service is overloaded (${REASONS[type] ?? type}); retry in ${RETRY_AFTER_SECONDS} s`,
        )
      },
    })
  },
  { name: 'load-shedding' },
)
