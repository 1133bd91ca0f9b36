import t from 'tap'
import { buildTestApp } from '../helpers/build-app.js'

const PROBLEM = 'application/problem+json'

// Stateless endpoints: one app serves every test.
const app = await buildTestApp(t)

interface OpenApiDocument {
  paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: { $ref?: string } }> } } }>
  components: { schemas: Record<string, { examples?: unknown[] }> }
}

interface FieldError {
  pointer: string
  detail: string
}

const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object })

const pointersOf = (body: { errors?: FieldError[] }) => (body.errors ?? []).map((error) => error.pointer)

const passions = {
  fear: { text: 'Being forgotten', flipFlopUsed: false },
  rage: { text: 'Bullies', flipFlopUsed: false },
  noble: { text: 'Protect my sister', flipFlopUsed: false },
}

const allMeters = (hardened: number) =>
  Object.fromEntries(
    ['helplessness', 'isolation', 'self', 'unnatural', 'violence'].map((meter) => [meter, { hardened, failed: 0 }]),
  )

t.test('every documented /v1/resolve example answers 200 with an outcome and a summary ("Try it out")', async (t) => {
  const document = (await app.inject({ url: '/docs/json' })).json<OpenApiDocument>()
  // The odds routes answer odds, not resolutions: test/routes/odds.test.ts tries their examples.
  const routes = Object.keys(document.paths).filter(
    (path) => path.startsWith('/v1/resolve/') && !path.endsWith('/odds'),
  )
  t.ok(routes.length >= 18, `the document lists every resolve route (${routes.length})`)
  for (const path of routes) {
    t.test(`POST ${path} with its documented example answers 200 as JSON`, async (t) => {
      const ref = document.paths[path]?.post?.requestBody?.content['application/json']?.schema.$ref
      t.ok(ref, 'the body is a named component')
      const name = ref!.replace('#/components/schemas/', '')
      const example = document.components.schemas[name]?.examples?.[0]
      t.ok(example, `${name} has an example`)
      const res = await post(path, example)
      t.equal(res.statusCode, 200, `200 OK (got ${res.statusCode}: ${res.body.slice(0, 300)})`)
      t.equal(res.headers['content-type'], 'application/json; charset=utf-8', 'the answer says it is JSON')
      const body = res.json()
      t.type(body.outcome, 'object', 'an outcome')
      t.type(body.summary, 'string', 'a summary')
      t.ok(body.summary.length > 0, 'the summary says something')
      t.ok(Array.isArray(body.dice), 'the dice are listed')
      t.type(body.sheet, 'object', 'the new sheet')
      t.ok('pending' in body, 'pending is always present (null or a decision)')

      // The rules may refuse to repeat a decision already settled (409/422), but the sheet itself must pass.
      const again = await post(path, { ...(example as object), sheet: body.sheet })
      t.not(
        again.json().code,
        'VALIDATION_FAILED',
        `the returned sheet passes validation when sent back (${again.body.slice(0, 300)})`,
      )
    })
  }
})

t.test('the same seed gives the same response twice', async (t) => {
  const body = {
    request: { meter: 'unnatural', rank: 6 },
    dice: { source: 'seeded', seed: 'same-seed' },
  }
  const first = await post('/v1/resolve/shock-meters/stress-check', body)
  const second = await post('/v1/resolve/shock-meters/stress-check', body)
  t.equal(first.statusCode, 200, 'the first call succeeds')
  t.same(second.json(), first.json(), 'the second call answers exactly the same')
  const trauma = {
    request: { modifier: 60, source: 'maddening', response: 'accept' },
    dice: { source: 'seeded', seed: 'same-seed' },
  }
  const a = await post('/v1/resolve/trauma-table/trauma-roll', trauma)
  const b = await post('/v1/resolve/trauma-table/trauma-roll', trauma)
  t.equal(a.statusCode, 200, 'a trauma roll succeeds')
  t.same(b.json(), a.json(), 'so does its repeat, identically (effect dice included)')
})

