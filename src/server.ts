import './runtime-flags.js'
import closeWithGrace from 'close-with-grace'
import { buildApp } from './app.js'
import { ConfigError, loadConfig } from './config.js'
import { DataDirInUseError } from './db/pglite.js'

let config
try {
  config = loadConfig()
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  process.stderr.write(`nerve: ${error.message}\n`)
  process.exit(1)
}

let app
try {
  app = await buildApp(config)
} catch (error) {
  if (!(error instanceof DataDirInUseError)) throw error
  process.stderr.write(`nerve: ${error.message}\n`)
  process.exit(1)
}

// In-flight requests finish, then plugins close in reverse order (the database last).
closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'closing after an unexpected error')
  else app.log.info({ signal }, 'shutting down')
  await app.close()
})

try {
  const address = await app.listen({ port: config.PORT, host: config.HOST })
  const base = address.replace(/\/\/(0\.0\.0\.0|\[::\])/, '//localhost')
  app.log.info(`Nerve is ready: Swagger UI at ${base}/docs, the GM dashboard at ${base}/dashboard`)
} catch (err) {
  app.log.fatal({ err }, 'could not start')
  process.exit(1)
}
