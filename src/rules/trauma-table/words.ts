import type { Rewording } from '../rule-set.js'
import type { AppliedEffects, ConditionDuration } from './schemas.js'

type BehaviourEntry = AppliedEffects['behaviours'][number]

/** How a rolled trauma's summary ends while it waits for the trauma response. */
export const AWAITING_ANSWER = "waiting for the player's answer: accept it or answer with an ability"

/** How long a condition lasts, as a summary says it. */
export const CONDITION_LASTS: Record<ConditionDuration, string> = {
  'next-check': 'on the next check',
  'next-attack': 'on the next attack',
  'next-save': 'on the next save',
  scene: 'until the end of the scene',
  'next-rest': 'until the next rest',
  encounter: 'until the end of the encounter',
  cycle: 'until the next cycle',
  permanent: 'for good',
}

/** How long a compelled behaviour lasts; an encounter's is said as a condition's. */
const BEHAVIOUR_LASTS: Record<BehaviourEntry['duration'], string> = {
  'next-turn': 'on the next turn',
  encounter: CONDITION_LASTS.encounter,
}

/** What a behaviour compels, in the table's words. */
const COMPELLED_TO: Record<BehaviourEntry['behaviour'], string> = {
  flee: 'flee',
  'attack-nearest': 'attack the nearest entity',
  'discard-equipped-items': 'discard equipped items',
}

/** A compelled behaviour as a summary says it: "compelled to flee (on the next turn)". */
export const describeBehaviour = (entry: Pick<BehaviourEntry, 'behaviour' | 'duration'>): string =>
  `compelled to ${COMPELLED_TO[entry.behaviour]} (${BEHAVIOUR_LASTS[entry.duration]})`

/**
 * What the summaries said before they named the response, the durations and the behaviours in
 * words: "waiting for trauma-response", "Hazed (next-rest)", "flee (next-turn)".
 */
export const TRAUMA_TABLE_REWORDINGS: readonly Rewording[] = [
  { before: '; waiting for trauma-response', now: `; ${AWAITING_ANSWER}` },
  ...Object.entries(COMPELLED_TO).map(([behaviour, words]) => ({
    before: `${behaviour} (`,
    now: `compelled to ${words} (`,
  })),
  ...Object.entries({ ...CONDITION_LASTS, ...BEHAVIOUR_LASTS }).map(([duration, words]) => ({
    before: `(${duration})`,
    now: `(${words})`,
  })),
]
