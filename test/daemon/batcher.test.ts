import { describe, expect, it } from 'vitest'
import { createBatcher } from '../../daemon/batcher.js'

describe('batcher (group commit)', () => {
  it('writes when maxItems are buffered, and the rest on flush', async () => {
    const writes: number[][] = []
    const b = createBatcher<number>({
      maxItems: 3,
      intervalMs: 60_000,
      maxRetained: 100,
      write: async (items) => void writes.push(items),
      onError: () => {},
    })
    for (let i = 1; i <= 3; i++) b.push(i)
    await new Promise((r) => setImmediate(r))
    expect(writes).toEqual([[1, 2, 3]])
    b.push(4)
    expect(b.pending).toBe(1)
    await b.flush()
    expect(writes).toEqual([[1, 2, 3], [4]])
    expect(b.pending).toBe(0)
  })

  it('a failed write keeps its items (bounded) for the next flush, in order', async () => {
    let fail = true
    const written: number[] = []
    const errors: unknown[] = []
    const b = createBatcher<number>({
      maxItems: 1000,
      intervalMs: 60_000,
      maxRetained: 3,
      write: async (items) => {
        if (fail) throw new Error('disk full')
        written.push(...items)
      },
      onError: (err) => errors.push(err),
    })
    for (let i = 1; i <= 5; i++) b.push(i)
    await expect(b.flush()).rejects.toThrow('disk full')
    expect(b.pending).toBe(3)
    b.push(6)
    fail = false
    await b.flush()
    expect(written).toEqual([3, 4, 5, 6])
  })

  it('stop() writes what is buffered; writes never overlap', async () => {
    let active = 0
    let maxActive = 0
    const written: number[] = []
    const b = createBatcher<number>({
      maxItems: 2,
      intervalMs: 60_000,
      maxRetained: 100,
      write: async (items) => {
        active++
        maxActive = Math.max(maxActive, active)
        await new Promise((r) => setTimeout(r, 5))
        written.push(...items)
        active--
      },
      onError: () => {},
    })
    b.start()
    for (let i = 1; i <= 7; i++) b.push(i)
    await b.stop()
    expect(written).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(maxActive).toBe(1)
  })

  it('while writes fail, a full buffer waits for the next flush; overflow is dropped and reported', async () => {
    let fail = true
    let attempts = 0
    const written: number[] = []
    const drops: Array<[number, string]> = []
    const b = createBatcher<number>({
      maxItems: 2,
      intervalMs: 60_000,
      maxRetained: 4,
      write: async (items) => {
        attempts++
        if (fail) throw new Error('SQLITE_FULL')
        written.push(...items)
      },
      onError: () => {},
      onDrop: (n, err) => void drops.push([n, (err as Error).message]),
    })
    b.push(1)
    b.push(2) // full: a write starts, and fails
    await new Promise((r) => setImmediate(r))
    expect(attempts).toBe(1)
    expect(b.failure).toBeInstanceOf(Error)
    for (let i = 3; i <= 9; i++) b.push(i) // no write per push while failing
    await new Promise((r) => setImmediate(r))
    expect(attempts).toBe(1)
    expect(b.pending).toBe(5) // trimmed to the 4 newest at 6 items (twice), then one more
    expect(b.dropped).toBe(4)
    expect(drops).toEqual([]) // reported with the next attempt
    await expect(b.flush()).rejects.toThrow('SQLITE_FULL')
    expect(b.dropped).toBe(5)
    expect(b.pending).toBe(4)
    expect(drops).toEqual([[5, 'SQLITE_FULL']])
    fail = false
    b.push(10) // the next write succeeds: pushes write again
    await b.flush()
    expect(written).toEqual([6, 7, 8, 9, 10])
    expect(b.failure).toBeUndefined()
    expect(b.dropped).toBe(5)
    expect(drops).toHaveLength(1)
  })

  it('stop() never rejects: what the last write cannot store is dropped and reported', async () => {
    const errors: unknown[] = []
    const drops: number[] = []
    const b = createBatcher<number>({
      maxItems: 100,
      intervalMs: 60_000,
      maxRetained: 100,
      write: async () => {
        throw new Error('SQLITE_READONLY')
      },
      onError: (err) => errors.push(err),
      onDrop: (n) => void drops.push(n),
    })
    for (let i = 0; i < 3; i++) b.push(i)
    await b.stop()
    expect(drops).toEqual([3])
    expect(b.dropped).toBe(3)
    expect(b.pending).toBe(0)
    expect(errors).toHaveLength(1)
  })
})
