import { writeFile } from 'node:fs/promises'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { OPENAPI_PATH, renderOpenApi } from '../src/openapi.js'

const app = await buildApp(loadConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'silent' }), { logger: false })
try {
  await app.ready()
  await writeFile(OPENAPI_PATH, renderOpenApi(app.swagger()))
  process.stdout.write(`wrote ${OPENAPI_PATH}\n`)
} finally {
  await app.close()
}
