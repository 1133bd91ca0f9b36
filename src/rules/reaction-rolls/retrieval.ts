import { RuleError } from '../errors.js'
import type { Rewording } from '../rule-set.js'
import type {
  Emotion,
  ReactionRollsSettings,
  ReactionRollsSheet,
  RetrievalChoice,
  RetrievalOutcome,
} from './schemas.js'
import { EMOTION_NAMES } from './tables.js'

/**
 * Checks a retrieval choice before anything is rolled or changed: `raise` needs an emotion
 * that is still below the campaign's top stage, `decline` takes none. `at` is the JSON pointer
 * of the choice in the request (`/request` or `/request/retrieve`).
 */
export function assertRetrievalChoice(
  choice: RetrievalChoice,
  sheet: ReactionRollsSheet,
  settings: ReactionRollsSettings,
  at: string,
): void {
  if (choice.decision === 'decline') {
    if (choice.emotion !== undefined) {
      throw new RuleError(
        'RETRIEVAL_EMOTION_UNEXPECTED',
        `${at}/emotion is only given with decision "raise"; declining raises no emotion`,
        'invalid',
        `${at}/emotion`,
      )
    }
    return
  }
  if (choice.emotion === undefined) {
    throw new RuleError(
      'RETRIEVAL_EMOTION_MISSING',
      `${at}/emotion is required with decision "raise": name the emotion (${EMOTION_NAMES.join(', ')}) to raise by one stage`,
      'invalid',
      `${at}/emotion`,
    )
  }
  if (!canRaise(sheet, settings, choice.emotion)) {
    throw new RuleError(
      'EMOTION_AT_TOP_STAGE',
      `${choice.emotion} is already at its top stage ${settings.emotionTopStage} and cannot be raised; pick another emotion or decline`,
      'invalid',
      `${at}/emotion`,
    )
  }
}

function canRaise(sheet: ReactionRollsSheet, settings: ReactionRollsSettings, emotion: Emotion): boolean {
  return sheet.emotions[emotion] < settings.emotionTopStage
}

export function raisableEmotions(sheet: ReactionRollsSheet, settings: ReactionRollsSettings): Emotion[] {
  return EMOTION_NAMES.filter((emotion) => canRaise(sheet, settings, emotion))
}

/**
 * Retrieving a roll: raising an emotion by one stage turns it into a success and marks one XP
 * on the rolled ability (unless maxed-out, crippled, or its track is full); declining fails it.
 * Expects a choice already checked by `assertRetrievalChoice`. Returns a new sheet.
 */
export function applyRetrieval(
  sheet: ReactionRollsSheet,
  abilityName: string,
  choice: RetrievalChoice,
  settings: ReactionRollsSettings,
): { sheet: ReactionRollsSheet; retrieval: RetrievalOutcome; verdict: 'success' | 'failure' } {
  const next = structuredClone(sheet)
  next.pendingRetrieval = null
  if (choice.decision === 'decline' || choice.emotion === undefined) {
    return {
      sheet: next,
      retrieval: { decision: 'decline', emotion: null, stageBefore: null, stageAfter: null, xp: null },
      verdict: 'failure',
    }
  }
  const emotion = choice.emotion
  const stageBefore = next.emotions[emotion]
  next.emotions[emotion] = stageBefore + 1

  const ability = next.abilities[abilityName]
  if (ability === undefined) throw new Error(`ability ${abilityName} vanished from the sheet`)
  const before = ability.xp
  const reason = ability.maxedOut
    ? 'maxed-out'
    : ability.crippled
      ? 'crippled'
      : before >= settings.xpTrackLength
        ? 'track-full'
        : 'marked'
  if (reason === 'marked') ability.xp = before + 1

  return {
    sheet: next,
    retrieval: {
      decision: 'raise',
      emotion,
      stageBefore,
      stageAfter: stageBefore + 1,
      xp: { marked: reason === 'marked', before, after: ability.xp, reason },
    },
    verdict: 'success',
  }
}

type NoXpReason = Exclude<NonNullable<RetrievalOutcome['xp']>['reason'], 'marked'>

/** Why a retrieval marked no XP, as a summary says it. */
const NO_XP_BECAUSE: Record<NoXpReason, string> = {
  'maxed-out': 'maxed-out',
  crippled: 'crippled',
  'track-full': 'its track is full',
}

/** What the summaries said before they gave the reason in words: "no agility XP (track-full)". */
export const REACTION_ROLLS_REWORDINGS: readonly Rewording[] = [
  { before: ' XP (track-full)', now: ` XP (${NO_XP_BECAUSE['track-full']})` },
]

export function describeRetrieval(abilityName: string, retrieval: RetrievalOutcome): string {
  if (retrieval.decision === 'decline' || retrieval.emotion === null) return 'declined, failure'
  const raised = `raised ${retrieval.emotion} ${retrieval.stageBefore} → ${retrieval.stageAfter}, success`
  const xp = retrieval.xp
  if (xp === null) return raised
  if (xp.reason === 'marked') return `${raised}; ${abilityName} XP ${xp.before} → ${xp.after}`
  return `${raised}; no ${abilityName} XP (${NO_XP_BECAUSE[xp.reason]})`
}
