import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the type below is derived from it
const KeyRoles = ['gm', 'player'] as const
export type KeyRole = (typeof KeyRoles)[number]

const KEY_PREFIX: Record<KeyRole, string> = { gm: 'nrv_gm_', player: 'nrv_pl_' }

/** How much of a key is kept in the clear so people can tell their keys apart. */
const VISIBLE_LENGTH = 12

export interface MintedKey {
  secret: string
  hash: string
  prefix: string
}

/** 256 random bits behind a recognisable prefix; only the hash is ever stored. */
export function mintKey(role: KeyRole): MintedKey {
  const secret = `${KEY_PREFIX[role]}${randomBytes(32).toString('base64url')}`
  return { secret, hash: hashKey(secret), prefix: secret.slice(0, VISIBLE_LENGTH) }
}

export function hashKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

/** A stream ticket: as random as a key, told apart by its prefix; only the hash is stored. */
export function mintTicket(): { secret: string; hash: string } {
  const secret = `nrv_st_${randomBytes(32).toString('base64url')}`
  return { secret, hash: hashKey(secret) }
}

/** Compares secrets in constant time, so a wrong guess tells nothing about how close it was. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}
