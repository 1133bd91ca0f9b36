import t from 'tap'
import { randomUUID } from 'node:crypto'
import { openDatabase } from '../../src/db/database.js'
import { migrate, readMigrations } from '../../src/db/migrate.js'
import { engine, freshDatabaseUrl } from '../helpers/database.js'

t.test(`[${engine}] roll_events is append-only in the database`, async (t) => {
  const db = await openDatabase({ url: await freshDatabaseUrl(t), dataDir: 'memory://' })
  t.teardown(() => db.close())
  await db.withSession(async (session) => migrate(session, await readMigrations()))

  const campaignId = randomUUID()
  const eventId = randomUUID()
  await db.prisma.campaign.create({ data: { id: campaignId, name: 'Append-only', ruleset: 'shock-meters' } })
  // Raw, as Nerve writes events: the listing is written with the event, and Prisma's model lacks it.
  await db.query(
    `INSERT INTO "roll_events" ("id", "campaign_id", "seq", "type", "ruleset", "actor", "payload", "listing")
     VALUES ($1, $2, 1, 'test', 'shock-meters', '{"role": "gm"}', '{}', '{}')`,
    [eventId, campaignId],
  )

  t.test('INSERT is allowed', async (t) => {
    t.equal(await db.prisma.rollEvent.count(), 1, 'the event was appended')
  })

  t.test('UPDATE raises an error', async (t) => {
    await t.rejects(
      db.prisma.rollEvent.update({ where: { id: eventId }, data: { type: 'rewritten' } }),
      /append-only/,
      'the trigger refuses the update',
    )
    const event = await db.prisma.rollEvent.findUniqueOrThrow({ where: { id: eventId } })
    t.equal(event.type, 'test', 'the event is unchanged')
  })

  t.test('DELETE raises an error', async (t) => {
    await t.rejects(
      db.prisma.rollEvent.delete({ where: { id: eventId } }),
      /append-only/,
      'the trigger refuses the delete',
    )
    t.equal(await db.prisma.rollEvent.count(), 1, 'the event is still there')
  })

  t.test('raw SQL cannot get round it either', async (t) => {
    await t.rejects(
      db.withSession((session) => session.exec('UPDATE "roll_events" SET "payload" = \'{"forged":true}\'')),
      /append-only/,
    )
    await t.rejects(
      db.withSession((session) => session.exec('DELETE FROM "roll_events"')),
      /append-only/,
    )
    t.equal(await db.prisma.rollEvent.count(), 1, 'the event is still there')
  })

  t.test('a campaign sequence number is used once', async (t) => {
    await t.rejects(
      db.query(
        `INSERT INTO "roll_events" ("id", "campaign_id", "seq", "type", "ruleset", "actor", "payload", "listing")
         VALUES ($1, $2, 1, 'dup', 'shock-meters', '{}', '{}', '{}')`,
        [randomUUID(), campaignId],
      ),
      /roll_events_campaign_id_seq_key/,
      'a second event with seq 1 in the same campaign is refused',
    )
  })
})
