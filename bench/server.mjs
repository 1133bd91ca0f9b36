// The server the benchmarks load: Nerve as the Docker image runs it — compiled (`npm run
// build`, dist/), plain `node`, production logger — plus the baseline route and the measuring
// hooks the benchmarks need. Started by bench/lib/server.ts, pinned to its own core, driven
// over IPC (messages: memory, cpu, timings, profile-start, profile-stop, stop).
// First, as in dist/server.js: the V8 flags the service runs with.
import '../dist/runtime-flags.js'
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { getHeapSpaceStatistics } from 'node:v8'
import Type from 'typebox'
import { buildApp } from '../dist/app.js'
import { loadConfig } from '../dist/config.js'
import { exampleCharacter } from '../dist/rules/shock-meters/examples.js'
import { RULE_SETS } from '../dist/rules/index.js'
import { resolveNormalized } from '../dist/rules/rule-set.js'
import { derive } from '../dist/rules/shock-meters/sheet.js'

const config = loadConfig()
const app = await buildApp(config)

const EchoSchema = Type.Object(
  { message: Type.String({ maxLength: 200 }), count: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
)

// The baseline of the stateless benchmark: a minimal TypeBox-validated echo on the same
// Fastify instance, so the same logger, request ids, hooks and validator compilers apply.
app.post(
  '/bench/echo',
  { schema: { hide: true, body: EchoSchema, response: { 200: EchoSchema } } },
  async (request) => request.body,
)

// The floor of the stateless benchmark: the same body parsed, an answer of the same size and
// shape (a real resolution, taken once at start) serialised and sent, with no validation and
// no rules. What the resolve costs beyond this route is what Nerve adds to moving the bytes.
let bytesAnswer
app.post('/bench/bytes', { schema: { hide: true } }, async (request, reply) =>
  reply.type('application/json; charset=utf-8').serializer(JSON.stringify).send(bytesAnswer),
)

// The ceiling of the stateless benchmark: the resolve's rules run on the sheet as sent, and its
// answer sent as the resolve sends it, with no check at all (no body schema, no sheet check, no
// answer check). Nerve could not serve this; what the resolve costs beyond it is its checks.
const shockMeters = RULE_SETS.find((ruleSet) => ruleSet.id === 'shock-meters')
const stressCheck = shockMeters.actions.find((action) => action.name === 'stress-check')
const defaultSettings = shockMeters.normalizeSettings({})
app.post('/bench/unchecked', { schema: { hide: true } }, async (request, reply) => {
  const { sheet, request: asked } = request.body
  const resolved = resolveNormalized(shockMeters, stressCheck, {
    sheet: derive(sheet),
    settings: defaultSettings,
    request: asked,
  })
  return reply.type('application/json; charset=utf-8').serializer(JSON.stringify).send(resolved)
})

// Server-side latency by label: the time Fastify spent on the request, from its arrival to
// the reply handed to the socket, without the load generator's own delays.
const timings = new Map()
app.addHook('onResponse', async (request, reply) => {
  const label = request.headers['x-bench-label']
  if (typeof label !== 'string') return
  let list = timings.get(label)
  if (!list) timings.set(label, (list = []))
  list.push(reply.elapsedTime)
})

function sample() {
  const usage = process.memoryUsage()
  const spaces = {}
  for (const space of getHeapSpaceStatistics()) spaces[space.space_name] = space.space_used_size
  return { ...usage, spaces }
}

// RSS is read cheaply every 100 ms; the full breakdown only when it reaches a new peak.
let peak = sample()
const sampler = setInterval(() => {
  if (process.memoryUsage.rss() > peak.rss) peak = sample()
}, 100)
sampler.unref()

// CPU profiles cover the load only, not the start (compiling every route's schemas).
const inspector = new Session()
inspector.connect()

async function profile(message) {
  if (message.type === 'profile-start') {
    await inspector.post('Profiler.enable')
    await inspector.post('Profiler.setSamplingInterval', { interval: 100 })
    await inspector.post('Profiler.start')
    process.send?.({ type: 'profile-started' })
  } else {
    const { profile } = await inspector.post('Profiler.stop')
    writeFileSync(message.file, JSON.stringify(profile))
    process.send?.({ type: 'profile-stopped' })
  }
}

process.on('message', (message) => {
  if (message.type === 'profile-start' || message.type === 'profile-stop') void profile(message)
  else if (message.type === 'memory') process.send?.({ type: 'memory', current: sample(), peak })
  else if (message.type === 'cpu') process.send?.({ type: 'cpu', usage: process.cpuUsage() })
  else if (message.type === 'timings') {
    process.send?.({ type: 'timings', timings: Object.fromEntries(timings) })
    if (message.reset) timings.clear()
  } else if (message.type === 'stop') {
    clearInterval(sampler)
    void app.close().then(() => process.exit(0))
  }
})

await app.ready()
const resolved = await app.inject({
  method: 'POST',
  url: '/v1/resolve/shock-meters/stress-check',
  payload: {
    sheet: exampleCharacter,
    request: { meter: 'violence', rank: 4, trigger: 'kill-in-fight', response: 'panic' },
  },
})
bytesAnswer = resolved.json()

await app.listen({ port: config.PORT, host: config.HOST })
process.send?.({ type: 'ready', idle: sample() })
