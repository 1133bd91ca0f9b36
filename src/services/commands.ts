import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError } from '../errors.js'
import { BUILT_IN, eventTypeOf } from '../history/event-types.js'
import { standingEvents, walkLineage, type LineageLink } from '../history/lineage.js'
import type { Principal } from '../lib/principal.js'
import type { Visibility } from '../history/event.js'
import type { RollEvent } from '../generated/prisma/client.js'
import type { Repositories } from '../repositories/index.js'
import type { DiceRequest } from '../rules/dice.js'
import { findAction } from '../rules/index.js'
import { parseWith } from '../rules/parse.js'
import { RuleError } from '../rules/errors.js'
import { resolveAction, type RuleAction } from '../rules/rule-set.js'
import { ruleSetOfCampaign } from './campaign-rules.js'
import { loadCharacter, type Command, type Decision, type Loaded } from './pipeline.js'
import { audienceOf } from './public-view.js'
import { pendingList, type EventPayload } from '../history/event.js'

export interface ActionBody {
  /** On the decision route: which of the event's open decisions to settle (the first by default). */
  action?: string
  request: unknown
  dice?: DiceRequest
  visibility?: Visibility
}

/** Who may perform an action: the GM, or a player key for its own characters, its player actions and public rolls. */
export function authorize(principal: Principal, action: RuleAction, characterId: string, visibility: Visibility) {
  if (principal.role === 'gm') return
  if (action.actor === 'gm') throw new ForbiddenError(`only the GM may ${action.name}`)
  if (!principal.characterIds.includes(characterId)) {
    throw new ForbiddenError(`this player key does not act for character ${characterId}`)
  }
  if (visibility === 'gm') throw new ForbiddenError('only the GM may make GM-only rolls')
}

export function actionOfCampaign(principal: Principal, name: string) {
  const ruleSet = ruleSetOfCampaign(principal)
  const action = findAction(ruleSet, name)
  if (!action) {
    throw new UnprocessableError(`${name} is not an action of ${ruleSet.id}, the rule set this campaign plays`)
  }
  return action
}

/** Where a kind of decision stands after an event of the character. */
interface DecisionState {
  /** The event that left the decision open, or null when none is open. */
  open: LineageEvent | null
  /** The events showing that open decision: the one that opened it, then those that kept it open. */
  shownBy: readonly string[]
  /** Events whose decision was settled, each with the settlement that still stands. */
  settledBy: ReadonlyMap<string, string>
}

type LineageEvent = Awaited<ReturnType<Repositories['events']['lineageForCharacter']>>[number]

const NOTHING_OPEN: DecisionState = { open: null, shownBy: [], settledBy: new Map() }

/**
 * Replays the character's history for one kind of decision, reverts included: a revert puts the
 * decision back where it stood before the event it takes back, as it puts the sheet back. An
 * event after which the sheet no longer waits for the decision closes it (a flip-flop that turned
 * the failure into a pass, a GM's clearing); only an event that shows the decision while none is
 * open, or a roll that amends nothing, opens a new one. Other events that still show the decision
 * (a passion re-roll, a GM action, a revert that reopened it) keep the same one open.
 */
async function decisionStateFor(
  repositories: Repositories,
  principal: Principal,
  characterId: string,
  decision: string,
): Promise<DecisionState> {
  const [events, showing] = await Promise.all([
    repositories.events.lineageForCharacter(principal.campaign.id, characterId),
    repositories.events.pendingFor(principal.campaign.id, characterId, decision),
  ])
  const ruleSet = ruleSetOfCampaign(principal)
  return walkLineage(events, NOTHING_OPEN, (state, event) => {
    let next = state
    if (event.type === decision && next.open !== null) {
      const settledBy = new Map(next.settledBy)
      for (const id of next.shownBy) settledBy.set(id, event.id)
      next = { open: null, shownBy: [], settledBy }
    }
    if (showing.has(event.id)) {
      const action = findAction(ruleSet, event.type)
      const opens = next.open === null || (action?.kind === 'roll' && !action.amends)
      return opens ? { ...next, open: event, shownBy: [event.id] } : { ...next, shownBy: [...next.shownBy, event.id] }
    }
    return next.open !== null ? { ...next, open: null, shownBy: [] } : next
  })
}

