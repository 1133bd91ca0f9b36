import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { openDatabase, type Database, type DatabaseOptions } from '../../db/database.js'
import { migrate, pendingMigrations, readMigrations, type Migration } from '../../db/migrate.js'

declare module 'fastify' {
  interface FastifyInstance {
    db: Database & { pendingMigrations(): Promise<string[]> }
  }
}

interface DatabasePluginOptions extends DatabaseOptions {
  /** Apply pending migrations while starting (the default); off only for tests of readiness. */
  migrate?: boolean
}

export default fp<DatabasePluginOptions>(
  async function database(app: FastifyInstance, options) {
    const db = await openDatabase(options)
    let migrations: Migration[]
    try {
      migrations = await readMigrations()
      if (options.migrate !== false) {
        const applied = await db.withSession((session) => migrate(session, migrations))
        if (applied.length > 0) app.log.info({ applied }, 'database migrations applied')
      }
    } catch (error) {
      await db.close()
      throw error
    }
    app.decorate('db', {
      ...db,
      engine: db.engine,
      prisma: db.prisma,
      pendingMigrations: () => db.withSession((session) => pendingMigrations(session, migrations)),
    })
    app.addHook('onClose', async () => db.close())
  },
  { name: 'database' },
)
