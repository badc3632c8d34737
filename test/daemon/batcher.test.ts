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
})
