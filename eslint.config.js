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

export default tseslint.config(
  {
    ignores: ['dist/', 'src/generated/', 'examples/client/schema.d.ts', 'coverage/', '.tap/', 'public/', 'data/'],
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
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
