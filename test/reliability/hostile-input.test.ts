import fc from 'fast-check'
import t from 'tap'
import { MAX_JSON_DEPTH } from '../../src/lib/json-limits.js'
import { bearer, createCampaign, createCharacter, mintPlayerKey } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { act, created, provided } from '../helpers/commands.js'
import { engine } from '../helpers/database.js'
import { LONG, problemFault, scale } from '../helpers/reliability.js'
import { createWebhook } from '../helpers/webhooks.js'

const REQUESTS = scale(10_000, 50_000)
/** The database is compared with its state before the run after every this many requests. */
const CHECK_EVERY = 500

// The dispatcher is off: nothing may change the database but the requests themselves.
const app = await buildTestApp(t, { WEBHOOK_DISPATCHER: 'off', WEBHOOK_ALLOW_PRIVATE: 'true' })

// ---------------------------------------------------------------- the world the requests aim at

const shock = await createCampaign(app, 'shock-meters')
const trauma = await createCampaign(app, 'trauma-table')
const reaction = await createCampaign(app, 'reaction-rolls')
const foreign = await createCampaign(app, 'shock-meters')
const tables = await Promise.all(
  [shock, trauma, reaction].map(async (campaign) => {
    const { character } = await createCharacter(app, campaign.campaign, campaign.auth)
    const ids = { campaignId: campaign.campaign.id, characterId: character.id }
    const webhook = await createWebhook(app, ids.campaignId, campaign.auth, { url: 'http://127.0.0.1:9/hooks' })
    const player = await mintPlayerKey(app, campaign.campaign, campaign.auth, [character.id])
    return { campaign, ids, webhook, player }
  }),
)
// A pending decision (a retrievable reaction roll) and the webhook delivery its event queued.
const reactionTable = tables[2]!
const pending = created(
  await act(app, reaction.auth, reactionTable.ids, 'reaction-roll', {
    request: { ability: 'agility', pressure: 6 },
    dice: provided(4),
  }),
  'a pending reaction roll',
).event
const deliveries = await app.inject({
  url: `/v1/campaigns/${reactionTable.ids.campaignId}/webhooks/${reactionTable.webhook.id}/deliveries`,
  headers: reaction.auth,
})
const deliveryId = deliveries.json<{ data: { id: string }[] }>().data[0]!.id
const revoked = await mintPlayerKey(app, reaction.campaign, reaction.auth, [reactionTable.ids.characterId])
await app.inject({
  method: 'DELETE',
  url: `/v1/campaigns/${reactionTable.ids.campaignId}/keys/${revoked.key.id}`,
  headers: reaction.auth,
})

/** A digest of every row of every table: any write at all changes it. */
const TABLES = [
  'campaigns',
  'api_keys',
  'characters',
  'roll_events',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_attempts',
  'idempotency_records',
]
async function digest(): Promise<string> {
  const sql = `SELECT ${TABLES.map(
    (table) => `(SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM "${table}" t) AS "${table}"`,
  ).join(', ')}`
  const [row] = await app.db.withSession((session) => session.query<Record<string, string>>(sql))
  return JSON.stringify(row)
}

// ---------------------------------------------------------------- the routes, from the contract itself

interface Operation {
  method: string
  path: string
  params: string[]
  query: string[]
  example: unknown
  hasBody: boolean
}

const document = app.swagger() as {
  paths: Record<string, Record<string, any>>
  components: { schemas: Record<string, any> }
}
const operations: Operation[] = []
for (const [path, methods] of Object.entries(document.paths)) {
  // A well-formed request to the live stream never ends; it has its own tests.
  if (path.endsWith('/events/stream')) continue
  for (const [method, operation] of Object.entries(methods)) {
    const content = operation.requestBody?.content?.['application/json']
    const schema = content?.schema?.$ref
      ? document.components.schemas[content.schema.$ref.split('/').pop()]
      : content?.schema
    const examples = content?.examples ?? schema?.examples ?? (content?.example ? [content.example] : undefined)
    operations.push({
      method: method.toUpperCase(),
      path,
      params: [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!),
      query: (operation.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name),
      example: Array.isArray(examples) ? examples[0] : (examples ?? (content ? {} : undefined)),
      hasBody: content !== undefined,
    })
  }
}

// ---------------------------------------------------------------- hostile values

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']

const hugeNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 2, -(2 ** 63), 1e-320, 0.5, -0, 4.000000000000001, 10 ** 21),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
)

const unicode = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 100 }),
  fc.constantFrom(
    '\u0000',
    '\ud800',
    '\u202e\u0645violence',
    'ｖｉｏｌｅｎｃｅ',
    'violence\u0000',
    'Ⅳ',
    '１０',
    '🎲'.repeat(500),
  ),
)

