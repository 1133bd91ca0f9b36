import t from 'tap'
import { prepared, statementName } from '../../src/db/prepared.js'
import { Prisma } from '../../src/generated/prisma/client.js'
import { createCampaign, createCharacter } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { act, provided } from '../helpers/commands.js'
import { engine } from '../helpers/database.js'

t.test('a statement is prepared under a name only once marked, and keeps that name', async (t) => {
  const statement = Prisma.sql`SELECT ${1}::int AS "marked in this test"`
  t.equal(statementName({ sql: statement.text }), '', 'unmarked: the unnamed statement')
  const { name, text, values } = prepared(statement)
  t.match(name, /^nerve_\d+$/)
  t.same({ text, values }, { text: statement.text, values: [1] }, 'the statement as built')
  t.equal(statementName({ sql: statement.text }), name, 'the name Prisma’s adapter finds in a transaction')
  t.equal(
    prepared(Prisma.sql`SELECT ${2}::int AS "marked in this test"`).name,
    name,
    'the same text, other values: the same name',
  )
})

t.test(
  "a roll's statements are prepared on the connection that ran them, and nothing else is",
  { skip: engine === 'pglite' && 'PGlite has no prepared statements by name' },
  async (t) => {
    // One connection: the statements the roll ran and the look at what it holds meet there.
    const app = await buildTestApp(t, { DATABASE_POOL_SIZE: '1' })
    const campaign = await createCampaign(app)
    const { character } = await createCharacter(app, campaign.campaign, campaign.auth)
    const ids = { campaignId: campaign.campaign.id, characterId: character.id }
    await app.db.prisma.$executeRaw`SELECT 1 AS "ROLLS START"`
    for (let roll = 0; roll < 2; roll++) {
      // A defence of 10 against rank 5 holds: no decision is left open to stop the next roll.
      const res = await act(app, campaign.auth, ids, 'stress-check', {
        request: { meter: 'violence', rank: 5 },
        dice: provided(10),
      })
      t.equal(res.statusCode, 201, res.body)
    }
    const rows = await app.db.prisma.$queryRaw<{ name: string; statement: string; calls: bigint }[]>`
      SELECT "name", "statement", "generic_plans" + "custom_plans" AS "calls" FROM pg_prepared_statements ORDER BY "name"`
    const preparedText = rows.map((row) => row.statement).join('\n')
    t.match(preparedText, /FROM "api_keys" k JOIN "campaigns" c/, 'the key lookup that authenticates each request')
    t.match(preparedText, /FROM "characters" WHERE "id" = \$1::uuid/, "the command's read")
    t.match(preparedText, /WITH saved AS \(\s*UPDATE "characters"/, "the command's write")
    t.ok(
      rows.every((row) => /^nerve_\d+$/.test(row.name)),
      'only statements marked as prepared are',
    )
    t.ok(
      rows.some((row) => /WITH saved AS/.test(row.statement) && Number(row.calls) === 2),
      'the write is planned from its prepared statement on each roll, not parsed again',
    )
  },
)

t.test(
  'with DATABASE_PREPARED_STATEMENTS=off a roll prepares nothing by name, for a pooler in transaction mode',
  { skip: engine === 'pglite' && 'PGlite has no prepared statements by name' },
  async (t) => {
    const app = await buildTestApp(t, { DATABASE_POOL_SIZE: '1', DATABASE_PREPARED_STATEMENTS: 'off' })
    const campaign = await createCampaign(app)
    const { character } = await createCharacter(app, campaign.campaign, campaign.auth)
    const res = await act(
      app,
      campaign.auth,
      { campaignId: campaign.campaign.id, characterId: character.id },
      'stress-check',
      {
        request: { meter: 'violence', rank: 5 },
        dice: provided(10),
      },
    )
    t.equal(res.statusCode, 201, res.body)
    const rows = await app.db.prisma.$queryRaw<{ name: string }[]>`SELECT "name" FROM pg_prepared_statements`
    t.same(
      rows.map((row) => row.name),
      [],
      'no statement is left prepared on the connection: each was sent unnamed',
    )
  },
)
