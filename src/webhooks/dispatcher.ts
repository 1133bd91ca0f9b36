import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config.js'
import { newId } from '../lib/ids.js'
import type { Store } from '../repositories/index.js'
import {
  GM_ONLY_SKIPPED_REASON,
  type ClaimedDelivery,
  type DeliveryToSend,
  type SendingEndpoint,
} from './repository.js'
import { WebhookBodies } from './bodies.js'
import packageJson from '../../package.json' with { type: 'json' }
import { parseRetrySchedule, retryDelay } from './backoff.js'
import { createAgents, isSuccess, postWebhook, type AttemptOutcome } from './http-client.js'
import { signatureHeader } from './signing.js'

export interface DispatcherOptions {
  timeoutMs: number
  /** Waits before each retry; its length is the number of retries. */
  retryScheduleMs: number[]
  /** An endpoint failing for longer than this is disabled. */
  disableAfterMs: number
  pollIntervalMs: number
  /** Endpoints served at once by this dispatcher (each gets one delivery at a time). */
  concurrency: number
  allowPrivate: boolean
  /**
   * Void every lease at start. Only for the embedded PGlite, which no other process can open:
   * whatever was in flight belonged to a previous run of this one.
   */
  releaseLeasesOnStart: boolean
  /** Days a delivered or failed delivery is kept, with its attempts; 0 keeps them forever. */
  retentionDays: number
  /** How often old final deliveries are removed; the first sweep runs shortly after start. */
  retentionSweepMs: number
  /** Deliveries removed per statement, so no sweep holds many locks for long. */
  retentionBatchSize: number
}

/** Calls `onCommit` whenever a transaction that queued a due delivery commits; returns how to stop. */
export type CommitSignal = (onCommit: () => void) => Promise<() => Promise<void>>

/** Retention sweeps run hourly, and once this soon after start (or sooner, when the interval is shorter). */
const RETENTION_SWEEP_MS = 60 * 60 * 1000
const FIRST_RETENTION_SWEEP_MS = 30_000
const RETENTION_BATCH_SIZE = 1_000

export function dispatcherOptions(config: Config): Omit<DispatcherOptions, 'releaseLeasesOnStart'> {
  return {
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    retryScheduleMs: parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE),
    disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS,
    pollIntervalMs: config.WEBHOOK_POLL_INTERVAL_MS,
    concurrency: config.WEBHOOK_CONCURRENCY,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    retentionDays: config.WEBHOOK_RETENTION_DAYS,
    retentionSweepMs: RETENTION_SWEEP_MS,
    retentionBatchSize: RETENTION_BATCH_SIZE,
  }
}

/**
 * Deliveries an endpoint's claim leases at most: one claim serves a run of them, still sent one
 * at a time and in order, so a busy endpoint costs a claim per batch rather than per delivery.
 */
const DELIVERIES_PER_CLAIM = 100

/** A claim's deliveries, one batch per endpoint, each in sending order (as the claim returns them). */
function byEndpoint(claimed: DeliveryToSend[]): DeliveryToSend[][] {
  const batches = new Map<string, DeliveryToSend[]>()
  for (const delivery of claimed) {
    const batch = batches.get(delivery.endpointId)
    if (batch) batch.push(delivery)
    else batches.set(delivery.endpointId, [delivery])
  }
  return [...batches.values()]
}

/** How long a success waits to be settled with others, and how many are settled at most at once. */
const SETTLE_WINDOW_MS = 10
const SETTLED_AT_ONCE = 200

type SettledSuccess = Parameters<Store['webhooks']['settleDelivered']>[0][number]

const USER_AGENT = `Nerve-Webhooks/${packageJson.version}`

/** The secrets to sign with: the current one, and the previous one while its grace period lasts. */
function liveSecrets(endpoint: SendingEndpoint, now: Date): string[] {
  const previous =
    endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now
      ? [endpoint.previousSecret]
      : []
  return [endpoint.secret, ...previous]
}

