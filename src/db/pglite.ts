import { PGlite } from '@electric-sql/pglite'
import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * PGlite's defaults give PostgreSQL 128 MB of shared buffers inside the process; one table's
 * campaigns need a fraction of that, and the smaller buffers keep `npm start` near 200 MB.
 */
export const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB']

export class DataDirInUseError extends Error {}

/**
 * Opens the embedded PostgreSQL in `dataDir` (`memory://` keeps it in memory only). A folder
 * on disk is locked for this process: two PostgreSQL servers on one folder corrupt it.
 */
export async function openEmbedded(dataDir: string): Promise<{ pglite: PGlite; release: () => Promise<void> }> {
  if (dataDir.includes('://')) return { pglite: await openInMemory(dataDir), release: async () => {} }
  await mkdir(dataDir, { recursive: true })
  const release = await lockDataDir(dataDir)
  try {
    // initdb needs ~650 MB that the process would keep; a child process gives it back when it exits.
    if (!existsSync(join(dataDir, 'PG_VERSION'))) await initialiseInChild(dataDir)
    return { pglite: await PGlite.create(dataDir, { startParams: START_PARAMS }), release }
  } catch (error) {
    await release()
    throw error
  }
}

/** A copy of a freshly initialised cluster, taken by the process's first in-memory database. */
let freshCluster: Promise<Blob> | undefined

/**
 * initdb costs 2–4 s; an in-memory database after the process's first starts from a copy of
 * the first one as it was before anything was written to it, in a tenth of the time (the
 * tests open hundreds).
 */
async function openInMemory(dataDir: string): Promise<PGlite> {
  const copy = await freshCluster?.catch(() => undefined)
  if (copy) return PGlite.create(dataDir, { startParams: START_PARAMS, loadDataDir: copy })
  const pglite = await PGlite.create(dataDir, { startParams: START_PARAMS })
  freshCluster ??= pglite.dumpDataDir('none')
  await freshCluster.catch(() => (freshCluster = undefined))
  return pglite
}

async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockFile = join(dataDir, 'nerve.pid')
  const claimed = await writeFile(lockFile, String(process.pid), { flag: 'wx' }).then(
    () => true,
    () => false,
  )
  if (!claimed) {
    const holder = Number(await readFile(lockFile, 'utf8').catch(() => ''))
    if (holder && holder !== process.pid && isRunning(holder)) {
      throw new DataDirInUseError(
        `another Nerve (pid ${holder}) is already using ${dataDir}: stop it, or give this one its own DATA_DIR`,
      )
    }
    // The process that wrote the lock is gone (a crash or a kill): the folder is free.
    await writeFile(lockFile, String(process.pid))
  }
  return async () => {
    await unlink(lockFile).catch(() => {})
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function initialiseInChild(dataDir: string): Promise<void> {
  const child = fork(new URL('./pglite-initdb' + extname(fileURLToPath(import.meta.url)), import.meta.url), [dataDir], {
    stdio: 'inherit',
  })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`initialising the embedded database in ${dataDir} failed (exit ${code})`)),
    )
  })
}
