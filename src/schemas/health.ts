import Type from 'typebox'

export const LivenessSchema = Type.Object(
  { status: Type.Literal('ok') },
  { $id: 'Liveness', examples: [{ status: 'ok' }] },
)

export const ReadinessSchema = Type.Object(
  {
    status: Type.Literal('ready'),
    database: Type.Union([Type.Literal('postgres'), Type.Literal('pglite')], {
      description: 'Which engine serves the data: an external PostgreSQL, or the embedded PGlite.',
    }),
  },
  { $id: 'Readiness', examples: [{ status: 'ready', database: 'pglite' }] },
)
