/**
 * Fraud detection in the ingestion: every event of a fraud-enabled game goes
 * through the detectors and the game's rules in the request; Block rejects it in the 202 body,
 * Flag stores it marked, Log stores it as is; each leaves a fraud event (Log's with status
 * logged, listed only with that filter and no threat), written in the batch's transaction. Crafted traffic: a click-injection install at 3 s against a normal one
 * at 10 min, an emulator, a device farm of 50 players on one IP, a 20σ purchase.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FraudEventsTable } from '../../../../daemon/db/schema.js'
import type { FraudRule } from '../../../../src/contract/fraud.js'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { createTestApp, type TestApp, count, sqlRows } from '../../../support/app.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'
import { gameIdOf } from '../../../support/fraud.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })
})
afterAll(() => t.close())

type FraudRow = FraudEventsTable

const internalId = (g: GameWithSecrets) => gameIdOf(t, g.id)
const fraudEvents = async (g: GameWithSecrets) =>
  (await sqlRows(
    t,
    'SELECT * FROM fraud_events WHERE game_id = ? ORDER BY received_at, id',
    await internalId(g),
  )) as FraudRow[]
const daily = async (g: GameWithSecrets) =>
  (
    await sqlRows(
      t,
      'SELECT SUM(analyzed) AS analyzed, SUM(blocked) AS blocked, SUM(flagged) AS flagged, SUM(logged) AS logged, SUM(latency_ns) AS latency FROM fraud_daily WHERE game_id = ?',
      await internalId(g),
    )
  )[0] as {
    analyzed: number | null
    blocked: number
    flagged: number
    logged: number
    latency: number
  }

const rules = async (g: GameWithSecrets) =>
  (await t.call('GET', `/api/v1/admin/fraud/games/${g.id}/rules`)).json<{ data: FraudRule[] }>().data
async function setRule(g: GameWithSecrets, name: string, body: Record<string, unknown>) {
  const rule = (await rules(g)).find((r) => r.name === name)!
  const res = await t.call('PATCH', `/api/v1/admin/fraud/games/${g.id}/rules/${rule.id}`, { body })
  expect(res.statusCode, res.body).toBe(200)
}
async function addRule(g: GameWithSecrets, body: Record<string, unknown>) {
  const res = await t.call('POST', `/api/v1/admin/fraud/games/${g.id}/rules`, { body })
  expect(res.statusCode, res.body).toBe(201)
}
const fraudGame = () => createGame(t, { modules: { fraud: true } })
const o = (g: GameWithSecrets, ip = '198.51.100.20') => ({ game: g, orgId: t.orgId, ip })
const iso = (ms: number) => new Date(ms).toISOString()

describe('click injection (template "Block Click Injection", on by default)', () => {
  it('blocks an install 3 s after its click, keeps one 10 min after; the fraud event says why', async () => {
    const g = await fraudGame()
    const now = t.clock.now()
    const injected = event(t, {
      event_type: 'app_install',
      player_id: 'inj-1',
      data: { click_time: iso(now - 3_000) },
    })
    const normal = event(t, {
      event_type: 'app_install',
      player_id: 'org-1',
      data: { click_time: iso(now - 10 * 60_000) },
    })
    const r = accepted(await send(t, batch(t, [injected, normal]), o(g)))
    expect(r).toMatchObject({ accepted: 1, blocked: 1, flagged: 0, rejected: 0 })
    expect(r.errors).toEqual([
      { index: 0, eventId: injected.event_id, error: 'Blocked', message: 'blocked: Block Click Injection' },
    ])
    expect(await count(t, 'game_events', 'player_id = ?', 'inj-1')).toBe(0)
    expect(await count(t, 'game_events', 'player_id = ?', 'org-1')).toBe(1)

    const [f, ...more] = await fraudEvents(g)
    expect(more).toEqual([])
    expect(f).toMatchObject({
      player_id: 'inj-1',
      event_id: injected.event_id,
      event_type: 'app_install',
      threat_type: 'click_injection',
      status: 'blocked',
      ip: '198.51.100.20',
      review: 'pending',
      received_at: now,
    })
    expect(f!.id).toMatch(/^fev_/)
    expect(f!.risk_score).toBeGreaterThan(0.95)
    expect(JSON.parse(f!.triggered_rules)).toEqual(['Block Click Injection'])
    expect(JSON.parse(f!.reasons).click_injection[0]).toContain('3 s after the click')
    const d = await daily(g)
    expect(d).toMatchObject({ analyzed: 2, blocked: 1, flagged: 0, logged: 0 })
    expect(d.latency).toBeGreaterThan(0)
  })
})

describe('emulators (template "Block Emulators", off by default)', () => {
  const emulated = () =>
    event(t, {
      player_id: 'emu-1',
      data: { device_model: 'Android SDK built for x86', device_hardware: 'ranchu' },
    })

  it('passes while the template is off, blocks once it is enabled', async () => {
    const g = await fraudGame()
    expect(accepted(await send(t, batch(t, [emulated()]), o(g)))).toMatchObject({ accepted: 1, blocked: 0 })
    expect(await fraudEvents(g)).toEqual([])
    await setRule(g, 'Block Emulators', { enabled: true })
    const r = accepted(await send(t, batch(t, [emulated()]), o(g)))
    expect(r).toMatchObject({ accepted: 0, blocked: 1 })
    expect((await fraudEvents(g)).map((f) => [f.threat_type, f.status, f.risk_score])).toEqual([
      ['emulator', 'blocked', 1],
    ])
  })
})

describe('device farms (template "Flag Device Farms", on by default)', () => {
  it('50 players on one IP within the hour: the later ones are flagged, stored and marked', async () => {
    const g = await fraudGame()
    const events = Array.from({ length: 50 }, (_, i) => event(t, { player_id: `farm-${i}` }))
    const r = accepted(await send(t, batch(t, events), o(g, '203.0.113.50')))
    expect(r.blocked).toBe(0)
    expect(r.flagged).toBeGreaterThan(0)
    expect(r.accepted).toBe(50)
    const flagged = await fraudEvents(g)
    expect(flagged.length).toBe(r.flagged)
    expect(new Set(flagged.map((f) => f.status))).toEqual(new Set(['detected']))
    expect(new Set(flagged.map((f) => f.threat_type))).toEqual(new Set(['device_farm']))
    // The first players of the IP look like a household; the farm shows as it grows.
    expect(flagged.map((f) => f.player_id)).not.toContain('farm-0')
    expect(flagged.map((f) => f.player_id)).toContain('farm-49')
    expect(await count(t, 'game_events', "player_id = 'farm-49' AND verdict = 'flag'")).toBe(1)
    const last = flagged.find((f) => f.player_id === 'farm-49')!
    expect(JSON.parse(last.reasons).device_farm[0]).toContain('50 players on this IP')
    // Fifty players on fifty IPs are no farm.
    const h = await fraudGame()
    for (let i = 0; i < 50; i++)
      accepted(await send(t, batch(t, [event(t, { player_id: `home-${i}` })]), o(h, `198.18.0.${i + 1}`)))
    expect(await fraudEvents(h)).toEqual([])
    expect((await daily(h)).analyzed).toBe(50)
  })
})

describe('revenue anomalies (template "Flag Revenue Anomalies", off by default)', () => {
  it('flags a purchase 20σ above the game’s mean once enabled; ordinary purchases pass', async () => {
    const g = await fraudGame()
    await setRule(g, 'Flag Revenue Anomalies', { enabled: true })
    // The buyers share the test's address: not a device farm here.
    await setRule(g, 'Flag Device Farms', { enabled: false })
    const purchase = (player: string, amount: number) =>
      event(t, {
        event_type: 'purchase',
        player_id: player,
        data: { amount, currency: 'USD', product_id: 'gems' },
      })
    // 40 purchases between 0.99 and 9.99: mean ≈ 5.5, σ ≈ 2.6.
    const ordinary = Array.from({ length: 40 }, (_, i) => purchase(`buyer-${i}`, 0.99 + (i % 10)))
    const first = accepted(await send(t, batch(t, ordinary), o(g)))
    expect(first).toMatchObject({ accepted: 40, flagged: 0 })
    const whale = purchase('whale-1', 5.5 + 20 * 2.9)
    const r = accepted(await send(t, batch(t, [whale, purchase('buyer-41', 4.99)]), o(g)))
    expect(r).toMatchObject({ accepted: 2, flagged: 1, blocked: 0 })
    const [f] = await fraudEvents(g)
    expect(f).toMatchObject({ player_id: 'whale-1', threat_type: 'revenue_anomaly', status: 'detected' })
    expect(JSON.parse(f!.triggered_rules)).toEqual(['Flag Revenue Anomalies'])
  })
})

describe('the rules decide', () => {
  it('a log rule leaves a logged record; a flag rule with a cooldown fires once per player within it', async () => {
    const g = await fraudGame()
    await addRule(g, { name: 'log level 7', action: 'log', field: 'data.level', operator: 'eq', value: 7 })
    await addRule(g, {
      name: 'flag level 9',
      action: 'flag',
      field: 'data.level',
      operator: 'eq',
      value: 9,
      cooldownMinutes: 10,
    })
    const at = (player: string, level: number) => event(t, { player_id: player, data: { level } })
    const r = accepted(await send(t, batch(t, [at('a', 7), at('a', 9), at('a', 9), at('b', 9)]), o(g)))
    expect(r).toMatchObject({ accepted: 4, flagged: 2, blocked: 0 })
    expect(await daily(g)).toMatchObject({ analyzed: 4, logged: 1, flagged: 2 })
    const found = (await fraudEvents(g)).sort(
      (x, y) => x.player_id.localeCompare(y.player_id) || y.status.localeCompare(x.status),
    )
    expect(found.map((f) => [f.player_id, f.status, f.threat_type])).toEqual([
      ['a', 'logged', null],
      ['a', 'detected', null],
      ['b', 'detected', null],
    ])
    expect(JSON.parse(found[1]!.triggered_rules)).toEqual(['flag level 9'])
    t.clock.advance(9 * 60_000)
    expect(accepted(await send(t, batch(t, [at('a', 9)]), o(g))).flagged).toBe(0)
    t.clock.advance(2 * 60_000)
    expect(accepted(await send(t, batch(t, [at('a', 9)]), o(g))).flagged).toBe(1)
  })

  it('block beats flag: the fraud event lists every triggered rule, higher priority first', async () => {
    const g = await fraudGame()
    await addRule(g, {
      name: 'flag DE',
      action: 'flag',
      field: 'country',
      operator: 'eq',
      value: 'DE',
      priority: 900,
    })
    await addRule(g, {
      name: 'block cheat build',
      action: 'block',
      field: 'data.build',
      operator: 'contains',
      value: 'cheat',
      priority: 50,
    })
    const e = event(t, { player_id: 'c1', data: { country: 'DE', build: '1.2-cheat' } })
    const r = accepted(await send(t, batch(t, [e]), o(g)))
    expect(r).toMatchObject({ accepted: 0, blocked: 1 })
    expect(r.errors[0]!.message).toBe('blocked: flag DE; block cheat build')
    const [f] = await fraudEvents(g)
    expect(f!.status).toBe('blocked')
    expect(JSON.parse(f!.triggered_rules)).toEqual(['flag DE', 'block cheat build'])
  })

  it('a game with fraud off is not analyzed at all', async () => {
    const g = await createGame(t)
    const e = event(t, {
      event_type: 'app_install',
      player_id: 'off-1',
      data: { click_time: iso(t.clock.now() - 1_000) },
    })
    expect(accepted(await send(t, batch(t, [e]), o(g)))).toMatchObject({ accepted: 1, blocked: 0 })
    expect((await daily(g)).analyzed).toBeNull()
  })

  it('a repeated batch_id is answered from the first answer: nothing analyzed or recorded twice', async () => {
    const g = await fraudGame()
    const b = batch(t, [
      event(t, {
        event_type: 'app_install',
        player_id: 'r1',
        data: { click_time: iso(t.clock.now() - 2_000) },
      }),
    ])
    const first = accepted(await send(t, b, o(g)))
    const again = accepted(await send(t, b, o(g)))
    expect(again).toEqual(first)
    expect(await fraudEvents(g)).toHaveLength(1)
    expect((await daily(g)).analyzed).toBe(1)
  })
})

describe('the Log action: a record per event, not a threat', () => {
  it('logged records are listed with status=logged only; the events are stored; the dashboard counts no threat', async () => {
    const g = await fraudGame()
    const url = `/api/v1/admin/fraud/games/${g.id}`
    const dashboard = async () => (await t.call('GET', `${url}/dashboard`)).json<Record<string, unknown>>()
    const before = await dashboard()
    await addRule(g, { name: 'log whales', action: 'log', field: 'data.level', operator: 'gte', value: 50 })
    const at = (player: string, level: number) => event(t, { player_id: player, data: { level } })
    const sent = [at('w1', 50), at('w2', 80), at('small', 3)]
    const r = accepted(await send(t, batch(t, sent), o(g)))
    expect(r).toMatchObject({ accepted: 3, flagged: 0, blocked: 0 })
    expect(await count(t, 'game_events', 'game_id = ?', await internalId(g))).toBe(3)

    const list = async (query: string) => {
      const res = await t.call('GET', `${url}/events${query}`)
      expect(res.statusCode, res.body).toBe(200)
      return res.json<{ data: Array<Record<string, unknown>>; total: number }>()
    }
    const logged = await list('?status=logged')
    expect(logged.total).toBe(2)
    // One batch: one receivedAt; sorted by player here.
    const rows = logged.data.map((e) => [e.playerId, e.eventId, e.status, e.threatType, e.triggeredRules])
    expect(rows.sort((x, y) => String(x[0]).localeCompare(String(y[0])))).toEqual([
      ['w1', sent[0]!.event_id, 'logged', null, ['log whales']],
      ['w2', sent[1]!.event_id, 'logged', null, ['log whales']],
    ])
    // Without the filter the list shows the threats (blocked and flagged) only.
    expect((await list('')).total).toBe(0)

    const after = await dashboard()
    expect(after).toMatchObject({
      eventsAnalyzed: 3,
      threatsDetected: before.threatsDetected,
      blocked: 0,
      flagged: 0,
      logged: 2,
      fraudRate: 0,
      byThreatType: before.byThreatType,
    })
  })

  it("a GDPR purge takes a player's logged records out of the logged counter", async () => {
    const g = await fraudGame()
    await addRule(g, {
      name: 'log all',
      action: 'log',
      field: 'event_type',
      operator: 'eq',
      value: 'level_start',
    })
    const r = accepted(
      await send(t, batch(t, [event(t, { player_id: 'gone' }), event(t, { player_id: 'kept' })]), o(g)),
    )
    expect(r.accepted).toBe(2)
    expect(await daily(g)).toMatchObject({ logged: 2 })
    const del = await t.call('POST', '/api/v1/gaming/gdpr/deletions', {
      body: { gameId: g.id, playerId: 'gone', reason: 'gdpr_request', confirmation: 'DELETE' },
    })
    expect(del.statusCode, del.body).toBe(202)
    expect(await t.app.linkd.scheduler.runNow('gdpr-deletions')).toMatchObject({ ran: true, status: 'ok' })
    expect((await fraudEvents(g)).map((f) => [f.player_id, f.status])).toEqual([['kept', 'logged']])
    expect(await daily(g)).toMatchObject({ analyzed: 2, logged: 1 })
  })
})