const scalar = fc.oneof(
  hugeNumber,
  unicode,
  fc.constantFrom(null, true, false, '', 0, -1, [], {}),
  fc.string({ maxLength: 12 }),
)

/** `depth` arrays or objects inside one another, as text (JSON.stringify would recurse). */
const nesting = (depth: number, arrays: boolean, key = 'x') =>
  arrays ? '['.repeat(depth) + ']'.repeat(depth) : `{"${key}":`.repeat(depth) + '1' + '}'.repeat(depth)

/** Nested `depth` levels deep, in arrays or objects: up to a depth that fills most of the body limit. */
const deep = fc
  .tuple(fc.integer({ min: 50, max: 100_000 }), fc.boolean(), fc.constantFrom('request', 'x'))
  .map(([depth, arrays, key]) => nesting(depth, arrays, key))

/** Stands in for a deep value in `mutate`, then is replaced by its text. */
const DEEP_MARK = 'deep-nesting-goes-here'

const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 2, arbitrary: fc.anything({ maxDepth: 3, withObjectString: true, withNullPrototype: true }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 8 })), scalar, {
      maxKeys: 4,
    }),
  },
)

/** Replaces one leaf (or adds one field) somewhere in the example, keeping the rest valid. */
function mutate(example: unknown, path: number[], replacement: unknown): unknown {
  if (example === null || typeof example !== 'object') return replacement
  const entries = Array.isArray(example) ? example.map((v, i) => [String(i), v] as const) : Object.entries(example)
  if (entries.length === 0 || path.length === 0) return replacement
  const index = path[0]! % (entries.length + 1)
  const copy: any = Array.isArray(example) ? [...example] : { ...example }
  if (index === entries.length) {
    // A field the schema does not know, inside the structure.
    if (!Array.isArray(copy)) copy[`extra${path.length}`] = replacement
    return copy
  }
  const [key, inner] = entries[index]!
  copy[key] = mutate(inner, path.slice(1), replacement)
  return copy
}

interface Body {
  text: string
  contentType: string | undefined
  /** Why this body can never be accepted, or null when it might be. */
  defect: string | null
}

const json = (text: string, defect: string | null): Body => ({ text, contentType: 'application/json', defect })

const body = (operation: Operation): fc.Arbitrary<Body> => {
  const example = operation.example ?? {}
  return fc.oneof(
    // The example with one value made hostile: may still be valid.
    fc
      .tuple(fc.array(fc.nat(), { maxLength: 4 }), value)
      .map(([path, v]) => json(JSON.stringify(mutate(example, path, v)) ?? 'null', null)),
    // An unknown top-level field: bodies are validated strictly.
    fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), value).map(([key, v]) =>
      // (undefined would vanish from the JSON, and with it the defect)
      json(JSON.stringify({ ...example, [`unknown_${key}`]: v ?? null }), 'unknown field'),
    ),
    // Provided dice with more faces than any resolution rolls: the surplus is recorded as unused
    // (a VTT may roll before it knows what is needed), so the body may be accepted.
    fc.constant(json(JSON.stringify({ ...example, dice: { source: 'provided', faces: Array(100).fill(1) } }), null)),
    // Dice that cannot exist.
    fc
      .constantFrom(
        { source: 'provided', faces: [0] },
        { source: 'provided', faces: [101] },
        { source: 'seeded' },
        { source: 'loaded' },
        { source: 'provided' },
      )
      .map((dice) => json(JSON.stringify({ ...example, dice }), 'invalid dice')),
    // Anything at all, at the top.
    value.map((v) =>
      json(
        JSON.stringify(v) ?? 'null',
        v !== null && typeof v === 'object' && !Array.isArray(v) ? null : 'not an object',
      ),
    ),
    // Deep nesting, as the body or as its request, or anywhere in the example (a sheet, settings).
    deep.map((nested) => json(nested, 'deep nesting')),
    deep.map((nested) => json(`{"request":${nested}}`, null)),
    fc
      .tuple(fc.array(fc.nat(), { maxLength: 4 }), fc.integer({ min: 1, max: 100_000 }), fc.boolean())
      .map(([path, depth, arrays]) =>
        json(
          JSON.stringify(mutate(example, path, DEEP_MARK)).replace(`"${DEEP_MARK}"`, nesting(depth, arrays)),
          depth > MAX_JSON_DEPTH ? 'deep nesting' : null,
        ),
      ),
    // Prototype pollution keys JSON.stringify cannot write.
    fc
      .constantFrom(...PROTO_KEYS)
      .map((key) => json(`{"${key}":{"polluted":true},"request":{"${key}":{"isAdmin":true}}}`, null)),
    // Over the body limit: about 1 MB, or just past the 256 KiB boundary.
    fc
      .tuple(
        fc.oneof(fc.integer({ min: 900_000, max: 1_100_000 }), fc.integer({ min: 262_200, max: 270_000 })),
        fc.constantFrom('x', 'é', '🎲', '\\u0000'),
      )
      .map(([size, unit]) =>
        json(`{"request":{"cause":"${unit.repeat(Math.ceil(size / unit.length))}"}}`, 'too large'),
      ),
    // Not JSON at all, or not declared as JSON.
    fc
      .constantFrom('', '{', '{"request":', '[1,2', 'NaN', '{"a":1}}', '\u0000', '{"request":{}}'.padEnd(40, ','))
      .map((text) => json(text, 'malformed JSON')),
    fc
      .constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
      )
      .map((contentType) => ({ text: JSON.stringify(example), contentType, defect: 'wrong content type' })),
    fc
      .constantFrom('application/json; charset=utf-16', 'Application/JSON', 'application/json;;', undefined)
      .map((contentType) => ({ text: JSON.stringify(example), contentType, defect: null })),
  )
}

