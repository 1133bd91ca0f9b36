import { mintTicket } from '../lib/secrets.js'
import type { Principal } from '../lib/principal.js'
import type { Store } from '../repositories/index.js'

/** Long enough to open a stream right after minting, short enough that a leaked URL is soon worthless. */
const STREAM_TICKET_LIFETIME_MS = 60_000

/** A ticket that opens the event stream once, as the principal's key, within its lifetime. */
export async function mintStreamTicket(store: Pick<Store, 'streamTickets'>, principal: Principal, now = new Date()) {
  const { secret, hash } = mintTicket()
  const expiresAt = new Date(now.getTime() + STREAM_TICKET_LIFETIME_MS)
  await store.streamTickets.deleteExpired(now)
  await store.streamTickets.create({ hash, campaignId: principal.campaign.id, keyId: principal.keyId, expiresAt })
  return { ticket: secret, expiresAt: expiresAt.toISOString() }
}
