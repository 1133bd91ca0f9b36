/** Percentile dice: faces 1..100, where 100 reads "00" and 1 reads "01". */

function tensOf(face: number): number {
  return Math.floor((face % 100) / 10)
}

function onesOf(face: number): number {
  return face % 10
}

export function readD100(face: number): string {
  return String(face % 100).padStart(2, '0')
}

export function isCritical(face: number): boolean {
  return face === 1
}

export function isFumble(face: number): boolean {
  return face === 100
}

/** Matched: both digits the same, 11 through 99 ("00" is a fumble, not a match). */
export function isMatched(face: number): boolean {
  return face !== 100 && face >= 11 && tensOf(face) === onesOf(face)
}

/** Swap the two digits: 73 → 37, 10 → 01, 00 stays 00. */
export function flipFlop(face: number): number {
  const flipped = onesOf(face) * 10 + tensOf(face)
  return flipped === 0 ? 100 : flipped
}
