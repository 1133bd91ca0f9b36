import fc from 'fast-check'
import t from 'tap'
import { createCampaign, createCharacter, PROBLEM, type Auth } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { act, audit, characterUrl, created, provided, type Ids } from '../helpers/commands.js'

// One app for the file. Properties are bounded so the whole file stays quick on PGlite.
const app = await buildTestApp(t)
const RUNS = 200

// ---------------------------------------------------------------- hostile JSON

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__']

const hugeNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 2, -(2 ** 63), 1e-320, 0.5, -0, 4.000000000000001),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map((value) => Number(value)),
)

const longUnicode = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 200, maxLength: 3000 }),
  fc.string({ unit: 'binary', maxLength: 500 }),
  fc.constantFrom('\u0000', '\ud800', '\u202e\u0645violence', 'ｖｉｏｌｅｎｃｅ', 'violence\u0000', 'Ⅳ', '１０'),
)

/** Objects nested `depth` levels deep, in objects or arrays. */
const deeplyNested = fc.tuple(fc.integer({ min: 20, max: 400 }), fc.boolean()).map(([depth, arrays]) => {
  let value: unknown = 'bottom'
  for (let level = 0; level < depth; level++) value = arrays ? [value] : { request: value }
  return value
})

const scalar = fc.oneof(
  hugeNumber,
  longUnicode,
  fc.constantFrom(null, true, false, '', 0, [], {}),
  fc.string({ maxLength: 20 }),
)

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: scalar },
  { weight: 2, arbitrary: fc.anything({ maxDepth: 4, withObjectString: true, withNullPrototype: true }) },
  { weight: 1, arbitrary: deeplyNested },
  {
    weight: 2,
    arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 10 })), scalar, {
      maxKeys: 5,
    }),
  },
)

const hostileDice = fc.oneof(
  fc.record(
    {
      source: fc.oneof(fc.constantFrom('server', 'seeded', 'provided', 'loaded', 'SERVER', ''), scalar),
      seed: fc.oneof(scalar, fc.string({ minLength: 201, maxLength: 300 })),
      faces: fc.oneof(
        fc.array(fc.oneof(fc.integer({ min: -5, max: 200 }), hugeNumber, scalar), { maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 101, maxLength: 300 }),
        scalar,
      ),
      extra: scalar,
    },
    { requiredKeys: [] },
  ),
  hostileValue,
)

const plausible = fc.oneof(
  fc.integer({ min: -2, max: 12 }),
  fc.constantFrom('violence', 'self', 'fear', 'accept', 'raise', 'decline', 'Soldier', 'kill-in-fight', 'none'),
  fc.uuid({ version: 7 }),
  fc.string({ maxLength: 8 }),
)

/** Bodies that get past the schema, or nearly, so the rules and the database see them too. */
const nearlyValidBody = (validRequest: Record<string, unknown>) =>
  fc
    .record(
      {
        request: fc.record(
          Object.fromEntries(
            Object.entries(validRequest).map(([key, value]) => [key, fc.oneof(fc.constant(value), plausible)]),
          ),
          { requiredKeys: [] },
        ),
        dice: fc.oneof(
          fc.record({
            source: fc.constant('provided'),
            faces: fc.array(fc.integer({ min: 1, max: 100 }), { maxLength: 3 }),
          }),
          fc.record({ source: fc.constant('seeded'), seed: fc.string({ minLength: 1, maxLength: 20 }) }),
          fc.record({ source: fc.constantFrom('seeded', 'provided') }),
        ),
      },
      { requiredKeys: ['request'] },
    )
    // The revert route's body is the request itself.
    .map((body) => ('eventId' in validRequest ? body.request : body))