/**
 * Drains the webhook outbox. Any number of dispatchers (in-process or `npm run worker`) may run
 * against one database: each claims work in one statement that locks endpoint rows with SKIP
 * LOCKED and leases a run of each one's due deliveries, then sends them outside any transaction,
 * one at a time and in event order, settling the successes together. One batch per endpoint at
 * a time keeps each endpoint's deliveries in event order; a delivery waiting for its retry does
 * not hold back the ones after it. A dispatcher is woken by the commits that queue deliveries
 * (`commits`: LISTEN, from any process), by its own settlements and by its retries' timers;
 * its poll is only a fallback.
 */
export class WebhookDispatcher {
  readonly #store: Store
  readonly #log: FastifyBaseLogger
  readonly #options: DispatcherOptions
  /** The lease outlives the attempt's timeout, so it only runs out when its holder is gone. */
  readonly #leaseMs: number
  readonly #agents = createAgents()
  readonly #bodies: WebhookBodies
  readonly #inFlight = new Map<string, Promise<void>>()
  readonly #commits: CommitSignal | undefined
  #unsubscribe: Promise<() => Promise<void>> | undefined
  #loop: Promise<void> | undefined
  #stopping = false
  #woken = false
  #wakeSleep: (() => void) | undefined
  #retryTimer: NodeJS.Timeout | undefined
  #retryAt = Infinity
  #retentionTimer: NodeJS.Timeout | undefined
  #sweeping: Promise<void> | undefined
  /** The last claim found work: more is likely due, so the next one skips the `anyDue` probe. */
  #busy = false
  #settleTimer: NodeJS.Timeout | undefined
  /** Successes waiting to be settled together, within SETTLE_WINDOW_MS. */
  #successes: { success: SettledSuccess; settled: (settled: boolean) => void; failed: (err: unknown) => void }[] = []

  constructor(store: Store, log: FastifyBaseLogger, options: DispatcherOptions, commits?: CommitSignal) {
    this.#store = store
    this.#log = log
    this.#options = options
    this.#commits = commits
    this.#leaseMs = 2 * options.timeoutMs + 5_000
    this.#bodies = new WebhookBodies((ids) => store.webhooks.eventsToSend(ids))
  }

