import type { RuleSet } from '../rule-set.js'
import { endCycle, endEncounter, endScene, rest, socialiseRitual } from './gm-actions.js'
import { traumaRollOdds } from './odds.js'
import { pendingOf, respondToTrauma, rollTrauma } from './resolve-trauma.js'
import {
  EndCycleOutcomeSchema,
  EndCycleRequestSchema,
  EndEncounterOutcomeSchema,
  EndEncounterRequestSchema,
  EndSceneOutcomeSchema,
  EndSceneRequestSchema,
  RestOutcomeSchema,
  RestRequestSchema,
  SocialiseRitualOutcomeSchema,
  SocialiseRitualRequestSchema,
  TraumaResponseOutcomeSchema,
  TraumaResponseRequestSchema,
  TraumaRollOutcomeSchema,
  TraumaRollRequestSchema,
  TraumaTableSettingsSchema,
  TraumaTableSheetSchema,
  type TraumaTableSettings,
  type TraumaTableSheet,
} from './schemas.js'
import { normalizeSettings, normalizeSheet } from './sheet.js'
import { CONDITIONS, TRAUMA_TABLE } from './table.js'
import { TRAUMA_TABLE_REWORDINGS } from './words.js'

export const traumaTable: RuleSet<TraumaTableSheet, TraumaTableSettings> = {
  id: 'trauma-table',
  version: '0.5b',
  title: 'Trauma table',
  description:
    'A d100 trauma roll, moved up or down the table by scars, earlier traumas this encounter, the source and the character’s traits, then accepted or answered with an ability. Tracks conditions, lasting traumas and what ends them.',
  sheet: TraumaTableSheetSchema,
  settings: TraumaTableSettingsSchema,
  normalizeSheet,
  normalizeSettings,
  pendingOf,
  rewordings: TRAUMA_TABLE_REWORDINGS,
  tables: {
    rows: TRAUMA_TABLE,
    conditions: CONDITIONS,
    upgrades: [
      { direction: 'upgrade', steps: 1, cause: 'scars', label: 'Once for every scar.' },
      {
        direction: 'upgrade',
        steps: 1,
        cause: 'previous-trauma',
        label: 'Once for every trauma already suffered this encounter.',
      },
      {
        direction: 'upgrade',
        steps: { stressful: 1, traumatic: 2, maddening: 3 },
        cause: 'source-trait',
        label: 'When the ability or item inflicting it is Stressful, Traumatic or Maddening.',
      },
      {
        direction: 'downgrade',
        steps: 1,
        cause: 'character-trait',
        label: 'Once each for Composure, Poise and Stoic.',
      },
    ],
    source: { rulesVersion: '0.5b', date: 'April 2026' },
  },
  actions: [
    {
      name: 'trauma-roll',
      actor: 'player',
      kind: 'roll',
      title: 'trauma roll',
      summary: 'Roll a trauma',
      description:
        'Rolls d100 plus the modifier, finds the row, moves it one row per upgrade or downgrade (clamped to the table), then further up past any trauma already suffered this encounter. With `response` the trauma is settled at once; without it the sheet keeps it in `pendingTrauma` until `trauma-response`. An Unharmed result settles at once.',
      request: TraumaRollRequestSchema,
      outcome: TraumaRollOutcomeSchema,
      resolve: (sheet, request, dice) => rollTrauma(sheet, request, dice),
      odds: traumaRollOdds,
    },
    {
      name: 'trauma-response',
      actor: 'player',
      kind: 'decision',
      title: 'trauma response',
      summary: 'Accept the pending trauma or answer it with an ability',
      description:
        'Accepting applies the trauma’s effects (rolling its dice) and counts it toward this encounter. Answering with an ability such as "Not Today!" records the ability, applies nothing and does not count it toward this encounter.',
      request: TraumaResponseRequestSchema,
      outcome: TraumaResponseOutcomeSchema,
      exampleSheet: {
        pendingTrauma: {
          face: 65,
          modifier: 0,
          total: 65,
          baseRow: 'depleted',
          shifts: [],
          netShift: 0,
          shiftedRow: 'depleted',
          clamped: null,
          repeats: [],
          finalRow: 'depleted',
        },
      },
      resolve: (sheet, request, dice) => respondToTrauma(sheet, request, dice),
    },
    {
      name: 'end-scene',
      actor: 'gm',
      kind: 'gm',
      title: 'end of the scene',
      summary: 'End the scene',
      description:
        'Ends conditions that last the scene and every save made at a disadvantage until the end of the scene.',
      request: EndSceneRequestSchema,
      outcome: EndSceneOutcomeSchema,
      resolve: (sheet, request) => endScene(sheet, request),
    },
    {
      name: 'end-encounter',
      actor: 'gm',
      kind: 'gm',
      title: 'end of the encounter',
      summary: 'End the encounter',
      description:
        'Clears the traumas suffered this encounter (so they no longer upgrade new ones) and ends compelled behaviours and encounter-long conditions. The encounter’s end ends its scene too: scene-long conditions and saves at a disadvantage until the end of the scene end with it. Refused while a trauma awaits an answer.',
      request: EndEncounterRequestSchema,
      outcome: EndEncounterOutcomeSchema,
      resolve: (sheet, request) => endEncounter(sheet, request),
    },
    {
      name: 'rest',
      actor: 'gm',
      kind: 'gm',
      title: 'rest',
      summary: 'Rest',
      description:
        'Recovers `health` (lowering `healthLost`, never below 0) and takes `severity` off every rest-healable lasting trauma (removed at 0; the anxieties need a socialise ritual), and ends what lasts "until your next Rest". Under Insomnia the rest recovers half of each, rounded down, and ends nothing, since it does not count as a rest for other rules. Under Sleepless Night it recovers nothing and ends nothing, and uses the Sleepless Night up; Sleepless Night wins over Insomnia. `recovery` is the deprecated name of `severity`.',
      request: RestRequestSchema,
      outcome: RestOutcomeSchema,
      exampleSheet: {
        healthLost: 9,
        conditions: [{ name: 'Hazed', duration: 'next-rest', source: 'flapped' }],
        lastingTraumas: [{ id: 'over-stimulated', name: 'Over-Stimulated', severity: 30, restHeals: true }],
      },
      resolve: (sheet, request) => rest(sheet, request),
    },
    {
      name: 'end-cycle',
      actor: 'gm',
      kind: 'gm',
      title: 'end of the cycle',
      summary: 'End the cycle',
      description: 'Ends Insomnia and any condition that lasts until the next cycle.',
      request: EndCycleRequestSchema,
      outcome: EndCycleOutcomeSchema,
      resolve: (sheet, request) => endCycle(sheet, request),
    },
    {
      name: 'socialise-ritual',
      actor: 'gm',
      kind: 'gm',
      title: 'socialise ritual',
      summary: 'Socialise ritual',
      description:
        'Lowers one anxiety (the lasting traumas rest cannot heal) by `amount`, removing it at 0. An anxiety the character does not have is left alone and reported as such.',
      request: SocialiseRitualRequestSchema,
      outcome: SocialiseRitualOutcomeSchema,
      exampleSheet: {
        lastingTraumas: [{ id: 'social-anxiety', name: 'Social Anxiety', severity: 80, restHeals: false }],
      },
      resolve: (sheet, request) => socialiseRitual(sheet, request),
    },
  ],
}
