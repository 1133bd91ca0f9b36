// A CPU profile of the server under one load: `tsx bench/profile.ts stateful|stateless|bytes|echo [seconds] [dir]
// [pg-port]` (echo, bytes: the stateless benchmark's baseline routes).
// Starts its own PostgreSQL and server (node --cpu-prof), runs the load, and prints where the
// server's CPU went (bench/profile-summary.ts). The .cpuprofile is kept for Chrome DevTools.
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { load } from './lib/load.js'
import { createParties, targetsOf } from './lib/fixtures.js'
import { startPostgres } from './lib/postgres.js'
import { pinSelf, startServer } from './lib/server.js'
import { summarise } from './profile-summary.js'
import { ECHO_BODY, RESOLVE_BODY } from './stateless.js'
import { rollLoad } from './stateful.js'

export type ProfileKind = 'stateful' | 'stateless' | 'bytes' | 'echo'

/** The requests of the stateless benchmark (target 1) and of its baselines. */
const POSTS = {
  stateless: { path: '/v1/resolve/shock-meters/stress-check', body: RESOLVE_BODY },
  bytes: { path: '/bench/bytes', body: RESOLVE_BODY },
  echo: { path: '/bench/echo', body: ECHO_BODY },
} as const

export async function profile(kind: ProfileKind, seconds: number, workDir: string, pgPort: number) {
  const profileDir = join(workDir, `profile-${kind}`)
  rmSync(profileDir, { recursive: true, force: true })
  mkdirSync(profileDir, { recursive: true })
  const postgres = await startPostgres(join(workDir, 'pg-profile'), pgPort)
  try {
    const databaseUrl = await postgres.createDatabase('nerve_profile')
    const server = await startServer({
      env: { DATABASE_URL: databaseUrl, WEBHOOK_DISPATCHER: 'off', WEBHOOK_ALLOW_PRIVATE: 'true' },
      port: 39018,
      logFile: join(workDir, `profile-${kind}.log`),
    })
    const file = join(profileDir, `${kind}.cpuprofile`)
    try {
      let requests: number
      let cpuBefore: number
      if (kind === 'stateful') {
        const parties = await createParties(server.url, {
          campaigns: 20,
          characters: 5,
          webhookUrl: 'http://127.0.0.1:9/nerve-bench',
        })
        await rollLoad(server, targetsOf(parties), 10, 3)
        await server.startProfile()
        cpuBefore = await server.cpu()
        requests = (await rollLoad(server, targetsOf(parties), 10, seconds)).requests
      } else {
        const { path, body } = POSTS[kind]
        const post = (duration: number) =>
          load({
            url: `${server.url}${path}`,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
            connections: 10,
            duration,
          })
        await post(3)
        await server.startProfile()
        cpuBefore = await server.cpu()
        requests = (await post(seconds)).requests
      }
      const cpuUs = (await server.cpu()) - cpuBefore
      await server.stopProfile(file)
      const summary = summarise(file, 20)
      // The server's busy time per request as sampled (the profiler's own overhead included), and
      // its CPU time per request as the kernel counts it, which other processes do not inflate.
      return {
        file,
        requests,
        cpuPerRequestUs: Math.round((summary.busyMs * 1000) / requests),
        processCpuPerRequestUs: Math.round(cpuUs / requests),
        ...summary,
      }
    } finally {
      await server.stop()
    }
  } finally {
    await postgres.stop()
  }
}

if (process.argv[1]?.endsWith('profile.ts')) {
  pinSelf()
  const kind = (['stateless', 'bytes', 'echo'] as const).find((name) => name === process.argv[2]) ?? 'stateful'
  const [, , , seconds = '20', workDir = '/tmp/nerve-bench', pgPort = '56544'] = process.argv
  const result = await profile(kind, Number(seconds), workDir, Number(pgPort))
  console.log(
    `${result.file}: busy ${result.busyMs} ms for ${result.requests} requests, ${result.cpuPerRequestUs} µs each (process CPU time: ${result.processCpuPerRequestUs} µs each)`,
  )
  for (const { area, share } of result.areas) console.log(`  ${share.padStart(6)}  ${area}`)
  console.log('heaviest functions (self time):')
  for (const { name, share } of result.functions) console.log(`  ${share.padStart(6)}  ${name}`)
}
