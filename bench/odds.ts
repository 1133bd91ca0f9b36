import { RULE_SETS } from '../src/rules/index.js'
import { oddsOf, resolveAction, type RuleAction, type RuleSet } from '../src/rules/rule-set.js'
import { exampleCharacter } from '../src/rules/shock-meters/examples.js'
import { load, type LoadResult } from './lib/load.js'
import type { BenchServer } from './lib/server.js'
import { median, round } from './lib/stats.js'
import { RESOLVE_BODY } from './stateless.js'

/** What one odds answer costs, as a multiple of one resolution of the same request measured alongside it. */
export interface OddsCost {
  action: string
  resolutionMicros: number
  oddsMicros: number
  ratio: number
}

export interface OddsResult {
  inProcess: OddsCost[]
  http: (OddsCost & { resolveRps: number; oddsRps: number; oddsP99: number })[]
}

const json = { 'content-type': 'application/json' }

/** Each rolling action with a request a table would send: its own example, and the stress check on a full sheet. */
function cases(): { ruleSet: RuleSet; action: RuleAction; sheet: unknown; request: unknown }[] {
  const rolling = RULE_SETS.flatMap((ruleSet) =>
    ruleSet.actions
      .filter((action) => action.odds !== undefined)
      .map((action) => ({
        ruleSet,
        action,
        sheet: action.exampleSheet ?? {},
        request: ((action.request as { examples?: unknown[] }).examples ?? [])[0],
      })),
  )
  const { request } = JSON.parse(RESOLVE_BODY) as { request: unknown }
  return rolling.map((entry) =>
    entry.action.name === 'stress-check' ? { ...entry, sheet: exampleCharacter, request } : entry,
  )
}

/** Microseconds per call of `work`, over enough calls to fill about `millis`. */
function microsPerCall(work: () => unknown, millis: number): number {
  let calls = 0
  const started = performance.now()
  let elapsed = 0
  while (elapsed < millis) {
    for (let i = 0; i < 50; i++) work()
    calls += 50
    elapsed = performance.now() - started
  }
  return (elapsed * 1000) / calls
}

/**
 * In the benchmark's own process: for each rolling action, `runs` rounds of resolving the request
 * (server dice) and of its odds, alternating, each round about `millis` long; medians of each round.
 */
export function benchOddsInProcess(options: { runs: number; millis: number }): OddsCost[] {
  return cases().map(({ ruleSet, action, sheet, request }) => {
    const resolve = () => resolveAction(ruleSet, action, { sheet, request })
    const odds = () => oddsOf(ruleSet, action, { sheet, request })
    microsPerCall(resolve, options.millis)
    microsPerCall(odds, options.millis)
    const rounds: { resolution: number; odds: number }[] = []
    for (let run = 0; run < options.runs; run++) {
      rounds.push({ resolution: microsPerCall(resolve, options.millis), odds: microsPerCall(odds, options.millis) })
    }
    const resolutionMicros = median(rounds.map((round) => round.resolution))
    const oddsMicros = median(rounds.map((round) => round.odds))
    return {
      action: `${ruleSet.id}/${action.name}`,
      resolutionMicros: round(resolutionMicros, 1),
      oddsMicros: round(oddsMicros, 1),
      ratio: round(median(rounds.map((each) => each.odds / each.resolution)), 2),
    }
  })
}

/**
 * Over HTTP, the stateless routes: `POST /v1/resolve/{ruleset}/{action}` and its `/odds`, with
 * the same sheet and request (the odds without dice), alternating `runs` times. The cost ratio
 * is the resolution's requests per second over the odds' (how many resolutions one odds answer costs).
 */
export async function benchOddsHttp(
  server: BenchServer,
  options: { runs: number; seconds: number; connections: number },
): Promise<OddsResult['http']> {
  const results: OddsResult['http'] = []
  for (const { ruleSet, action, sheet, request } of cases()) {
    const url = `${server.url}/v1/resolve/${ruleSet.id}/${action.name}`
    const resolve = { url, method: 'POST' as const, headers: json, body: JSON.stringify({ sheet, request }) }
    const odds = { ...resolve, url: `${url}/odds` }
    await load({ ...resolve, connections: options.connections, duration: 2 })
    await load({ ...odds, connections: options.connections, duration: 2 })
    const rounds: { resolve: LoadResult; odds: LoadResult }[] = []
    for (let run = 0; run < options.runs; run++) {
      const resolved = await load({ ...resolve, connections: options.connections, duration: options.seconds })
      const counted = await load({ ...odds, connections: options.connections, duration: options.seconds })
      if (resolved.non2xx || counted.non2xx || resolved.errors || counted.errors)
        throw new Error(`odds run of ${action.name} failed: ${JSON.stringify({ resolved, counted })}`)
      rounds.push({ resolve: resolved, odds: counted })
    }
    const resolveRps = median(rounds.map((each) => each.resolve.requestsPerSecond))
    const oddsRps = median(rounds.map((each) => each.odds.requestsPerSecond))
    const entry = {
      action: `${ruleSet.id}/${action.name}`,
      resolutionMicros: round(1e6 / resolveRps, 0),
      oddsMicros: round(1e6 / oddsRps, 0),
      ratio: round(median(rounds.map((each) => each.resolve.requestsPerSecond / each.odds.requestsPerSecond)), 2),
      resolveRps: round(resolveRps, 0),
      oddsRps: round(oddsRps, 0),
      oddsP99: median(rounds.map((each) => each.odds.p99)),
    }
    console.log(
      `  ${entry.action}: resolve ${entry.resolveRps} req/s, odds ${entry.oddsRps} req/s (p99 ${entry.oddsP99} ms): an odds answer costs ${entry.ratio} resolutions`,
    )
    results.push(entry)
  }
  return results
}
