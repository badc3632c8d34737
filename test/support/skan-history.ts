/**
 * History for the SKAN optimizer's tests, sent through the real ingestion: each player installs
 * on the clock's day, does their events and pays on the next day; `windowsOver` then moves the
 * clock three days on, so every first conversion window (days 0-2) is over.
 */
import { expect } from 'vitest'
import type { GameEventInput } from '../../src/contract/gaming.js'
import type { TestApp } from './app.js'
import { accepted, batch, event, send, type SendOpts } from './gaming.js'

export interface HistoryPlayer {
  id: string
  /** Paid on the day after the install (reporting currency, USD). */
  revenue?: number
  /** Event types done on the day after the install. */
  events?: string[]
}

const DAY = 86_400_000
const BATCH = 1000

async function sendAll(t: TestApp, o: SendOpts, events: GameEventInput[]): Promise<void> {
  for (let i = 0; i < events.length; i += BATCH) {
    const r = accepted(await send(t, batch(t, events.slice(i, i + BATCH)), o))
    expect(r.rejected, JSON.stringify(r.errors)).toBe(0)
  }
}

/** Installs today, events and purchases tomorrow; the clock is left on the day after the install. */
export async function sendHistory(t: TestApp, o: SendOpts, players: HistoryPlayer[]): Promise<void> {
  await sendAll(
    t,
    o,
    players.map((p) =>
      event(t, { player_id: p.id, session_id: `${p.id}-0`, event_type: 'app_install', data: {} }),
    ),
  )
  t.clock.advance(DAY)
  const next: GameEventInput[] = []
  for (const p of players) {
    for (const type of p.events ?? [])
      next.push(event(t, { player_id: p.id, session_id: `${p.id}-1`, event_type: type, data: {} }))
    if (p.revenue)
      next.push(
        event(t, {
          player_id: p.id,
          session_id: `${p.id}-1`,
          event_type: 'purchase',
          data: { amount: p.revenue, currency: 'USD' },
        }),
      )
  }
  await sendAll(t, o, next)
}

/** Moves the clock two days on: the windows of players installed the day before are over. */
export function windowsOver(t: TestApp): void {
  t.clock.advance(2 * DAY)
}
