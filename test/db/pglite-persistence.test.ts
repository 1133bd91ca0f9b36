import t from 'tap'
import { buildApp } from '../../src/app.js'
import { testConfig } from '../helpers/config.js'

t.test('the embedded database keeps its data across a restart', async (t) => {
  const dataDir = t.testdir()
  const config = testConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' })

  const first = await buildApp(config, { logger: false })
  await first.ready()
  t.equal(first.db.engine, 'pglite', 'no DATABASE_URL means PGlite')
  await first.db.prisma.campaign.create({
    data: { id: '0193a5e2-7c1d-7000-8000-000000000001', name: 'Persisted', ruleset: 'shock-meters' },
  })
  await first.close()

  const second = await buildApp(config, { logger: false })
  t.teardown(() => second.close())
  await second.ready()
  const campaign = await second.db.prisma.campaign.findUnique({ where: { id: '0193a5e2-7c1d-7000-8000-000000000001' } })
  t.equal(campaign?.name, 'Persisted', 'the campaign written before the restart is still there')
  t.equal((await second.inject({ url: '/health/ready' })).statusCode, 200, 'the restarted service is ready')
})
