import type { Prisma } from '../generated/prisma/client.js'

const names = new Map<string, string>()

/** A statement marked `prepared`: its text built once, and the name it is prepared under. */
export interface PreparedSql {
  sql: Prisma.Sql
  text: string
  values: unknown[]
  name: string
}

/**
 * Marks a statement as one every roll sends (authentication, a command's read and its write):
 * on PostgreSQL it is then prepared once per connection, by name, instead of parsed and planned
 * again on each call — which was ~40 % of the database's time for a roll (docs/BENCHMARKS.md).
 * Only the statements marked here are: a connection holds a handful of prepared statements,
 * not one for every query shape Prisma writes. The text is built and looked up once per call
 * (a Prisma.Sql builds it anew on every read of `text`).
 */
export function prepared(sql: Prisma.Sql): PreparedSql {
  const text = sql.text
  let name = names.get(text)
  if (name === undefined) names.set(text, (name = `nerve_${names.size + 1}`))
  return { sql, text, values: sql.values, name }
}

/** The name a statement is prepared under, or '' (pg's unnamed statement) for one not marked. */
export function statementName(query: { sql: string }): string {
  return names.get(query.sql) ?? ''
}