t.test('provided dice reproduce a server roll over HTTP', async (t) => {
  const cases = [
    { path: '/v1/resolve/shock-meters/stress-check', request: { meter: 'violence', rank: 5, passion: 'fear' } },
    {
      path: '/v1/resolve/trauma-table/trauma-roll',
      request: { modifier: 90, source: 'traumatic', response: 'accept' },
    },
    {
      path: '/v1/resolve/reaction-rolls/reaction-roll',
      request: { ability: 'agility', pressure: 6, advantage: true, retrieve: { decision: 'decline' } },
    },
  ]
  for (const { path, request } of cases) {
    const sheet = path.includes('shock-meters') ? { passions } : {}
    const server = await post(path, { sheet, request })
    t.equal(server.statusCode, 200, `${path}: the server roll succeeds`)
    const rolled = server.json()
    t.ok(rolled.dice.length > 0, `${path}: dice were rolled`)
    t.ok(
      rolled.dice.every((die: { source: string }) => die.source === 'server'),
      `${path}: rolled by the server`,
    )
    const faces = rolled.dice.map((die: { face: number }) => die.face)
    const replay = await post(path, { sheet, request, dice: { source: 'provided', faces } })
    t.equal(replay.statusCode, 200, `${path}: the replay succeeds`)
    const replayed = replay.json()
    t.same(replayed.outcome, rolled.outcome, `${path}: same outcome`)
    t.same(replayed.sheet, rolled.sheet, `${path}: same sheet`)
    t.same(replayed.summary, rolled.summary, `${path}: same summary`)
    t.same(
      replayed.dice.map((die: { face: number }) => die.face),
      faces,
      `${path}: same faces, now recorded as provided`,
    )
  }
})

t.test('a provided face out of range is 422 naming /body/dice/faces/0', async (t) => {
  const res = await post('/v1/resolve/reaction-rolls/reaction-roll', {
    request: { ability: 'agility', pressure: 4 },
    dice: { source: 'provided', faces: [7] },
  })
  t.equal(res.statusCode, 422, 'a 7 on a d6 is unprocessable')
  t.match(res.headers['content-type'], PROBLEM, 'problem+json')
  const body = res.json()
  t.equal(body.code, 'DICE_FACE_OUT_OF_RANGE', 'the rules refuse the face')
  t.same(pointersOf(body), ['/body/dice/faces/0'], 'the pointer names the first face')
  t.match(body.detail, /between 1 and 6/, 'the detail says the range')

  const zero = await post('/v1/resolve/shock-meters/stress-check', {
    request: { meter: 'self', rank: 3 },
    dice: { source: 'provided', faces: [0] },
  })
  t.equal(zero.statusCode, 422, 'a face 0 is refused by the schema')
  t.ok(pointersOf(zero.json()).includes('/body/dice/faces/0'), 'and named by its pointer')
})

t.test('too few provided faces is 422 naming the face; a surplus is kept as unused', async (t) => {
  const few = await post('/v1/resolve/reaction-rolls/reaction-roll', {
    request: { ability: 'agility', pressure: 4, advantage: true },
    dice: { source: 'provided', faces: [3] },
  })
  t.equal(few.statusCode, 422, 'too few faces')
  t.match(few.json(), { code: 'DICE_COUNT', errors: [{ pointer: '/body/dice/faces/1' }] }, 'the missing second face')
  const many = await post('/v1/resolve/reaction-rolls/reaction-roll', {
    request: { ability: 'agility', pressure: 4 },
    dice: { source: 'provided', faces: [3, 4] },
  })
  t.equal(many.statusCode, 200, 'too many faces: the VTT rolled before it knew')
  t.same(many.json().unusedFaces, [4], 'the face not used is answered as unused')
})

t.test('an unknown field in the request is 422 naming it', async (t) => {
  const res = await post('/v1/resolve/shock-meters/stress-check', {
    request: { meter: 'self', rank: 3, colour: 'red' },
  })
  t.equal(res.statusCode, 422, 'unknown fields are refused, not ignored')
  t.match(res.headers['content-type'], PROBLEM, 'problem+json')
  const body = res.json()
  t.equal(body.code, 'VALIDATION_FAILED', 'a validation failure')
  t.ok(pointersOf(body).includes('/body/request/colour'), `the pointer names the field (${pointersOf(body)})`)
  t.match(body.detail, 'colour', 'the detail names it too')

  const top = await post('/v1/resolve/shock-meters/stress-check', { request: { meter: 'self', rank: 3 }, extra: 1 })
  t.equal(top.statusCode, 422, 'an unknown top-level field too')
  t.ok(pointersOf(top.json()).includes('/body/extra'), 'named at /body/extra')
})

