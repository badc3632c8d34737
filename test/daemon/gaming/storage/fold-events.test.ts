/** The raw-events layer of the fold: time order, duplicates and flagged events. */
import { describe, expect, it } from 'vitest'
import { freshEvents } from '../../../../daemon/modules/gaming/storage/fold/events.js'
import { MIN, T0, accepted, ev, snapshot } from './fold-fixtures.js'

describe('fold: raw events', () => {
  it('keeps the events in time order without those stored before or repeated; flagged counts the kept ones', () => {
    const r = freshEvents(snapshot({ storedEventIds: new Set(['old']) }), [
      accepted(ev({ ts: T0 + 2 * MIN, eventId: 'a' }), 'flag'),
      accepted(ev({ ts: T0, eventId: 'b' })),
      accepted(ev({ ts: T0 + MIN, eventId: 'old' }), 'flag'),
      accepted(ev({ ts: T0 + 3 * MIN, eventId: 'a' }), 'flag'),
    ])
    expect(r.fresh.map((j) => [j.event.eventId, j.event.ts - T0])).toEqual([
      ['b', 0],
      ['a', 2 * MIN],
    ])
    expect([r.duplicates, r.flagged]).toEqual([2, 1])
  })

  it('of two repeats at the same time, the first of the batch is kept', () => {
    const r = freshEvents(snapshot(), [
      accepted(ev({ ts: T0, eventId: 'x', type: 'level_start' })),
      accepted(ev({ ts: T0, eventId: 'x', type: 'level_complete' }), 'flag'),
    ])
    expect(r.fresh.map((j) => j.event.type)).toEqual(['level_start'])
    expect([r.duplicates, r.flagged]).toEqual([1, 0])
  })

  it('an empty batch keeps nothing', () => {
    expect(freshEvents(snapshot(), [])).toEqual({ fresh: [], duplicates: 0, flagged: 0 })
  })
})
