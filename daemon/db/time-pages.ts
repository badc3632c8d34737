/**
 * Keyset pages of a table's rows in time order, for tables whose rows have no key usable on both
 * engines (raw clicks have none): a page is up to `pageSize` rows after a time, ordered by time;
 * the rows of the page's last millisecond are left out of it and read whole by `at`, so that the
 * next page starts strictly after that millisecond and no row is read twice or skipped. Each page
 * is one short query: nothing stays open between pages (a SQLite writer never waits on a reader).
 */
export interface TimePageReads<R> {
  /** Up to `limit` rows with after < time < before, ordered by time. */
  after(after: number, before: number, limit: number): Promise<R[]>
  /** Every row at exactly `time`. */
  at(time: number): Promise<R[]>
  /** A row's time (ms). */
  timeOf(row: R): number
}

/** The rows with from ≤ time < to, page by page (each page non-empty). */
export async function* timePages<R>(
  reads: TimePageReads<R>,
  from: number,
  to: number,
  pageSize: number,
): AsyncGenerator<R[]> {
  let after = from - 1
  for (;;) {
    const rows = await reads.after(after, to, pageSize)
    if (rows.length < pageSize) {
      if (rows.length > 0) yield rows
      return
    }
    const last = reads.timeOf(rows[rows.length - 1]!)
    let cut = rows.length
    while (cut > 0 && reads.timeOf(rows[cut - 1]!) === last) cut--
    if (cut > 0) yield cut === rows.length ? rows : rows.slice(0, cut)
    const tied = await reads.at(last)
    if (tied.length > 0) yield tied
    after = last
  }
}
