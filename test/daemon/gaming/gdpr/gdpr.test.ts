/**
 * GDPR deletion: the request, the job (queued → processing → completed), and a
 * scan of every column of every table afterwards: the player's id is left only in the deletion
 * record. Anonymous daily totals remain; another player's data is untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { GdprDeletion, Overview } from '../../../../src/contract/gaming.js'
import { createTestApp, type TestApp, count, sqlRows } from '../../../support/app.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'

let t: TestApp
let game: GameWithSecrets
const VICTIM = 'gdpr-player-7f3a9c'
const OTHER = 'keeps-player-2b81'

beforeAll(async () => {
  t = await createTestApp()
  // Fraud on, with a rule that flags every event: the victim's fraud events and detector windows
  // (its own, its device's, its share of the IP's) must go too.
  game = await createGame(t, { modules: { fraud: true } })
  const rule = await t.call('POST', `/api/v1/admin/fraud/games/${game.id}/rules`, {
    body: { name: 'watch all', action: 'flag', field: 'risk', operator: 'gte', value: 0 },
  })
  expect(rule.statusCode, rule.body).toBe(201)
  const dataOf = (player: string) => ({
    country: 'DE',
    device_fingerprint: `fp-${player}`,
    campaign: 'spring',
    source: 'adnet',
    medium: 'cpi',
    affiliate: 'aff-1',
  })
  const evs = [VICTIM, OTHER].flatMap((player) => [
    event(t, {
      player_id: player,
      event_type: 'app_install',
      session_id: `s-${player}`,
      data: dataOf(player),
    }),
    event(t, {
      player_id: player,
      event_type: 'purchase',
      session_id: `s-${player}`,
      data: { ...dataOf(player), amount: 4.99, currency: 'USD', note: `bought by ${player}` },
    }),
    event(t, { player_id: player, event_type: 'session_end', session_id: `s-${player}` }),
  ])
  expect(accepted(await send(t, batch(t, evs), { game, orgId: t.orgId }))).toMatchObject({
    accepted: 6,
    flagged: 6,
    duplicates: 0,
    rejected: 0,
    errors: [],
  })
  expect(await count(t, 'game_events')).toBe(6)
  expect(await count(t, 'fraud_events', 'player_id = ?', VICTIM)).toBe(3)
  // The detector windows as the periodic save writes them.
  await t.app.linkd.services.gaming.fraudStateSaver.saveNow()
  expect(await count(t, 'fraud_detector_state', 'entry_key = ?', VICTIM)).toBe(1)
  expect(await count(t, 'fraud_detector_state', 'entry_key = ?', `fp-${VICTIM}`)).toBe(1)
})
afterAll(() => t.close())

/** Every (table, column) holding `needle` anywhere in its text (either engine), sorted. */
async function tablesMentioning(needle: string): Promise<string[]> {
  const hits: string[] = []
  for (const table of await t.db.kysely.introspection.getTables())
    for (const c of table.columns) {
      const [row] = await sqlRows<{ n: number }>(
        t,
        `SELECT COUNT(*) AS n FROM "${table.name}" WHERE CAST("${c.name}" AS TEXT) LIKE ?`,
        `%${needle}%`,
      )
      if (row!.n > 0) hits.push(`${table.name}.${c.name}`)
    }
  return hits.sort()
}

