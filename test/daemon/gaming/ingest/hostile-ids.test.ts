/**
 * Ids holding control characters: refused one event at a time (a NUL made the whole batch a 500 on
 * PostgreSQL, and a player that the GDPR deletion could not name on SQLite); the rest of the
 * batch is stored, the player with a plain id can be erased, and the fraud detectors' state still
 * saves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { count, createTestApp, type TestApp } from '../../../support/app.js'
import { accepted, batch, createGame, event, send, type SendOpts } from '../../../support/gaming.js'

let t: TestApp
let game: GameWithSecrets
let o: SendOpts
beforeAll(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })
  game = await createGame(t, { modules: { fraud: true } })
  o = { game, orgId: t.orgId }
})
afterAll(() => t.close())

const REFUSED = 'must not contain control, bidirectional-override, zero-width or other invisible characters'

describe('ids with control characters', () => {
  it('player_id, session_id and the data ids are refused per event; the others are stored', async () => {
    const hostile: Array<[Partial<ReturnType<typeof event>>, string]> = [
      [{ player_id: 'nul\u0000player' }, `player_id ${REFUSED}`],
      [{ player_id: 'bell\u0007' }, `player_id ${REFUSED}`],
      [{ player_id: 'esc\u001b[2J' }, `player_id ${REFUSED}`],
      [{ player_id: 'line\nbreak' }, `player_id ${REFUSED}`],
      [{ player_id: 'c1\u0085' }, `player_id ${REFUSED}`],
      [{ player_id: 'rtl\u202Egnp' }, `player_id ${REFUSED}`],
      [{ session_id: 'sess\u0000' }, `session_id ${REFUSED}`],
      [{ data: { device_id: 'dev\u0000' } }, `data.device_id ${REFUSED}`],
      [{ data: { device_fingerprint: 'fp\u0001' } }, `data.device_fingerprint ${REFUSED}`],
      [{ data: { utm_campaign: 'spring\u0000' } }, `data.utm_campaign ${REFUSED}`],
      [{ data: { affiliate: 'aff\u007f' } }, `data.affiliate ${REFUSED}`],
    ]
    const plain = event(t, {
      player_id: 'plain-player',
      data: { device_id: 'dev-1', utm_campaign: 'spring' },
    })
    const events = [plain, ...hostile.map(([over]) => event(t, over))]
    const sent = batch(t, events)
    const r = accepted(await send(t, sent, o))
    expect(r).toMatchObject({ accepted: 1, rejected: hostile.length, duplicates: 0, blocked: 0 })
    expect(r.errors).toEqual(
      hostile.map(([, message], i) => ({
        index: i + 1,
        eventId: events[i + 1]!.event_id,
        error: 'InvalidEvent',
        message,
      })),
    )
    expect(await count(t, 'game_events')).toBe(1)
    expect(await count(t, 'game_players')).toBe(1)

    // The detectors' state of the game saves (it failed every 10 s on PostgreSQL).
    await expect(t.app.linkd.services.gaming.fraudStateSaver.saveNow()).resolves.toBeGreaterThan(0)

    // The stored player can be erased.
    const erase = await t.call('POST', '/api/v1/gaming/gdpr/deletions', {
      body: { gameId: game.id, playerId: 'plain-player', reason: 'gdpr_request', confirmation: 'DELETE' },
    })
    expect(erase.statusCode, erase.body).toBe(202)
    expect(await t.app.linkd.scheduler.runNow('gdpr-deletions')).toMatchObject({ ran: true, status: 'ok' })
    expect(await count(t, 'game_players')).toBe(0)
  })
})

describe('player ids a URL path cannot name', () => {
  it('"." and ".." are refused per event, naming player_id; "..." and ".a" are ids like others', async () => {
    const events = ['.', '..', '...', '.a'].map((player_id) => event(t, { player_id }))
    const r = accepted(await send(t, batch(t, events), o))
    expect(r).toMatchObject({ accepted: 2, rejected: 2 })
    const message = 'player_id cannot be "." or ".." (a URL path cannot name them)'
    expect(r.errors).toEqual([
      { index: 0, eventId: events[0]!.event_id, error: 'InvalidEvent', message },
      { index: 1, eventId: events[1]!.event_id, error: 'InvalidEvent', message },
    ])
    // The players stored can be read back by their profile route.
    for (const id of ['...', '.a']) {
      const profile = await t.call(
        'GET',
        `/api/v1/analytics/games/${game.id}/players/${encodeURIComponent(id)}`,
      )
      expect(profile.statusCode, profile.body).toBe(200)
      expect(profile.json<{ playerId: string }>().playerId).toBe(id)
    }
  })
})
