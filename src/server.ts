import './runtime-flags.js'
import closeWithGrace from 'close-with-grace'
import { buildApp } from './app.js'
import { ConfigError, loadConfig } from './config.js'

let config
try {
  config = loadConfig()
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  process.stderr.write(`nerve: ${error.message}\n`)
  process.exit(1)
}

const app = await buildApp(config)

// In-flight requests finish, then plugins close in reverse order (the database last).
closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'closing after an unexpected error')
  else app.log.info({ signal }, 'shutting down')
  await app.close()
})

try {
  await app.listen({ port: config.PORT, host: config.HOST })
} catch (err) {
  app.log.fatal({ err }, 'could not start')
  process.exit(1)
}
