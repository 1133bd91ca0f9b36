import { createHash } from 'node:crypto'
import { ConflictError, UnprocessableError } from '../errors.js'
import type { Principal } from '../plugins/app/auth.js'
import type { Store } from '../repositories/index.js'
import type { CommandOptions } from './commands.js'

/** Only successful commands are recorded (a failed one releases its key), so the status is always 201. */
export interface IdempotentResponse {
  body: unknown
  replayed: boolean
}

/**
 * Runs a command at most once per Idempotency-Key (per key holder, for 24 hours). The key is
 * claimed before the command; the command records its response inside its own transaction;
 * a failed command releases the key so the client may retry.
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

  if (!(await store.idempotency.claim(campaignId, key, requestHash))) {
    const record = await store.idempotency.find(campaignId, key)
    if (!record) return idempotent(store, principal, idempotencyKey, fingerprint, command)
    if (record.requestHash !== requestHash) {
      throw new UnprocessableError('this Idempotency-Key was already used with a different request')
    }
    if (record.state !== 'done') {
      throw new ConflictError('a request with this Idempotency-Key is still being processed; retry shortly')
    }
    return { body: record.responseBody, replayed: true }
  }

  try {
    const body = await command({
      idempotencyKey,
      onCommit: (tx, response) => tx.idempotency.complete(campaignId, key, response).then(() => undefined),
    })
    return { body, replayed: false }
  } catch (error) {
    await store.idempotency.release(campaignId, key)
    throw error
  }
}