describe('GDPR deletion', () => {
  it('confirmation must be DELETE; unknown game is 404; scopes gdpr:read/write', async () => {
    for (const confirmation of ['delete', 'yes', '']) {
      const res = await t.call('POST', '/api/v1/gaming/gdpr/deletions', {
        body: { gameId: game.id, playerId: VICTIM, reason: 'gdpr_request', confirmation },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ error: 'ValidationError' })
    }
    const unknown = await t.call('POST', '/api/v1/gaming/gdpr/deletions', {
      body: { gameId: 'nope', playerId: VICTIM, reason: 'x', confirmation: 'DELETE' },
    })
    expect(unknown.statusCode).toBe(404)
    const reader = await t.createKey({ permissions: ['gdpr:read'] })
    const forbidden = await t.call('POST', '/api/v1/gaming/gdpr/deletions', {
      key: reader.key,
      body: { gameId: game.id, playerId: VICTIM, reason: 'x', confirmation: 'DELETE' },
    })
    expect(forbidden.statusCode).toBe(403)
  })

  it('queued → completed by the job; no row with the player id is left except the deletion record', async () => {
    expect((await tablesMentioning(VICTIM)).length).toBeGreaterThanOrEqual(5)
    const totalsBefore = await sqlRows(t, 'SELECT * FROM game_daily ORDER BY game_id, day')
    // Sent with X-Idempotency-Key, as a careful client would: its stored response names the player.
    const res = await t.call('POST', '/api/v1/gaming/gdpr/deletions', {
      body: { gameId: game.id, playerId: VICTIM, reason: 'gdpr_request', confirmation: 'DELETE' },
      headers: { 'x-idempotency-key': 'erase-victim-1' },
    })
    expect(res.statusCode).toBe(202)
    const d = res.json<GdprDeletion>()
    // The stored response is sealed (the id is not readable in it) and found by the deletion's id.
    const storedResponses = async () =>
      (await sqlRows(t, 'SELECT COUNT(*) AS n FROM idempotency_records WHERE resource_id = ?', d.id))[0]
    expect(await storedResponses()).toEqual({ n: 1 })
    expect(await tablesMentioning(VICTIM)).not.toContain('idempotency_records.body')
    expect(d).toMatchObject({
      id: expect.stringMatching(/^gdpr_/),
      status: 'queued',
      gameId: game.id,
      playerId: VICTIM,
    })
    expect(await count(t, 'game_events', 'player_id = ?', VICTIM)).toBe(3)

    expect(await t.app.linkd.scheduler.runNow('gdpr-deletions')).toMatchObject({ ran: true, status: 'ok' })
    const done = (await t.call('GET', `/api/v1/gaming/gdpr/deletions/${d.id}`)).json<GdprDeletion>()
    expect(done.status).toBe('completed')
    expect(done.completedAt).not.toBeNull()
    // Run at once by the job: started and completed at the (fixed) test clock's time.
    const now = new Date(t.clock.now()).toISOString()
    expect(done).toMatchObject({ id: d.id, startedAt: now, completedAt: now, expiresAt: d.expiresAt })
    expect(done.purged).toMatchObject({
      game_events: 3,
      game_sessions: 1,
      game_players: 1,
      fraudEvents: 3,
      // Its window, its device's window (emptied: deleted), the shared IP's (rewritten).
      fraudDetectorState: 3,
    })

    expect(await tablesMentioning(VICTIM)).toEqual(['gdpr_deletions.player_id'])
    // Its stored response is gone too: a replay must not hand the player id back.
    expect(await storedResponses()).toEqual({ n: 0 })
    // The other player is untouched; the anonymous daily totals remain.
    expect(await count(t, 'game_events', 'player_id = ?', OTHER)).toBe(3)
    expect(await count(t, 'game_players', 'player_id = ?', OTHER)).toBe(1)
    expect(await sqlRows(t, 'SELECT * FROM game_daily ORDER BY game_id, day')).toEqual(totalsBefore)
    const o = (await t.call('GET', `/api/v1/analytics/games/${game.id}/overview`)).json<Overview>()
    expect(o.dau).toBe(2)
    // Running again changes nothing (idempotent).
    expect(await t.app.linkd.scheduler.runNow('gdpr-deletions')).toEqual({ ran: true, status: 'ok' })
  })

  it('the deletion record is kept 365 days, then purged', async () => {
    const res = await t.call('POST', '/api/v1/gaming/gdpr/deletions', {
      body: { gameId: game.id, playerId: OTHER, reason: 'user_request', confirmation: 'DELETE' },
    })
    const id = res.json<GdprDeletion>().id
    await t.app.linkd.scheduler.runNow('gdpr-deletions')
    t.clock.advance(364 * 86_400_000)
    await t.app.linkd.scheduler.runNow('gdpr-records-purge')
    const kept = await t.call('GET', `/api/v1/gaming/gdpr/deletions/${id}`)
    expect(kept.statusCode).toBe(200)
    expect(kept.json<GdprDeletion>()).toMatchObject({ id, playerId: OTHER, status: 'completed' })
    t.clock.advance(2 * 86_400_000)
    await t.app.linkd.scheduler.runNow('gdpr-records-purge')
    expect((await t.call('GET', `/api/v1/gaming/gdpr/deletions/${id}`)).statusCode).toBe(404)
    expect(await tablesMentioning(OTHER)).toEqual([])
  })

  it('another organization cannot see the request', async () => {
    const res = await t.call('POST', '/api/v1/gaming/gdpr/deletions', {
      body: { gameId: game.id, playerId: 'x', reason: 'x', confirmation: 'DELETE' },
    })
    const other = await t.createOrg('gdpr-other')
    const id = res.json<GdprDeletion>().id
    expect(
      (await t.call('GET', `/api/v1/gaming/gdpr/deletions/${id}`, { key: other.ownerKey })).statusCode,
    ).toBe(404)
  })
})
