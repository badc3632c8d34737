/**
 * The fraud dashboard: every figure computed from known seeded fraud events and
 * daily counters, the false-positive rate after reviews, the null cases, the range rules of the
 * analytics (whole UTC days, default 30 days, at most 366).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../../../src/contract/common.js'
import type { FraudDashboard, FraudEvent } from '../../../../src/contract/fraud.js'
import { utcDayNumber } from '../../../../daemon/clock.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { fraudEvent, gameIdOf, seedFraud } from '../../../support/fraud.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const at = (iso: string) => Date.parse(iso)
const day = (iso: string) => utcDayNumber(at(iso))
const base = (slug: string) => `/api/v1/admin/fraud/games/${slug}`

async function dashboard(slug: string, query = ''): Promise<FraudDashboard> {
  const res = await t.call('GET', `${base(slug)}/dashboard${query}`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<FraudDashboard>()
}
const noThreats = {
  click_injection: 0,
  bot_detection: 0,
  device_farm: 0,
  rate_limit: 0,
  emulator: 0,
  pattern_anomaly: 0,
  revenue_anomaly: 0,
}

describe('GET …/dashboard', () => {
  it('computes each figure from the fraud events and daily counters of the range', async () => {
    const slug = (await createGame(t, { modules: { fraud: true } })).id
    const gameId = await gameIdOf(t, slug)
    const ev = (iso: string, over: Parameters<typeof fraudEvent>[2]) =>
      fraudEvent(t, gameId, { receivedAt: at(iso), ...over })
    // Outside the range 2026-11-01 … 2026-11-10: the last ms before and the first ms after.
    await seedFraud(t, gameId, [ev('2026-10-31T23:59:59.999Z', { status: 'blocked' })], {
      analyzed: 900,
      blocked: 1,
      latencyNs: 9_000_000_000,
    })
    await seedFraud(t, gameId, [ev('2026-11-11T00:00:00.000Z', { threatType: 'rate_limit' })], {
      analyzed: 700,
      flagged: 1,
      latencyNs: 7_000_000_000,
    })
    // Inside: the first ms of startDate and the last ms of endDate count.
    const flags = [
      ev('2026-11-03T10:00:00.000Z', { threatType: 'device_farm', id: 'fev_farm1' }),
      ev('2026-11-03T10:00:01.000Z', { threatType: 'device_farm', id: 'fev_farm2' }),
      ev('2026-11-03T10:00:02.000Z', { threatType: 'device_farm', id: 'fev_farm3' }),
      ev('2026-11-04T09:00:00.000Z', { threatType: null, id: 'fev_custom' }),
    ]
    await seedFraud(
      t,
      gameId,
      [
        ev('2026-11-01T00:00:00.000Z', { threatType: 'bot_detection', status: 'blocked' }),
        ev('2026-11-02T00:00:00.000Z', { threatType: 'bot_detection', status: 'blocked' }),
        ev('2026-11-05T00:00:00.000Z', { threatType: 'emulator', status: 'blocked', id: 'fev_emu' }),
        ...flags,
      ],
      { day: day('2026-11-01'), analyzed: 1000, blocked: 5, flagged: 8, logged: 3, latencyNs: 30_000_000 },
    )
    await seedFraud(t, gameId, [ev('2026-11-10T23:59:59.999Z', { threatType: 'revenue_anomaly' })], {
      day: day('2026-11-10'),
      analyzed: 1000,
      blocked: 3,
      flagged: 2,
      logged: 1,
      latencyNs: 50_000_000,
    })
    await t.call('POST', `${base(slug)}/blocklist`, { body: { type: 'ip', value: '198.51.100.1' } })
    await t.call('POST', `${base(slug)}/blocklist`, { body: { type: 'ip', value: '198.51.100.2' } })
    await t.call('POST', `${base(slug)}/blocklist`, { body: { type: 'device', value: 'fp-farm' } })

    const range = '?startDate=2026-11-01&endDate=2026-11-10'
    const expected: FraudDashboard = {
      range: { startDate: '2026-11-01', endDate: '2026-11-10' },
      eventsAnalyzed: 2000,
      threatsDetected: 8,
      blocked: 8,
      flagged: 10,
      logged: 4,
      fraudRate: 0.004,
      falsePositiveRate: null,
      blockedIps: 2,
      blockedDevices: 1,
      // (30 + 50) ms over 2000 events = 40 µs.
      avgDetectionLatencyUs: 40,
      byThreatType: { ...noThreats, bot_detection: 2, device_farm: 3, emulator: 1, revenue_anomaly: 1 },
    }
    expect(await dashboard(slug, range)).toEqual(expected)

    // Reviews: of the flagged events reviewed, the share marked legitimate. A blocked event's
    // review does not count; pending ones are not reviewed.
    const review = async (id: string, value: string) =>
      expect(
        (await t.call('PATCH', `${base(slug)}/events/${id}`, { body: { review: value } })).statusCode,
      ).toBe(200)
    await review('fev_farm1', 'legitimate')
    await review('fev_emu', 'legitimate')
    expect((await dashboard(slug, range)).falsePositiveRate).toBe(1)
    await review('fev_farm2', 'fraud')
    await review('fev_custom', 'legitimate')
    expect((await dashboard(slug, range)).falsePositiveRate).toBe(0.666667)
    await review('fev_farm3', 'fraud')
    expect((await dashboard(slug, range)).falsePositiveRate).toBe(0.5)
    await review('fev_custom', 'pending')
    expect((await dashboard(slug, range)).falsePositiveRate).toBe(0.333333)

    // One day wider on each side takes in the rows outside.
    const wide = await dashboard(slug, '?startDate=2026-10-31&endDate=2026-11-11')
    expect(wide).toMatchObject({ eventsAnalyzed: 3600, threatsDetected: 10, blocked: 9, flagged: 11 })
    expect(wide.byThreatType).toMatchObject({ bot_detection: 3, rate_limit: 1 })
    // Blocklist entries count while live: past their 30 days they are not blocked any more.
    t.clock.advance(31 * 86_400_000)
    expect(await dashboard(slug, range)).toMatchObject({ blockedIps: 0, blockedDevices: 0 })
  })

  it('with nothing analyzed: fraudRate 0, falsePositiveRate and latency null; default the last 30 days', async () => {
    const slug = (await createGame(t, { modules: { fraud: true } })).id
    t.clock.set('2026-11-21T10:00:00.000Z')
    expect(await dashboard(slug)).toEqual({
      range: { startDate: '2026-10-23', endDate: '2026-11-21' },
      eventsAnalyzed: 0,
      threatsDetected: 0,
      blocked: 0,
      flagged: 0,
      logged: 0,
      fraudRate: 0,
      falsePositiveRate: null,
      blockedIps: 0,
      blockedDevices: 0,
      avgDetectionLatencyUs: null,
      byThreatType: noThreats,
    })
    // A fraud event with nothing analyzed (counters of another day) still leaves the rate at 0.
    const gameId = await gameIdOf(t, slug)
    await seedFraud(t, gameId, [fraudEvent(t, gameId)])
    expect(await dashboard(slug)).toMatchObject({ threatsDetected: 1, eventsAnalyzed: 0, fraudRate: 0 })
  })

  it('at most 366 days; a bad or reversed date is a 400 naming the field', async () => {
    const slug = (await createGame(t, { modules: { fraud: true } })).id
    expect((await dashboard(slug, '?startDate=2025-11-21&endDate=2026-11-21')).range).toEqual({
      startDate: '2025-11-21',
      endDate: '2026-11-21',
    })
    for (const [query, field] of [
      ['?startDate=2025-11-20&endDate=2026-11-21', 'startDate'],
      ['?startDate=2026-11-10&endDate=2026-11-09', 'startDate'],
      ['?endDate=2026-02-30', 'endDate'],
    ] as const) {
      const res = await t.call('GET', `${base(slug)}/dashboard${query}`)
      expect(res.statusCode, query).toBe(400)
      expect(res.json<{ details: { field: string }[] }>().details.map((d) => d.field)).toContain(field)
    }
  })

  it('another organization gets 404; fraud:read is enough', async () => {
    const slug = (await createGame(t, { modules: { fraud: true } })).id
    const other = await t.createOrg('other-fraud-dashboard')
    expect((await t.call('GET', `${base(slug)}/dashboard`, { key: other.ownerKey })).statusCode).toBe(404)
    const reader = await t.createKey({ permissions: ['fraud:read'] })
    expect((await t.call('GET', `${base(slug)}/dashboard`, { key: reader.key })).statusCode).toBe(200)
  })
})

describe('fed by the ingestion pipeline', () => {
  it('a blocked click-injection install shows up in the events list and the dashboard', async () => {
    const g = await createGame(t, { modules: { fraud: true } })
    t.clock.set('2026-11-21T10:00:00.000Z')
    const now = t.clock.now()
    const install = (player: string, clickAgoMs: number) =>
      event(t, {
        event_type: 'app_install',
        player_id: player,
        data: { click_time: new Date(now - clickAgoMs).toISOString() },
      })
    const injected = install('inj-1', 3_000)
    const res = await send(t, batch(t, [injected, install('fair-1', 600_000)]), {
      game: g,
      orgId: t.orgId,
    })
    expect(accepted(res)).toMatchObject({ accepted: 1, blocked: 1 })
    const listed = (await t.call('GET', `${base(g.id)}/events`)).json<PageOf<FraudEvent>>()
    expect(listed.data).toEqual([
      expect.objectContaining({
        eventId: injected.event_id,
        playerId: 'inj-1',
        threatType: 'click_injection',
        status: 'blocked',
        triggeredRules: ['Block Click Injection'],
        receivedAt: '2026-11-21T10:00:00.000Z',
      }),
    ])
    const d = await dashboard(g.id)
    expect(d).toMatchObject({
      eventsAnalyzed: 2,
      threatsDetected: 1,
      blocked: 1,
      fraudRate: 0.5,
      byThreatType: { click_injection: 1 },
    })
    expect(d.avgDetectionLatencyUs).toBeGreaterThan(0)
  })
})
