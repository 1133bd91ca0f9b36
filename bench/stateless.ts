import { exampleCharacter } from '../src/rules/shock-meters/examples.js'
import { load, type LoadResult } from './lib/load.js'
import type { BenchServer } from './lib/server.js'
import { median, round } from './lib/stats.js'

export interface StatelessResult {
  runs: { echo: LoadResult; resolve: LoadResult; ratio: number }[]
  echoRps: number
  resolveRps: number
  resolveP99: number
  ratio: number
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
 * echo route on the same server, alternating, `runs` times; each run's ratio, then medians.
 */
export async function benchStateless(
  server: BenchServer,
  options: { runs: number; seconds: number; connections: number },
): Promise<StatelessResult> {
  const echo = { url: `${server.url}/bench/echo`, method: 'POST' as const, headers: json, body: ECHO_BODY }
  const resolve = {
    url: `${server.url}/v1/resolve/shock-meters/stress-check`,
    method: 'POST' as const,
    headers: json,
    body: RESOLVE_BODY,
  }
  // Warm both paths up (JIT, Ajv, inline caches) before anything counts.
  await load({ ...echo, connections: options.connections, duration: 3 })
  await load({ ...resolve, connections: options.connections, duration: 3 })
  const runs: StatelessResult['runs'] = []
  for (let run = 0; run < options.runs; run++) {
    const echoResult = await load({ ...echo, connections: options.connections, duration: options.seconds })
    const resolveResult = await load({ ...resolve, connections: options.connections, duration: options.seconds })
    if (echoResult.non2xx || resolveResult.non2xx || echoResult.errors || resolveResult.errors)
      throw new Error(`stateless run failed: ${JSON.stringify({ echoResult, resolveResult })}`)
    const ratio = resolveResult.requestsPerSecond / echoResult.requestsPerSecond
    runs.push({ echo: echoResult, resolve: resolveResult, ratio })
    console.log(
      `  run ${run + 1}: echo ${round(echoResult.requestsPerSecond, 0)} req/s, resolve ${round(resolveResult.requestsPerSecond, 0)} req/s (p99 ${resolveResult.p99} ms), ratio ${round(ratio * 100, 0)}%`,
    )
  }
  return {
    runs,
    echoRps: median(runs.map((r) => r.echo.requestsPerSecond)),
    resolveRps: median(runs.map((r) => r.resolve.requestsPerSecond)),
    resolveP99: median(runs.map((r) => r.resolve.p99)),
    ratio: median(runs.map((r) => r.ratio)),
  }
}
