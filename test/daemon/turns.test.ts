/** daemon/turns.ts: callers in order, a turn bounded in time, other work let in between turns. */
import { describe, expect, it } from 'vitest'
import { createTurns } from '../../daemon/turns.js'

/** Keeps the thread busy for `ms` (the CPU-heavy part of a caller). */
const busy = (ms: number) => {
  const end = performance.now() + ms
  while (performance.now() < end);
}

describe('turns', () => {
  it('lets callers go in order, several in one turn while the time lasts', async () => {
    const turn = createTurns(50)
    const order: number[] = []
    await Promise.all(
      [0, 1, 2, 3].map(async (i) => {
        await turn()
        order.push(i)
      }),
    )
    expect(order).toEqual([0, 1, 2, 3])
  })

  it('work queued while callers take their turns runs between turns, not after all of them', async () => {
    const turn = createTurns(2)
    const log: string[] = []
    const callers = Array.from({ length: 20 }, (_, i) =>
      (async () => {
        await turn()
        busy(1)
        log.push(`caller ${i}`)
        if (i === 0) setImmediate(() => log.push('other work'))
      })(),
    )
    await Promise.all(callers)
    const other = log.indexOf('other work')
    expect(other).toBeGreaterThan(0)
    // It ran after a turn of at most a few callers, not after the 20 of them.
    expect(other).toBeLessThan(6)
    expect(log.filter((l) => l.startsWith('caller'))).toEqual(callers.map((_, i) => `caller ${i}`))
  })

  it('a caller that asks to go first goes ahead of the callers already waiting', async () => {
    const turn = createTurns(50)
    const order: string[] = []
    const waiting = [0, 1, 2].map(async (i) => {
      await turn()
      order.push(`caller ${i}`)
    })
    const first = (async () => {
      await turn(true)
      order.push('first')
    })()
    await Promise.all([...waiting, first])
    expect(order).toEqual(['first', 'caller 0', 'caller 1', 'caller 2'])
  })
})