const HOSTILE_PARAM = fc.oneof(
  fc.constantFrom(
    'not-a-uuid',
    '__proto__',
    'constructor',
    '%00',
    '..%2F..%2Fetc',
    '%E0%A4%A',
    '9'.repeat(5000),
    'null',
    '-1',
  ),
  fc.uuid({ version: 7 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).map(encodeURIComponent),
)

const HOSTILE_QUERY = fc.oneof(
  fc.constantFrom(
    '-1',
    '0',
    '1e308',
    '101',
    '1000000',
    'NaN',
    '18446744073709551616',
    '',
    'true',
    'maybe',
    '%00',
    '[]',
  ),
  fc.string({ unit: 'grapheme', maxLength: 300 }).map(encodeURIComponent),
  fc.uuid({ version: 7 }),
)

type Auth = 'gm' | 'player' | 'foreign' | 'revoked' | 'garbage' | 'none'
const AUTHS: Record<Exclude<Auth, 'none'>, (table: number) => string> = {
  gm: (table) => [shock, trauma, reaction][table]!.gmKey.key,
  player: (table) => tables[table]!.player.key.key,
  foreign: () => foreign.gmKey.key,
  revoked: () => revoked.key.key,
  garbage: () => 'nrv_gm_' + 'A'.repeat(43),
}

interface HostileRequest {
  method: string
  url: string
  headers: Record<string, string>
  payload: string | undefined
  mutating: boolean
  defects: string[]
}

const request: fc.Arbitrary<HostileRequest> = fc
  .tuple(fc.constantFrom(...operations), fc.nat({ max: 2 }))
  .chain(([operation, table]) =>
    fc
      .record({
        auth: fc.constantFrom<Auth>('gm', 'gm', 'gm', 'gm', 'player', 'foreign', 'revoked', 'garbage', 'none'),
        // One path parameter in five is hostile; the rest lead to real records, so requests reach the rules.
        params: fc.array(
          fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: HOSTILE_PARAM }),
          {
            minLength: operation.params.length,
            maxLength: operation.params.length,
          },
        ),
        query: fc.dictionary(fc.constantFrom(...operation.query, 'unknown', 'limit'), HOSTILE_QUERY, { maxKeys: 3 }),
        body: operation.hasBody ? body(operation) : fc.constant(undefined),
        idempotencyKey: fc.option(fc.oneof(fc.string({ maxLength: 300 }), unicode), { freq: 3 }),
        ifMatch: fc.option(fc.oneof(fc.constantFrom('"1"', 'W/"1"', '*', '"-1"', '"99999999999999999999"'), unicode), {
          freq: 3,
        }),
      })
      .map(({ auth, params, query, body, idempotencyKey, ifMatch }) => {
        const { ids, webhook } = tables[table]!
        const valid: Record<string, string> = {
          campaignId: ids.campaignId,
          characterId: ids.characterId,
          eventId: table === 2 ? pending.id : ids.characterId,
          webhookId: webhook.id,
          deliveryId,
          keyId: tables[table]!.player.key.id,
          ruleset: ['shock-meters', 'trauma-table', 'reaction-rolls'][table]!,
        }
        const defects: string[] = []
        let path = operation.path
        operation.params.forEach((name, index) => {
          const hostile = params[index]
          if (hostile !== null && hostile !== undefined) defects.push(`hostile ${name}`)
          path = path.replace(`{${name}}`, hostile ?? valid[name] ?? 'x')
        })
        const search = Object.entries(query)
          .map(([key, v]) => `${key}=${v}`)
          .join('&')
        // Stateless resolution writes nothing, whatever it is sent; everything else that is not a GET may.
        const mutating = operation.method !== 'GET' && !operation.path.startsWith('/v1/resolve/')
        // Routes under a campaign need its key; the rest are public (no ADMIN_TOKEN is set here).
        const needsKey = operation.params.includes('campaignId')
        let authorization = auth === 'none' ? undefined : bearer(AUTHS[auth](table)).authorization
        if (needsKey && auth !== 'gm' && auth !== 'player') defects.push(`${auth} key`)
        if (body?.defect) defects.push(body.defect)
        let payload = body?.text
        let contentType = body?.contentType
        // Every writing request is built to be refused; the test then proves the refusal wrote nothing.
        if (mutating && defects.length === 0) {
          if (needsKey) {
            authorization = bearer(AUTHS.garbage(table)).authorization
            defects.push('garbage key (forced)')
          } else {
            payload = JSON.stringify({ ...(operation.example as object), unknown: payload ?? null })
            contentType = 'application/json'
            defects.push('unknown field (forced)')
          }
        }
        return {
          method: operation.method,
          url: search ? `${path}?${search}` : path,
          headers: {
            ...(authorization ? { authorization } : {}),
            ...(contentType ? { 'content-type': contentType } : {}),
            ...(idempotencyKey !== null ? { 'idempotency-key': idempotencyKey } : {}),
            ...(ifMatch !== null ? { 'if-match': ifMatch } : {}),
          },
          payload,
          mutating,
          defects,
        }
      }),
  )

