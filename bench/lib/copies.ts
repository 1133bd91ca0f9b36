/**
 * Seeding a long history copies one event many times in SQL. A copy's listings (the event as a
 * history page lists it, written with the event) are the template's, naming the copy's own id
 * and `seq`, and its character and time when they differ from the template's.
 */
export function copiedListings(
  template: string,
  copy: { id: string; seq: string; characterId?: string; occurredAt?: string },
): string {
  const copied = (column: string) => {
    let sql = `replace(${template}."${column}", ${template}."id"::text, (${copy.id})::text)`
    sql = `regexp_replace(${sql}, '"seq" ?: ?\\d+', '"seq":' || (${copy.seq}))`
    if (copy.characterId) sql = `replace(${sql}, ${template}."character_id"::text, (${copy.characterId})::text)`
    if (copy.occurredAt)
      sql = `regexp_replace(${sql}, '"occurredAt" ?: ?"[^"]*"', '"occurredAt":"' || to_char((${copy.occurredAt}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"')`
    return sql
  }
  return `${copied('listing')}, ${copied('public_listing')}`
}
