/** Longest a `Retry-After` is honoured; beyond it the endpoint's own wish is capped. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000

/** Spread of each wait, so deliveries that failed together do not retry in lockstep. */
const JITTER = 0.2

/** `"5,300,1800"` (seconds, as configured) → waits in milliseconds. */
export function parseRetrySchedule(text: string): number[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => Math.round(Number(part) * 1000))
}

/**
 * How long to wait after the given number of failed attempts, or null when the schedule is
 * used up and the delivery has failed for good. A `Retry-After` longer than the scheduled
 * wait is honoured.
 */
export function retryDelay(
  attemptsMade: number,
  scheduleMs: readonly number[],
  retryAfterMs: number | null = null,
  random: () => number = Math.random,
): number | null {
  const scheduled = scheduleMs[attemptsMade - 1]
  if (scheduled === undefined) return null
  const jittered = Math.round(scheduled * (1 - JITTER + 2 * JITTER * random()))
  return retryAfterMs === null ? jittered : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS))
}
