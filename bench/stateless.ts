import { exampleCharacter } from '../src/rules/shock-meters/examples.js'
import { load, type LoadResult } from './lib/load.js'
import type { BenchServer } from './lib/server.js'
import { median, round } from './lib/stats.js'

export interface StatelessResult {
  runs: { echo: LoadResult; bytes: LoadResult; resolve: LoadResult; ratio: number; ratioToBytes: number }[]
  echoRps: number
  bytesRps: number
  resolveRps: number
  resolveP99: number
  /** Resolve against the validated echo. */
  ratio: number
  /** Resolve against the route that moves the same bytes (`/bench/bytes`). */
  ratioToBytes: number
}

const json = { 'content-type': 'application/json' }

/** What a VTT that keeps its own state sends: its whole sheet and a check. */
export const RESOLVE_BODY = JSON.stringify({
  sheet: exampleCharacter,
  request: { meter: 'violence', rank: 4, trigger: 'kill-in-fight', response: 'panic' },
})

export const ECHO_BODY = JSON.stringify({ message: 'Shot the cultist on the stairs', count: 4 })

/**
 * Target 1: `POST /v1/resolve/shock-meters/stress-check` against a minimal TypeBox-validated
 * echo route and against `/bench/bytes` (the same body in, an answer of the same size out, no
 * validation) on the same server, in turn, `runs` times; each run's ratios, then medians.
 */
export async function benchStateless(
  server: BenchServer,
  options: { runs: number; seconds: number; connections: number },
): Promise<StatelessResult> {
  const post = (path: string, body: string) => ({
    url: `${server.url}${path}`,
    method: 'POST' as const,
    headers: json,
    body,
    connections: options.connections,
  })
  const routes = {
    echo: post('/bench/echo', ECHO_BODY),
    bytes: post('/bench/bytes', RESOLVE_BODY),
    resolve: post('/v1/resolve/shock-meters/stress-check', RESOLVE_BODY),
  }
  // Warm every path up (JIT, Ajv, inline caches) before anything counts.
  for (const route of Object.values(routes)) await load({ ...route, duration: 3 })
  const runs: StatelessResult['runs'] = []
  for (let run = 0; run < options.runs; run++) {
    const echo = await load({ ...routes.echo, duration: options.seconds })
    const bytes = await load({ ...routes.bytes, duration: options.seconds })
    const resolve = await load({ ...routes.resolve, duration: options.seconds })
    if ([echo, bytes, resolve].some((result) => result.non2xx || result.errors))
      throw new Error(`stateless run failed: ${JSON.stringify({ echo, bytes, resolve })}`)
    const ratio = resolve.requestsPerSecond / echo.requestsPerSecond
    const ratioToBytes = resolve.requestsPerSecond / bytes.requestsPerSecond
    runs.push({ echo, bytes, resolve, ratio, ratioToBytes })
    console.log(
      `  run ${run + 1}: echo ${round(echo.requestsPerSecond, 0)} req/s, bytes ${round(bytes.requestsPerSecond, 0)} req/s, resolve ${round(resolve.requestsPerSecond, 0)} req/s (p99 ${resolve.p99} ms); resolve/bytes ${round(ratioToBytes * 100, 0)}%, resolve/echo ${round(ratio * 100, 0)}%`,
    )
  }
  return {
    runs,
    echoRps: median(runs.map((r) => r.echo.requestsPerSecond)),
    bytesRps: median(runs.map((r) => r.bytes.requestsPerSecond)),
    resolveRps: median(runs.map((r) => r.resolve.requestsPerSecond)),
    resolveP99: median(runs.map((r) => r.resolve.p99)),
    ratio: median(runs.map((r) => r.ratio)),
    ratioToBytes: median(runs.map((r) => r.ratioToBytes)),
  }
}
