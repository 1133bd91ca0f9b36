import { exampleCharacter } from '../src/rules/shock-meters/examples.js'
import { load, type LoadOptions, type LoadResult } from './lib/load.js'
import type { BenchServer } from './lib/server.js'
import { median, round } from './lib/stats.js'

/** One load on one route, with the server's CPU time per request it served. */
interface RouteRun extends LoadResult {
  cpuPerRequestUs: number
}

type Route = 'echo' | 'bytes' | 'unchecked' | 'resolve'

export interface StatelessResult {
  runs: (Record<Route, RouteRun> & {
    ratio: number
    ratioToBytes: number
    cpuRatio: number
    cpuRatioToBytes: number
    uncheckedCpuRatioToBytes: number
  })[]
  echoRps: number
  bytesRps: number
  resolveRps: number
  resolveP99: number
  /** Resolve against the validated echo, in requests per second. */
  ratio: number
  /** Resolve against the route that moves the same bytes (`/bench/bytes`), in requests per second. */
  ratioToBytes: number
  /**
   * The same two ratios from the server's CPU time per request (the baseline's over the
   * resolve's): what a core of its own would give, and far less disturbed by a busy machine.
   */
  cpuRatio: number
  cpuRatioToBytes: number
  /**
   * The ceiling: the bytes route's CPU over that of `/bench/unchecked`, the resolve's rules and
   * answer with no check of the body, the sheet or the answer (bench/server.mjs).
   */
  uncheckedCpuRatioToBytes: number
  cpuPerRequestUs: Record<Route, number>
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
 * validation) on the same server, in turn, `runs` times; each run's ratios, then medians. Also
 * `/bench/unchecked`, the resolve with no check at all: the ratio the rules alone leave.
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
  const routes: Record<Route, LoadOptions> = {
    echo: post('/bench/echo', ECHO_BODY),
    bytes: post('/bench/bytes', RESOLVE_BODY),
    unchecked: post('/bench/unchecked', RESOLVE_BODY),
    resolve: post('/v1/resolve/shock-meters/stress-check', RESOLVE_BODY),
  }
  const measured = async (route: Route, duration: number): Promise<RouteRun> => {
    const before = await server.cpu()
    const result = await load({ ...routes[route], duration })
    return { ...result, cpuPerRequestUs: ((await server.cpu()) - before) / result.requests }
  }
  // Warm every path up (JIT, Ajv, inline caches) before anything counts.
  for (const route of Object.keys(routes) as Route[]) await measured(route, 3)
  const runs: StatelessResult['runs'] = []
  for (let run = 0; run < options.runs; run++) {
    const echo = await measured('echo', options.seconds)
    const bytes = await measured('bytes', options.seconds)
    const unchecked = await measured('unchecked', options.seconds)
    const resolve = await measured('resolve', options.seconds)
    if ([echo, bytes, unchecked, resolve].some((result) => result.non2xx || result.errors))
      throw new Error(`stateless run failed: ${JSON.stringify({ echo, bytes, unchecked, resolve })}`)
    const ratios = {
      ratio: resolve.requestsPerSecond / echo.requestsPerSecond,
      ratioToBytes: resolve.requestsPerSecond / bytes.requestsPerSecond,
      cpuRatio: echo.cpuPerRequestUs / resolve.cpuPerRequestUs,
      cpuRatioToBytes: bytes.cpuPerRequestUs / resolve.cpuPerRequestUs,
      uncheckedCpuRatioToBytes: bytes.cpuPerRequestUs / unchecked.cpuPerRequestUs,
    }
    runs.push({ echo, bytes, unchecked, resolve, ...ratios })
    const show = (result: RouteRun) =>
      `${round(result.requestsPerSecond, 0)} req/s, ${round(result.cpuPerRequestUs, 0)} µs CPU each`
    console.log(
      `  run ${run + 1}: echo ${show(echo)}; bytes ${show(bytes)}; unchecked ${show(unchecked)}; resolve ${show(resolve)} (p99 ${resolve.p99} ms)`,
    )
    console.log(
      `    resolve/bytes ${round(ratios.ratioToBytes * 100, 0)}% (CPU ${round(ratios.cpuRatioToBytes * 100, 0)}%), resolve/echo ${round(ratios.ratio * 100, 0)}% (CPU ${round(ratios.cpuRatio * 100, 0)}%); unchecked/bytes CPU ${round(ratios.uncheckedCpuRatioToBytes * 100, 0)}%`,
    )
  }
  const medianOf = (pick: (run: StatelessResult['runs'][number]) => number) => median(runs.map(pick))
  return {
    runs,
    echoRps: medianOf((r) => r.echo.requestsPerSecond),
    bytesRps: medianOf((r) => r.bytes.requestsPerSecond),
    resolveRps: medianOf((r) => r.resolve.requestsPerSecond),
    resolveP99: medianOf((r) => r.resolve.p99),
    ratio: medianOf((r) => r.ratio),
    ratioToBytes: medianOf((r) => r.ratioToBytes),
    cpuRatio: medianOf((r) => r.cpuRatio),
    cpuRatioToBytes: medianOf((r) => r.cpuRatioToBytes),
    uncheckedCpuRatioToBytes: medianOf((r) => r.uncheckedCpuRatioToBytes),
    cpuPerRequestUs: {
      echo: medianOf((r) => r.echo.cpuPerRequestUs),
      bytes: medianOf((r) => r.bytes.cpuPerRequestUs),
      unchecked: medianOf((r) => r.unchecked.cpuPerRequestUs),
      resolve: medianOf((r) => r.resolve.cpuPerRequestUs),
    },
  }
}
