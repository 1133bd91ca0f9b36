import fc from 'fast-check'
import t from 'tap'
import { createCampaign, createCharacter, mintPlayerKey, type TestCampaign } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { engine } from '../helpers/database.js'
import { createWebhook } from '../helpers/webhooks.js'
import { ResponseChecks, type Answer, type Operation } from './response-checks.js'
import { bodyText, HOSTILE_NUMBERS, HOSTILE_TEXT, SchemaValues, type Schema } from './schema-values.js'

/**
 * The contract fuzzer, in place of Schemathesis (which needs PyPI): every operation of the
 * served OpenAPI document gets requests generated from its own schemas — valid ones, so they
 * reach the rules and the database, and ones with a hostile part — and every answer is checked
 * as Schemathesis checks it (test/contract/response-checks.ts). `npm run fuzz` runs it longer.
 */
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS || 20)
const SEED = Number(process.env.FUZZ_SEED || 27)

const app = await buildTestApp(t, { WEBHOOK_DISPATCHER: 'off', WEBHOOK_ALLOW_PRIVATE: 'true' })
const document = app.swagger() as Schema
const values = new SchemaValues(document.components.schemas)
const checks = new ResponseChecks(document)

// ---------------------------------------------------------------- a world deep enough to reach the rules

const RULESETS = ['shock-meters', 'trauma-table', 'reaction-rolls'] as const

interface World {
  campaign: TestCampaign
  /** Real ids for each path parameter, so that requests reach existing records. */
  ids: Record<string, string>
  playerKey: string
}

async function world(ruleset: string): Promise<World> {
  const campaign = await createCampaign(app, ruleset)
  const campaignId = campaign.campaign.id
  const webhook = await createWebhook(app, campaignId, campaign.auth, { url: 'http://127.0.0.1:9/hooks' })
  const spareWebhook = await createWebhook(app, campaignId, campaign.auth, { url: 'http://127.0.0.1:9/spare' })
  const { character, event } = await createCharacter(app, campaign.campaign, campaign.auth)
  const { character: spare } = await createCharacter(app, campaign.campaign, campaign.auth, { name: 'Spare' })
  const player = await mintPlayerKey(app, campaign.campaign, campaign.auth, [character.id])
  const deliveries = await app.inject({
    url: `/v1/campaigns/${campaignId}/webhooks/${webhook.id}/deliveries`,
    headers: campaign.auth,
  })
  if (deliveries.statusCode !== 200) throw new Error(`listing deliveries: ${deliveries.statusCode} ${deliveries.body}`)
  const deliveryId = deliveries.json<{ data: { id: string }[] }>().data[0]?.id ?? character.id
  return {
    campaign,
    playerKey: player.key.key,
    ids: {
      campaignId,
      characterId: character.id,
      eventId: event.id,
      webhookId: webhook.id,
      deliveryId,
      keyId: player.key.id,
      ruleset,
      // Closing, archiving or removing what the other requests aim at would leave them nothing to reach.
      'DELETE characterId': spare.id,
      'DELETE webhookId': spareWebhook.id,
    },
  }
}

const worlds = await Promise.all(RULESETS.map(world))
const archive = (
  await app.inject({ url: `/v1/campaigns/${worlds[0]!.ids.campaignId}/export`, headers: worlds[0]!.campaign.auth })
).body

// ---------------------------------------------------------------- the operations, from the served document

const operations: Operation[] = Object.entries(document.paths as Record<string, Record<string, Schema>>).flatMap(
  ([path, byMethod]) => Object.entries(byMethod).map(([method, operation]) => ({ method, path, operation })),
)

/** Which rule set an action belongs to, from the stateless routes: `/v1/resolve/{ruleset}/{action}`. */
const rulesetOfAction = new Map(
  operations.flatMap(({ path }) => {
    const [, ruleset, action] = /^\/v1\/resolve\/([^/]+)\/([^/]+)$/.exec(path) ?? []
    return ruleset && action ? [[action, RULESETS.indexOf(ruleset as never)] as const] : []
  }),
)

function worldsFor(path: string): number[] {
  const action = /\/characters\/\{characterId\}\/([^/]+)/.exec(path)?.[1]
  const index = action === undefined ? undefined : rulesetOfAction.get(action)
  return index === undefined ? [0, 1, 2] : [index]
}

const STREAM = '/v1/campaigns/{campaignId}/events/stream'
/**
 * Values the stream's parameters can never accept: its well-formed request opens a response
 * that never ends, so the fuzzer sends it only requests that must be refused, and checks the
 * refusals (`?after=1e309` opened it and then died).
 */