t.test('a wrong type is not coerced: rank "4" is 422', async (t) => {
  const res = await post('/v1/resolve/shock-meters/stress-check', { request: { meter: 'self', rank: '4' } })
  t.equal(res.statusCode, 422, '"4" is a string, not an integer')
  t.ok(pointersOf(res.json()).includes('/body/request/rank'), 'the pointer names the rank')
})

t.test('a rank 11 is 422 with pointer /body/request/rank', async (t) => {
  const res = await post('/v1/resolve/shock-meters/stress-check', { request: { meter: 'self', rank: 11 } })
  t.equal(res.statusCode, 422, 'ranks go from 1 to 10')
  t.match(res.headers['content-type'], PROBLEM, 'problem+json')
  const body = res.json()
  t.same(pointersOf(body), ['/body/request/rank'], 'only the rank is at fault')
  t.match(body.detail, '/body/request/rank', 'the detail names it')
})

t.test('a stress check while a response is pending is 409 naming the action to settle', async (t) => {
  const failed = await post('/v1/resolve/shock-meters/stress-check', {
    request: { meter: 'violence', rank: 4 },
    dice: { source: 'provided', faces: [88] },
  })
  t.equal(failed.statusCode, 200, 'the first check fails (88 against Fitness 60)')
  const { sheet, pending } = failed.json()
  t.equal(sheet.stressed?.response, 'pending', 'the response is pending on the sheet')
  t.same(
    pending,
    [{ action: 'stress-response', prompt: pending[0]?.prompt }],
    'the response names the settling action (no route: nothing is stored)',
  )

  const res = await post('/v1/resolve/shock-meters/stress-check', {
    sheet,
    request: { meter: 'self', rank: 2 },
    dice: { source: 'provided', faces: [50] },
  })
  t.equal(res.statusCode, 409, 'a further check waits (409)')
  t.match(res.headers['content-type'], PROBLEM, 'problem+json')
  const body = res.json()
  t.match(body, { status: 409, code: 'RESPONSE_PENDING' }, 'the code says a response is pending')
  t.match(body.detail, 'stress-response', 'the detail names stress-response')
})

t.test("a burned-out character's passion re-roll is 422 saying burned out", async (t) => {
  // Five hardened notches in each meter: 25 in all, burned out.
  const failed = await post('/v1/resolve/shock-meters/stress-check', {
    sheet: { meters: allMeters(5), passions },
    request: { meter: 'violence', rank: 6, passion: 'fear' },
    dice: { source: 'provided', faces: [90] },
  })
  t.equal(failed.statusCode, 200, 'the check is rolled and fails')
  t.equal(failed.json().sheet.burnedOut, true, 'the sheet says burned out')

  const res = await post('/v1/resolve/shock-meters/passion-reroll', {
    sheet: failed.json().sheet,
    request: { passion: 'fear' },
    dice: { source: 'provided', faces: [10] },
  })
  t.equal(res.statusCode, 422, 'the re-roll is refused (422)')
  t.match(res.headers['content-type'], PROBLEM, 'problem+json')
  const body = res.json()
  t.equal(body.code, 'BURNED_OUT', 'the code says burned out')
  t.match(body.detail, /burned out/, 'the detail says burned out')
})

t.test('stateless resolution writes nothing to the database', async (t) => {
  const count = async () => ({
    events: await app.db.prisma.rollEvent.count(),
    characters: await app.db.prisma.character.count(),
  })
  const before = await count()
  const calls = [
    post('/v1/resolve/shock-meters/stress-check', { request: { meter: 'self', rank: 3 } }),
    post('/v1/resolve/trauma-table/trauma-roll', { request: { modifier: 30, response: 'accept' } }),
    post('/v1/resolve/reaction-rolls/reaction-roll', { request: { ability: 'agility', pressure: 8 } }),
  ]
  for (const res of await Promise.all(calls)) t.equal(res.statusCode, 200, 'the resolution succeeds')
  t.same(await count(), before, 'no roll_events row and no characters row were written')
})

