import { BUILT_IN } from './event-types.js'

/** What following a character's reverts needs of an event. */
export interface LineageLink {
  id: string
  type: string
  causationId: string | null
}

/**
 * The one walk over a character's history that follows reverts: folds `step` over the events in
 * order, except that a revert first puts the state back as it stood before the event it takes
 * back (and reverting a revert brings that event's state back). `step` sees every event, reverts
 * included, after that restoring.
 */
export function walkLineage<Event extends LineageLink, State>(
  events: readonly Event[],
  initial: State,
  step: (state: State, event: Event) => State,
): State {
  const before = new Map<string, State>()
  let state = initial
  for (const event of events) {
    before.set(event.id, state)
    const undone = event.type === BUILT_IN.revert.type ? (event.causationId ?? '') : undefined
    const restored = undone !== undefined && before.has(undone) ? before.get(undone)! : state
    state = step(restored, event)
  }
  return state
}

/** A list shared by the states of a walk: each state adds one event to the one before. */
interface Stack<Event> {
  event: Event
  below: Stack<Event> | null
}

/** The events of a lineage that still stand, in order: those no revert took back, reverts themselves left out. */
export function standingEvents<Event extends LineageLink>(events: readonly Event[]): Event[] {
  let top = walkLineage<Event, Stack<Event> | null>(events, null, (standing, event) =>
    event.type === BUILT_IN.revert.type ? standing : { event, below: standing },
  )
  const standing: Event[] = []
  for (; top; top = top.below) standing.push(top.event)
  return standing.reverse()
}
