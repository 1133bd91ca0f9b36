/** What public/docs/swagger-links.js and swagger-resolve.js add to the page, for Swagger UI's `plugins` (src/plugins/external/swagger.ts). */
interface Window {
  /** From public/docs/swagger-names.js: names Swagger UI's landmarks and unnamed controls. */
  NerveSwaggerNames: { nameLandmarks: () => void; nameControls: () => void }
  NerveSwaggerLinks: (system: any) => object
  NerveQuickResolve: (system: any) => object
}
