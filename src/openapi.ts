import { fileURLToPath } from 'node:url'

export const OPENAPI_PATH = fileURLToPath(new URL('../openapi/openapi.json', import.meta.url))

/** The OpenAPI document as committed. Key order is the app's registration order, which is stable. */
export function renderOpenApi(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`
}