/** The event a decision settles, given in the path: refused unless its decision is the character's open one. */
function requireOpen(state: DecisionState, eventId: string, decision: string, principal: Principal) {
  if (state.shownBy.includes(eventId)) return
  const settlement = state.settledBy.get(eventId)
  if (settlement) throw new ConflictError(`event ${eventId} was already settled by event ${settlement}`)
  // A player is told that another decision is open, never which, when a GM-only event opened it.
  const named = state.open && (state.open.visibility === 'public' || principal.role === 'gm')
  throw new ConflictError(
    `the ${decision} decision of event ${eventId} is no longer open${
      named
        ? `: the character's open one is event ${state.open!.id}; settle that one`
        : state.open
          ? ': the character has another one open'
          : ''
    }`,
  )
}

/** The event an amending action changes: the character's latest standing event of the types it amends. */
async function amendedEventFor(
  repositories: Repositories,
  principal: Principal,
  characterId: string,
  types: readonly string[],
) {
  const events = await repositories.events.lineageForCharacter(principal.campaign.id, characterId)
  return (
    standingEvents(events)
      .reverse()
      .find((event) => types.includes(event.type))?.id ?? null
  )
}

/**
 * The rules point at `/sheet/…` when the sheet's state forbids a request; on a stored
 * character the caller sent no sheet, so such a pointer would name a field that is not there.
 * With `hiddenState`, the sheet holds what GM-only rolls did, which the refusal is not to tell.
 */
export function onStoredSheet<Result>(action: RuleAction, hiddenState: boolean, rules: () => Result): Result {
  try {
    return rules()
  } catch (error) {
    if (error instanceof RuleError && error.pointer?.startsWith('/sheet')) {
      const message = hiddenState
        ? `the character's sheet does not allow ${action.name} now, and part of it is known to the GM alone (a GM-only roll): ask the GM`
        : error.message
      throw new RuleError(hiddenState ? 'SHEET_REFUSES' : error.code, message, error.kind)
    }
    throw error
  }
}

/** What an action is loaded for: its character, the action, the body, and the event it settles (on the decision route). */
interface ActionTarget extends Loaded {
  action: RuleAction
  body: ActionBody
  settles?: string
}

async function loadFor(
  repositories: Repositories,
  principal: Principal,
  characterId: string,
  action: RuleAction,
  body: ActionBody,
  settles?: string,
): Promise<ActionTarget> {
  authorize(principal, action, characterId, body.visibility ?? 'public')
  const character = await loadCharacter(repositories, principal, characterId)
  return { character, action, body, ...(settles ? { settles } : {}) }
}

/** The first of these events that is GM-only and not revealed by a reveal that still stands. */
async function unrevealedAmong(
  repositories: Repositories,
  principal: Principal,
  characterId: string,
  events: readonly (RollEvent | null)[],
): Promise<RollEvent | undefined> {
  const hidden = events.filter((event): event is RollEvent => event?.visibility === 'gm')
  if (hidden.length === 0) return undefined
  const revealed = revealedIn(await repositories.events.lineageForCharacter(principal.campaign.id, characterId))
  return hidden.find((event) => !revealed.has(event.id))
}

/** The ids of the events a standing reveal shows players. */
export function revealedIn(lineage: readonly LineageLink[]): Set<string> {
  return new Set(
    standingEvents(lineage)
      .filter((event) => event.type === BUILT_IN.reveal.type && event.causationId !== null)
      .map((event) => event.causationId!),
  )
}

