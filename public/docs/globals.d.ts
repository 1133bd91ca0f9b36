/** What public/docs/swagger-links.js adds to the page, for Swagger UI's `plugins` (src/plugins/external/swagger.ts). */
interface Window {
  NerveSwaggerLinks: (system: any) => object
}
