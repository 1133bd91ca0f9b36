// A CPU profile of the server under one load: `tsx bench/profile.ts stateful|stateless [seconds]`.
// Starts its own PostgreSQL and server (node --cpu-prof), runs the load, and prints where the
// server's CPU went (bench/profile-summary.ts). The .cpuprofile is kept for Chrome DevTools.
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { load } from './lib/load.js'
import { createParties, targetsOf } from './lib/fixtures.js'
import { startPostgres } from './lib/postgres.js'
import { pinSelf, startServer } from './lib/server.js'
import { summarise } from './profile-summary.js'
import { RESOLVE_BODY } from './stateless.js'
import { rollLoad } from './stateful.js'

export async function profile(kind: 'stateful' | 'stateless', seconds: number, workDir: string, pgPort: number) {
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
      if (kind === 'stateless') {
        const resolve = (duration: number) =>
          load({
            url: `${server.url}/v1/resolve/shock-meters/stress-check`,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: RESOLVE_BODY,
            connections: 10,
            duration,
          })
        await resolve(3)
        await server.startProfile()
        await resolve(seconds)
      } else {
        const parties = await createParties(server.url, {
          campaigns: 20,
          characters: 5,
          webhookUrl: 'http://127.0.0.1:9/nerve-bench',
        })
        await rollLoad(server, targetsOf(parties), 10, 3)
        await server.startProfile()
        await rollLoad(server, targetsOf(parties), 10, seconds)
      }
      await server.stopProfile(file)
      return { file, ...summarise(file, 20) }
    } finally {
      await server.stop()
    }
  } finally {
    await postgres.stop()
  }
}

if (process.argv[1]?.endsWith('profile.ts')) {
  pinSelf()
  const kind = process.argv[2] === 'stateless' ? 'stateless' : 'stateful'
  const result = await profile(kind, Number(process.argv[3] ?? 20), '/tmp/nerve-bench', 56544)
  console.log(`${result.file}: busy ${result.busyMs} ms`)
  for (const { area, share } of result.areas) console.log(`  ${share.padStart(6)}  ${area}`)
  console.log('heaviest functions (self time):')
  for (const { name, share } of result.functions) console.log(`  ${share.padStart(6)}  ${name}`)
}
