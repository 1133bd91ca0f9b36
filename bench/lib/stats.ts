/** Small statistics for benchmark reports. */

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return NaN
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** The p-th percentile (0–100) by nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return NaN
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank]!
}

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

export const mb = (bytes: number) => round(bytes / 1024 / 1024, 0)

export const pct = (ratio: number) => `${round(ratio * 100, 0)}%`

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
