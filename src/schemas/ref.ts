import Type, { type Static, type TSchema } from 'typebox'
import { PROBLEM_CONTENT_TYPE } from './problem.js'

/**
 * Refers to a schema registered with `app.addSchema`, keeping its static type. The OpenAPI
 * document then names it as a component (its `$id`) instead of repeating it inline.
 */
export function ref<T extends TSchema>(schema: T, options: { description?: string } = {}) {
  const id = (schema as { $id?: string }).$id
  if (!id) throw new Error('ref() needs a schema with an $id')
  return Type.Unsafe<Static<T>>({ $ref: `${id}#`, ...options })
}

/** An error response for a route schema: documented as problem+json with why it happens. */
export function problem(description: string) {
  return {
    description,
    content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: 'Problem#' } } },
  } as const
}
