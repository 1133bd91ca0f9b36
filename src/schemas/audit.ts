import Type from 'typebox'
import { Uuid } from './common.js'

export const AuditReportSchema = Type.Object(
  {
    characterId: Uuid('The character audited.'),
    consistent: Type.Boolean({ description: 'True when the history rebuilds exactly the stored sheet.' }),
    eventsReplayed: Type.Integer({ description: 'How many of the character’s events were replayed.' }),
    version: Type.Integer({ description: 'The stored character’s version.' }),
    divergence: Type.Union([
      Type.Object(
        {
          seq: Type.Integer(),
          eventId: Type.String(),
          type: Type.String(),
          reason: Type.String({ description: 'What did not match.' }),
        },
        { additionalProperties: false, description: 'The first event where the rebuilt sheet and the record part.' },
      ),
      Type.Null(),
    ]),
  },
  { $id: 'AuditReport', additionalProperties: false },
)
