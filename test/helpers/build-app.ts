import { buildApp, type App, type AppOptions } from '../../src/app.js'
import { testConfig } from './config.js'
import { freshDatabaseUrl } from './database.js'

interface TestContext {
  teardown(fn: () => unknown): void
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
  const config = testConfig({
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    ...(url ? { DATABASE_URL: url } : {}),
    ...env,
  })
  const app = await buildApp(config, { logger: false, ...options })
  t.teardown(() => app.close())
  extend?.(app)
  await app.ready()
  return app
}
