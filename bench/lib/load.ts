import autocannon from 'autocannon'

export interface LoadResult {
  requestsPerSecond: number
  /** Client-side latency in ms. */
  p50: number
  p99: number
  requests: number
  errors: number
  non2xx: number
}

export type LoadOptions = autocannon.Options

/** Runs autocannon in this process (which bench/run.ts pins to the load core). */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({ ...options })
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  }
}
