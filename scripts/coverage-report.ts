import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Reports the coverage a `tap --no-disable-coverage --allow-incomplete-coverage` run left in
 * `.tap/coverage`, and fails when a figure is under the floor in `.ci/coverage-floor.json`.
 *
 * tsx, which loads the TypeScript here, keeps its source maps without the sources' text
 * (`sourcesContent: [null]`). v8-to-istanbul then maps every file onto an empty source and
 * counts one line per file, so the report tap prints itself at the end of a run is 100 % of
 * nothing. Dropping the empty `sourcesContent` makes it read the sources from disk.
 *
 * The floor only rises: when the suite covers more, raise it to the new figures (rounded down).
 */
const COVERAGE_DIR = '.tap/coverage'
const SUMMARY = '.tap/report/coverage-summary.json'
const FLOOR = '.ci/coverage-floor.json'
const FIGURES = ['lines', 'statements', 'functions', 'branches'] as const

interface CoverageFile {
  'source-map-cache'?: Record<string, { data?: { sourcesContent?: (string | null)[] } }>
}
type Summary = Record<'total', Record<(typeof FIGURES)[number], { pct: number }>>

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
const report = spawnSync(
  'npx',
  [
    'tap',
    'report',
    '--allow-incomplete-coverage',
    'json-summary',
    ...(reporters.length ? reporters : ['text-summary']),
  ],
  {
    stdio: 'inherit',
  },
)
if (report.status !== 0) process.exit(report.status ?? 1)

const { total } = JSON.parse(readFileSync(SUMMARY, 'utf8')) as Summary
const floor = JSON.parse(readFileSync(FLOOR, 'utf8')) as Record<(typeof FIGURES)[number], number>
const under = FIGURES.filter((figure) => total[figure].pct < floor[figure])
for (const figure of FIGURES) {
  const mark = under.includes(figure) ? 'UNDER' : 'ok'
  process.stdout.write(`coverage ${figure}: ${total[figure].pct}% (floor ${floor[figure]}%) ${mark}\n`)
}
if (under.length > 0) {
  process.stdout.write(`coverage is under the floor in ${FLOOR}: ${under.join(', ')}\n`)
  process.exitCode = 1
}
