import { buildApp, type App, type AppOptions } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { freshDatabaseUrl } from './database.js'

interface TestContext {
  teardown(fn: () => unknown): void
}

/**
 * Rate limiting and load shedding are off unless a test turns them on: a suite that fires
 * thousands of requests from one key on a busy CI machine is not what they guard against.
 */
export const NO_LIMITS = {
  RATE_LIMIT_MAX: '0',
  UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
  UNDER_PRESSURE_MAX_HEAP_USED_BYTES: '0',
}

/**
 * A ready app on a fresh database. Settings are passed in as an environment, never by
 * mutating process.env.
 */
export async function buildTestApp(
  t: TestContext,
  env: Record<string, string> = {},
  options: AppOptions = {},
  /** Adds routes (e.g. probes) before the app is ready. */
  extend?: (app: App) => void,
) {
  const url = await freshDatabaseUrl(t)
  const config = loadConfig({
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    ...NO_LIMITS,
    ...(url ? { DATABASE_URL: url } : {}),
    ...env,
  })
  const app = await buildApp(config, { logger: false, ...options })
  t.teardown(() => app.close())
  extend?.(app)
  await app.ready()
  return app
}
