import t from 'tap'
import { execFile } from 'node:child_process'
import { mkdtemp, mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const execute = promisify(execFile)
/** tap puts its loaders in every child's NODE_OPTIONS; npm, tsc and node must run as a reader's shell runs them. */
const run = (command: string, args: string[], options: { cwd?: string } = {}) =>
  execute('env', ['-u', 'NODE_OPTIONS', command, ...args], options)

/**
 * What a VTT gets from `npm run client:pack` (docs/guides/vtt-integration.md): the tarball,
 * installed in a project of its own, compiles under strict tsc with the sheet narrowed by
 * `ruleset`, and loads in Node. openapi-fetch is linked from Nerve's own node_modules, where
 * npm would install it from the registry.
 */
t.test('the packed @nerve/client installs, type-checks and loads in a project of its own', async (t) => {
  await run('npm', ['run', '--silent', 'client:pack'], { cwd: ROOT })
  const tarball = (await readdir(join(ROOT, 'clients/typescript'))).find((name) => name.endsWith('.tgz'))
  if (!tarball) return t.fail('npm run client:pack wrote no tarball')

  const project = await mkdtemp(join(tmpdir(), 'nerve-vtt-'))
  t.teardown(() => rm(project, { recursive: true, force: true }))
  const installed = join(project, 'node_modules/@nerve/client')
  await mkdir(installed, { recursive: true })
  await run('tar', ['-xzf', join(ROOT, 'clients/typescript', tarball), '-C', installed, '--strip-components=1'])
  await symlink(join(ROOT, 'node_modules/openapi-fetch'), join(project, 'node_modules/openapi-fetch'), 'dir')

  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'vtt', type: 'module', private: true }))
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022', 'DOM'],
        types: [],
        strict: true,
        noEmit: true,
      },
      include: ['vtt.ts'],
    }),
  )
  await writeFile(
    join(project, 'vtt.ts'),
    `import { createNerveClient, data, type Character } from '@nerve/client'

export async function failedViolence(campaignId: string, characterId: string): Promise<number | null> {
  const nerve = createNerveClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'nrv_gm_…' })
  const character: Character = data(
    await nerve.GET('/v1/campaigns/{campaignId}/characters/{characterId}', { params: { path: { campaignId, characterId } } }),
  )
  if (character.ruleset !== 'shock-meters') return null
  // @ts-expect-error -- a shock-meters sheet has no scars
  void character.sheet.scars
  return character.sheet.meters.violence.failed
}
`,
  )
  const tsc = join(ROOT, 'node_modules/.bin/tsc')
  const compiled = await run(tsc, ['-p', project], { cwd: project }).then(
    () => '',
    (error: Error & { stdout?: string }) => error.stdout || error.message,
  )
  t.equal(compiled, '', 'a strict project using the client compiles, with the sheet narrowed by ruleset')

  const loaded = await run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const c = await import('@nerve/client'); console.log(typeof c.createNerveClient, typeof c.data)",
    ],
    { cwd: project },
  )
  t.equal(loaded.stdout.trim(), 'function function', 'and it loads in Node')
})