// ---------------------------------------------------------------- the run

t.test(
  `${REQUESTS} generated hostile requests across ${operations.length} operations on ${engine}: no 5xx, problem details every time, nothing written${LONG ? ' (long form)' : ''}`,
  async (t) => {
    const before = await digest()
    const statuses = new Map<number, number>()
    const byDefect = new Map<string, number>()
    let sent = 0
    let mutatingSent = 0
    let bytes = 0
    const started = performance.now()

    await fc.assert(
      fc.asyncProperty(request, async (hostile) => {
        const res = await app.inject({
          method: hostile.method as 'GET',
          url: hostile.url,
          headers: hostile.headers,
          ...(hostile.payload === undefined ? {} : { payload: hostile.payload }),
        })
        sent++
        bytes += hostile.payload?.length ?? 0
        if (hostile.mutating) mutatingSent++
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
        for (const defect of hostile.defects) byDefect.set(defect, (byDefect.get(defect) ?? 0) + 1)
        const describe = () =>
          `${hostile.method} ${hostile.url.slice(0, 200)} [${hostile.defects.join(', ')}] ${(hostile.payload ?? '').slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 300)}`
        if (res.statusCode >= 500) throw new Error(`5xx: ${describe()}`)
        if (hostile.mutating && res.statusCode < 400) throw new Error(`a hostile request was accepted: ${describe()}`)
        if (res.statusCode >= 400) {
          const fault = problemFault({
            status: res.statusCode,
            headers: { 'content-type': String(res.headers['content-type'] ?? '') },
            body: res.body,
          })
          if (fault) throw new Error(`${fault}: ${describe()}`)
        }
        if (sent % CHECK_EVERY === 0 && (await digest()) !== before) {
          throw new Error(
            `the database changed within requests ${sent - CHECK_EVERY + 1}..${sent}; last: ${describe()}`,
          )
        }
      }),
      { numRuns: REQUESTS, endOnFailure: true },
    )
    const seconds = (performance.now() - started) / 1000

    t.equal(
      await digest(),
      before,
      `the database is exactly as before, row for row, after ${mutatingSent} refused writes`,
    )
    t.notOk(
      [...statuses.keys()].some((status) => status >= 500),
      'no 5xx at all',
    )
    t.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false, 'Object.prototype is clean')
    t.equal(({} as { isAdmin?: unknown }).isAdmin, undefined, 'no object gained an isAdmin')
    t.comment(
      `${sent} requests (${mutatingSent} writes, ${(bytes / 1e6).toFixed(0)} MB of bodies) in ${seconds.toFixed(1)} s (${(sent / seconds).toFixed(0)}/s)`,
    )
    t.comment(
      `statuses: ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${n}× ${s}`)
        .join(', ')}`,
    )
    t.comment(
      `defects: ${[...byDefect]
        .sort(([, a], [, b]) => b - a)
        .map(([d, n]) => `${n}× ${d}`)
        .join(', ')}`,
    )
  },
)
