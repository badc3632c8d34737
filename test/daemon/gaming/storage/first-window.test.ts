/**
 * The SKAN optimizer's history read: events sent through the real ingestion,
 * then storage's firstWindowHistory gives each player's revenue and event types within days
 * 0-2 after the install day, for the players whose window is over.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { GameEventInput } from '../../../../src/contract/gaming.js'
import { EVENT_TYPE_BY_BIT } from '../../../../daemon/modules/gaming/storage/types.js'
import type { FirstWindow } from '../../../../daemon/modules/gaming/storage/players-store.js'
import type { TestApp } from '../../../support/app.js'
import { gameIdOf } from '../../../support/fraud.js'
import { accepted, batch, event, ingestionApp, send, type SendOpts } from '../../../support/gaming.js'
import { sqlRows } from '../../../support/app.js'

const DAY = 86_400_000
const D0 = Date.parse('2026-11-02T10:00:00.000Z')
const day0 = Math.floor(D0 / DAY)

let t: TestApp
let game: GameWithSecrets
let o: SendOpts

/** Sends the events of one player on one day (the clock set to that day). */
async function on(dayOffset: number, player: string, events: Array<Partial<GameEventInput>>) {
  t.clock.set(D0 + dayOffset * DAY)
  const body = batch(
    t,
    events.map((e) => event(t, { player_id: player, session_id: `${player}-${dayOffset}`, ...e })),
  )
  expect(accepted(await send(t, body, o)).accepted).toBe(events.length)
}
const purchase = (amount: number, currency = 'USD'): Partial<GameEventInput> => ({
  event_type: 'purchase',
  data: { amount, currency, product_id: 'gems' },
})

const names = (mask: number) => EVENT_TYPE_BY_BIT.filter((_, bit) => Math.floor(mask / 2 ** bit) % 2 === 1)

async function read(sinceDay?: number): Promise<FirstWindow[]> {
  const gameKey = await gameIdOf(t, game.id)
  const out: FirstWindow[] = []
  for await (const page of t.app.linkd.services.gaming.storage.firstWindowHistory(gameKey, sinceDay))
    out.push(...page)
  return out
}

beforeAll(async () => {
  ;({ t, game, o } = await ingestionApp())
  // alice: installs on day 0, pays 2.99 on day 1 and 10 on day 3 (outside the window).
  await on(0, 'alice', [{ event_type: 'app_install' }, { event_type: 'tutorial_complete' }])
  await on(1, 'alice', [purchase(2.99)])
  await on(2, 'alice', [{ event_type: 'level_complete' }, purchase(0.5)])
  await on(3, 'alice', [purchase(10), { event_type: 'battle_won' }])
  // bob: installs on day 0, no revenue, a custom event on day 2.
  await on(0, 'bob', [{ event_type: 'app_install' }])
  await on(2, 'bob', [{ event_type: 'boss_defeated' }])
  // carol: installs on day 1 and pays once.
  await on(1, 'carol', [{ event_type: 'app_open' }, purchase(1.25)])
  // dave: installs on day 4, his window is not over on day 5.
  await on(4, 'dave', [purchase(99)])
  t.clock.set(D0 + 5 * DAY)
}, 60_000)
afterAll(() => t.close())

describe('first conversion window history', () => {
  it('revenue and event types of days 0-2 after install, players whose window is over', async () => {
    const got = await read()
    expect(got.map((w) => [w.installDay - day0, w.revenueMicros, names(w.eventTypes)])).toEqual([
      [0, 3_490_000, ['app_install', 'level_complete', 'tutorial_complete', 'purchase']],
      [0, 0, ['app_install', 'custom']],
      [1, 1_250_000, ['app_open', 'purchase']],
    ])
  })

  it('since a day: only the players installed from that day on', async () => {
    expect((await read(day0 + 1)).map((w) => w.revenueMicros)).toEqual([1_250_000])
  })

  it("a day later dave's window is over too", async () => {
    t.clock.set(D0 + 7 * DAY)
    expect((await read()).map((w) => w.revenueMicros)).toEqual([3_490_000, 0, 1_250_000, 99_000_000])
    t.clock.set(D0 + 5 * DAY)
  })

  it('a player whose install day was compacted away (later days kept) is left out', async () => {
    // What compaction leaves when its cutoff falls inside alice's window: days before it deleted.
    await sqlRows(
      t,
      'DELETE FROM game_player_days WHERE game_id = ? AND player_id = ? AND day = ?',
      await gameIdOf(t, game.id),
      'alice',
      day0,
    )
    expect((await read()).map((w) => w.revenueMicros)).toEqual([0, 1_250_000])
  })
})
