import type { KeyRole } from './secrets.js'

/** Who makes a request: the key it came with, and the campaign that key belongs to. */
export interface Principal {
  keyId: string
  role: KeyRole
  characterIds: string[]
  campaign: { id: string; name: string; ruleset: string; settings: unknown }
}

export function actorOf(principal: Principal) {
  return { role: principal.role, keyId: principal.keyId }
}
