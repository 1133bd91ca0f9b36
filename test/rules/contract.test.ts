import t from 'tap'
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { RULE_SETS } from '../../src/rules/index.js'
import { resolveChecked } from './resolve-checked.js'

const RULES_DIR = fileURLToPath(new URL('../../src/rules/', import.meta.url))

const examplesOf = (schema: unknown): unknown[] => (schema as { examples?: unknown[] }).examples ?? []
const idOf = (schema: unknown): string | undefined => (schema as { $id?: string }).$id
/** The first reason a value fails a schema, for assertion messages. */
const firstError = (schema: TSchema, value: unknown) => JSON.stringify([...Value.Errors(schema, value)][0])

t.test('action names are unique across all rule sets (they are URL segments)', async (t) => {
  const names = RULE_SETS.flatMap((ruleSet) => ruleSet.actions.map((action) => action.name))
  const duplicates = names.filter((name, i) => names.indexOf(name) !== i)
  t.same(duplicates, [], 'no action name is used twice')
  t.ok(names.length > 0, 'there are actions')
  for (const name of names) t.match(name, /^[a-z0-9]+(-[a-z0-9]+)*$/, `${name} is kebab-case`)
})

t.test('every schema $id is unique (they become OpenAPI component names)', async (t) => {
  const schemas = RULE_SETS.flatMap((ruleSet) => [
    ruleSet.sheet,
    ruleSet.settings,
    ...ruleSet.actions.flatMap((action) => [action.request, action.outcome]),
  ])
  // Two actions may share one schema object (two passion actions share an outcome).
  const distinct = [...new Set(schemas)]
  const ids = distinct.map(idOf)
  t.notOk(ids.includes(undefined), 'every sheet, settings, request and outcome schema has an $id')
  const duplicates = ids.filter((id, i) => ids.indexOf(id) !== i)
  t.same(duplicates, [], 'no two different schemas share an $id')
})

for (const ruleSet of RULE_SETS) {
  for (const action of ruleSet.actions) {
    const label = `${ruleSet.id}/${action.name}`

    t.test(`${label}: the request schema has examples, and each passes the schema`, async (t) => {
      const examples = examplesOf(action.request)
      t.ok(examples.length > 0, 'at least one example')
      examples.forEach((example, i) => {
        t.ok(Value.Check(action.request, example), `example ${i} passes: ${firstError(action.request, example)}`)
      })
    })

    t.test(`${label}: the first example resolves with seeded dice and fits the published schemas`, async (t) => {
      const [request] = examplesOf(action.request)
      const resolved = resolveChecked(ruleSet, action, {
        sheet: action.exampleSheet ?? {},
        request,
        dice: { source: 'seeded', seed: 'contract' },
      })
      t.ok(
        Value.Check(action.outcome, resolved.outcome),
        `the outcome fits ${idOf(action.outcome)}: ${firstError(action.outcome, resolved.outcome)}`,
      )
      t.ok(
        Value.Check(ruleSet.sheet, resolved.sheet),
        `the new sheet fits ${idOf(ruleSet.sheet)}: ${firstError(ruleSet.sheet, resolved.sheet)}`,
      )
      t.type(resolved.summary, 'string', 'a summary line')
      t.ok(resolved.summary.length > 0, 'the summary is not empty')
      for (const { name } of ruleSet.actions.filter((other) => other.name.includes('-'))) {
        t.notOk(resolved.summary.includes(name), `the summary names no action by its id (${name})`)
      }
      t.ok(Array.isArray(resolved.dice), 'the dice are listed')
      for (const die of resolved.dice) t.equal(die.source, 'seeded', 'every die is recorded as seeded')
    })

    if (action.exampleSheet !== undefined) {
      t.test(`${label}: the example sheet normalises to a sheet that fits the sheet schema`, async (t) => {
        const sheet = ruleSet.normalizeSheet(action.exampleSheet)
        t.ok(
          Value.Check(ruleSet.sheet, sheet),
          `the normalised example sheet fits: ${firstError(ruleSet.sheet, sheet)}`,
        )
      })
    }
  }

  t.test(`${ruleSet.id}: normalizeSheet({}) gives a sheet that passes the sheet schema`, async (t) => {
    const sheet = ruleSet.normalizeSheet({})
    t.ok(Value.Check(ruleSet.sheet, sheet), `the default sheet fits: ${firstError(ruleSet.sheet, sheet)}`)
    t.same(ruleSet.normalizeSheet(sheet), sheet, 'normalising the default sheet again changes nothing')
  })

  t.test(`${ruleSet.id}: normalizeSettings({}) gives settings that pass the settings schema`, async (t) => {
    const settings = ruleSet.normalizeSettings({})
    t.ok(Value.Check(ruleSet.settings, settings), `the default settings fit: ${firstError(ruleSet.settings, settings)}`)
  })
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
}

const FORBIDDEN_MODULES = [
  { pattern: /^fastify(\/|$)/, what: 'fastify' },
  { pattern: /^@fastify\//, what: '@fastify/*' },
  { pattern: /^prisma(\/|$)/, what: 'prisma' },
  { pattern: /^@prisma\//, what: '@prisma/*' },
  { pattern: /^pg(\/|$)/, what: 'pg' },
  { pattern: /(^|\/)generated(\/|$)/, what: 'src/generated' },
]

const FORBIDDEN_CODE = [
  { pattern: /\bMath\.random\b/, what: 'Math.random' },
  { pattern: /\bDate\b/, what: 'Date' },
  { pattern: /\bprocess\.env\b/, what: 'process.env' },
]

t.test('the rules layer is pure: no fastify, prisma, pg or generated imports', async (t) => {
  const files = await sourceFiles(RULES_DIR)
  t.ok(files.length >= 10, `every file under src/rules is scanned (${files.length})`)
  for (const file of files) {
    const text = await readFile(file, 'utf8')
    const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g)].map(
      (match) => match[1]!,
    )
    for (const { pattern, what } of FORBIDDEN_MODULES) {
      const found = specifiers.filter((specifier) => pattern.test(specifier))
      t.same(found, [], `${relative(RULES_DIR, file)} imports nothing from ${what}`)
    }
  }
})

t.test('the rules layer is pure: no Math.random, Date or process.env', async (t) => {
  for (const file of await sourceFiles(RULES_DIR)) {
    const text = await readFile(file, 'utf8')
    for (const { pattern, what } of FORBIDDEN_CODE) {
      t.notOk(pattern.test(text), `${relative(RULES_DIR, file)} does not use ${what}`)
    }
  }
})

for (const ruleSet of RULE_SETS) {
  t.test(`${ruleSet.id}: a sheet waiting for a decision names the action that settles it`, async (t) => {
    const settings = ruleSet.normalizeSettings({})
    t.same(ruleSet.pendingOf(ruleSet.normalizeSheet({}, settings), settings), [], 'a new sheet waits for nothing')
    for (const action of ruleSet.actions.filter(
      (candidate) => candidate.kind === 'decision' && candidate.exampleSheet,
    )) {
      const sheet = ruleSet.normalizeSheet(action.exampleSheet, settings)
      t.ok(
        ruleSet.pendingOf(sheet, settings).some((decision) => decision.action === action.name),
        `${action.name}'s example sheet waits for it`,
      )
    }
  })
}