/** A command body with some fields of a valid request kept and others made hostile. */
const hostileBody = (validRequest: Record<string, unknown>) =>
  fc.oneof(
    nearlyValidBody(validRequest).map((body) => JSON.stringify(body)),
    // Valid field names with hostile values, plus unknown fields.
    fc
      .record(
        {
          request: fc.oneof(
            fc
              .tuple(
                fc.subarray(Object.keys(validRequest)),
                fc.dictionary(fc.constantFrom(...Object.keys(validRequest), 'unknown', 'extra'), hostileValue, {
                  maxKeys: 4,
                }),
              )
              .map(([kept, hostile]) => ({
                ...Object.fromEntries(kept.map((key) => [key, validRequest[key]])),
                ...hostile,
              })),
            hostileValue,
          ),
          dice: hostileDice,
          visibility: fc.oneof(fc.constantFrom('public', 'gm', 'GM', 'private'), scalar),
          unknown: hostileValue,
        },
        { requiredKeys: [] },
      )
      .map((body) => JSON.stringify(body) ?? 'null'),
    // Anything at all as the body.
    hostileValue.map((value) => JSON.stringify(value) ?? 'null'),
    // Prototype-pollution keys, which JSON.stringify cannot produce from an object literal.
    fc
      .constantFrom(...PROTO_KEYS)
      .map((key) => `{"request":{"${key}":{"polluted":true},"meter":"violence","rank":5},"${key}":{"isAdmin":true}}`),
    fc.constant('{"request":{"constructor":{"prototype":{"polluted":true}}}}'),
    // Not JSON at all.
    fc.constantFrom('', '{', '{"request":', '[1,2', 'null', '"request"', '{"request":{}}}', '\u0000', 'NaN'),
  )

// ---------------------------------------------------------------- the state that must not move

interface Snapshot {
  lastSeq: number
  events: number
  characters: number
  version: number
  sheet: string
  inFlightKeys: number
}

async function snapshot({ campaignId, characterId }: Ids): Promise<Snapshot> {
  const prisma = app.db.prisma
  const [campaign, events, characters, character, inFlightKeys] = await Promise.all([
    prisma.campaign.findUniqueOrThrow({ where: { id: campaignId } }),
    prisma.rollEvent.count({ where: { campaignId } }),
    prisma.character.count({ where: { campaignId } }),
    prisma.character.findUniqueOrThrow({ where: { id: characterId } }),
    prisma.idempotencyRecord.count({ where: { campaignId, state: 'in-flight' } }),
  ])
  return {
    lastSeq: Number(campaign.lastSeq),
    events,
    characters,
    version: character.version,
    sheet: JSON.stringify(character.sheet),
    inFlightKeys,
  }
}

interface Target {
  name: string
  ruleset: string
  url: (ids: Ids, pendingEventId: string) => string
  validRequest: Record<string, unknown>
  /** Leaves a decision open first, for the decision route. */
  pendingRoll?: { action: string; body: { request: unknown; dice?: unknown } }
}

const TARGETS: Target[] = [
  {
    name: 'POST …/stress-check',
    ruleset: 'shock-meters',
    url: (ids) => `${characterUrl(ids)}/stress-check`,
    validRequest: { meter: 'violence', rank: 5, trigger: 'kill-in-fight', identity: 'Soldier', passion: 'fear' },
  },
  {
    name: 'POST …/trauma-roll',
    ruleset: 'trauma-table',
    url: (ids) => `${characterUrl(ids)}/trauma-roll`,
    validRequest: { modifier: 10, source: 'stressful', upgrades: [{ steps: 1, reason: 'x' }], response: 'accept' },
  },
  {
    name: 'POST …/events/{eventId}/decision',
    ruleset: 'reaction-rolls',
    url: (ids, eventId) => `/v1/campaigns/${ids.campaignId}/events/${eventId}/decision`,
    validRequest: { decision: 'raise', emotion: 'fear' },
    pendingRoll: {
      action: 'reaction-roll',
      body: { request: { ability: 'agility', pressure: 6 }, dice: provided(4) },
    },
  },
  {
    name: 'POST …/characters/{characterId}/revert',
    ruleset: 'reaction-rolls',
    url: (ids) => `${characterUrl(ids)}/revert`,
    validRequest: { eventId: '01930000-0000-7000-8000-000000000000' },
    pendingRoll: { action: 'reaction-roll', body: { request: { pressure: 4, resist: false } } },
  },
]

