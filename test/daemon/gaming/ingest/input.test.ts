/**
 * Hostile event contents: too deep `data` and out-of-range revenue amounts are
 * rejected one event at a time in the 202 body; the rest of the batch is stored, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { FREE_FORM_NESTING_MAX, INGEST_LIMITS } from '../../../../src/contract/limits.js'
import type { TestApp } from '../../../support/app.js'
import {
  accepted,
  batch,
  createGame,
  ingestionApp,
  event,
  send,
  storedEvents,
  type SendOpts,
} from '../../../support/gaming.js'

let t: TestApp
let game: GameWithSecrets
let o: SendOpts
beforeAll(async () => ({ t, game, o } = await ingestionApp()))
afterAll(() => t.close())

const result = accepted
const stored = () => storedEvents(t, game)
const nested = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels)

/** A batch's JSON text with event `index`'s data replaced by `dataJson`. */
function batchText(events: ReturnType<typeof event>[], replace: Record<number, string>): string {
  events.forEach((e, i) => {
    if (replace[i] !== undefined) e.data = { marker: `__DATA_${i}__` }
  })
  let text = JSON.stringify(batch(t, events))
  for (const [i, json] of Object.entries(replace)) text = text.replace(`{"marker":"__DATA_${i}__"}`, json)
  return text
}

describe('event data nesting', () => {
  it(`data nested ${FREE_FORM_NESTING_MAX} levels is stored; one more is a per-event error`, async () => {
    const before = await stored()
    const events = [event(t), event(t), event(t)]
    const r = result(
      await send(
        t,
        batchText(events, { 0: nested(FREE_FORM_NESTING_MAX), 1: nested(FREE_FORM_NESTING_MAX + 1) }),
        o,
      ),
    )
    expect(r).toMatchObject({ accepted: 2, rejected: 1 })
    expect(r.errors).toEqual([
      {
        index: 1,
        eventId: events[1]!.event_id,
        error: 'InvalidEvent',
        message: `data must not be nested more than ${FREE_FORM_NESTING_MAX} levels deep`,
      },
    ])
    expect(await stored()).toBe(before + 2)
  })

  it('10,000 and 100,000 levels of objects, 400,000 of arrays (within 1 MB): that event only, never the batch', async () => {
    for (const levels of [10_000, 100_000]) {
      const before = await stored()
      const events = [event(t), event(t)]
      const text = batchText(events, { 0: nested(levels) })
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(INGEST_LIMITS.batchBytes)
      const r = result(await send(t, text, o))
      expect(r).toMatchObject({ accepted: 1, rejected: 1 })
      expect(r.errors[0]).toMatchObject({ index: 0, eventId: events[0]!.event_id, error: 'InvalidEvent' })
      expect(r.errors[0]!.message).toMatch(/^data must not be nested/)
      expect(await stored()).toBe(before + 1)
    }
    // Arrays, and deep values in other fields than data.
    const events = [event(t), event(t)]
    let text = JSON.stringify(batch(t, events))
    text = text.replace(`"player_id":"player-1"`, `"player_id":${'['.repeat(400_000)}${']'.repeat(400_000)}`)
    const r = result(await send(t, text, o))
    expect(r).toMatchObject({ accepted: 1, rejected: 1 })
    expect(r.errors).toEqual([
      {
        index: 0,
        eventId: events[0]!.event_id,
        error: 'InvalidEvent',
        message: `player_id must not be nested more than ${FREE_FORM_NESTING_MAX} levels deep`,
      },
    ])
  })
})

describe('revenue amount', () => {
  const purchase = (amount: unknown, type = 'purchase') =>
    event(t, { event_type: type, data: { amount, currency: 'USD' } as Record<string, unknown> })

  it(`0 and ${INGEST_LIMITS.amountMax.toLocaleString('en')} pass; negative, larger, non-numbers are per-event errors`, async () => {
    const good = [purchase(0), purchase(INGEST_LIMITS.amountMax), purchase(0.01, 'ad_watched')]
    const bad: unknown[] = [
      -0.01,
      INGEST_LIMITS.amountMax + 0.01,
      1e308,
      1e20,
      '5',
      'NaN',
      'Infinity',
      null,
      [1],
      { value: 1 },
      true,
    ]
    const events = [...good, ...bad.map((a) => purchase(a)), purchase(2e6, 'item_purchased')]
    const r = result(await send(t, batch(t, events), o))
    expect(r.accepted).toBe(good.length)
    expect(r.errors.map((e) => e.index)).toEqual(
      Array.from({ length: bad.length + 1 }, (_, i) => good.length + i),
    )
    for (const e of r.errors) {
      expect(e.error).toBe('InvalidEvent')
      expect(e.message).toMatch(/^data\.amount must be a number from 0 to 1,000,000/)
    }
    // JSON numbers beyond double range parse to Infinity: also refused.
    const inf = JSON.stringify(batch(t, [purchase(12345)])).replace('12345', '1e400')
    expect(result(await send(t, inf, o)).errors[0]).toMatchObject({ error: 'InvalidEvent' })
  })

  it('the largest amount is counted exactly in revenue', async () => {
    const g = await createGame(t)
    expect(
      result(await send(t, batch(t, [purchase(INGEST_LIMITS.amountMax)]), { game: g, orgId: t.orgId })),
    ).toMatchObject({ accepted: 1, rejected: 0, errors: [] })
    const res = await t.call('GET', `/api/v1/analytics/games/${g.id}/overview`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().revenue.total).toBe(INGEST_LIMITS.amountMax)
  })
})
