/** What public/docs/swagger-links.js and swagger-resolve.js add to the page, for Swagger UI's `plugins` (src/plugins/external/swagger.ts). */
interface Window {
  NerveSwaggerLinks: (system: any) => object
  NerveQuickResolve: (system: any) => object
}