async function setUp(target: Target): Promise<{ auth: Auth; ids: Ids; pendingEventId: string }> {
  const campaign = await createCampaign(app, target.ruleset)
  const { character, event } = await createCharacter(app, campaign.campaign, campaign.auth, {
    name: 'Target',
    sheet:
      target.ruleset === 'shock-meters'
        ? {
            identities: [{ name: 'Soldier', rating: 45, features: [{ type: 'resists-shock', meter: 'violence' }] }],
            passions: { fear: { text: 'Being forgotten' } },
          }
        : {},
  })
  const ids = { campaignId: campaign.campaign.id, characterId: character.id }
  let pendingEventId = event.id
  if (target.pendingRoll) {
    pendingEventId = created(
      await act(app, campaign.auth, ids, target.pendingRoll.action, target.pendingRoll.body),
      'the setup roll',
    ).event.id
  }
  return { auth: campaign.auth, ids, pendingEventId }
}

for (const target of TARGETS) {
  t.test(`${target.name}: hostile bodies never yield 5xx and never leave a partial write`, async (t) => {
    const { auth, ids, pendingEventId } = await setUp(target)
    let baseline = await snapshot(ids)
    const seen = new Map<number, number>()

    await fc.assert(
      fc.asyncProperty(
        hostileBody(target.validRequest),
        fc.option(fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme-ascii' })),
        async (payload, idempotencyKey) => {
          const res = await app.inject({
            method: 'POST',
            url: target.url(ids, pendingEventId),
            headers: {
              ...auth,
              'content-type': 'application/json',
              ...(idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey }),
            },
            payload,
          })
          seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1)
          if (res.statusCode >= 500) throw new Error(`${res.statusCode} for ${payload.slice(0, 300)}: ${res.body}`)
          if (res.statusCode < 300) {
            // A hostile body that happens to be a valid command is simply carried out.
            baseline = await snapshot(ids)
            return
          }
          if (!String(res.headers['content-type']).startsWith(PROBLEM)) {
            throw new Error(`${res.statusCode} is not problem details: ${String(res.headers['content-type'])}`)
          }
          const problem = res.json<{ status: number; detail: string }>()
          if (problem.status !== res.statusCode || typeof problem.detail !== 'string') {
            throw new Error(`malformed problem: ${res.body}`)
          }
          const after = await snapshot(ids)
          if (JSON.stringify(after) !== JSON.stringify(baseline)) {
            throw new Error(
              `a rejected request (${res.statusCode}) changed the database: ${JSON.stringify(baseline)} → ${JSON.stringify(after)}`,
            )
          }
        },
      ),
      { numRuns: RUNS },
    )
    t.pass(
      `${RUNS} hostile bodies answered with ${[...seen].map(([status, count]) => `${count}× ${status}`).join(', ')}`,
    )
    t.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false, 'Object.prototype is clean')
    t.equal(({} as { isAdmin?: unknown }).isAdmin, undefined, 'no object gained an isAdmin')
    const report = await audit(app, auth, ids)
    t.ok(report.consistent, `the history still rebuilds the sheet (${JSON.stringify(report.divergence)})`)
  })
}

t.test('a body over the size limit is 413 as problem details', async (t) => {
  const { auth, ids } = await setUp(TARGETS[0]!)
  const before = await snapshot(ids)
  const res = await act(app, auth, ids, 'stress-check', {
    request: { meter: 'violence', rank: 5, cause: 'x'.repeat(300 * 1024) },
  })
  t.equal(res.statusCode, 413, '413 Content Too Large')
  t.match(res.headers['content-type'], PROBLEM, 'as problem details')
  t.same(await snapshot(ids), before, 'nothing was written')
})

