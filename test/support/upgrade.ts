/**
 * The upgrade fixture: a database written by a release (test/fixtures/upgrade/<tag>/), made by
 * `populate` running in that release's checkout (test/fixtures/upgrade/README.md), and the
 * answers of `READS` it gave then. test/e2e/upgrade.test.ts opens it with the current code,
 * which migrates it, and checks every answer still holds.
 */
import { expect } from 'vitest'
import type { TestApp } from './app.js'
import { createGame, event, batch, send } from './gaming.js'
import { visit, SAFARI_IPHONE, FIREFOX_LINUX } from './redirect.js'

/** What the fixture keeps beside the database: the keys it needs and what the release answered. */
export interface UpgradeFixture {
  release: string
  /** The fake clock's time when the release wrote it (the reads use it again). */
  now: number
  /** The SecretBox master key (hex): encrypted secrets must still open. */
  masterKey: string
  ownerKey: string
  orgId: string
  gameId: string
  /** GET path → the release's JSON body. */
  answers: Record<string, unknown>
}

const ok = async (p: Promise<{ statusCode: number; body: string; json<T>(): T }>, status = 201) => {
  const res = await p
  expect(res.statusCode, res.body).toBe(status)
  return res.json<{ id: string; shortCode?: string }>()
}

/** Writes one of everything a user keeps through the API; returns the reads to check later. */
export async function populate(t: TestApp): Promise<{ gameId: string; reads: string[] }> {
  const link = await ok(
    t.call('POST', '/api/use/links', {
      body: {
        destinationUrl: 'https://example.com/spring?utm_source=newsletter',
        title: 'Spring sale',
        tags: ['sale', 'spring'],
        rules: [{ conditions: [{ type: 'os', value: 'ios' }], destinationUrl: 'https://example.com/ios' }],
      },
    }),
  )
  const secret = await ok(
    t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/vip', password: 'open-sesame', maxClicks: 100 },
    }),
  )
  const smart = await ok(
    t.call('POST', '/api/use/smart-links', {
      body: {
        fallbackUrl: 'https://example.com/game',
        ios: { url: 'https://apps.apple.com/app/id123456789' },
        android: { url: 'https://play.google.com/store/apps/details?id=com.example.game' },
      },
    }),
  )
  const qr = await ok(t.call('POST', '/api/use/qr-codes', { body: { linkId: link.id, title: 'Poster' } }))
  for (const ua of [SAFARI_IPHONE, FIREFOX_LINUX, FIREFOX_LINUX]) await visit(t, link.shortCode!, { ua })
  await visit(t, link.shortCode!, { query: `qr=${qr.id}` })
  await visit(t, smart.shortCode!, { ua: SAFARI_IPHONE })
  const hook = await ok(
    t.call('POST', '/api/webhooks', {
      body: { url: 'https://hooks.example.com/linkd', events: ['link.created'], name: 'CRM' },
    }),
  )
  const domain = await ok(t.call('POST', '/api/domains', { body: { domain: 'go.example.com' } }))
  const key = await t.createKey({ name: 'CI', permissions: ['links:read'] })
  await ok(t.call('POST', '/api/team/invitations', { body: { email: 'ana@example.com', role: 'viewer' } }))

  const game = await createGame(t, { name: 'Space Miner', platform: 'ios' })
  const o = { game, orgId: t.orgId }
  const player = (id: string, extra: Record<string, unknown>) =>
    event(t, { player_id: id, session_id: `s-${id}`, ...extra })
  const res = await send(
    t,
    batch(t, [
      player('p1', { event_type: 'app_install', data: { source: 'ads', campaign: 'launch' } }),
      player('p1', { event_type: 'session_start', data: {} }),
      player('p1', { event_type: 'purchase', data: { amount: 4.99, currency: 'USD', product_id: 'gems' } }),
      player('p2', { event_type: 'app_install', data: { source: 'organic' }, platform: 'android' }),
      player('p2', { event_type: 'level_complete', data: { level: 3 } }),
    ]),
    o,
  )
  expect(res.statusCode, res.body).toBe(202)

  // An analytics read flushes the buffered clicks: the reads below then see their counters.
  await ok(t.call('GET', `/api/use/analytics/links/${link.id}`), 200)
  const range = 'startDate=2026-11-01&endDate=2026-11-30'
  const g = `/api/v1/analytics/games/${game.id}`
  return {
    gameId: game.id,
    reads: [
      `/api/use/links/${link.id}`,
      `/api/use/links/${secret.id}`,
      `/api/use/smart-links/${smart.id}`,
      `/api/use/qr-codes/${qr.id}`,
      `/api/use/analytics/links/${link.id}?startDate=2026-11-01T00:00:00.000Z&endDate=2026-11-30T00:00:00.000Z`,
      `/api/webhooks/${hook.id}`,
      `/api/domains/${domain.id}`,
      `/api/keys/${key.id}`,
      `/api/team/invitations`,
      `/api/v1/admin/games/${game.id}`,
      `${g}/overview?${range}`,
      `${g}/revenue?${range}`,
      `${g}/attribution?${range}`,
      `${g}/players?${range}`,
    ],
  }
}

/** Every read's answer (status 200 expected). */
export async function answers(t: TestApp, key: string, reads: string[]): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {}
  for (const path of reads) {
    const res = await t.call('GET', path, { key })
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200)
    out[path] = res.json()
  }
  return out
}
