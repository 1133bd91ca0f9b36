import { InvalidFieldError } from '../errors.js'
import { closest, didYouMean } from '../lib/did-you-mean.js'
import { mergePatch } from '../lib/merge-patch.js'
import type { Event } from './event.js'
import { RuleError } from '../rules/errors.js'
import { findAction } from '../rules/index.js'
import { resolveAction, type FollowUp, type RuleAction, type RuleSet } from '../rules/rule-set.js'

/**
 * The one registry of event types: every type a campaign can record — the built-in ones below,
 * and each action of its rule set — with what it records, how it replays, whether webhooks may
 * subscribe to it, who sees it, and what it means. The replay (audit, import), webhook filters,
 * the reveal and the API document read it; nothing else names an event type.
 */

/**
 * What replaying an event reads of it: the event as the API shows it, and the rule settings it
 * was resolved with, which the API does not show (absent for the character events).
 */
export type RecordedEvent = Pick<
  Event,
  'id' | 'type' | 'causationId' | 'request' | 'dice' | 'outcome' | 'sheetBefore'
> & {
  /** Null where a roll is replayed on another sheet than its own (a reveal, on the sheet players know). */
  sheetAfter: Event['sheetAfter'] | null
  settings?: unknown
}

/** The sheet before an earlier event of the same character, by its id; undefined when it is not one. */
export type SheetBeforeOf = (eventId: string) => unknown

/** The sheet an event leaves, and for a roll what it was re-resolved to. */
export interface Rebuilt {
  sheet: unknown
  outcome?: unknown
  summary?: string
  followUps?: FollowUp[]
}

/**
 * Who sees an event of the type when the GM does not say (docs/guides/hidden-rolls.md):
 * - `derived`: GM-only when it settles, amends or follows a GM-only event, or when its result on
 *   the sheet players know would differ; public otherwise. The GM may ask for either.
 * - `public`: always public (a reveal is what shows players something).
 * - `as-undone`: GM-only when the event it takes back is GM-only and not revealed.
 */
type VisibilityRule = 'derived' | 'public' | 'as-undone'

export interface EventType {
  type: string
  /**
   * What the event is about: one character (it has `characterId`, sheets, and a place in the
   * character's history, which the audit replays), or the campaign itself (no character, no
   * sheets: `characterId` null, `sheetBefore` null, `sheetAfter` empty).
   */
  scope: 'character' | 'campaign'
  /**
   * What a GM calls an event of the type, lower case, wherever a summary names one ("Revealed
   * stress check #3: …"): an action's `title`, or the built-in type's below. The API's ids are
   * for developers.
   */
  title: string
  /** One sentence for the API document and the docs. */
  description: string
  /**
   * What a replay of the event does to `sheet`: a roll re-resolved with the dice it recorded,
   * an edit's merge patch applied, a revert's earlier sheet restored. Throws the rules'
   * RuleError where they refuse.
   */
  replay(ruleSet: RuleSet, event: RecordedEvent, sheet: unknown, sheetBeforeOf: SheetBeforeOf): Rebuilt
  /** Whether a webhook endpoint may name it in `eventTypes`. */
  subscribable: boolean
  visibility: VisibilityRule
  /** Whether a reveal can show it: false where the event says nothing of its own (it follows another). */
  revealable: boolean
}

const unchanged: EventType['replay'] = (_ruleSet, _event, sheet) => ({ sheet })

