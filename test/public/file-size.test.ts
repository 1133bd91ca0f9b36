import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const PUBLIC = fileURLToPath(new URL('../../public/', import.meta.url))
const MAX_LINES = 400

t.test(
  `no file served from public/ is longer than ${MAX_LINES} lines, so each stays one concern a newcomer can read`,
  async (t) => {
    const entries = await readdir(PUBLIC, { recursive: true, withFileTypes: true })
    const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
    t.ok(files.length > 10, 'public/ holds the console’s files')
    for (const file of files) {
      const lines = (await readFile(file, 'utf8')).split('\n').length
      t.ok(lines <= MAX_LINES, `${relative(PUBLIC, file)} has ${lines} lines`)
    }
  },
)
