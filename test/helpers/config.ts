import { loadConfig, type Config } from '../../src/config.js'

/**
 * Rate limiting, load shedding and the start-up timeout are off in every app and server process
 * a test starts, and the wait for a pooled database connection is long, unless the test sets
 * them (test/reliability/limits.test.ts, postgres-restart.test.ts): a suite that fires thousands
 * of requests from one key on a busy CI machine is not what they guard against, and a lagging
 * event loop, a slow start or fifty rolls queueing on one character's row lock there must not
 * fail a test.
 */
export const NO_LIMITS = {
  RATE_LIMIT_MAX: '0',
  UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
  UNDER_PRESSURE_MAX_HEAP_USED_BYTES: '0',
  STARTUP_TIMEOUT_MS: '0',
  DATABASE_CONNECT_TIMEOUT_MS: '60000',
}

/** The configuration of a test's app: limits off, then the given environment. Never process.env. */
export function testConfig(env: Record<string, string>): Config {
  return loadConfig({ ...NO_LIMITS, ...env })
}