/** The types every campaign records, whatever its rule set, by name. */
export const BUILT_IN = {
  created: {
    type: 'character.created',
    title: 'new character',
    scope: 'character',
    description: 'A character joined the campaign; `sheetAfter` is its first sheet.',
    // What a creation recorded must be a sheet the rules take as it is.
    replay: (ruleSet, event) => ({ sheet: ruleSet.normalizeSheet(event.sheetAfter, event.settings) as unknown }),
    subscribable: true,
    visibility: 'derived',
    revealable: false,
  },
  updated: {
    type: 'character.updated',
    title: 'sheet edit',
    scope: 'character',
    description: 'The GM renamed the character or edited its sheet (a JSON merge patch).',
    replay(ruleSet, event, sheet) {
      const patch = (event.request as { sheet?: unknown } | null)?.sheet
      return {
        sheet:
          patch === undefined ? sheet : (ruleSet.normalizeSheet(mergePatch(sheet, patch), event.settings) as unknown),
      }
    },
    subscribable: true,
    visibility: 'derived',
    revealable: true,
  },
  archived: {
    type: 'character.archived',
    title: 'archiving',
    scope: 'character',
    description: 'The GM archived the character: it takes no more rolls; a revert brings it back.',
    replay: unchanged,
    subscribable: true,
    visibility: 'derived',
    revealable: false,
  },
  revert: {
    type: 'revert',
    title: 'undo',
    scope: 'character',
    description: 'The GM took back the character’s latest event: the sheet is as it was before it.',
    replay: (_ruleSet, event, _sheet, sheetBeforeOf) => ({ sheet: sheetBeforeOf(event.causationId ?? '') }),
    subscribable: true,
    visibility: 'as-undone',
    revealable: false,
  },
  reveal: {
    type: 'reveal',
    title: 'reveal',
    scope: 'character',
    description: 'The GM showed players a GM-only event after the fact; `outcome.revealed` is that event.',
    // What players see changes; the sheet itself does not (see `revealedOn`).
    replay: unchanged,
    subscribable: true,
    visibility: 'public',
    revealable: false,
  },
  campaignUpdated: {
    type: 'campaign.updated',
    title: 'campaign edit',
    scope: 'campaign',
    description:
      'The GM renamed the campaign or changed its settings: `request` is the change as sent, `outcome.before` and `outcome.after` the name and settings. About the campaign, not a character: `characterId` is null and it has no sheets.',
    // It changes no sheet; the settings it leaves are recorded with every later roll (`settings`).
    replay: unchanged,
    subscribable: true,
    // A campaign's name and settings are what every key of it reads (GET /v1/campaigns/{campaignId}).
    visibility: 'public',
    revealable: false,
  },
} as const satisfies Record<string, EventType>

const BUILT_IN_TYPES: readonly EventType[] = Object.values(BUILT_IN)

const actionTypes = new WeakMap<RuleAction, EventType>()

/** An action of a rule set as an event type: re-resolved with the dice it recorded. */
function actionEventType(action: RuleAction): EventType {
  let entry = actionTypes.get(action)
  if (!entry) actionTypes.set(action, (entry = newActionEventType(action)))
  return entry
}

function newActionEventType(action: RuleAction): EventType {
  return {
    type: action.name,
    title: action.title,
    scope: 'character',
    description: action.summary,
    replay(ruleSet, event, sheet) {
      const resolved = resolveAction(ruleSet, action, {
        sheet,
        request: event.request,
        dice: { source: 'provided', faces: event.dice.map((die) => die.face) },
        settings: event.settings,
        // The recorded dice are exactly those used: a face left over means the rules now roll fewer.
        surplus: 'refuse',
      })
      return {
        sheet: resolved.sheet,
        outcome: resolved.outcome,
        summary: resolved.summary,
        followUps: resolved.followUps,
      }
    },
    subscribable: true,
    visibility: 'derived',
    revealable: true,
  }
}

/** Every event type a campaign of this rule set can record: the built-in ones, then its actions. */
export function eventTypesOf(ruleSet: RuleSet | undefined): EventType[] {
  return [...BUILT_IN_TYPES, ...(ruleSet?.actions.map(actionEventType) ?? [])]
}

/**
 * A filter naming a type a campaign of this rule set can never record is a typo: refused with the
 * type most likely meant, rather than matching nothing forever.
 */
export function refuseUnknownType(type: string, known: readonly string[], ruleset: string, pointer: string): void {
  if (known.includes(type)) return
  const suggestion = closest(type, known)
  throw new InvalidFieldError(
    pointer,
    `${type} is not an event type of a ${ruleset} campaign${didYouMean(suggestion === undefined ? [] : [suggestion])} (known: ${known.join(', ')})`,
  )
}

/** The event type by its name in a campaign of this rule set. Throws the rules' UNKNOWN_ACTION when there is none. */
export function eventTypeOf(ruleSet: RuleSet, type: string): EventType {
  const builtIn = BUILT_IN_TYPES.find((entry) => entry.type === type)
  if (builtIn) return builtIn
  const action = findAction(ruleSet, type)
  if (!action) throw new RuleError('UNKNOWN_ACTION', `unknown action ${type}`, 'invalid')
  return actionEventType(action)
}

/** Whether events of this type are about the campaign itself rather than a character (`scope`). */
export function isCampaignEvent(type: string): boolean {
  return BUILT_IN_TYPES.some((entry) => entry.type === type && entry.scope === 'campaign')
}

/** The built-in types as the API document names them: `a`, `b` or `c`. */
export function builtInTypesText(which: (entry: EventType) => boolean = () => true): string {
  const names = BUILT_IN_TYPES.filter(which).map((entry) => `\`${entry.type}\``)
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`
}

/** The built-in types as the API document describes them: one line each. */
export function builtInTypesList(): string {
  return BUILT_IN_TYPES.map((entry) => `- \`${entry.type}\`: ${entry.description}`).join('\n')
}