async function decideAction(
  repositories: Repositories,
  principal: Principal,
  { character, action, body, settles }: ActionTarget,
): Promise<Decision> {
  const characterId = character.id
  let causationId: string | null = null
  /** The roll this action follows up: the one that opened the decision it settles, or the one it amends. */
  let origin: string | null = null
  if (action.kind === 'decision') {
    const decision = await decisionStateFor(repositories, principal, characterId, action.name)
    // Settling through an event applies to that event only, never to a newer decision of the same kind.
    if (settles) requireOpen(decision, settles, action.name, principal)
    causationId = settles ?? decision.open?.id ?? null
    origin = decision.open?.id ?? null
  } else if (action.amends) {
    causationId = await amendedEventFor(repositories, principal, characterId, action.amends)
    origin = causationId
  }
  const settled = causationId ? await repositories.events.find(principal.campaign.id, causationId) : null
  const followed =
    origin === causationId ? settled : origin ? await repositories.events.find(principal.campaign.id, origin) : null
  const hiddenRoll = await unrevealedAmong(repositories, principal, characterId, [settled, followed])
  if (hiddenRoll && principal.role !== 'gm') {
    throw new ForbiddenError(
      action.kind === 'decision'
        ? 'this decision belongs to a GM-only roll: only the GM may settle it'
        : 'the roll this would change is a GM-only roll: only the GM may change it',
    )
  }
  const ruleSet = ruleSetOfCampaign(principal)
  const settings: unknown = ruleSet.normalizeSettings(principal.campaign.settings)
  // resolveAction re-checks the stored sheet against these settings itself: it is not normalised here too.
  const resolved = onStoredSheet(
    action,
    // Why the sheet refuses may be a GM-only roll's doing: a player is not told what it did.
    principal.role !== 'gm' && character.publicSheet !== null,
    () => resolveAction(ruleSet, action, { sheet: character.sheet, request: body.request, dice: body.dice, settings }),
  )
  return {
    type: action.name,
    // A player acts in the open: their actions are public, shown to players through what players know.
    visibility: principal.role === 'gm' ? body.visibility : 'public',
    follows: hiddenRoll ? { seq: Number(hiddenRoll.seq), type: hiddenRoll.type } : null,
    causationId,
    replay: (sheet) =>
      resolveAction(ruleSet, action, {
        sheet,
        request: body.request,
        dice: { source: 'provided', faces: resolved.dice.map((die) => die.face) },
        settings,
        // On the sheet players saw, the same dice or none: where they would not all be rolled there, the result reads hidden state.
        surplus: 'refuse',
      }),
    payload: {
      request: body.request as Record<string, unknown>,
      dice: resolved.dice,
      unusedFaces: resolved.unusedFaces,
      outcome: resolved.outcome,
      summary: resolved.summary,
      followUps: resolved.followUps,
      sheetBefore: character.sheet as Record<string, unknown>,
      sheetAfter: resolved.sheet as Record<string, unknown>,
      settings,
    },
  }
}

/** Resolves an action of the campaign's rule set against the stored sheet. */
export function actionCommand(
  principal: Principal,
  characterId: string,
  actionName: string,
  body: ActionBody,
): Command<ActionTarget> {
  return {
    load: (repositories) =>
      loadFor(repositories, principal, characterId, actionOfCampaign(principal, actionName), body),
    decide: (repositories, target) => decideAction(repositories, principal, target),
  }
}

