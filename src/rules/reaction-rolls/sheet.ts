import { RuleError } from '../errors.js'
import {
  ReactionRollsSettingsSchema,
  ReactionRollsSheetSchema,
  type ReactionRollsSettings,
  type ReactionRollsSheet,
} from './schemas.js'
import { EMOTION_NAMES } from './tables.js'
import { parseWith } from '../parse.js'

export function normalizeSettings(input: unknown): ReactionRollsSettings {
  return parseWith(ReactionRollsSettingsSchema, input, '/settings', 'SETTINGS_INVALID')
}

export function normalizeSheet(input: unknown, settings?: ReactionRollsSettings): ReactionRollsSheet {
  const withAbilityDefaults = fillAbilityDefaults(input)
  const sheet = parseWith(ReactionRollsSheetSchema, withAbilityDefaults, '/sheet', 'SHEET_INVALID')
  const pending = sheet.pendingRetrieval
  if (pending !== null && !Object.hasOwn(sheet.abilities, pending.ability)) {
    throw new RuleError(
      'SHEET_INVALID',
      `/sheet/pendingRetrieval/ability names "${pending.ability}", which is not an ability on the sheet`,
      'invalid',
      '/sheet/pendingRetrieval/ability',
    )
  }
  if (settings) assertSheetFitsSettings(sheet, settings)
  return sheet
}

/** TypeBox does not fill defaults inside record values, so each ability gets its own pass. */
function fillAbilityDefaults(input: unknown): unknown {
  if (!isObject(input) || !isObject(input.abilities)) return input
  const abilities: Record<string, unknown> = {}
  for (const [name, ability] of Object.entries(input.abilities)) {
    abilities[name] = isObject(ability)
      ? { ...ability, xp: ability.xp ?? 0, maxedOut: ability.maxedOut ?? false, crippled: ability.crippled ?? false }
      : ability
  }
  return { ...input, abilities }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The sheet schema only knows the widest bounds; the campaign's own top stage and XP track
 * length are checked here, when a resolver has both the sheet and the settings.
 */
export function assertSheetFitsSettings(sheet: ReactionRollsSheet, settings: ReactionRollsSettings): void {
  for (const emotion of EMOTION_NAMES) {
    const stage = sheet.emotions[emotion]
    if (stage > settings.emotionTopStage) {
      throw new RuleError(
        'SHEET_INVALID',
        `${emotion} is at stage ${stage}, above this campaign's top stage ${settings.emotionTopStage}`,
        'invalid',
        `/sheet/emotions/${emotion}`,
      )
    }
  }
  for (const [name, ability] of Object.entries(sheet.abilities)) {
    if (ability.xp > settings.xpTrackLength) {
      throw new RuleError(
        'SHEET_INVALID',
        `${name} has ${ability.xp} XP marked, more than this campaign's ${settings.xpTrackLength}-segment track`,
        'invalid',
        `/sheet/abilities/${name}/xp`,
      )
    }
  }
}
