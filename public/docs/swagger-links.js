// @ts-check
/*
 * Nerve's plugin for Swagger UI at /docs: it follows the document's OpenAPI links so a GM never
 * copies an id between operations.
 *
 * Each operation's 2xx response names, in `links`, the operations that can come next and where
 * their parameters come from (`campaignId: $response.body#/campaign/id`, src/schemas/links.ts).
 * When an answer arrives, this plugin evaluates those runtime expressions against it and writes
 * the values into the parameters' fields:
 *  - into each linked operation, every parameter the link names (path, query or header, such as
 *    `header.if-match` from the answer's `ETag`);
 *  - into every operation of the document with a path parameter of the same name, so the latest
 *    `campaignId`, `characterId`, `eventId`, `keyId`… produced by any answer is the one offered
 *    everywhere (an odds operation is not a link target, but takes the same ids).
 * A 2xx answer also confirms the ids its own request used: after `GET /v1/campaigns/{campaignId}`
 * with a pasted id answers 200, that id is offered everywhere too (a campaign made elsewhere).
 * A value typed by hand stays until the next answer that produces that parameter. The latest ids
 * are remembered in this browser (localStorage, beside the key "Authorize" keeps with
 * `persistAuthorization`) and filled in again when the page is opened anew.
 *
 * Loaded as a classic script after Swagger UI's own (theme `js` of @fastify/swagger-ui), it only
 * defines `window.NerveSwaggerLinks`; src/plugins/external/swagger.ts lists it in Swagger UI's
 * `plugins`. Once Swagger UI is drawn, it has swagger-names.js name what Swagger UI leaves
 * unnamed, for screen readers.
 */