/** Settles the decision an event left pending, as a new event caused by it. */
export function settleCommand(principal: Principal, eventId: string, body: ActionBody): Command<ActionTarget> {
  return {
    async load(repositories) {
      const event = await repositories.events.find(principal.campaign.id, eventId)
      if (!event || (event.visibility === 'gm' && principal.role !== 'gm'))
        throw new NotFoundError(`event ${eventId} not found`)
      const payload = event.payload as unknown as EventPayload
      // A player settles what they see the event waiting for, not what a GM-only roll left open.
      const open = pendingList(
        audienceOf(principal) === 'players' && payload.publicView ? payload.publicView.pending : payload.pending,
      )
      if (open.length === 0 || !event.characterId) throw new ConflictError(`event ${eventId} has no decision pending`)
      const chosen = body.action === undefined ? open[0]! : open.find((decision) => decision.action === body.action)
      if (!chosen) {
        throw new ConflictError(
          `event ${eventId} has no ${body.action} decision open; it waits for ${open.map((decision) => decision.action).join(' and ')}`,
        )
      }
      const action = actionOfCampaign(principal, chosen.action)
      // The decision route cannot know the action's schema in advance, so its request is checked here.
      const request = parseWith(action.request, body.request, '/request', 'REQUEST_INVALID')
      return loadFor(repositories, principal, event.characterId, action, { ...body, request }, eventId)
    },
    decide: (repositories, target) => decideAction(repositories, principal, target),
  }
}

/**
 * What undoing `latest` did, named by the event at the start of the chain of undos: that event
 * taken back, put back (an undo of an undo), or taken back again — not "Reverted undo #10:
 * Reverted undo #9: …" growing with every click.
 */
async function revertSummary(repositories: Repositories, principal: Principal, latest: RollEvent): Promise<string> {
  let undos = 1
  let target = latest
  while (target.type === BUILT_IN.revert.type && target.causationId !== null) {
    const undone = await repositories.events.find(principal.campaign.id, target.causationId)
    if (!undone) break
    target = undone
    undos += 1
  }
  const what = `${eventTypeOf(ruleSetOfCampaign(principal), target.type).title} #${target.seq}: ${(target.payload as unknown as EventPayload).summary}`
  if (undos === 1) return `Reverted ${what}`
  return undos % 2 === 0 ? `Put back ${what}` : `Reverted again ${what}`
}

/**
 * A GM undo: a new event that puts the sheet back as it was before the character's latest
 * event — every knock-on change with it, since the whole sheet is restored.
 */
export function revertCommand(principal: Principal, characterId: string, eventId: string): Command {
  return {
    async load(repositories) {
      // Archived characters too: reverting their archiving brings them back.
      const character = await repositories.characters.forCommand(principal.campaign.id, characterId)
      if (!character) throw new NotFoundError(`character ${characterId} not found`)
      return { character }
    },
    async decide(repositories, { character }) {
      const latest = await repositories.events.latestForCharacter(principal.campaign.id, characterId)
      if (!latest || latest.id !== eventId) {
        throw new ConflictError(
          `only the character's latest event can be reverted${latest ? ` (that is event ${latest.id}, #${latest.seq})` : ''}`,
        )
      }
      const reverted = latest.payload as unknown as EventPayload
      if (reverted.sheetBefore === null)
        throw new ConflictError('a character’s creation cannot be reverted; archive it instead')
      return {
        type: BUILT_IN.revert.type,
        follows:
          latest.visibility === 'gm' &&
          !revealedIn(await repositories.events.lineageForCharacter(principal.campaign.id, characterId)).has(latest.id)
            ? { seq: Number(latest.seq), type: latest.type }
            : null,
        causationId: latest.id,
        ...(latest.type === BUILT_IN.archived.type ? { archivedAt: null } : {}),
        // Players get back the sheet they saw before the event undone.
        replay: () => ({ sheet: reverted.publicView?.sheetBefore ?? reverted.sheetBefore }),
        restoresPlayersSheet: reverted.publicView !== undefined,
        payload: {
          request: { eventId },
          dice: [],
          outcome: { reverted: { id: latest.id, seq: Number(latest.seq), type: latest.type } },
          summary: await revertSummary(repositories, principal, latest),
          sheetBefore: character.sheet as Record<string, unknown>,
          sheetAfter: reverted.sheetBefore,
        },
      }
    },
  }
}
