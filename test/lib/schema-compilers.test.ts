import fastJsonStringify, { type Schema } from 'fast-json-stringify'
import t from 'tap'
import Type from 'typebox'
import { forSerializing } from '../../src/lib/schema-compilers.js'
import { FreeObject, Uuid } from '../../src/schemas/common.js'
import { buildTestApp } from '../helpers/build-app.js'
import { exampleCharacter } from '../../src/rules/shock-meters/examples.js'

t.test('a union of plain types becomes a list of types; an object of any properties, any JSON', async (t) => {
  t.same(forSerializing(Type.Union([Uuid('The key.'), Type.Null()])), {
    type: ['string', 'null'],
    format: 'uuid',
    description: 'The key.',
  })
  t.same(forSerializing(Type.Union([Type.Literal('gm'), Type.Literal('player')])), { type: ['string'] })
  t.same(forSerializing(Type.Union([FreeObject('A sheet.'), Type.Null()])), {})
  t.same((forSerializing(Type.Object({ sheet: FreeObject('A sheet.') })) as { properties: unknown }).properties, {
    sheet: {},
  })
  const object = Type.Object({ name: Type.String() }, { additionalProperties: false })
  t.same(forSerializing(Type.Union([object, Type.Null()])), { ...object, type: ['object', 'null'] })
})

t.test('a union of references, or of values told apart by more than their type, is left as it is', async (t) => {
  const references = { anyOf: [{ $ref: 'Event#' }, { $ref: 'StreamEnd#' }] }
  t.same(forSerializing(references), references)
  const formats = Type.Union([Type.String({ format: 'date-time' }), Type.String(), Type.Null()])
  t.same(forSerializing(formats), formats)
  const examples = { type: 'object', additionalProperties: true, examples: [{ anyOf: [{ type: 'null' }] }] }
  t.same(forSerializing({ properties: { a: examples } }), { properties: { a: {} } }, 'data is not read as schemas')
})

t.test('every answer is the same JSON, byte for byte, with the union checks or without', async (t) => {
  const app = await buildTestApp(t)
  const shared = app.getSchemas() as Record<string, Schema>
  const serializers = (schema: unknown) => ({
    checked: fastJsonStringify(schema as Schema, { schema: shared }),
    plain: fastJsonStringify(forSerializing(schema) as Schema, {
      schema: Object.fromEntries(Object.entries(shared).map(([id, one]) => [id, forSerializing(one) as Schema])),
    }),
  })

  let examples = 0
  for (const [id, schema] of Object.entries(shared)) {
    const { examples: ofSchema = [] } = schema as { examples?: unknown[] }
    if (ofSchema.length === 0) continue
    const { checked, plain } = serializers({ $ref: `${id}#` })
    for (const example of ofSchema) {
      t.equal(plain(example), checked(example), `an example of ${id}`)
      examples++
    }
  }
  t.ok(examples > 20, `${examples} examples of the shared schemas`)

  const created = await app.inject({
    method: 'POST',
    url: '/v1/campaigns',
    payload: { name: 'C', ruleset: 'shock-meters' },
  })
  const { campaign, gmKey } = created.json()
  const headers = { authorization: `Bearer ${gmKey.key}` }
  const character = await app.inject({
    method: 'POST',
    url: `/v1/campaigns/${campaign.id}/characters`,
    headers,
    payload: { name: 'Vera', sheet: exampleCharacter },
  })
  const rolled = await app.inject({
    method: 'POST',
    url: `/v1/campaigns/${campaign.id}/characters/${character.json().character.id}/stress-check`,
    headers,
    payload: { request: { meter: 'violence', rank: 10 }, dice: { source: 'provided', faces: [1] } },
  })
  t.equal(rolled.statusCode, 201)
  const { checked, plain } = serializers({ $ref: 'CommandResult#' })
  for (const [what, answer] of [
    ['a creation', character],
    ['a roll', rolled],
  ] as const) {
    t.equal(plain(answer.json()), answer.body, `${what} as served`)
    t.equal(checked(answer.json()), answer.body, `${what} as the union checks write it`)
  }
})
