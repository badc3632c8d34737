/**
 * Bounded deletes: `run` deletes at most `chunk` rows per call and says how many; it is called
 * again until a call deletes fewer, so that a long backlog never holds the single SQLite writer
 * for long. The total deleted.
 */
export async function chunked(chunk: number, run: () => Promise<number>): Promise<number> {
  let total = 0
  for (;;) {
    const n = await run()
    total += n
    if (n < chunk) return total
  }
}