  start(): void {
    if (this.#loop) return
    this.#unsubscribe = this.#commits?.(() => this.wake()).catch((err: unknown) => {
      this.#log.error({ err }, 'could not listen for queued webhook deliveries; polling only')
      return async () => {}
    })
    this.#loop = this.#run()
    if (this.#options.retentionDays > 0) {
      this.#scheduleSweep(Math.min(FIRST_RETENTION_SWEEP_MS, this.#options.retentionSweepMs))
    }
  }

  /** New work may be due (an event was committed, a delivery settled or was queued): look now. */
  wake(): void {
    this.#woken = true
    this.#wakeSleep?.()
  }

  /** Takes no new deliveries, and returns once the attempts in flight have been made and recorded. */
  async stop(): Promise<void> {
    this.#stopping = true
    clearTimeout(this.#retryTimer)
    clearTimeout(this.#retentionTimer)
    this.wake()
    const unsubscribe = await this.#unsubscribe
    await unsubscribe?.()
    await this.#loop
    await this.#sweeping
    await Promise.allSettled(this.#inFlight.values())
    await this.#agents.close()
  }

  async #run(): Promise<void> {
    if (this.#options.releaseLeasesOnStart) await this.#releaseLeftovers()
    while (!this.#stopping) {
      this.#woken = false
      try {
        await this.#claimAndSend()
      } catch (err) {
        this.#log.error({ err }, 'claiming webhook deliveries failed; trying again at the next poll')
      }
      if (this.#stopping) break
      if (!this.#woken) await this.#sleep(this.#options.pollIntervalMs)
    }
  }

  async #releaseLeftovers(): Promise<void> {
    try {
      const released = await this.#store.webhooks.releaseAllLeases()
      if (released > 0) this.#log.info({ released }, 'webhook deliveries left in flight by the last run queued again')
    } catch (err) {
      // Never stops the service from starting: those deliveries go out when their leases run out.
      this.#log.error({ err }, 'could not release the leases of the last run')
    }
  }

  #scheduleSweep(ms: number): void {
    if (this.#stopping) return
    this.#retentionTimer = setTimeout(() => {
      this.#sweeping = this.sweep()
        .then(() => undefined)
        .finally(() => {
          this.#sweeping = undefined
          this.#scheduleSweep(this.#options.retentionSweepMs)
        })
    }, ms)
    this.#retentionTimer.unref()
  }

  /**
   * Retention: removes the deliveries that were delivered or failed for good longer ago than
   * `retentionDays`, with their attempts, a batch per statement until none is left. Every
   * dispatcher sweeps; concurrent sweeps skip each other's rows. Never throws: a failed
   * sweep is logged and the next one tries again. Returns how many rows it removed.
   */
  async sweep(): Promise<{ deliveries: number; attempts: number }> {
    const removed = { deliveries: 0, attempts: 0 }
    const { retentionDays, retentionBatchSize } = this.#options
    if (retentionDays <= 0) return removed
    try {
      while (!this.#stopping) {
        const batch = await this.#store.webhooks.deleteFinalBefore(retentionDays, retentionBatchSize)
        removed.deliveries += batch.deliveries
        removed.attempts += batch.attempts
        if (batch.deliveries < retentionBatchSize) break
      }
    } catch (err) {
      this.#log.error({ err, ...removed }, 'removing old webhook deliveries failed; trying again at the next sweep')
    }
    if (removed.deliveries > 0) {
      this.#log.info({ ...removed, retentionDays }, 'old webhook deliveries and their attempts removed')
    }
    return removed
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.#wakeSleep = undefined
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.#wakeSleep = done
    })
  }

  /** Wakes the loop when the backoff of an endpoint this dispatcher served runs out, if before the next poll. */
  #wakeAt(at: number): void {
    if (this.#stopping || at >= this.#retryAt) return
    clearTimeout(this.#retryTimer)
    this.#retryAt = at
    this.#retryTimer = setTimeout(
      () => {
        this.#retryAt = Infinity
        this.wake()
      },
      Math.max(0, at - Date.now()),
    )
    this.#retryTimer.unref()
  }

  async #claimAndSend(): Promise<void> {
    const free = this.#options.concurrency - this.#inFlight.size
    if (free <= 0) return
    if (!this.#busy && !(await this.#store.webhooks.anyDue())) return
    const leaseId = newId()
    const claimedAt = Date.now()
    // One statement: on PGlite every other query waits while a transaction is open.
    const claimed = await this.#store.webhooks.claimDue(
      free,
      DELIVERIES_PER_CLAIM,
      [...this.#inFlight.keys()],
      leaseId,
      this.#leaseMs,
    )
    this.#busy = claimed.length > 0
    for (const batch of byEndpoint(claimed)) {
      const endpointId = batch[0]!.endpointId
      const sending = this.#deliverInOrder(batch, claimedAt)
        .catch((err: unknown) => {
          // The lease runs out and another attempt follows: at least once, never lost.
          this.#log.error({ err, endpointId }, 'recording a webhook attempt failed')
        })
        .finally(() => {
          this.#inFlight.delete(endpointId)
          if (!this.#stopping) this.wake()
        })
      this.#inFlight.set(endpointId, sending)
    }
  }

  /**
   * Sends an endpoint's batch one delivery at a time, in order, and stops at the first failure
   * (the endpoint then backs off). What was not started is handed back untried, and the endpoint
   * is let go once every success of the batch is settled.
   */
  async #deliverInOrder(batch: DeliveryToSend[], claimedAt: number): Promise<void> {
    const settling: Promise<void>[] = []
    // An attempt starts only while its lease outlasts the attempt's timeout.
    const startBy = claimedAt + this.#options.timeoutMs
    let started = 0
    try {
      await this.#bodies.prefetch(batch)
      for (const delivery of batch) {
        if (this.#stopping || (started > 0 && Date.now() > startBy)) break
        if (started > 0 && !(await this.#mayStillSend(delivery))) break
        started++
        const { delivered, settled } = await this.#deliver(delivery)
        // Handled at once: a settlement can fail (the database gone) while the next delivery is
        // on its way; the run's end reports it, and the lease sends that delivery again.
        settled.catch(() => undefined)
        settling.push(settled)
        if (!delivered) break
      }
    } finally {
      await Promise.all(settling)
      const untried = batch.slice(started)
      await Promise.all(untried.map((delivery) => this.#store.webhooks.release(delivery.id, delivery.leaseId)))
      await this.#store.webhooks.releaseEndpoint(batch[0]!.endpointId, batch[0]!.leaseId)
    }
  }

  /**
   * The claim read the endpoint's settings for the whole batch; a GM-only event later in it
   * is sent only if the endpoint still includes them, read again now.
   */
  async #mayStillSend(delivery: DeliveryToSend): Promise<boolean> {
    if (delivery.eventVisibility !== 'gm' || !delivery.endpoint.includeGmEvents) return true
    return this.#store.webhooks.stillIncludesGmEvents(delivery.endpointId)
  }

  /** One attempt; a success's settlement is returned unawaited, so the batch goes on meanwhile. */
  async #deliver(delivery: DeliveryToSend): Promise<{ delivered: boolean; settled: Promise<void> }> {
    // Decided from the endpoint as the claim read it, not as it was when the event was queued:
    // opting out of GM-only events applies to deliveries already waiting.
    if (delivery.eventVisibility === 'gm' && !delivery.endpoint.includeGmEvents) {
      await this.#skip(delivery, GM_ONLY_SKIPPED_REASON)
      return { delivered: true, settled: Promise.resolve() }
    }
    const attemptedAt = new Date()
    const body = await this.#bodies.bodyOf(delivery)
    const outcome: AttemptOutcome =
      body === null
        ? { statusCode: null, latencyMs: 0, error: 'the event is missing', responseExcerpt: null, retryAfterMs: null }
        : await this.#post(delivery, body, attemptedAt)
    if (isSuccess(outcome)) return { delivered: true, settled: this.#settleSuccess(delivery, outcome, attemptedAt) }
    await this.#settleFailure(delivery, outcome, attemptedAt)
    return { delivered: false, settled: Promise.resolve() }
  }

  #post(delivery: DeliveryToSend, body: string, attemptedAt: Date) {
    const { endpoint } = delivery
    const timestamp = Math.floor(attemptedAt.getTime() / 1000)
    return postWebhook(
      {
        url: endpoint.url,
        body,
        timeoutMs: this.#options.timeoutMs,
        allowPrivate: this.#options.allowPrivate,
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          // The delivery id: one per event and endpoint, the same on every retry and replay.
          'webhook-id': delivery.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(liveSecrets(endpoint, attemptedAt), delivery.id, timestamp, body),
        },
      },
      this.#agents,
    )
  }

  async #skip(delivery: ClaimedDelivery, reason: string): Promise<void> {
    const settled = await this.#store.webhooks.skip(delivery.id, delivery.leaseId, reason)
    const context = { deliveryId: delivery.id, endpointId: delivery.endpointId, eventType: delivery.eventType, reason }
    if (settled) this.#log.info(context, 'webhook delivery skipped, never sent')
    else this.#log.warn(context, 'webhook delivery lease ran out before it was skipped')
  }

  #attempt(delivery: ClaimedDelivery, outcome: AttemptOutcome, attemptedAt: Date, delivered: boolean) {
    const attempt = {
      id: newId(),
      campaignId: delivery.campaignId,
      deliveryId: delivery.id,
      attemptedAt,
      statusCode: outcome.statusCode,
      latencyMs: outcome.latencyMs,
      error: outcome.error ?? (delivered ? null : `the endpoint answered ${outcome.statusCode}`),
      responseExcerpt: outcome.responseExcerpt,
    }
    const context = {
      deliveryId: delivery.id,
      endpointId: delivery.endpointId,
      eventType: delivery.eventType,
      attempt: delivery.attemptCount + 1,
      statusCode: outcome.statusCode,
      latencyMs: outcome.latencyMs,
    }
    return { attempt, context }
  }

  /** Successes, by far the common case, are settled together. */
  async #settleSuccess(delivery: ClaimedDelivery, outcome: AttemptOutcome, attemptedAt: Date): Promise<void> {
    const { attempt, context } = this.#attempt(delivery, outcome, attemptedAt, true)
    const settled = await this.#settleDelivered({ attempt, leaseId: delivery.leaseId, endpointId: delivery.endpointId })
    if (!settled) this.#log.warn(context, 'webhook delivery lease ran out before its attempt was recorded')
    this.#log.debug(context, 'webhook delivered')
  }

  /** A failure is settled on its own, with the endpoint's backoff. */
  async #settleFailure(delivery: ClaimedDelivery, outcome: AttemptOutcome, attemptedAt: Date): Promise<void> {
    const { attempt, context } = this.#attempt(delivery, outcome, attemptedAt, false)
    const retryInMs = retryDelay(context.attempt, this.#options.retryScheduleMs, outcome.retryAfterMs ?? null)
    const { settled, pauseMs, disabledReason } = await this.#store.transaction(async (tx) => {
      await tx.webhooks.recordAttempt(attempt)
      const settled = await tx.webhooks.settle(delivery.id, delivery.leaseId, { delivered: false, retryInMs })
      const failed = await tx.webhooks.endpointFailed(delivery.endpointId, {
        gone: outcome.statusCode === 410,
        disableAfterMs: this.#options.disableAfterMs,
        pauseMs: (failures) => this.#endpointPause(failures, outcome.retryAfterMs),
      })
      return { settled, ...failed }
    })
    if (!settled) this.#log.warn(context, 'webhook delivery lease ran out before its attempt was recorded')
    this.#log.warn({ ...context, error: outcome.error, retryInMs, pauseMs }, 'webhook delivery failed')
    if (disabledReason) this.#log.warn({ endpointId: delivery.endpointId, disabledReason }, 'webhook endpoint disabled')
    else this.#wakeAt(Date.now() + pauseMs)
  }

  /**
   * Queues a success; the successes of a short window are settled by one statement, so a busy
   * dispatcher spends one round trip on many deliveries rather than one on each. Nothing waits
   * for the settlement to send the next delivery; only the end of a run does.
   */
  #settleDelivered(success: SettledSuccess): Promise<boolean> {
    return new Promise((settled, failed) => {
      if (this.#successes.length === 0)
        this.#settleTimer = setTimeout(() => void this.#flushSuccesses(), SETTLE_WINDOW_MS)
      this.#successes.push({ success, settled, failed })
      if (this.#successes.length >= SETTLED_AT_ONCE) void this.#flushSuccesses()
    })
  }

  async #flushSuccesses(): Promise<void> {
    clearTimeout(this.#settleTimer)
    const batch = this.#successes
    this.#successes = []
    try {
      const settled = await this.#store.webhooks.settleDelivered(batch.map((entry) => entry.success))
      for (const entry of batch) entry.settled(settled.has(entry.success.attempt.deliveryId))
    } catch (err) {
      for (const entry of batch) entry.failed(err)
    }
  }

  /**
   * An endpoint that fails backs off along the same schedule, by its failures in a row (staying
   * at the last step), so one that is down gets one probing attempt per step rather than one
   * per queued delivery; its first success lets the queue flow again.
   */
  #endpointPause(consecutiveFailures: number, retryAfterMs: number | null): number {
    const schedule = this.#options.retryScheduleMs
    return retryDelay(Math.min(consecutiveFailures, schedule.length), schedule, retryAfterMs) ?? 0
  }
}
