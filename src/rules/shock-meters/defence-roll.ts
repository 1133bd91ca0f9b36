import { isCritical, isFumble, isMatched } from '../d100.js'
import { Tiers, type Tier } from './constants.js'

/**
 * Reads a d100 face against a rating: 01 is a critical, 00 a fumble that always fails,
 * doubles 11..99 are matched, and otherwise the roll succeeds when it is at most the rating.
 */
export function tierOf(face: number, rating: number): Tier {
  if (isFumble(face)) return 'fumble'
  if (isCritical(face)) return 'critical'
  const success = face <= rating
  if (isMatched(face)) return success ? 'matched-success' : 'matched-failure'
  return success ? 'success' : 'failure'
}

export function isSuccess(tier: Tier): boolean {
  return Tiers.indexOf(tier) >= Tiers.indexOf('success')
}

export function describeTier(tier: Tier): string {
  return tier.replace('-', ' ')
}
