import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Reports the coverage a `tap --no-disable-coverage` run left in `.tap/coverage`, with the
 * reporters given as arguments (default `text-summary`); tap's thresholds apply.
 *
 * tsx, which loads the TypeScript here, keeps its source maps without the sources' text
 * (`sourcesContent: [null]`). v8-to-istanbul then maps every file onto an empty source and
 * counts one line per file, so the report tap prints itself at the end of a run is 100 % of
 * nothing. Dropping the empty `sourcesContent` makes it read the sources from disk.
 */
const COVERAGE_DIR = '.tap/coverage'

interface CoverageFile {
  'source-map-cache'?: Record<string, { data?: { sourcesContent?: (string | null)[] } }>
}

let mended = 0
for (const name of readdirSync(COVERAGE_DIR)) {
  const path = join(COVERAGE_DIR, name)
  const coverage = JSON.parse(readFileSync(path, 'utf8')) as CoverageFile
  for (const entry of Object.values(coverage['source-map-cache'] ?? {})) {
    if (entry.data?.sourcesContent?.every((content) => content === null)) {
      delete entry.data.sourcesContent
      mended++
    }
  }
  writeFileSync(path, JSON.stringify(coverage))
}
process.stderr.write(`coverage: ${mended} source maps read from disk\n`)

const reporters = process.argv.slice(2)
const report = spawnSync('npx', ['tap', 'report', ...(reporters.length ? reporters : ['text-summary'])], {
  stdio: 'inherit',
})
// tap report fails when coverage is under the thresholds in package.json.
process.exitCode = report.status ?? 1