;(() => {
  /**
   * The little of Immutable.js this file touches: Swagger UI's state is made of these.
   * @typedef {{ get(key: string): unknown, getIn(path: string[]): unknown, keySeq(): { toArray(): string[] }, toJS(): unknown }} ImmutableMap
   */

  /**
   * An answer as Swagger UI's `setResponse` receives it (swagger-client's response).
   * @typedef {object} SwaggerResponse
   * @property {number} status
   * @property {string} url
   * @property {Record<string, string>} [headers]
   * @property {unknown} [body] the parsed JSON body
   * @property {string} [text] the raw body, when it was not parsed
   */

  /**
   * The part of Swagger UI's plugin system this plugin uses.
   * @typedef {object} SwaggerSystem
   * @property {{ specJson(): ImmutableMap }} specSelectors
   * @property {{ changeParam(pathMethod: [string, string], name: string, location: string, value: string, isXml: boolean): void }} specActions
   * @property {() => ImmutableMap} getState
   * @property {{ createElement(type: string, props: object | null, ...children: unknown[]): unknown }} React
   */

  /** @typedef {{ operationId?: string, operationRef?: string, parameters?: Record<string, string> }} Link */
  /** @typedef {{ name: string, in: string }} Parameter */
  /** @typedef {{ path: string, method: string, parameters: Parameter[], links: Map<string, Record<string, Link>> }} Operation */
  /** @typedef {{ byId: Map<string, Operation>, byPathMethod: Map<string, Operation>, byPathParameter: Map<string, Operation[]> }} OperationIndex */

  const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

  /** Where the latest ids are remembered: `{ campaignId: "…", characterId: "…" }`. */
  const STORAGE_KEY = 'nerve.docs.pathParameters'

  /** @returns {Record<string, string>} */
  function remembered() {
    try {
      const value = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '{}')
      return isObject(value)
        ? Object.fromEntries(Object.entries(value).filter((entry) => typeof entry[1] === 'string'))
        : {}
    } catch {
      return {}
    }
  }

  /** @param {Map<string, string>} values */
  function remember(values) {
    try {
      window.localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...remembered(), ...Object.fromEntries(values) }))
    } catch {
      // storage refused (private mode, quota): the fields are still filled for this visit
    }
  }

  /**
   * @param {unknown} value
   * @returns {value is Record<string, any>}
   */
  const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value)

  /**
   * Follows a local `$ref` (`#/components/links/…`) inside the document, if `node` is one.
   * @param {Record<string, any>} document
   * @param {unknown} node
   * @returns {unknown}
   */
  function dereference(document, node) {
    if (!isObject(node) || typeof node.$ref !== 'string' || !node.$ref.startsWith('#/')) return node
    return pointer(document, node.$ref.slice(1))
  }

  /**
   * RFC 6901: the value at `path` (`/campaign/id`) inside `value`, or undefined.
   * @param {unknown} value
   * @param {string} path
   * @returns {unknown}
   */
  function pointer(value, path) {
    if (path === '') return value
    let current = value
    for (const raw of path.slice(1).split('/')) {
      const token = raw.replaceAll('~1', '/').replaceAll('~0', '~')
      if (Array.isArray(current)) current = current[Number(token)]
      else if (isObject(current)) current = current[token]
      else return undefined
    }
    return current
  }

  /**
   * Every operation of the document, found by operationId, by path and method, and by the name
   * of each of its path parameters.
   * @param {Record<string, any>} document
   * @returns {OperationIndex}
   */
  function indexOperations(document) {
    /** @type {OperationIndex} */
    const index = { byId: new Map(), byPathMethod: new Map(), byPathParameter: new Map() }
    for (const [path, item] of Object.entries(isObject(document.paths) ? document.paths : {})) {
      if (!isObject(item)) continue
      for (const method of METHODS) {
        const operation = item[method]
        if (!isObject(operation)) continue
        /** @type {Parameter[]} */
        const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])]
          .map((parameter) => dereference(document, parameter))
          .filter(isObject)
          .map((parameter) => ({ name: String(parameter.name), in: String(parameter.in) }))
        /** @type {Map<string, Record<string, Link>>} */
        const links = new Map()
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          const resolved = dereference(document, response)
          if (!isObject(resolved) || !isObject(resolved.links)) continue
          /** @type {Record<string, Link>} */
          const byName = {}
          for (const [name, link] of Object.entries(resolved.links)) {
            const target = dereference(document, link)
            if (isObject(target)) byName[name] = /** @type {Link} */ (target)
          }
          links.set(status, byName)
        }
        /** @type {Operation} */
        const entry = { path, method, parameters, links }
        if (typeof operation.operationId === 'string') index.byId.set(operation.operationId, entry)
        index.byPathMethod.set(`${method} ${path}`, entry)
        for (const parameter of parameters) {
          if (parameter.in !== 'path') continue
          const list = index.byPathParameter.get(parameter.name) ?? []
          list.push(entry)
          index.byPathParameter.set(parameter.name, list)
        }
      }
    }
    return index
  }

  /**
   * The path parameters of a request: `/v1/campaigns/{campaignId}` matched against the URL called.
   * @param {string} template
   * @param {string} url
   * @returns {Record<string, string>}
   */
  function pathParameters(template, url) {
    /** @type {string[]} */
    const names = []
    const source = template
      .split(/(\{[^}]+\})/)
      .map((part) => {
        const name = /^\{([^}]+)\}$/.exec(part)?.[1]
        if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        names.push(name)
        return '([^/]+)'
      })
      .join('')
    const match = new RegExp(`${source}$`).exec(new URL(url, window.location.href).pathname)
    /** @type {Record<string, string>} */
    const values = {}
    names.forEach((name, i) => {
      const value = match?.[i + 1]
      if (value !== undefined) values[name] = decodeURIComponent(value)
    })
    return values
  }

  /**
   * The answer's body as data: swagger-client parses JSON into `body`; otherwise its text.
   * @param {SwaggerResponse} response
   * @returns {unknown}
   */
  function bodyOf(response) {
    if (response.body !== undefined && typeof response.body !== 'string') return response.body
    const text = typeof response.body === 'string' ? response.body : response.text
    try {
      return text === undefined ? undefined : JSON.parse(text)
    } catch {
      return undefined
    }
  }

  /**
   * Evaluates one OpenAPI runtime expression (the kinds Nerve's links use): `$response.body#/…`,
   * `$response.header.Name`, `$request.path.name`. Anything else gives undefined.
   * @param {string} expression
   * @param {{ body: unknown, headers: Record<string, string>, requestPath: Record<string, string> }} context
   * @returns {string | undefined}
   */
  function evaluate(expression, context) {
    /** @type {unknown} */
    let value
    if (expression.startsWith('$response.body#'))
      value = pointer(context.body, expression.slice('$response.body#'.length))
    else if (expression.startsWith('$response.header.'))
      value = context.headers[expression.slice('$response.header.'.length).toLowerCase()]
    else if (expression.startsWith('$request.path.'))
      value = context.requestPath[expression.slice('$request.path.'.length)]
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined
  }

  /**
   * Where a link's parameter goes in the target: `header.if-match` names its location; a bare
   * name is looked up among the target's parameters (path first, as OpenAPI says).
   * @param {Operation} target
   * @param {string} key
   * @returns {Parameter | undefined}
   */
  function targetParameter(target, key) {
    const located = /^(path|query|header|cookie)\.(.+)$/.exec(key)
    if (located) {
      const [, location, name] = located
      return target.parameters.find((p) => p.in === location && p.name.toLowerCase() === name?.toLowerCase())
    }
    return (
      target.parameters.find((p) => p.name === key && p.in === 'path') ?? target.parameters.find((p) => p.name === key)
    )
  }

  /**
   * @param {SwaggerSystem} system
   */
  function NerveSwaggerLinks(system) {
    /** @type {{ source: ImmutableMap | null, index: OperationIndex | null }} */
    const cache = { source: null, index: null }

    /** The document's operations, indexed once per document Swagger UI holds. */
    function operations() {
      const source = system.specSelectors.specJson()
      if (cache.source !== source || cache.index === null) {
        const document = source.toJS()
        cache.source = source
        cache.index = indexOperations(isObject(document) ? document : {})
      }
      return cache.index
    }

    /**
     * Writes `value` into a parameter's field. Swagger UI keeps a field's value under
     * `in.name`, and under `in.name.hash-…` once the field has been shown or typed in (the hash
     * identifies the parameter's definition); the hashed value wins, so both are written.
     * @param {Operation} operation
     * @param {Parameter} parameter
     * @param {string} value
     */
    function fill(operation, parameter, value) {
      /** @type {[string, string]} */
      const pathMethod = [operation.path, operation.method]
      system.specActions.changeParam(pathMethod, parameter.name, parameter.in, value, false)
      const stored = system.getState().getIn(['spec', 'meta', 'paths', operation.path, operation.method, 'parameters'])
      if (!isObject(stored) || typeof stored.keySeq !== 'function') return
      const prefix = `${parameter.in}.${parameter.name}.hash-`
      for (const key of /** @type {ImmutableMap} */ (stored).keySeq().toArray()) {
        if (key.startsWith(prefix)) {
          system.specActions.changeParam(pathMethod, key.slice(parameter.in.length + 1), parameter.in, value, false)
        }
      }
    }

    /**
     * Follows the links of the answer an operation just received.
     * @param {string} path
     * @param {string} method
     * @param {SwaggerResponse} response
     */
    function follow(path, method, response) {
      if (!(response.status >= 200 && response.status < 300)) return
      const index = operations()
      const links = index.byPathMethod.get(`${method} ${path}`)?.links.get(String(response.status))
      if (!links) return
      const context = {
        body: bodyOf(response),
        headers: Object.fromEntries(
          Object.entries(response.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]),
        ),
        requestPath: pathParameters(path, response.url),
      }
      /** @type {Map<string, string>} the path parameters this answer produced or confirmed */
      const produced = new Map(Object.entries(context.requestPath))
      for (const link of Object.values(links)) {
        const target = link.operationId === undefined ? undefined : index.byId.get(link.operationId)
        if (!target) continue
        for (const [key, expression] of Object.entries(link.parameters ?? {})) {
          const parameter = targetParameter(target, key)
          const value = evaluate(expression, context)
          if (!parameter || value === undefined) continue
          fill(target, parameter, value)
          if (parameter.in === 'path') produced.set(parameter.name, value)
        }
      }
      offerEverywhere(produced)
      remember(produced)
    }

    /**
     * Fills each named path parameter in every operation that has it.
     * @param {Map<string, string>} values
     */
    function offerEverywhere(values) {
      const index = operations()
      for (const [name, value] of values) {
        for (const operation of index.byPathParameter.get(name) ?? []) {
          fill(operation, { name, in: 'path' }, value)
        }
      }
    }

    /**
     * Swagger UI's action for a loaded document, then the ids remembered from an earlier visit.
     * @param {(document: unknown) => unknown} original
     */
    const afterDocument = (original) => (/** @type {unknown} */ document) => {
      const result = original(document)
      try {
        offerEverywhere(new Map(Object.entries(remembered())))
      } catch (error) {
        console.warn('Nerve: could not fill the ids remembered from an earlier visit', error)
      }
      return result
    }

    /**
     * Swagger UI's action for an answer (it shows it), then the answer's links followed.
     * @param {(path: string, method: string, response: SwaggerResponse) => unknown} original
     */
    const afterResponse =
      (original) =>
      (/** @type {string} */ path, /** @type {string} */ method, /** @type {SwaggerResponse} */ response) => {
        const result = original(path, method, response)
        try {
          follow(path, method, response)
        } catch (error) {
          console.warn('Nerve: could not follow the links of this answer', error)
        }
        return result
      }

    /**
     * The operation's path without its deep link. With `deepLinking`, Swagger UI wraps the path
     * in a link inside the operation's summary button (a control inside a control, axe's
     * `nested-interactive`) whose click it cancels anyway; the address bar still follows the
     * operation opened, and a link to one still opens it.
     * @param {{ text: unknown }} props
     */
    const DeepLink = ({ text }) => system.React.createElement('span', null, text)

    return {
      components: { DeepLink },
      statePlugins: { spec: { wrapActions: { updateJsonSpec: afterDocument, setResponse: afterResponse } } },
      afterLoad: () => {
        window.NerveSwaggerNames.nameLandmarks()
        window.NerveSwaggerNames.nameControls()
      },
    }
  }

  window.NerveSwaggerLinks = NerveSwaggerLinks
})()
