// @ts-check
import { title } from '../dom.js'

/**
 * The console's words for fields whose API description speaks to developers (routes, JSON,
 * field names): what a GM reads instead, in the rulebooks' terms. Keyed by the field's name; a
 * function when one name means two things (a fear passion, a stage of fear).
 * @type {Record<string, string | ((schema: any) => string)>}
 */
const HINTS = {
  trigger: 'A trigger from the rulebook’s list, if there is one; the meter and rank must fit it.',
  response: (schema) =>
    schema.anyOf?.some((branch) => branch.type === 'object' || branch.$ref)
      ? 'Accept the trauma and its effects, or answer it with an ability such as “Not Today!”.'
      : 'Panic (flight), paralysis (freeze) or frenzy (fight); pending until the player chooses.',
  trauma: 'The anxiety to ease: Performance, Social or Spacers Anxiety.',
  resist: 'Untick when the player lets the event unfold: a failure, with no roll and no XP.',
  retrieve:
    'What the player does if the roll is retrievable: raise an emotion and succeed, or fail. Leave it to ask them afterwards.',
  decision: 'Raise one emotion by one stage and succeed, or decline and fail.',
  emotion: 'The emotion raised by one stage, when the player raises one.',
  fear: (schema) => (schema.type === 'integer' ? STAGE : 'Leave the text empty if the character has none.'),
  rage: 'Leave the text empty if the character has none.',
  noble: 'Leave the text empty if the character has none.',
  anger: () => STAGE,
  sadness: () => STAGE,
  guilt: () => STAGE,
  flipFlopUsed: 'Ticked once this passion has flip-flopped a roll; a new session clears it.',
  stressed: 'Stressed characters avoid stress checks until the threat is removed (Clear stressed).',
  name: (schema) =>
    schema.anyOf ? 'The disorder’s name; empty while the GM has still to name it.' : schema.description,
  check: 'Which stress check brought it; empty when you added it yourself.',
  face: 'The d100 face standing now, after any re-roll or flip-flop; 100 reads 00.',
  behaviour: 'Flee as far as possible, attack the nearest entity, or throw off equipped items.',
  duration: 'The next turn only, or every turn for the rest of the encounter.',
  abilities: 'Each ability with its dice class and XP track.',
}

const STAGE = 'Its stage, from 0 up to the campaign’s top stage.'

/** @type {Record<string, string>} */
const LABELS = {
  url: 'Address',
  flipFlopUsed: 'Flip-flop used this session',
  check: 'Stress check number',
  face: 'Face rolled',
}

/** What reads as developer text: code, routes, JSON, or a field's name in camelCase. */
const API_WORDS = /`|\/v1\/|\bGET\b|\bJSON\b|\bnull\b|\btrue\b|\bfalse\b|[a-z][A-Z][a-z]/

/** What an action does, in the GM's words, where its API description speaks to developers. */
const ACTIONS = {
  'therapy-assistance':
    'Right after a failed stress check, a therapist with the Therapeutic feature rolls d100 against that identity. Fumble: the patient faces a Self check of rank 2–3. Matched failure: their relationship drops 5, and at 0% the console offers the Isolation 4–5 check it calls for. Failure: nothing. Success: with the patient’s consent the failed notch becomes a hardened one. Matched success or critical: the failed notch is erased, and with a fifth notch the disorder it brought goes too.',
  'trauma-roll':
    'Rolls d100 plus the modifier, finds the row, moves it one row per upgrade or downgrade (never off the table), then further up past any trauma already suffered this encounter. Choose a response to settle it at once; otherwise it waits for the player to accept it or answer it with an ability. An Unharmed result settles at once.',
  rest: 'Recovers health and lowers the severity of every lasting trauma a rest heals (gone at 0; anxieties need a socialise ritual), and ends what lasts “until your next Rest”. Under Insomnia the rest recovers half of each, rounded down, and ends nothing. Under Sleepless Night it recovers nothing, ends nothing, and uses the Sleepless Night up.',
  'socialise-ritual':
    'Lowers one anxiety (a lasting trauma rest cannot heal) by the amount, removing it at 0. An anxiety the character does not have is left alone, and the answer says so.',
  'reaction-roll':
    'The GM calls for a reaction roll with an ability and a pressure (4, 6 or 8). The ability’s die is rolled — two dice keeping the higher with advantage or the lower with disadvantage — and one context modifier per source is added. Half the pressure or less fails, the pressure or more succeeds, anything between is retrievable: raise one emotion by one stage to succeed and mark one XP on the ability, or decline and fail. Decide now or leave it to ask the player afterwards. Untick “resist” when the player lets the event unfold: a failure with no roll.',
  'reaction-retrieval':
    'The player decides a retrievable reaction roll: raise one emotion by one stage (below the campaign’s top stage) to succeed and mark one XP on the rolled ability (unless it is maxed out, crippled or its track is full), or decline and fail.',
}

/**
 * What the action does, as the console shows it above its form: the GM's words, or the API's
 * description when it needs none, or else its summary.
 * @param {{ name: string, summary: string, description: string }} action
 */
export const aboutAction = (action) =>
  ACTIONS[action.name] ?? (API_WORDS.test(action.description) ? action.summary : action.description)

/** The field's name as the console labels it. */
export const labelOf = (name) => LABELS[name] ?? title(name)

/** The schema with its description in a GM's words, or none when only a developer's exist. */
export function inGmWords(name, schema) {
  const words = HINTS[name]
  const hint = typeof words === 'function' ? words(schema) : (words ?? schema.description)
  return { ...schema, description: hint && !API_WORDS.test(hint) ? hint : undefined }
}
