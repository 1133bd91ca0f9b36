import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { Schema } from './schema-values.js'

export interface Operation {
  method: string
  path: string
  operation: Schema
}

export interface Answer {
  statusCode: number
  headers: Record<string, unknown>
  body: string
}

const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1')
const mediaTypeOf = (contentType: unknown) =>
  (typeof contentType === 'string' ? contentType : '').split(';')[0]!.trim().toLowerCase()

/**
 * What Schemathesis checks of every answer, against the served OpenAPI document: no 5xx, a
 * documented status, a documented content type, and a body that fits the documented schema
 * (each line of an NDJSON body fits its `contentSchema`). Returns what is wrong, if anything.
 */
export class ResponseChecks {
  readonly #ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true })
  readonly #validators = new Map<string, ValidateFunction>()
  static readonly #ROOT = 'urn:nerve:served-openapi'

  constructor(document: Schema) {
    addFormats.default(this.#ajv)
    for (const keyword of ['discriminator', 'xml', 'externalDocs', 'example']) this.#ajv.addKeyword(keyword)
    this.#ajv.addSchema({ ...structuredClone(document), $id: ResponseChecks.#ROOT }, ResponseChecks.#ROOT)
  }

  problems({ method, path, operation }: Operation, answer: Answer): string[] {
    const status = answer.statusCode
    if (status >= 500) return [`${status}: a server error (${answer.body.slice(0, 300)})`]
    const responses = operation.responses as Record<string, Schema>
    const documentedStatus = String(status) in responses ? String(status) : 'default' in responses ? 'default' : null
    if (documentedStatus === null)
      return [`${status} is not documented (documented: ${Object.keys(responses).join(', ')})`]
    const content = responses[documentedStatus]!.content as Record<string, Schema> | undefined
    if (content === undefined) {
      return answer.body.length === 0
        ? []
        : [`${status} documents no body, yet one came (${answer.body.slice(0, 100)})`]
    }
    const mediaType = mediaTypeOf(answer.headers['content-type'])
    if (!(mediaType in content)) {
      return [`${status} came as ${mediaType || 'no content type'}, documented: ${Object.keys(content).join(', ')}`]
    }
    const schema = content[mediaType]!.schema as Schema | undefined
    if (schema === undefined) return []
    const pointer = `#/paths/${escape(path)}/${method.toLowerCase()}/responses/${documentedStatus}/content/${escape(mediaType)}/schema`
    if (mediaType.endsWith('json') && !mediaType.endsWith('ndjson')) {
      let body: unknown
      try {
        body = JSON.parse(answer.body)
      } catch {
        return [`${status} ${mediaType} is not JSON: ${answer.body.slice(0, 100)}`]
      }
      return this.#invalid(pointer, body, `${status} body`)
    }
    if (mediaType.endsWith('ndjson') && schema.contentSchema !== undefined) {
      const lines = answer.body.split('\n').filter((line) => line.length > 0)
      for (const [index, line] of lines.entries()) {
        const found = this.#invalid(`${pointer}/contentSchema`, JSON.parse(line), `${status} line ${index + 1}`)
        if (found.length > 0) return found
      }
    }
    return []
  }

  #invalid(pointer: string, value: unknown, what: string): string[] {
    let validate = this.#validators.get(pointer)
    if (validate === undefined) {
      validate = this.#ajv.getSchema(`${ResponseChecks.#ROOT}${pointer}`)
      if (validate === undefined) throw new Error(`no schema at ${pointer}`)
      this.#validators.set(pointer, validate)
    }
    if (validate(value)) return []
    return [`${what} does not fit its schema: ${this.#ajv.errorsText(validate.errors, { dataVar: 'body' })}`]
  }
}