const STREAM_REFUSED_AFTER = ['Infinity', '-Infinity', '1e309', '-1e309', '1e400', 'NaN', 'x', '-1', '1.5', '']

// ---------------------------------------------------------------- requests

interface FuzzRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  url: string
  headers: Record<string, string>
  payload?: string
}

type Auth = 'gm' | 'player' | 'none' | 'garbage'
const AUTH: fc.Arbitrary<Auth> = fc.constantFrom<Auth>('gm', 'gm', 'gm', 'gm', 'gm', 'gm', 'player', 'none', 'garbage')

const asText = (value: unknown) => encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))

function parameterValue(parameter: Schema, real: string | undefined): fc.Arbitrary<string> {
  const schema = values.resolve(parameter.schema)
  const valid = values.valid(schema).map(asText)
  const numeric = schema.type === 'integer' || schema.type === 'number'
  const hostile = fc.constantFrom(...(numeric ? HOSTILE_NUMBERS : [...HOSTILE_TEXT, 'not-a-uuid']))
  return fc.oneof(
    ...(real === undefined ? [] : [{ weight: 12, arbitrary: fc.constant(real) }]),
    { weight: 2, arbitrary: valid },
    { weight: numeric ? 2 : 1, arbitrary: hostile },
  )
}

/** Header text is ASCII: anything else cannot be sent at all. */
function headerValue(parameter: Schema): fc.Arbitrary<string> {
  const valid = values
    .valid(parameter.schema)
    .map((value) => (typeof value === 'string' ? value : JSON.stringify(value)))
  const hostile = fc.constantFrom(...HOSTILE_TEXT.filter((text) => /^[\x20-\x7e]*$/.test(text)), '"1"', 'W/"1"', '*')
  return fc
    .oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: hostile })
    .filter((text) => /^[\x20-\x7e]*$/.test(text))
}

function bodyOf(operation: Schema): fc.Arbitrary<{ text: string; contentType?: string } | undefined> {
  const content = operation.requestBody?.content as Record<string, Schema> | undefined
  if (content === undefined) return fc.constant(undefined)
  if ('application/x-ndjson' in content) {
    // An import is given small archives: a real one, one with a line changed or dropped, or hostile lines.
    const lines = archive.split('\n').filter(Boolean)
    return fc
      .oneof(
        fc.constant(archive),
        fc.tuple(fc.nat(), fc.string({ maxLength: 3 })).map(([index, text]) => {
          const changed = [...lines]
          changed[index % lines.length] = text + changed[index % lines.length]!.slice(text.length)
          return changed.join('\n') + '\n'
        }),
        fc.nat().map((index) => lines.filter((_, at) => at !== index % lines.length).join('\n') + '\n'),
        fc
          .array(values.hostile(content['application/x-ndjson'].schema?.contentSchema), { maxLength: 4 })
          .map((hostile) => hostile.map((line) => bodyText(line)).join('\n')),
      )
      .map((text) => ({ text, contentType: 'application/x-ndjson' }))
  }
  const schema = content['application/json']?.schema as Schema
  return fc
    .tuple(
      fc.oneof(
        { weight: 2, arbitrary: values.valid(schema) },
        // Generated dice rarely fit what a roll needs: without them Nerve rolls, and the request reaches the record.
        { weight: 2, arbitrary: values.valid(schema).map(withoutDice) },
        { weight: 2, arbitrary: values.hostile(schema) },
      ),
      fc.constantFrom<string | undefined>(
        ...Array<string>(12).fill('application/json'),
        'application/json; charset=utf-8',
        'text/plain',
        undefined,
      ),
    )
    .map(([value, contentType]) => ({ text: bodyText(value), contentType }))
}

function withoutDice(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('dice' in body)) return body
  const { dice: _dice, ...rest } = body as Record<string, unknown>
  return rest
}

