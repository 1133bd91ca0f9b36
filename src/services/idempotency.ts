import { createHash } from 'node:crypto'
import { ConflictError, UnprocessableError } from '../errors.js'
import type { Principal } from '../plugins/app/auth.js'
import type { Store } from '../repositories/index.js'
import type { CommandOptions } from './commands.js'

/** Only successful commands are recorded (a failed one leaves its key free), so the status is always 201. */
export interface IdempotentResponse {
  body: unknown
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
export async function idempotent(
  store: Store,
  principal: Principal,
  idempotencyKey: string | undefined,
  fingerprint: unknown,
  command: (options: CommandOptions) => Promise<unknown>,
): Promise<IdempotentResponse> {
  if (idempotencyKey === undefined) return { body: await command({}), replayed: false }

  const campaignId = principal.campaign.id
  // Two key holders may pick the same Idempotency-Key by chance; each gets their own.
  const key = `${principal.keyId}:${idempotencyKey}`
  const requestHash = createHash('sha256').update(JSON.stringify(fingerprint)).digest('hex')
  const answerAs = (record: { requestHash: string; state: string; responseBody: unknown }): IdempotentResponse => {
    if (record.requestHash !== requestHash) {
      throw new UnprocessableError('this Idempotency-Key was already used with a different request')
    }
    if (record.state !== 'done') {
      throw new ConflictError('a request with this Idempotency-Key is still being processed; retry shortly')
    }
    return { body: record.responseBody, replayed: true }
  }

  const earlier = await store.idempotency.find(campaignId, key)
  if (earlier) return answerAs(earlier)
  try {
    const body = await command({
      idempotencyKey,
      onCommit: async (tx, response) => {
        if (!(await tx.idempotency.record(campaignId, key, requestHash, response))) throw new KeyTaken()
      },
    })
    return { body, replayed: false }
  } catch (error) {
    // A duplicate committed first and this command rolled back: on the key itself, or on what
    // the duplicate changed (the decision it settled, say). Either way it answers as the first.
    const first = await store.idempotency.find(campaignId, key).catch(() => null)
    if (first) return answerAs(first)
    if (error instanceof KeyTaken) return idempotent(store, principal, idempotencyKey, fingerprint, command)
    throw error
  }
}
