import t from 'tap'
import SwaggerParser from '@apidevtools/swagger-parser'
import { readFile } from 'node:fs/promises'
import { OPENAPI_PATH, renderOpenApi } from '../src/openapi.js'
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
