import Type, { type Static } from 'typebox'

export const PROBLEM_CONTENT_TYPE = 'application/problem+json'

export const ProblemSchema = Type.Object(
  {
    type: Type.String({
      description: 'A URI naming the kind of problem; `about:blank` when the HTTP status says it all.',
    }),
    title: Type.String({ description: 'Short summary of the kind of problem.' }),
    status: Type.Integer({ description: 'The HTTP status code.' }),
    detail: Type.String({ description: 'What went wrong with this request, in plain words.' }),
    instance: Type.String({ description: 'The request path this problem occurred on.' }),
    code: Type.Optional(Type.String({ description: 'Stable machine-readable code, e.g. `VALIDATION_FAILED`.' })),
    requestId: Type.String({ description: 'Quote it when reporting a problem: it finds the request in the logs.' }),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          pointer: Type.String({ description: 'JSON pointer to the field at fault, e.g. `/body/request/rank`.' }),
          detail: Type.String({ description: 'Why the field was refused.' }),
        }),
        { description: 'Every field at fault, for validation problems.' },
      ),
    ),
    needed: Type.Optional(
      Type.Array(
        Type.Object({
          count: Type.Integer({ minimum: 1, description: 'How many dice of this kind, one after another.' }),
          sides: Type.Integer({ minimum: 2, description: 'Sides of each die.' }),
          purpose: Type.String({ description: 'What they are rolled for, as recorded on the event’s dice.' }),
          exploding: Type.Boolean({
            description:
              'One die that explodes: roll it, then another each time it shows its highest face, and send every face (`count` is 1).',
          }),
        }),
        {
          description:
            'With `DICE_COUNT`: the dice still needed, in order, after the faces provided. Roll them and send the same request with their faces appended. Only dice needed whatever the missing faces show are listed; when what follows depends on them (the trauma row a d100 finds, a therapist’s fumble, an exploding die), the next answer names the rest.',
        },
      ),
    ),
    line: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'With `ARCHIVE_…` codes: the first line of the archive at fault (1 is its first line).',
      }),
    ),
    seq: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
        description:
          'With `ARCHIVE_…` codes: the `seq` of the event at fault, or of the event due where the archive stops; null when the line at fault is not an event’s.',
      }),
    ),
    facesProvided: Type.Optional(
      Type.Integer({ minimum: 0, description: 'With `DICE_COUNT`: how many faces the request provided.' }),
    ),
  },
  {
    $id: 'Problem',
    title: 'Problem details (RFC 9457)',
    description: 'Every error Nerve answers is one of these, served as `application/problem+json`.',
    examples: [
      {
        type: 'urn:nerve:problem:validation-failed',
        title: 'Request validation failed',
        status: 422,
        detail: '/body/request/rank must be <= 10',
        instance: '/v1/resolve/shock-meters/stress-check',
        code: 'VALIDATION_FAILED',
        requestId: '01JDX3V2S6Q7M1T4Z8N0K5R9CE',
        errors: [{ pointer: '/body/request/rank', detail: 'must be <= 10' }],
      },
    ],
  },
)
export type Problem = Static<typeof ProblemSchema>
