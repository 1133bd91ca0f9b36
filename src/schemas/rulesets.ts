import Type from 'typebox'
import { ref } from './ref.js'

export const RuleSetActionSchema = Type.Object(
  {
    name: Type.String({ description: 'The action, as it appears in URLs.' }),
    kind: Type.Union([Type.Literal('roll'), Type.Literal('decision'), Type.Literal('gm')], {
      description: '`roll` resolves a mechanic, `decision` settles a pending one, `gm` is a game-master action.',
    }),
    actor: Type.Union([Type.Literal('player'), Type.Literal('gm')], {
      description: 'Who may perform it on a stored character: its player (or the GM), or the GM alone.',
    }),
    summary: Type.String(),
    description: Type.String(),
    amends: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'Present on actions that change an earlier roll (a passion re-roll changes the stress check): the actions whose latest event this one changes. On a stored character it follows that event, and is GM-only when that event is.',
      }),
    ),
    resolvePath: Type.String({ description: 'Stateless resolution endpoint.' }),
    oddsPath: Type.Optional(
      Type.String({
        description:
          'Present when the action rolls dice: the stateless endpoint giving the exact odds of its outcomes before rolling (on a stored character, `…/characters/{characterId}/{action}/odds`).',
      }),
    ),
  },
  { $id: 'RuleSetAction', additionalProperties: false },
)

export const RuleSetSummarySchema = Type.Object(
  {
    id: Type.String({ examples: ['shock-meters'] }),
    version: Type.String({ description: 'Version of the rules text this implementation follows.' }),
    title: Type.String(),
    description: Type.String(),
    actions: Type.Array(ref(RuleSetActionSchema)),
  },
  { $id: 'RuleSetSummary', additionalProperties: false },
)

export const RuleSetListSchema = Type.Object(
  { data: Type.Array(ref(RuleSetSummarySchema)) },
  { $id: 'RuleSetList', additionalProperties: false },
)

export const RuleSetDetailSchema = Type.Object(
  {
    id: Type.String(),
    version: Type.String(),
    title: Type.String(),
    description: Type.String(),
    actions: Type.Array(ref(RuleSetActionSchema)),
    sheetSchema: Type.Object({}, { additionalProperties: true, description: 'JSON Schema of a character sheet.' }),
    defaultSheet: Type.Object({}, { additionalProperties: true, description: 'The sheet of a new character.' }),
    settingsSchema: Type.Object({}, { additionalProperties: true, description: 'JSON Schema of campaign settings.' }),
    tables: Type.Object({}, { additionalProperties: true, description: 'Reference tables of the rule set, as data.' }),
  },
  { $id: 'RuleSetDetail', additionalProperties: false },
)
