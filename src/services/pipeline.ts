import { ConflictError, NotFoundError } from '../errors.js'
import type { CommandCharacter } from '../repositories/characters.js'
import type { Repositories, Store } from '../repositories/index.js'
import { actorOf, type Principal } from '../lib/principal.js'
import type { EventFeed } from '../history/feed.js'
import { recordChange, type Change, type Recorded, type RecordedChange } from '../history/record.js'
import { idempotent, type Once } from './idempotency.js'

/** What running a command needs: the store, the Idempotency-Keys, and whom to tell of what it recorded. */
export interface CommandContext {
  store: Repositories & Pick<Store, 'transaction'>
  feed: Pick<EventFeed, 'published'>
  metrics: { eventRecorded(recorded: RecordedChange): void }
}

/**
 * What a command decided: the event to record and the character after it. Caused by and
 * following nothing unless it says so; who sees it is derived unless it says so.
 */
export type Decision = Omit<
  Change,
  'campaign' | 'character' | 'actor' | 'idempotencyKey' | 'visibility' | 'causationId' | 'follows'
> &
  Partial<Pick<Change, 'visibility' | 'causationId' | 'follows'>>

/** What a command read: the character it changes, and whatever else it looked up on the way. */
export interface Loaded {
  character: CommandCharacter
}

/**
 * What a command on the campaign itself read: no character; its decision says in
 * `campaignChange` what it changes, written only while the campaign is as it read it.
 */
export interface CampaignLoaded {
  character: null
}

/** A command on one character or on the campaign, in the two steps the pipeline runs before it records the change. */
export interface Command<Target extends Loaded | CampaignLoaded = Loaded> {
  /**
   * Checks what needs no character, then reads the character it changes (`loadCharacter`); a
   * creation makes its new character here, stored with its event. Writes nothing.
   */
  load(repositories: Repositories): Target | Promise<Target>
  /** Decides the change on the character read; throwing refuses the command and nothing is written. */
  decide(repositories: Repositories, target: Target): Decision | Promise<Decision>
}

export interface CommandAnswer<Target extends Loaded | CampaignLoaded = Loaded> {
  /** The event and, for a command on a character, the character after it. */
  recorded: Target extends Loaded ? Recorded : RecordedChange
  /** True when an earlier request with the same Idempotency-Key and body was answered this way. */
  replayed: boolean
}

/** The character a command changes (locked, inside a transaction); archived characters take no further changes. */
export async function loadCharacter(repositories: Repositories, principal: Principal, characterId: string) {
  const character = await repositories.characters.forCommand(principal.campaign.id, characterId)
  if (!character) throw new NotFoundError(`character ${characterId} not found`)
  if (character.archivedAt) throw new ConflictError(`character ${characterId} is archived`)
  return character
}

/** How many times a command reads and writes without locking before it takes the row lock (step 5). */
const OPTIMISTIC_TRIES = 2

/**
 * Runs a command, the one place its envelope is written. In order:
 * 1. claim the Idempotency-Key (when `once` has one): a request already answered gets that
 *    answer again and nothing below runs;
 * 2. read the character (`command.load`);
 * 3. decide the change (`command.decide`);
 * 4. record it in one statement: the character at version + 1, the event, its webhook outbox
 *    rows — only if the character is still at the version read;
 * 5. if another command changed the character between 2 and 4, nothing was written: steps 2–4
 *    run again the same way, once; overtaken twice, they run in a transaction that locks the
 *    character's row as it reads it, so they cannot be overtaken again. A command under an
 *    Idempotency-Key takes that transaction at once: its answer is recorded under the key as the
 *    transaction's last write;
 * 6. publish to this instance's listeners (SSE streams, the webhook dispatcher);
 * 7. count the event.
 * Most commands find their character as they read it and take one statement to write, with no
 * transaction held open between the server and the database (docs/BENCHMARKS.md, 2b). The second
 * try is optimistic too: a transaction holds the character's and the campaign's rows locked
 * across round trips to a busy server, which the other commands of the campaign queue behind.
 * Publishing and counting come after the commit: nothing is announced that could still roll back.
 */
export async function runCommand<Target extends Loaded | CampaignLoaded>(
  { store, feed, metrics }: CommandContext,
  principal: Principal,
  command: Command<Target>,
  once?: Once,
): Promise<CommandAnswer<Target>> {
  const attempt = async (repositories: Repositories) => {
    const target = await command.load(repositories)
    const decision = await command.decide(repositories, target)
    return recordChange(repositories, {
      visibility: undefined,
      causationId: null,
      follows: null,
      ...decision,
      campaign: principal.campaign,
      character: target.character,
      actor: actorOf(principal),
      idempotencyKey: once?.key ?? null,
    })
  }
  const { body, replayed } = await idempotent(store, principal, once, async (claim) => {
    if (!claim)
      for (let tries = 0; tries < OPTIMISTIC_TRIES; tries++) {
        const recorded = await attempt(store)
        if (recorded) return recorded
      }
    return store.transaction(async (tx) => {
      const recorded = await attempt(tx)
      if (!recorded) throw new Error('the character or campaign changed while its row was locked')
      await claim?.complete(tx, recorded)
      return recorded
    })
  })
  if (!replayed) {
    feed.published(principal.campaign.id)
    metrics.eventRecorded(body)
  }
  // A command on a character records it with its event (`recordChange`).
  return { recorded: body as CommandAnswer<Target>['recorded'], replayed }
}
