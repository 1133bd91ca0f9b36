import type { RuleSet } from '../rule-set.js'
import { reactionRollOdds } from './odds.js'
import { reactionRetrievalAction } from './reaction-retrieval.js'
import { pendingOf, reactionRollAction } from './reaction-roll.js'
import { REACTION_ROLLS_REWORDINGS } from './retrieval.js'
import {
  ReactionRollsSettingsSchema,
  ReactionRollsSheetSchema,
  type ReactionRollsSettings,
  type ReactionRollsSheet,
} from './schemas.js'
import { normalizeSettings, normalizeSheet } from './sheet.js'
import { TABLES } from './tables.js'

export const reactionRolls: RuleSet<ReactionRollsSheet, ReactionRollsSettings> = {
  id: 'reaction-rolls',
  version: '1.0.0',
  title: 'Reaction rolls',
  description:
    'Rolling an ability die against a pressure of 4, 6 or 8 to withstand trouble or harm; a roll just short of success can be retrieved by raising an emotion, which also marks XP.',
  sheet: ReactionRollsSheetSchema,
  settings: ReactionRollsSettingsSchema,
  normalizeSheet,
  normalizeSettings,
  pendingOf,
  rewordings: REACTION_ROLLS_REWORDINGS,
  tables: TABLES,
  actions: [{ ...reactionRollAction, odds: reactionRollOdds }, reactionRetrievalAction],
}
