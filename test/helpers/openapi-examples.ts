import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

export interface ExampleIssue {
  /** JSON pointer to the example (or default) in the document. */
  at: string
  /** JSON pointer to the schema it was checked against. */
  schema: string
  errors: string
}

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1')

/**
 * Every example in an OpenAPI 3.1 document checked against the schema it illustrates, as the
 * linters do: `examples` and `default` inside schemas, and the `example`/`examples` of media
 * types, parameters and headers (following `#/components/examples` references). The document
 * itself is the schema store, so `$ref`s resolve exactly as a client generator resolves them.
 */
export function invalidExamples(document: Json): ExampleIssue[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true })
  addFormats.default(ajv)
  // Swagger UI's and OpenAPI's own keywords are annotations, not assertions.
  for (const keyword of ['discriminator', 'xml', 'externalDocs', 'example']) ajv.addKeyword(keyword)
  const root = 'urn:nerve:openapi'
  ajv.addSchema({ ...structuredClone(document), $id: root }, root)
  const issues: ExampleIssue[] = []
  const components = (document.components ?? {}) as { examples?: Record<string, { value?: unknown }> }

  const check = (schemaPointer: string, value: unknown, at: string) => {
    const validate = ajv.getSchema(`${root}#${schemaPointer}`)
    if (!validate) throw new Error(`no schema at ${schemaPointer}`)
    if (!validate(value)) {
      issues.push({
        at,
        schema: schemaPointer,
        errors: ajv.errorsText(validate.errors, { dataVar: 'example' }),
      })
    }
  }

  const exampleValue = (example: unknown): unknown => {
    if (isObject(example) && typeof example.$ref === 'string') {
      const name = example.$ref.replace('#/components/examples/', '')
      return components.examples?.[name]?.value
    }
    return isObject(example) ? example.value : undefined
  }

  /** Schema keywords whose values are themselves examples of the schema. */
  const walkSchema = (schema: unknown, pointer: string) => {
    if (Array.isArray(schema)) {
      schema.forEach((item, index) => walkSchema(item, `${pointer}/${index}`))
      return
    }
    if (!isObject(schema)) return
    if (Array.isArray(schema.examples)) {
      schema.examples.forEach((example, index) => check(pointer, example, `${pointer}/examples/${index}`))
    }
    if ('default' in schema) check(pointer, schema.default, `${pointer}/default`)
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'examples' || key === 'default' || key === 'enum' || key === 'const') continue
      walkSchema(value, `${pointer}/${escape(key)}`)
    }
  }

  /** Objects holding a `schema` beside `example`/`examples`: media types, parameters, headers. */
  const walkHolders = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walkHolders(item, `${pointer}/${index}`))
      return
    }
    if (!isObject(node)) return
    if (isObject(node.schema)) {
      const schemaPointer = `${pointer}/schema`
      if ('example' in node) check(schemaPointer, node.example, `${pointer}/example`)
      if (isObject(node.examples)) {
        for (const [name, example] of Object.entries(node.examples)) {
          const value = exampleValue(example)
          if (value !== undefined) check(schemaPointer, value, `${pointer}/examples/${escape(name)}`)
        }
      }
      walkSchema(node.schema, schemaPointer)
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'schema' || key === 'examples' || key === 'example') continue
      walkHolders(value, `${pointer}/${escape(key)}`)
    }
  }

  walkHolders(document.paths, '/paths')
  walkHolders(document.webhooks, '/webhooks')
  const schemas = (document.components as { schemas?: Json } | undefined)?.schemas ?? {}
  for (const [name, schema] of Object.entries(schemas)) walkSchema(schema, `/components/schemas/${escape(name)}`)
  return issues
}
