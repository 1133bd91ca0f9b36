import { PGlite } from '@electric-sql/pglite'
import { START_PARAMS } from './pglite.js'

/** Run as a child process by `openEmbedded`: creates the embedded database in the folder given. */
await (await PGlite.create(process.argv[2], { startParams: START_PARAMS })).close()
