import t from 'tap'
import SwaggerParser from '@apidevtools/swagger-parser'
import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { OPENAPI_PATH, renderOpenApi } from '../src/openapi.js'
import { createCampaign } from './helpers/api.js'
import { buildTestApp } from './helpers/build-app.js'

t.test('the committed openapi/openapi.json is exactly what the server serves (run `npm run openapi`)', async (t) => {
  const app = await buildTestApp(t)
  const served = (await app.inject({ url: '/docs/json' })).json()
  const committed = await readFile(OPENAPI_PATH, 'utf8')
  t.equal(committed, renderOpenApi(served), 'openapi/openapi.json is stale: run `npm run openapi` and commit it')
})

t.test('the OpenAPI document is valid OpenAPI 3.1', async (t) => {
  const document = JSON.parse(await readFile(OPENAPI_PATH, 'utf8'))
  t.equal(document.openapi, '3.1.0')
  await t.resolves(SwaggerParser.validate(structuredClone(document)), 'swagger-parser validates the document')
})

t.test('every operation is documented for a person clicking through Swagger UI', async (t) => {
  const document = JSON.parse(await readFile(OPENAPI_PATH, 'utf8'))
  const tags = new Set(document.tags.map((tag: { name: string }) => tag.name))
  for (const [path, operations] of Object.entries<Record<string, Record<string, unknown>>>(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const name = `${method.toUpperCase()} ${path}`
      t.ok(operation.summary, `${name} has a summary`)
      t.ok(operation.description, `${name} has a description`)
      t.ok(operation.operationId, `${name} has an operationId`)
      const operationTags = operation.tags as string[] | undefined
      t.ok(operationTags?.length, `${name} has tags`)
      for (const tag of operationTags ?? []) t.ok(tags.has(tag), `${name}'s tag ${tag} is declared`)
    }
  }
})

t.test('component names come from schema $ids, not generated numbers', async (t) => {
  const document = JSON.parse(await readFile(OPENAPI_PATH, 'utf8'))
  const names = Object.keys(document.components.schemas)
  t.ok(names.includes('Problem'), 'the Problem schema is a named component')
  t.same(
    names.filter((name) => /^def-\d+$/.test(name)),
    [],
    'no def-N names',
  )
})

interface Operation {
  parameters?: { name: string; in: string }[]
  responses: Record<string, unknown>
}

t.test('every operation documents the status it answers a malformed path parameter or a text/plain body', async (t) => {
  const app = await buildTestApp(t)
  const { campaign, auth } = await createCampaign(app)
  const document = (await app.inject({ url: '/docs/json' })).json<{
    paths: Record<string, Record<string, Operation>>
  }>()
  // The campaign is real, so a request gets past the key check and reaches the parameter or body at fault.
  const valid = (name: string) => (name === 'campaignId' ? campaign.id : randomUUID())
  const urlWith = (path: string, malformed?: string) =>
    path.replace(/\{(\w+)\}/g, (_, name: string) => (name === malformed ? 'not-an-id' : valid(name)))

  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const name = `${method.toUpperCase()} ${path}`
      const documented = Object.keys(operation.responses)
      const pathParameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path')
      for (const { name: parameter } of pathParameters) {
        const res = await app.inject({
          method: method.toUpperCase() as 'GET',
          url: urlWith(path, parameter),
          headers: auth,
        })
        t.ok(
          documented.includes(String(res.statusCode)),
          `${name} with a malformed ${parameter} answers ${res.statusCode}, which it documents (${documented.join(', ')})`,
        )
      }
      if (['post', 'put', 'patch', 'delete'].includes(method)) {
        const res = await app.inject({
          method: method.toUpperCase() as 'POST',
          url: urlWith(path),
          headers: { ...auth, 'content-type': 'text/plain' },
          payload: 'hello',
        })
        t.equal(res.statusCode, 415, `${name} refuses a text/plain body with 415`)
        t.ok(documented.includes('415'), `${name} documents 415`)
      }
    }
  }
})
