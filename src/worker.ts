import './runtime-flags.js'
import closeWithGrace from 'close-with-grace'
import { pino, type LoggerOptions } from 'pino'
import { ConfigError, loadConfig } from './config.js'
import { openDatabase } from './db/database.js'
import { DataDirInUseError } from './db/pglite.js'
import { migrate, readMigrations } from './db/migrate.js'
import { loggerOptions } from './logger.js'
import { createStore } from './repositories/index.js'
import { dispatcherOptions, WebhookDispatcher } from './webhooks/dispatcher.js'
import { DELIVERY_DUE_CHANNEL } from './webhooks/repository.js'

// The webhook dispatcher on its own (`npm run worker`): run any number of these against one
// PostgreSQL, and the service with WEBHOOK_DISPATCHER=off, to scale delivery apart from the API.
// Commits in the API's processes wake it through LISTEN/NOTIFY.

let config
try {
  config = loadConfig()
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  process.stderr.write(`nerve worker: ${error.message}\n`)
  process.exit(1)
}

const { stream, ...logOptions } = loggerOptions(config) as LoggerOptions & { stream?: NodeJS.WritableStream }
const log = pino(logOptions, stream ?? process.stdout).child({ component: 'webhook-dispatcher' })
const db = await openDatabase({
  url: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  poolSize: config.DATABASE_POOL_SIZE,
  preparedStatements: config.DATABASE_PREPARED_STATEMENTS === 'on',
  connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
}).catch((error: unknown) => {
  if (!(error instanceof DataDirInUseError)) throw error
  process.stderr.write(`nerve worker: ${error.message}\n`)
  process.exit(1)
})
try {
  const applied = await db.withSession(async (session) => migrate(session, await readMigrations()))
  if (applied.length > 0) log.info({ applied }, 'database migrations applied')
} catch (err) {
  log.fatal({ err }, 'could not prepare the database')
  await db.close()
  process.exit(1)
}
if (db.engine === 'pglite') {
  log.warn(
    'no DATABASE_URL: the worker opened the embedded database, which only one process may use at a time; do not run the service on the same DATA_DIR meanwhile',
  )
}

const dispatcher = new WebhookDispatcher(
  createStore(db),
  log,
  { ...dispatcherOptions(config), releaseLeasesOnStart: db.engine === 'pglite' },
  (onCommit) => db.listen(DELIVERY_DUE_CHANNEL, onCommit),
)

// Attempts in flight finish and are recorded before the database closes.
closeWithGrace({ delay: 2 * config.WEBHOOK_TIMEOUT_MS + 5_000 }, async ({ signal, err }) => {
  if (err) log.error({ err }, 'closing after an unexpected error')
  else log.info({ signal }, 'shutting down')
  await dispatcher.stop()
  await db.close()
})

dispatcher.start()
log.info('webhook worker started')