t.test('hostile path parameters are 400, 404 or 414 as problem details, never 5xx', async (t) => {
  const { auth, ids } = await setUp(TARGETS[0]!)
  const before = await snapshot(ids)
  const paths = [
    `/v1/campaigns/${ids.campaignId}/characters/not-a-uuid/stress-check`,
    `/v1/campaigns/${ids.campaignId}/characters/${'9'.repeat(5000)}/stress-check`,
    `/v1/campaigns/${ids.campaignId}/characters/%00/stress-check`,
    `/v1/campaigns/${ids.campaignId}/characters/%E0%A4%A/stress-check`,
    `/v1/campaigns/${ids.campaignId}/characters/__proto__/stress-check`,
    `/v1/campaigns/${ids.campaignId}/characters/${ids.characterId}/__proto__`,
    `/v1/campaigns/${ids.campaignId}/events/constructor/decision`,
    `/v1/campaigns/${ids.campaignId}/events/${'%F0%9F%92%A5'.repeat(50)}/decision`,
  ]
  for (const url of paths) {
    const res = await app.inject({ method: 'POST', url, headers: auth, payload: { request: {} } })
    t.ok([400, 404, 414].includes(res.statusCode), `${url.slice(0, 90)} → ${res.statusCode}`)
    t.match(res.headers['content-type'], PROBLEM, 'as problem details')
  }
  t.same(await snapshot(ids), before, 'nothing was written')
})

/** `depth` objects (or arrays) inside one another, written as text: JSON.stringify would recurse. */
const nested = (depth: number, arrays = false) =>
  arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)

/** A free-form field (a sheet, settings, a request) of every kind of route holding `inner` levels. */
function freeFormBodies(auth: Auth, ids: Ids, inner: number) {
  return [
    {
      name: 'a stateless resolve route, without a key',
      method: 'POST' as const,
      url: '/v1/resolve/shock-meters/stress-check',
      headers: {},
      payload: `{"sheet":${nested(inner)},"request":{"meter":"violence","rank":1}}`,
    },
    {
      name: 'a campaign settings update',
      method: 'PATCH' as const,
      url: `/v1/campaigns/${ids.campaignId}`,
      headers: auth,
      payload: `{"settings":${nested(inner)}}`,
    },
    {
      name: 'a merge patch of a sheet',
      method: 'PATCH' as const,
      url: characterUrl(ids),
      headers: auth,
      payload: `{"sheet":${nested(inner)}}`,
    },
    {
      name: 'a roll with an Idempotency-Key',
      method: 'POST' as const,
      url: `${characterUrl(ids)}/stress-check`,
      headers: { ...auth, 'idempotency-key': `deep-${inner}` },
      payload: `{"request":${nested(inner, true)}}`,
    },
  ]
}

t.test('a body nested 10,000 levels deep is 400 BODY_TOO_DEEP on every kind of route', async (t) => {
  const { auth, ids } = await setUp(TARGETS[0]!)
  const before = await snapshot(ids)
  for (const { name, method, url, headers, payload } of freeFormBodies(auth, ids, 10_000)) {
    const res = await app.inject({ method, url, headers: { ...headers, 'content-type': 'application/json' }, payload })
    t.equal(res.statusCode, 400, `${name}: 400`)
    t.match(res.headers['content-type'], PROBLEM, `${name}: as problem details`)
    t.match(
      res.json(),
      { code: 'BODY_TOO_DEEP', detail: 'the JSON body is nested deeper than 64 levels' },
      `${name}: the problem says why`,
    )
  }
  t.same(await snapshot(ids), before, 'nothing was written')
})

t.test('a body 64 levels deep is judged by its schema and the rules, never 5xx; 65 levels is too deep', async (t) => {
  const { auth, ids } = await setUp(TARGETS[0]!)
  // The free-form field itself sits one level down, inside the body object.
  for (const { name, method, url, headers, payload } of freeFormBodies(auth, ids, 63)) {
    const res = await app.inject({ method, url, headers: { ...headers, 'content-type': 'application/json' }, payload })
    t.ok(res.statusCode < 500, `${name}: ${res.statusCode}, not 5xx`)
    t.not(res.json().code, 'BODY_TOO_DEEP', `${name}: not refused for its depth`)
  }
  for (const { name, method, url, headers, payload } of freeFormBodies(auth, ids, 64)) {
    const res = await app.inject({ method, url, headers: { ...headers, 'content-type': 'application/json' }, payload })
    t.equal(res.json().code, 'BODY_TOO_DEEP', `${name}: one level more is refused`)
  }
})
