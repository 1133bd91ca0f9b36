import type { InjectOptions } from 'fastify'
import t from 'tap'
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { OPENAPI_PATH } from '../src/openapi.js'
import { PROBLEM_EXAMPLES } from '../src/schemas/problem-examples.js'
import { bearer, createCampaign, createCharacter, mintPlayerKey } from './helpers/api.js'
import { buildTestApp } from './helpers/build-app.js'
import { invalidExamples } from './helpers/openapi-examples.js'

interface Response {
  description?: string
  content?: Record<string, { examples?: Record<string, { $ref: string }> }>
  links?: Record<string, { operationId: string; parameters?: Record<string, string> }>
}
interface Operation {
  operationId: string
  parameters?: { name: string; in: string }[]
  responses: Record<string, Response>
}
interface Document {
  servers?: { url: string }[]
  paths: Record<string, Record<string, Operation>>
  components: { examples: Record<string, { value: { status: number } }> }
}

const load = async (): Promise<Document> => JSON.parse(await readFile(OPENAPI_PATH, 'utf8'))

function* operations(document: Document) {
  for (const [path, byMethod] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(byMethod))
      yield { name: `${method.toUpperCase()} ${path}`, operation }
  }
}

t.test('every example and default in the OpenAPI document is valid against its schema', async (t) => {
  const issues = invalidExamples((await load()) as unknown as Record<string, unknown>)
  t.same(
    issues.map((issue) => `${issue.at}: ${issue.errors}`),
    [],
    'no invalid example (a generated client must accept what the document shows)',
  )
})

t.test('Redocly and Spectral find no error in the committed document (npm run lint:openapi)', async (t) => {
  const result = await promisify(execFile)('npm', ['run', '--silent', 'lint:openapi'], {
    cwd: new URL('..', import.meta.url),
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    (done) => ({ code: 0, output: done.stdout + done.stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? 1,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  )
  t.equal(result.code, 0, `npm run lint:openapi passes:\n${result.output.slice(-4000)}`)
})

t.test('Swagger UI has a server to call, and a label for every response', async (t) => {
  const document = await load()
  t.same(
    document.servers?.map((server) => server.url),
    ['/'],
    'Try it out calls the server that served the page',
  )
  for (const { name, operation } of operations(document)) {
    for (const [status, response] of Object.entries(operation.responses)) {
      t.ok(response.description && response.description !== 'Default Response', `${name} ${status} says what it is`)
    }
  }
})

t.test('each error response shows examples of its own status', async (t) => {
  const document = await load()
  for (const { name, operation } of operations(document)) {
    for (const [status, response] of Object.entries(operation.responses)) {
      if (Number(status) < 400) continue
      const examples = Object.values(response.content?.['application/problem+json']?.examples ?? {})
      t.ok(examples.length > 0, `${name} ${status} has an example`)
      for (const { $ref } of examples) {
        const example = document.components.examples[$ref.replace('#/components/examples/', '')]
        t.equal(example?.value.status, Number(status), `${name} ${status}: ${$ref} is a ${status}`)
      }
    }
  }
})

t.test('links lead to operations that exist, with parameters they take', async (t) => {
  const document = await load()
  const byId = new Map([...operations(document)].map(({ operation }) => [operation.operationId, operation]))
  let links = 0
  for (const { name, operation } of operations(document)) {
    for (const [status, response] of Object.entries(operation.responses)) {
      for (const [linkName, link] of Object.entries(response.links ?? {})) {
        links++
        const target = byId.get(link.operationId)
        t.ok(target, `${name} ${status} ${linkName} → ${link.operationId} exists`)
        for (const parameter of Object.keys(link.parameters ?? {})) {
          const [where, parameterName] = parameter.includes('.') ? parameter.split('.') : [undefined, parameter]
          t.ok(
            target?.parameters?.some((p) => p.name === parameterName && (where === undefined || p.in === where)),
            `${name} ${status} ${linkName}: ${link.operationId} takes ${parameter}`,
          )
        }
      }
    }
  }
  const created = document.paths['/v1/campaigns']!.post!.responses['201']!.links ?? {}
  t.match(
    created.CreateCharacter,
    { operationId: 'createCharacter', parameters: { campaignId: '$response.body#/campaign/id' } },
    'a new campaign leads to its first character',
  )
  t.ok(links > 50, `${links} links in all`)
})

t.test('the problem examples are what the server answers', async (t) => {
  const app = await buildTestApp(t)
  const { campaign, auth } = await createCampaign(app)
  const { character } = await createCharacter(app, campaign, auth)
  const player = await mintPlayerKey(app, campaign, auth, [character.id])
  const example = PROBLEM_EXAMPLES
  const stranger = example.CampaignNotFound.value.instance.split('/').pop()!
  const characterUrl = `/v1/campaigns/${campaign.id}/characters/${character.id}`
  const cases = [
    { name: 'MissingKey', request: { url: `/v1/campaigns/${campaign.id}` } },
    { name: 'UnknownKey', request: { url: `/v1/campaigns/${campaign.id}`, headers: bearer('nrv_gm_unknown') } },
    { name: 'CampaignNotFound', request: { url: `/v1/campaigns/${stranger}`, headers: auth } },
    { name: 'GmOnly', request: { url: `/v1/campaigns/${campaign.id}/keys`, headers: player.auth } },
    {
      name: 'StaleVersion',
      request: { method: 'PATCH', url: characterUrl, headers: { ...auth, 'if-match': '"3"' }, payload: { name: 'V' } },
    },
    {
      name: 'InvalidJson',
      request: { method: 'POST', url: '/v1/campaigns', headers: { 'content-type': 'application/json' }, payload: '{' },
    },
    {
      name: 'NotJson',
      request: { method: 'POST', url: '/v1/campaigns', headers: { 'content-type': 'text/plain' }, payload: 'hi' },
    },
    {
      name: 'UnknownField',
      request: { method: 'POST', url: '/v1/campaigns', payload: { name: 'M', ruleset: 'shock-meters', colour: 'red' } },
    },
    {
      name: 'RankTooHigh',
      request: {
        method: 'POST',
        url: `${characterUrl}/stress-check`,
        headers: auth,
        payload: { request: { meter: 'violence', rank: 11 } },
      },
    },
    { name: 'RuleSetNotFound', request: { url: '/v1/rulesets/shock-meter' } },
  ] as const
  for (const { name, request } of cases) {
    const res = await app.inject(request as InjectOptions)
    const expected = example[name].value
    const answered = res.json()
    t.match(
      answered,
      { type: expected.type, title: expected.title, status: expected.status, code: expected.code },
      `${name}: the example has the server's type, title, status and code`,
    )
    // Ids and versions differ from one campaign to the next; the wording does not.
    const words = (detail: string) => detail.replace(/[0-9a-f-]{36}/g, '<id>').replace(/\d+/g, '<n>')
    t.equal(
      words(answered.detail),
      words(expected.detail),
      `${name}: the example's detail is worded as the server words it`,
    )
  }
})
