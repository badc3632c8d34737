/** Keyset pages by time: rows sharing a millisecond across a page boundary are read once each. */
import { describe, expect, it } from 'vitest'
import { timePages } from '../../../daemon/db/time-pages.js'

interface Row {
  id: number
  ts: number
}

/** A table of rows and the two reads of timePages over it, counting the queries. */
function table(rows: Row[]) {
  const sorted = [...rows].sort((a, b) => a.ts - b.ts)
  let queries = 0
  return {
    reads: {
      after: async (after: number, before: number, limit: number) => {
        queries++
        return sorted.filter((r) => r.ts > after && r.ts < before).slice(0, limit)
      },
      at: async (ts: number) => {
        queries++
        return sorted.filter((r) => r.ts === ts)
      },
      timeOf: (r: Row) => r.ts,
    },
    queries: () => queries,
  }
}

async function all(rows: Row[], from: number, to: number, pageSize: number) {
  const out: Row[][] = []
  for await (const page of timePages(table(rows).reads, from, to, pageSize)) out.push(page)
  return out
}

describe('timePages', () => {
  it('reads every row of [from, to) once, in time order, whatever the ties and the page size', async () => {
    // Runs of 1 to 7 rows on the same millisecond.
    const rows: Row[] = []
    for (let i = 0, ts = 100; i < 200; ts++)
      for (let k = 0; k <= ts % 7 && i < 200; k++) rows.push({ id: i++, ts })
    for (const pageSize of [1, 2, 3, 5, 8, 64, 500]) {
      const pages = await all(rows, 110, 140, pageSize)
      const got = pages.flat()
      const want = rows.filter((r) => r.ts >= 110 && r.ts < 140)
      expect(got.map((r) => r.id).sort((a, b) => a - b)).toEqual(want.map((r) => r.id))
      expect(got.map((r) => r.ts)).toEqual(want.map((r) => r.ts))
      expect(pages.every((p) => p.length > 0)).toBe(true)
    }
  })

  it('a millisecond holding more rows than a page is read whole; an empty range yields nothing', async () => {
    const rows = Array.from({ length: 50 }, (_, id) => ({ id, ts: id < 40 ? 7 : 9 }))
    expect((await all(rows, 0, 100, 10)).flat()).toHaveLength(50)
    expect(await all(rows, 10, 100, 10)).toEqual([])
  })
})
