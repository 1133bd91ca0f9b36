import { loadConfig } from '../config.js'
import { openDatabase } from './database.js'
import { migrate, readMigrations } from './migrate.js'

const config = loadConfig()
const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR })
try {
  const applied = await database.withSession(async (session) => migrate(session, await readMigrations()))
  process.stdout.write(
    applied.length === 0
      ? 'database is up to date\n'
      : `applied ${applied.length} migration(s): ${applied.join(', ')}\n`,
  )
} finally {
  await database.close()
}
