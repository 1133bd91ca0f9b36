import type { Prisma } from '../generated/prisma/client.js'

const names = new Map<string, string>()

/**
 * Marks a statement as one every roll sends (authentication, a command's read and its write):
 * on PostgreSQL it is then prepared once per connection, by name, instead of parsed and planned
 * again on each call — which was ~40 % of the database's time for a roll (docs/BENCHMARKS.md).
 * Only the statements marked here are: a connection holds a handful of prepared statements,
 * not one for every query shape Prisma writes.
 */
export function prepared(statement: Prisma.Sql): Prisma.Sql {
  if (!names.has(statement.text)) names.set(statement.text, `nerve_${names.size + 1}`)
  return statement
}

/** The name a statement is prepared under, or '' (pg's unnamed statement) for one not marked. */
export function statementName(query: { sql: string }): string {
  return names.get(query.sql) ?? ''
}