function requestsFor({ method, path, operation }: Operation): fc.Arbitrary<FuzzRequest> {
  const parameters = (operation.parameters ?? []) as Schema[]
  const byPlace = (place: string) => parameters.filter((parameter) => parameter.in === place)
  const isStream = path === STREAM
  return fc
    .record({
      world: fc.constantFrom(...worldsFor(path)),
      auth: AUTH,
      seed: fc.nat(),
      body: bodyOf(operation),
      query: fc.tuple(
        ...byPlace('query').map((parameter) =>
          fc.option(
            parameterValue(parameter, undefined).map((value) => `${parameter.name}=${value}`),
            { freq: 3 },
          ),
        ),
        fc.option(fc.constant('unknownParameter=1'), { freq: 8 }),
      ),
      headers: fc.tuple(
        ...byPlace('header').map((parameter) =>
          fc.option(
            headerValue(parameter).map((value) => [parameter.name, value] as const),
            { freq: 2 },
          ),
        ),
      ),
      streamRefusal: fc.constantFrom(...STREAM_REFUSED_AFTER),
    })
    .chain((drawn) => {
      const { ids } = worlds[drawn.world]!
      return fc
        .tuple(
          ...byPlace('path').map((parameter) =>
            parameterValue(
              parameter,
              method === 'delete' && parameter.name === 'campaignId' && !path.endsWith('{campaignId}')
                ? ids.campaignId
                : method === 'delete' && path.endsWith(`{${parameter.name}}`)
                  ? ids[`DELETE ${parameter.name}`]
                  : ids[parameter.name],
            ).map((value) => [parameter.name, value] as const),
          ),
        )
        .map((pathValues) => ({ ...drawn, pathValues }))
    })
    .map(({ world, auth, body, query, headers, pathValues, streamRefusal }) => {
      const { campaign, playerKey } = worlds[world]!
      let url = path
      for (const [name, value] of pathValues) url = url.replace(`{${name}}`, value)
      const search = query.filter((part) => part !== null)
      if (isStream) search.push(`after=${streamRefusal}`)
      const sent: Record<string, string> = Object.fromEntries(headers.filter((header) => header !== null))
      if (auth === 'gm') sent.authorization = campaign.auth.authorization
      if (auth === 'player') sent.authorization = `Bearer ${playerKey}`
      if (auth === 'garbage') sent.authorization = `Bearer nrv_gm_${'A'.repeat(43)}`
      if (body?.contentType !== undefined) sent['content-type'] = body.contentType
      return {
        method: method.toUpperCase() as FuzzRequest['method'],
        url: search.length > 0 ? `${url}?${search.join('&')}` : url,
        headers: sent,
        ...(body === undefined ? {} : { payload: body.text }),
      }
    })
}

// ---------------------------------------------------------------- the run

const STREAM_OPENED = { statusCode: 200, headers: {}, body: '' }

/** The stream's answer, without waiting for the end of a stream that opened (which never comes). */
async function refusalOf(request: FuzzRequest): Promise<Answer> {
  const response = await app.inject({ ...request, payloadAsStream: true })
  const body = response.stream()
  if (response.statusCode === 200) {
    body.destroy()
    return STREAM_OPENED
  }
  const chunks: Buffer[] = []
  for await (const chunk of body) chunks.push(Buffer.from(chunk))
  return { statusCode: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }
}

const describe = (request: FuzzRequest) =>
  `${request.method} ${request.url.slice(0, 300)} ${JSON.stringify({ ...request.headers, authorization: undefined })}` +
  (request.payload === undefined ? '' : ` body: ${request.payload.slice(0, 300)}`)

t.test(
  `every operation of the served OpenAPI document answers ${RUNS_PER_OPERATION} generated requests as documented on ${engine} (seed ${SEED})`,
  async (t) => {
    const started = performance.now()
    const statuses = new Map<number, number>()
    let sent = 0
    for (const [index, operation] of operations.entries()) {
      const name = `${operation.method.toUpperCase()} ${operation.path}`
      const found = new Map<string, string>()
      for (const request of fc.sample(requestsFor(operation), { seed: SEED + index, numRuns: RUNS_PER_OPERATION })) {
        const answer = operation.path === STREAM ? await refusalOf(request) : await app.inject(request)
        sent++
        statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1)
        if (answer === STREAM_OPENED) {
          found.set('the stream opened for a request it must refuse', describe(request))
          continue
        }
        for (const problem of checks.problems(operation, answer)) {
          if (!found.has(problem)) found.set(problem, describe(request))
        }
      }
      t.same(
        [...found].map(([problem, request]) => `${problem}\n    after ${request}`),
        [],
        `${name} answers every generated request as documented`,
      )
    }
    const seconds = (performance.now() - started) / 1000
    t.comment(
      `${sent} requests over ${operations.length} operations in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    )
    t.ok(statuses.has(201) && statuses.has(200), 'valid requests got through to the rules and the database')
  },
)
