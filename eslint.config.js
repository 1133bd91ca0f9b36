import Module from 'node:module'

/*
 * typescript-eslint runs on the TypeScript 5 compiler API, which the project's TypeScript 7
 * (native) package no longer ships. `typescript-5` is TypeScript 5 installed under another
 * name (as for `npm run client:types`); this hands it to typescript-eslint alone, before it
 * is loaded. Everything else, `tsc` included, keeps TypeScript 7.
 */
const resolveFilename = Module._resolveFilename
Module._resolveFilename = function (request, parent, ...rest) {
  if (
    (request === 'typescript' || request.startsWith('typescript/')) &&
    /[\\/]node_modules[\\/](typescript-eslint|@typescript-eslint|ts-api-utils)[\\/]/.test(parent?.filename ?? '')
  ) {
    request = request.replace(/^typescript/, 'typescript-5')
  }
  return resolveFilename.call(this, request, parent, ...rest)
}

const { default: js } = await import('@eslint/js')
const { default: tseslint } = await import('typescript-eslint')
const { importX } = await import('eslint-plugin-import-x')
const { createTypeScriptImportResolver } = await import('eslint-import-resolver-typescript')

/*
 * The layers of src/, top to bottom (README, "Where things are"): a file may import from its own
 * layer and the layers below it, never from one above. Each layer's files as globs from the root
 * (globs all: the rule takes no mix of globs and plain paths, so a single file is `@(name).ts`).
 */
const LAYERS = [
  { name: 'entry points', files: ['src/{app,server,worker,openapi}.ts'] },
  { name: 'routes', files: ['src/routes/**'] },
  { name: 'plugins', files: ['src/plugins/**'] },
  {
    name: 'services',
    files: ['src/services/**', 'src/history/@(record|listings|stream|feed|archive-export|archive-import).ts'],
  },
  { name: 'webhooks', files: ['src/webhooks/!(repository|outbox|schemas).ts'] },
  { name: 'schemas', files: ['src/schemas/**', 'src/webhooks/@(schemas).ts', 'src/history/@(event|archive).ts'] },
  { name: 'data access', files: ['src/repositories/**', 'src/webhooks/@(repository|outbox).ts', 'src/db/**'] },
  { name: 'history registry', files: ['src/history/@(event-types|lineage).ts'] },
  { name: 'rules', files: ['src/rules/**'] },
  { name: 'base', files: ['src/lib/**', 'src/{errors,config,logger,runtime-flags}.ts', 'src/generated/**'] },
]

/* Imports that run up a layer on purpose, each with its reason; allowed from the importer's whole layer. */
const EXCEPTIONS = [
  {
    layer: 'data access',
    imports: 'src/history/@(event).ts',
    reason:
      'the events repository writes each event with its listings (its API JSON less the sheets) in the same statement, so a history page copies text (docs/BENCHMARKS.md); the view needs the API’s schemas, which sit above the data layer',
  },
  {
    layer: 'history registry',
    imports: 'src/history/@(event).ts',
    reason:
      'types only (`import type`): a replay reads an event as the API shows it, and `Event` is the one definition of that shape; no code runs up',
  },
]

const layerZones = LAYERS.slice(1).map((layer, index) => ({
  target: layer.files,
  from: LAYERS.slice(0, index + 1).flatMap((above) => above.files),
  except: EXCEPTIONS.filter((exception) => exception.layer === layer.name).map(
    (exception) => `${import.meta.dirname}/${exception.imports}`,
  ),
  message: `The ${layer.name} layer imports nothing from a layer above it (README, "Where things are").`,
}))

/** What the console's modules use of the browser (the `globals` package is not a dependency). */
const BROWSER_GLOBALS = [
  'AbortController',
  'CSS',
  'Node',
  'TextDecoderStream',
  'URL',
  'URLSearchParams',
  'clearTimeout',
  'crypto',
  'document',
  'fetch',
  'history',
  'localStorage',
  'location',
  'navigator',
  'sessionStorage',
  'setTimeout',
]

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'src/generated/',
      'clients/typescript/src/schema.ts',
      'clients/typescript/dist/',
      'coverage/',
      '.tap/',
      'data/',
    ],
  },
  {
    // Scripts served to browsers as they are: classic scripts, type-checked from their JSDoc
    // (tsconfig.browser.json).
    files: ['public/docs/**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: {
      sourceType: 'script',
      globals: {
        window: 'readonly',
        document: 'readonly',
        console: 'readonly',
        MutationObserver: 'readonly',
        URL: 'readonly',
      },
    },
  },
  {
    // The GM console: ES modules served as they are, type-checked from their JSDoc (tsconfig.browser.json).
    files: ['public/dashboard/**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(BROWSER_GLOBALS.map((name) => [name, 'readonly'])),
    },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts', 'clients/typescript/src/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    plugins: { 'import-x': importX },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: layerZones }],
      // Fastify tells promise plugins and hooks from callback ones by `async`, and tap
      // subtests are written `async t =>` alike: a missing `await` there is no mistake.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests poke at untyped values on purpose: the browser's window, malformed bodies.
      '@typescript-eslint/no-explicit-any': 'off',
      // Assertion messages quote arrays of dice and query strings as they are.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowArray: true, allow: [{ from: 'lib', name: ['URLSearchParams'] }] },
      ],
      // tap runs subtests in order and reports them itself: `t.test(…)` is not awaited.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafePromises: [{ from: 'package', name: 'PromiseWithSubtest', package: '@tapjs/core' }] },
      ],
      // `inject().json()` is `any` by design (light-my-request); the tests check the shape
      // of an answer with assertions at run time, which is what they are for.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      // Developer tools that read the API's JSON answers and raw database rows, untyped; the
      // tests, not these scripts, check those shapes.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
)
