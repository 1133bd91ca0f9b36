import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { WebhookRepository } from '../../webhooks/repository.js'

interface Metrics {
  readonly enabled: boolean
  /** Counts the event in a command's answer; called once per command carried out, never for a replay. */
  eventRecorded(answer: unknown): void
  /** The Prometheus text exposition of every metric. */
  render(): Promise<{ contentType: string; body: string }>
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics
  }
}

const DISABLED: Metrics = {
  enabled: false,
  eventRecorded() {},
  async render() {
    throw new Error('metrics are disabled')
  },
}

/** Label values come from the rules' own outcome words; anything else is folded so the series stay few. */
function labelValue(value: unknown): string {
  return typeof value === 'string' && /^[a-z0-9.-]{1,40}$/.test(value) ? value : 'other'
}

/**
 * The word an outcome is known by: a reaction roll's verdict, a stress check's result, the
 * trauma-table row reached; `none` for events without one (GM actions, edits).
 */
export function outcomeOf(outcome: unknown): string {
  if (outcome === null || typeof outcome !== 'object') return 'none'
  const fields = outcome as Record<string, unknown>
  if (typeof fields.verdict === 'string') return labelValue(fields.verdict)
  if (typeof fields.result === 'string') return labelValue(fields.result)
  const trauma = fields.trauma as { id?: unknown } | null | undefined
  if (trauma !== null && typeof trauma === 'object' && typeof trauma.id === 'string') return labelValue(trauma.id)
  return 'none'
}

type OutboxRow = Awaited<ReturnType<WebhookRepository['outboxFigures']>>[number]

/** Outbox figures change slowly; one query serves every gauge of a scrape. */
const OUTBOX_CACHE_MS = 1_000

/**
 * Prometheus metrics on a registry of this app's own (tests build many apps in one process):
 * HTTP requests by route pattern, events recorded by rule set, type and outcome, the webhook
 * outbox, the connection pool, and Node's process metrics. Off (and free) without METRICS_TOKEN.
 */
export default fp<{ enabled: boolean }>(
  async function metrics(app: FastifyInstance, { enabled }) {
    if (!enabled) {
      app.decorate('metrics', DISABLED)
      return
    }
    const registry = new Registry()
    collectDefaultMetrics({ register: registry })

    const requests = new Histogram({
      name: 'nerve_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status code: count (rate) and latency.',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    })
    app.addHook('onResponse', async (request, reply) => {
      requests.observe(
        // The pattern (`/v1/campaigns/:campaignId`), never the raw URL: ids would make a series each.
        { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: reply.statusCode },
        reply.elapsedTime / 1000,
      )
    })

    const events = new Counter({
      name: 'nerve_events_recorded_total',
      help: 'Events recorded (rolls, settlements, GM actions, edits) by rule set, event type and outcome.',
      labelNames: ['ruleset', 'type', 'outcome'] as const,
      registers: [registry],
    })

    let outbox: { at: number; rows: Promise<OutboxRow[] | null> } | undefined
    const readOutbox = () => {
      if (!outbox || Date.now() - outbox.at > OUTBOX_CACHE_MS) {
        const rows: Promise<OutboxRow[] | null> = app.store.webhooks.outboxFigures().catch((err: unknown) => {
          app.log.warn({ err }, 'metrics: could not read the webhook outbox')
          return null
        })
        outbox = { at: Date.now(), rows }
      }
      return outbox.rows
    }

    new Gauge({
      name: 'nerve_database_up',
      help: '1 when the last metrics query reached the database, 0 when it failed.',
      registers: [registry],
      async collect() {
        this.set((await readOutbox()) === null ? 0 : 1)
      },
    })
    new Gauge({
      name: 'nerve_webhook_outbox_deliveries',
      help: 'Webhook deliveries not yet delivered: pending (queued or waiting for a retry) and delivering (leased to a dispatcher).',
      labelNames: ['status'] as const,
      registers: [registry],
      async collect() {
        const rows = await readOutbox()
        if (rows === null) return
        for (const status of ['pending', 'delivering']) {
          this.set({ status }, rows.find((row) => row.status === status)?.deliveries ?? 0)
        }
      },
    })
    new Gauge({
      name: 'nerve_webhook_outbox_oldest_seconds',
      help: 'Age of the oldest undelivered webhook delivery: the delivery lag (0 when the outbox is empty).',
      registers: [registry],
      async collect() {
        const rows = await readOutbox()
        if (rows === null) return
        this.set(Math.max(0, ...rows.map((row) => row.oldestSeconds ?? 0)))
      },
    })

    if (app.db.poolStats() !== null) {
      new Gauge({
        name: 'nerve_database_pool_connections',
        help: 'PostgreSQL connections of this instance’s pool: total open and idle among them.',
        labelNames: ['state'] as const,
        registers: [registry],
        collect() {
          const stats = app.db.poolStats()
          if (!stats) return
          this.set({ state: 'total' }, stats.total)
          this.set({ state: 'idle' }, stats.idle)
          this.set({ state: 'busy' }, stats.total - stats.idle)
        },
      })
      new Gauge({
        name: 'nerve_database_pool_waiting',
        help: 'Queries of this instance waiting for a free PostgreSQL connection.',
        registers: [registry],
        collect() {
          this.set(app.db.poolStats()?.waiting ?? 0)
        },
      })
    }

    app.decorate('metrics', {
      enabled: true,
      eventRecorded(answer: unknown) {
        const event = (answer as { event?: { ruleset?: unknown; type?: unknown; outcome?: unknown } } | null)?.event
        if (!event) return
        events.inc({
          ruleset: labelValue(event.ruleset),
          type: labelValue(event.type),
          outcome: outcomeOf(event.outcome),
        })
      },
      async render() {
        return { contentType: registry.contentType, body: await registry.metrics() }
      },
    } satisfies Metrics)
  },
  { name: 'metrics', dependencies: ['database', 'store'] },
)