t.test('the response sheet can be sent back as-is as the next request’s sheet', async (t) => {
  t.test('shock-meters: derived abilities round-trip and follow the gauge', async (t) => {
    const first = await post('/v1/resolve/shock-meters/stress-check', {
      request: { meter: 'helplessness', rank: 4 },
      dice: { source: 'provided', faces: [10] },
    })
    t.equal(first.statusCode, 200, 'a passed check')
    const sheet = first.json().sheet
    t.equal(sheet.meters.helplessness.hardened, 2, 'hardened 1 → 2')
    t.equal(sheet.abilities.fitness, 55, 'Fitness = 65 − 5 × 2')

    const second = await post('/v1/resolve/shock-meters/stress-check', {
      sheet,
      request: { meter: 'helplessness', rank: 4 },
      dice: { source: 'provided', faces: [10] },
    })
    t.equal(second.statusCode, 200, `the returned sheet is accepted as input (${second.body.slice(0, 200)})`)
    t.equal(second.json().sheet.meters.helplessness.hardened, 3, 'hardened 2 → 3')
    t.equal(second.json().sheet.abilities.fitness, 50, 'Fitness follows: 65 − 5 × 3')
    t.equal(second.json().sheet.abilities.dodge, 30, 'Dodge follows: 15 + 5 × 3')
  })

  t.test('shock-meters: a pending response is settled by sending the sheet back', async (t) => {
    const failed = await post('/v1/resolve/shock-meters/stress-check', {
      request: { meter: 'isolation', rank: 4 },
      dice: { source: 'provided', faces: [95] },
    })
    const settled = await post('/v1/resolve/shock-meters/stress-response', {
      sheet: failed.json().sheet,
      request: { response: 'panic' },
    })
    t.equal(settled.statusCode, 200, 'the pending sheet is accepted')
    t.equal(settled.json().sheet.stressed.response, 'panic', 'the response is chosen')
    t.same(settled.json().pending, [], 'nothing is pending any more')
  })

  t.test('trauma-table: the sheet after an accepted trauma round-trips', async (t) => {
    const first = await post('/v1/resolve/trauma-table/trauma-roll', {
      request: { modifier: 100, source: 'maddening', response: 'accept' },
      dice: { source: 'seeded', seed: 'round-trip' },
    })
    t.equal(first.statusCode, 200, 'a trauma is accepted')
    const sheet = first.json().sheet
    const second = await post('/v1/resolve/trauma-table/trauma-roll', {
      sheet,
      request: { modifier: 0, response: 'accept' },
      dice: { source: 'seeded', seed: 'round-trip-2' },
    })
    t.equal(second.statusCode, 200, `the returned sheet is accepted as input (${second.body.slice(0, 200)})`)
    const scene = await post('/v1/resolve/trauma-table/end-scene', { sheet: second.json().sheet, request: {} })
    t.equal(scene.statusCode, 200, 'and again by a GM action')
  })

  t.test('reaction-rolls: the sheet after a retrieval round-trips', async (t) => {
    const first = await post('/v1/resolve/reaction-rolls/reaction-roll', {
      request: { ability: 'agility', pressure: 6, retrieve: { decision: 'raise', emotion: 'fear' } },
      dice: { source: 'provided', faces: [4] },
    })
    t.equal(first.statusCode, 200, 'a retrievable roll, retrieved')
    const sheet = first.json().sheet
    t.equal(sheet.emotions.fear, 1, 'fear raised one stage')
    const second = await post('/v1/resolve/reaction-rolls/reaction-roll', {
      sheet,
      request: { ability: 'agility', pressure: 4 },
      dice: { source: 'provided', faces: [6] },
    })
    t.equal(second.statusCode, 200, `the returned sheet is accepted as input (${second.body.slice(0, 200)})`)
    t.equal(second.json().sheet.emotions.fear, 1, 'the raised emotion is kept')
  })
})
