import t, { type Test } from 'tap'
import { cp, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/database.js'
import { MIGRATIONS_DIR, migrate, MigrationError, pendingMigrations, readMigrations } from '../../src/db/migrate.js'
import { engine, freshDatabaseUrl } from '../helpers/database.js'

async function fresh(t: Test) {
  const db = await openDatabase({ url: await freshDatabaseUrl(t), dataDir: 'memory://' })
  t.teardown(() => db.close())
  return db
}

t.test(`[${engine}] migrations apply once; a second run is a no-op`, async (t) => {
  const db = await fresh(t)
  const migrations = await readMigrations()
  t.ok(migrations.length > 0, 'there are migrations on disk')
  const first = await db.withSession((session) => migrate(session, migrations))
  t.same(
    first,
    migrations.map((m) => m.name),
    'the first run applies every migration',
  )
  const second = await db.withSession((session) => migrate(session, migrations))
  t.same(second, [], 'the second run applies nothing')
  t.same(await db.withSession((session) => pendingMigrations(session, migrations)), [], 'nothing is pending')
})

t.test(`[${engine}] pending migrations are reported before they are applied`, async (t) => {
  const db = await fresh(t)
  const migrations = await readMigrations()
  const pending = await db.withSession((session) => pendingMigrations(session, migrations))
  t.same(
    pending,
    migrations.map((m) => m.name),
    'an empty database has every migration pending',
  )
})

t.test(`[${engine}] a migration edited after it was applied is refused by its checksum`, async (t) => {
  const db = await fresh(t)
  const dir = t.testdir()
  await cp(MIGRATIONS_DIR, dir, { recursive: true })
  await db.withSession(async (session) => migrate(session, await readMigrations(dir)))
  const [first] = await readMigrations(dir)
  await writeFile(join(dir, first!.name, 'migration.sql'), `${first!.sql}\n-- edited afterwards\n`)
  const error = await db.withSession(async (session) => migrate(session, await readMigrations(dir))).catch((e) => e)
  t.type(error, MigrationError, 'a MigrationError is thrown')
  t.match(
    error.message,
    `migration ${first!.name} was edited after it was applied`,
    'the message names the migration and says why',
  )
})

t.test(`[${engine}] a new migration added later is applied on the next run`, async (t) => {
  const db = await fresh(t)
  const dir = t.testdir()
  await cp(MIGRATIONS_DIR, dir, { recursive: true })
  await db.withSession(async (session) => migrate(session, await readMigrations(dir)))
  const extra = join(dir, '99991231000000_extra')
  await mkdir(extra)
  await writeFile(join(extra, 'migration.sql'), 'CREATE TABLE "extra_table" ("id" INT PRIMARY KEY);')
  const applied = await db.withSession(async (session) => migrate(session, await readMigrations(dir)))
  t.same(applied, ['99991231000000_extra'], 'only the new migration runs')
})

t.test(`[${engine}] a failing migration is rolled back and not recorded`, async (t) => {
  const db = await fresh(t)
  const dir = t.testdir({
    '20990101000000_broken': { 'migration.sql': 'CREATE TABLE "half" ("id" INT); SELECT no_such_function();' },
  })
  const error = await db.withSession(async (session) => migrate(session, await readMigrations(dir))).catch((e) => e)
  t.type(error, MigrationError, 'the failure is reported')
  const [row] = await db.withSession((session) =>
    session.query<{ exists: boolean }>(`SELECT to_regclass('"half"') IS NOT NULL AS "exists"`),
  )
  t.equal(row!.exists, false, 'the half-applied table was rolled back')
  const pending = await db.withSession(async (session) => pendingMigrations(session, await readMigrations(dir)))
  t.same(pending, ['20990101000000_broken'], 'the broken migration is still pending')
})

t.test(`[${engine}] the event listing is rendered for events written before its migration`, async (t) => {
  const db = await fresh(t)
  const dir = t.testdir()
  await cp(MIGRATIONS_DIR, dir, { recursive: true })
  const listing = '20261202000000_event_listing'
  const migrations = await readMigrations(dir)
  const before = migrations.filter((migration) => migration.name < listing)
  await db.withSession((session) => migrate(session, before))
  const campaignId = '01930000-0000-7000-8000-0000000000c1'
  const payload = {
    request: { meter: 'violence', rank: 4 },
    dice: [{ faces: [42], purpose: 'check', source: 'provided' }],
    outcome: { passed: true },
    summary: 'Violence 4 — passed → hardened',
    pending: null,
    sheetBefore: { meters: {} },
    sheetAfter: { meters: { violence: 1 } },
  }
  await db.prisma.campaign.create({ data: { id: campaignId, name: 'Old table', ruleset: 'shock-meters' } })
  await db.prisma.rollEvent.create({
    data: {
      id: '01930000-0000-7000-8000-0000000000e1',
      campaignId,
      seq: 1n,
      type: 'stress-check',
      ruleset: 'shock-meters',
      actor: { role: 'gm' },
      payload,
      occurredAt: new Date('2026-11-30T12:34:56.789Z'),
    },
  })
  t.same(
    await db.withSession((session) => migrate(session, migrations)),
    migrations.filter((migration) => migration.name >= listing).map((migration) => migration.name),
    'the listing migration runs, then those after it',
  )
  const [row] = await db.query<{ listing: string; public_listing: string | null }>(
    'SELECT "listing", "public_listing" FROM "roll_events"',
  )
  t.equal(row!.public_listing, null, 'an event without a public view has no listing of its own for players')
  const { sheetBefore: _before, sheetAfter: _after, ...listed } = payload
  t.same(
    JSON.parse(row!.listing),
    {
      id: '01930000-0000-7000-8000-0000000000e1',
      seq: 1,
      campaignId,
      characterId: null,
      characterName: null,
      type: 'stress-check',
      ruleset: 'shock-meters',
      visibility: 'public',
      actor: { role: 'gm' },
      occurredAt: '2026-11-30T12:34:56.789Z',
      causationId: null,
      ...listed,
      unusedFaces: [],
      pending: [],
      followUps: [],
    },
    'the existing event gets its listing, in the API’s keys and formats, without the sheets, its decision as a list',
  )
})

t.test(`[${engine}] events written before names were kept get the name their character had then`, async (t) => {
  const db = await fresh(t)
  const dir = t.testdir()
  await cp(MIGRATIONS_DIR, dir, { recursive: true })
  const names = '20261205000000_event_names_unused_faces'
  const migrations = await readMigrations(dir)
  await db.withSession((session) =>
    migrate(
      session,
      migrations.filter((migration) => migration.name < names),
    ),
  )
  const campaignId = '01930000-0000-7000-8000-0000000000c2'
  const characterId = '01930000-0000-7000-8000-0000000000a2'
  await db.prisma.campaign.create({ data: { id: campaignId, name: 'Old table', ruleset: 'shock-meters' } })
  await db.prisma.character.create({
    data: { id: characterId, campaignId, name: 'Vera "Doc" Okafor', sheet: {} },
  })
  const history = [
    ['character.created', { name: 'Vera Okafor' }],
    ['stress-check', { meter: 'violence', rank: 4 }],
    ['character.updated', { sheet: {} }],
    ['character.updated', { name: 'Vera "Doc" Okafor' }],
    ['stress-check', { meter: 'self', rank: 2 }],
  ] as const
  for (const [index, [type, request]] of history.entries()) {
    await db.prisma.rollEvent.create({
      data: {
        id: `01930000-0000-7000-8000-0000000000e${index}`,
        campaignId,
        seq: BigInt(index + 1),
        characterId,
        type,
        ruleset: 'shock-meters',
        actor: { role: 'gm', keyId: null },
        payload: { request, dice: [], outcome: null, summary: type, pending: [], sheetBefore: null, sheetAfter: {} },
      },
    })
  }
  await db.withSession((session) => migrate(session, migrations))
  const rows = await db.query<{ seq: number; name: string | null; listing: string }>(
    `SELECT "seq"::integer AS "seq", "payload" ->> 'characterName' AS "name", "listing" FROM "roll_events" ORDER BY "seq"`,
  )
  t.same(
    rows.map((row) => row.name),
    ['Vera Okafor', 'Vera Okafor', 'Vera Okafor', 'Vera "Doc" Okafor', 'Vera "Doc" Okafor'],
    'each event names the character as it was called then: the creation’s name until the rename, the new name after',
  )
  t.same(
    rows.map((row) => JSON.parse(row.listing).characterName),
    rows.map((row) => row.name),
    'the stored listing shows the same name',
  )
  const error = await db
    .query(`UPDATE "roll_events" SET "type" = 'edited' WHERE "campaign_id" = $1::uuid`, [campaignId])
    .catch((e) => e)
  t.match(String(error?.message), /append-only/, 'the history is append-only again after the backfill')
})
