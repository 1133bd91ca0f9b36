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
  flipFlopUsed: 'Flip-flop used this session',
  check: 'Stress check number',
  face: 'Face rolled',
}

/** What reads as developer text: code, routes, JSON, or a field's name in camelCase. */
const API_WORDS = /`|\/v1\/|\bGET\b|\bJSON\b|\bnull\b|\btrue\b|\bfalse\b|[a-z][A-Z][a-z]/

/** The field's name as the console labels it. */
export const labelOf = (name) => LABELS[name] ?? title(name)

/** The schema with its description in a GM's words, or none when only a developer's exist. */
export function inGmWords(name, schema) {
  const words = HINTS[name]
  const hint = typeof words === 'function' ? words(schema) : (words ?? schema.description)
  return { ...schema, description: hint && !API_WORDS.test(hint) ? hint : undefined }
}
