import { createHash } from 'node:crypto'
import { ConflictError, UnprocessableError } from '../errors.js'
import type { Principal } from '../lib/principal.js'
import type { Repositories, Store } from '../repositories/index.js'

/** A request that may be retried: the `Idempotency-Key` it came with, and what it asked for. */
export interface Once {
  key: string | undefined
  fingerprint: unknown
}

/** The key a command runs under, and how it records its answer under that key inside its transaction. */
export interface Claim {
  key: string
  complete(tx: Repositories, answer: unknown): Promise<void>
}

/** Only successful commands are recorded (a failed one leaves its key free), so the status is always 201. */
export interface IdempotentResponse<T> {
  body: T
  replayed: boolean
}

/** Another request's record holds the key: the command's transaction must not commit. */
class KeyTaken extends Error {}

/**
 * Runs a command at most once per Idempotency-Key (per key holder, for 24 hours). The command
 * records its response under the key as the last write of its own transaction, so the key is
 * taken exactly when the command commits: a command that fails, or dies with its process or
 * its database connection, leaves the key free and a retry goes ahead at once. A duplicate
 * running at the same time waits for the first to end, then answers as it did.
 */
export async function idempotent<T>(
  store: Pick<Store, 'idempotency'>,
  principal: Principal,
  once: Once | undefined,
  command: (claim: Claim | undefined) => Promise<T>,
): Promise<IdempotentResponse<T>> {
  if (once?.key === undefined) return { body: await command(undefined), replayed: false }

  const campaignId = principal.campaign.id
  const idempotencyKey = once.key
  // Two key holders may pick the same Idempotency-Key by chance; each gets their own.
  const key = `${principal.keyId}:${idempotencyKey}`
  const requestHash = createHash('sha256').update(JSON.stringify(once.fingerprint)).digest('hex')
  const answerAs = (record: { requestHash: string; state: string; responseBody: unknown }): IdempotentResponse<T> => {
    if (record.requestHash !== requestHash) {
      throw new UnprocessableError('this Idempotency-Key was already used with a different request')
    }
    if (record.state !== 'done') {
      throw new ConflictError('a request with this Idempotency-Key is still being processed; retry shortly')
    }
    return { body: record.responseBody as T, replayed: true }
  }

  const earlier = await store.idempotency.find(campaignId, key)
  if (earlier) return answerAs(earlier)
  try {
    const body = await command({
      key: idempotencyKey,
      complete: async (tx, answer) => {
        if (!(await tx.idempotency.record(campaignId, key, requestHash, { status: 201, body: answer }))) {
          throw new KeyTaken()
        }
      },
    })
    return { body, replayed: false }
  } catch (error) {
    // A duplicate committed first and this command rolled back: on the key itself, or on what
    // the duplicate changed (the decision it settled, say). Either way it answers as the first.
    const first = await store.idempotency.find(campaignId, key).catch(() => null)
    if (first) return answerAs(first)
    if (error instanceof KeyTaken) return idempotent(store, principal, once, command)
    throw error
  }
}
