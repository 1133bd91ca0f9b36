import { EventEmitter } from 'node:events'

/**
 * Wakes this instance's listeners (SSE streams, the webhook dispatcher) when it commits new
 * events, revokes a key or closes a campaign. Other instances' changes are found by polling,
 * so this is a shortcut, never the only path.
 */
export class EventFeed {
  readonly #emitter = new EventEmitter().setMaxListeners(0)
  readonly #access = new EventEmitter().setMaxListeners(0)

  published(campaignId: string): void {
    this.#emitter.emit(campaignId)
    this.#emitter.emit('*', campaignId)
  }

  subscribe(campaignId: string /* or '*' for every campaign */, listener: () => void): () => void {
    this.#emitter.on(campaignId, listener)
    return () => this.#emitter.off(campaignId, listener)
  }

  /** A key of the campaign was revoked, or the campaign closed. */
  accessChanged(campaignId: string): void {
    this.#access.emit(campaignId)
  }

  subscribeAccess(campaignId: string, listener: () => void): () => void {
    this.#access.on(campaignId, listener)
    return () => this.#access.off(campaignId, listener)
  }
}
