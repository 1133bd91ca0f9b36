import { ConflictError, NotFoundError } from '../errors.js'
import type { LockedCharacter } from '../repositories/characters.js'
import type { Repositories, Store } from '../repositories/index.js'
import { actorOf, type Principal } from './context.js'
import type { EventFeed } from './event-feed.js'
import { recordChange, type Change, type Recorded } from './event-log.js'
import { idempotent, type Once } from './idempotency.js'

/** What running a command needs: a transaction, the Idempotency-Keys, and whom to tell of what it recorded. */
export interface CommandContext {
  store: Pick<Store, 'transaction' | 'idempotency'>
  feed: Pick<EventFeed, 'published'>
  metrics: { eventRecorded(recorded: Recorded): void }
}

/** What a command decided: the event to record and the character after it. Public and caused by nothing unless it says so. */
export type Decision = Omit<
  Change,
  'campaign' | 'character' | 'actor' | 'idempotencyKey' | 'visibility' | 'causationId'
> &
  Partial<Pick<Change, 'visibility' | 'causationId'>>

/** What a command locked: the character it changes, and whatever else it looked up on the way. */
export interface Locked {
  character: LockedCharacter
}

/** A command on one character, in the two steps the pipeline runs inside its transaction. */
export interface Command<Target extends Locked = Locked> {
  /** Checks what needs no lock, then locks the character's row for the rest of the transaction (a creation inserts it). */
  lock(tx: Repositories): Promise<Target>
  /** Decides the change on the locked character; throwing refuses the command and nothing is written. */
  decide(tx: Repositories, target: Target): Decision | Promise<Decision>
}

export interface CommandAnswer {
  recorded: Recorded
  /** True when an earlier request with the same Idempotency-Key and body was answered this way. */
  replayed: boolean
}

/** Locks the character for the rest of the transaction; archived characters take no further changes. */
export async function lockCharacter(tx: Repositories, principal: Principal, characterId: string) {
  const character = await tx.characters.lock(principal.campaign.id, characterId)
  if (!character) throw new NotFoundError(`character ${characterId} not found`)
  if (character.archivedAt) throw new ConflictError(`character ${characterId} is archived`)
  return character
}

/**
 * Runs a command, the one place its envelope is written. In order:
 * 1. claim the Idempotency-Key (when `once` has one): a request already answered gets that
 *    answer again and nothing below runs;
 * 2. open a transaction;
 * 3. lock the character (`command.lock`);
 * 4. decide the change (`command.decide`);
 * 5. record it: the character at version + 1, the event, its webhook outbox rows;
 * 6. record the answer under the Idempotency-Key, the transaction's last write;
 * 7. commit;
 * 8. publish to this instance's listeners (SSE streams, the webhook dispatcher);
 * 9. count the event.
 * Publishing and counting come after the commit: nothing is announced that could still roll back.
 */
export async function runCommand<Target extends Locked>(
  { store, feed, metrics }: CommandContext,
  principal: Principal,
  command: Command<Target>,
  once?: Once,
): Promise<CommandAnswer> {
  const { body, replayed } = await idempotent(store, principal, once, (claim) =>
    store.transaction(async (tx) => {
      const target = await command.lock(tx)
      const decision = await command.decide(tx, target)
      const recorded = await recordChange(tx, {
        visibility: 'public',
        causationId: null,
        ...decision,
        campaign: principal.campaign,
        character: target.character,
        actor: actorOf(principal),
        idempotencyKey: claim?.key ?? null,
      })
      await claim?.complete(tx, recorded)
      return recorded
    }),
  )
  if (!replayed) {
    feed.published(principal.campaign.id)
    metrics.eventRecorded(body)
  }
  return { recorded: body, replayed }
}
