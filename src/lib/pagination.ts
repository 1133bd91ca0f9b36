/** A page's size when the request does not say. */
export const DEFAULT_PAGE_LIMIT = 50

/** How many rows to ask for: one more than the page, so the extra one tells whether more follow. */
export function pageSize(limit: number | undefined): number {
  return limit ?? DEFAULT_PAGE_LIMIT
}

/** Cuts a page from rows fetched with one extra, and names the cursor of the next page. */
export function pageOf<Row, Cursor>(rows: Row[], limit: number, cursorOf: (row: Row) => Cursor) {
  const page = rows.slice(0, limit)
  const hasMore = rows.length > limit
  return { page, hasMore, nextCursor: hasMore ? cursorOf(page.at(-1)!) : null }
}
