// @ts-check
/*
 * Nerve's plugin for Swagger UI at /docs: it opens an operation in a few seconds instead of
 * fifteen, with the same result.
 *
 * When an operation is expanded, Swagger UI resolves its `$ref`s with swagger-client. For an
 * OpenAPI 3.1 document that is the ApiDOM strategy, which refracts and normalizes the whole
 * document on every expansion (swagger-api/swagger-ui#10917, #8355): with Nerve's unions of
 * characters by rule set and events by type, that took 11–16 s per operation on this project's
 * machines. The OpenAPI 3.0 strategy resolves only the subtree asked for, and Nerve's document
 * uses nothing there it reads differently — plain `$ref`s to components, `oneOf` with a
 * `discriminator`, `allOf` — so this plugin hands the resolver a copy of the document labelled
 * 3.0. Everything else in Swagger UI still sees the 3.1 document (its webhooks, its schema
 * views). test/browser/swagger-typed.test.ts resolves operations both ways and compares the trees.
 *
 * Loaded as a classic script after Swagger UI's own (theme `js` of @fastify/swagger-ui), it only
 * defines `window.NerveQuickResolve`; src/plugins/external/swagger.ts lists it in `plugins`.
 */
;(() => {
  /**
   * swagger-client's `resolveSubtree`, as Swagger UI's system offers it.
   * @typedef {(spec: Record<string, unknown>, path: string[], options?: object) => Promise<unknown>} ResolveSubtree
   */

  /**
   * @param {{ fn: { resolveSubtree: ResolveSubtree } }} system Swagger UI's system, with swagger-client's functions
   * @returns {{ fn: { resolveSubtree: ResolveSubtree } }}
   */
  function NerveQuickResolve(system) {
    const resolveSubtree = system.fn.resolveSubtree
    return {
      fn: {
        resolveSubtree: (spec, path, options) => resolveSubtree({ ...spec, openapi: '3.0.3' }, path, options),
      },
    }
  }

  window.NerveQuickResolve = NerveQuickResolve
})()
