/**
 * A fake of the TUI's client interface serving fixed, in-memory data (the real one is
 * LinkdClient): links (as many as asked, e.g. 100k), keys, domains, webhooks, games, QR codes and health,
 * for the tests of rendering. `failures` makes the next calls throw what the real client throws;
 * `calls` records requests. Writes are not served: what the TUI sends and how it takes the
 * daemon's answers is tested against a real linkd (tui-daemon.ts).
 */
import { ApiError, ConnectionError, type BytesResponse } from '../../src/client/index.js'
import type { PageOf } from '../../src/contract/common.js'
import type { KeyTestResult } from '../../src/contract/keys.js'
import type { Game } from '../../src/contract/games.js'
import type { GdprDeletion } from '../../src/contract/gaming.js'
import type { LinkAnalytics, OrganizationClicks } from '../../src/contract/click-analytics.js'
import type { TuiClient } from '../../src/tui/api.js'
import {
  fakeState,
  makeDelivery,
  makeDomain,
  makeKey,
  makeLink,
  makeSmartLink,
  page,
  T0,
  type FakeState,
} from './fake-data.js'
import { FakeFraud, FakeSkan } from './fake-fraud-skan.js'
import { FakeTeam } from './fake-team.js'
import { FakeQr } from './fake-qr.js'

export { fakeState, makeDelivery, makeDomain, makeKey, makeLink, makeSmartLink, type FakeState }

export type Failure = ApiError | ConnectionError

export function apiError(
  status: number,
  message: string,
  details?: { field: string; message: string }[],
  retryAfter: number | null = null,
): ApiError {
  return new ApiError(
    status,
    {
      error: 'Error',
      message,
      statusCode: status,
      timestamp: T0,
      path: '/x',
      ...(details ? { details } : {}),
    },
    retryAfter,
  )
}

/** A write of the client: the fake does not serve it (see the file's comment). */
export const notServed = (name: string) => (): never => {
  throw new Error(`${name} is not served by the fake client: test it against linkd (tui-daemon.ts)`)
}

export function unreachable(): ConnectionError {
  return new ConnectionError('http://127.0.0.1:1', new Error('connect ECONNREFUSED 127.0.0.1:1'))
}

export class FakeClient implements TuiClient {
  readonly calls: string[] = []
  /** Thrown by the next calls, one each, before they are served. */
  readonly failures: Failure[] = []

  constructor(readonly state: FakeState = fakeState()) {}

  private async serve<T>(name: string, make: () => T): Promise<T> {
    this.calls.push(name)
    const failure = this.failures.shift()
    if (failure) throw failure
    // A copy, as over HTTP: the screens never hold the fake's own objects.
    return structuredClone(make())
  }

  /** The fraud and SKAN data (fake-fraud-skan.ts), and their calls. */
  readonly fraudData = new FakeFraud((name, make) => this.serve(name, make))
  readonly skanData = new FakeSkan((name, make) => this.serve(name, make))
  fraud = this.fraudData.fraud
  skan = this.skanData.skan
  /** Members and invitations (fake-team.ts), and their calls. */
  readonly teamData = new FakeTeam((name, make) => this.serve(name, make))
  team = this.teamData.team
  /** QR codes (fake-qr.ts): the codes, the bodies sent, the next write's error. */
  readonly qrData = new FakeQr((name, make) => this.serve(name, make))
  qrCodes = this.qrData.qrCodes

  health = () => this.serve('health', () => this.state.health)
  ready = () => this.serve('ready', () => this.state.health)
  /** GET /api/use: only what the TUI reads of it (features) is meaningful. */
  discovery = () =>
    this.serve('discovery', () => ({
      name: 'linkd',
      version: 'v1',
      serverVersion: this.state.health.version,
      status: this.state.health.status,
      documentation: { openapi: '', ui: '', postman: '' },
      authentication: [],
      features: { gaming: this.state.gaming },
      routes: [],
    }))

  keys = {
    list: (q: { page?: number; limit?: number } = {}) =>
      this.serve('keys.list', () => page(this.state.keys, q)),
    create: notServed('keys.create'),
    activity: (id: string, q: { page?: number; limit?: number } = {}) =>
      this.serve(`keys.activity ${id}`, () =>
        page(
          [
            {
              id: 'act_1',
              timestamp: T0,
              endpoint: '/api/use/links',
              method: 'GET',
              statusCode: 200,
              responseTimeMs: 3.5,
              ip: '203.0.113.9',
              userAgent: 'linkctl/0.1.0',
              referrer: null,
              country: 'FR',
              error: null,
            },
            {
              id: 'act_2',
              timestamp: T0,
              endpoint: '/api/keys',
              method: 'POST',
              statusCode: 403,
              responseTimeMs: 1.2,
              ip: '203.0.113.9',
              userAgent: 'curl/8',
              referrer: null,
              country: null,
              error: 'Forbidden',
            },
          ],
          q,
        ),
      ),
    revoke: notServed('keys.revoke'),
    activate: notServed('keys.activate'),
    deactivate: notServed('keys.deactivate'),
    test: (key: string): Promise<KeyTestResult> =>
      this.serve('keys.test', () => ({
        valid: true,
        key: {
          id: 'key_aaaa',
          name: 'fake',
          status: 'active' as const,
          permissions: [key],
          preview: 'lk_•••aaaa',
          expiresAt: null,
          organization: { id: 'org_1', name: 'Org', plan: 'pro' },
        },
      })),
  }

  links = {
    qr: (id: string): Promise<BytesResponse> =>
      this.serve(`links.qr ${id}`, () => ({
        status: 200,
        contentType: 'image/svg+xml',
        body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
        headers: {},
      })),
    list: (q: { page?: number; limit?: number; search?: string; sortBy?: string; sortOrder?: string } = {}) =>
      this.serve(`links.list page=${q.page ?? 1}${q.search ? ` search=${q.search}` : ''}`, () => {
        let rows = this.state.links
        if (q.search)
          rows = rows.filter((l) => l.shortCode.includes(q.search!) || (l.title ?? '').includes(q.search!))
        if (q.sortBy === 'clicks') rows = [...rows].sort((a, b) => b.clicks - a.clicks)
        return page(rows, q)
      }),
    create: notServed('links.create'),
    update: notServed('links.update'),
    delete: notServed('links.delete'),
  }

  analytics = {
    ...this.gameAnalytics(),
    clicks: () =>
      this.serve('analytics.clicks', (): OrganizationClicks => {
        const days = this.state.clicksPerDay.map((clicks, i, all) => ({
          date: new Date(Date.parse(T0) - (all.length - 1 - i) * 86_400_000).toISOString().slice(0, 10),
          clicks,
          bots: 0,
          qrScans: 0,
        }))
        const totalClicks = days.reduce((n, d) => n + d.clicks, 0)
        return { range: { startDate: T0, endDate: T0 }, totalClicks, bots: 0, qrScans: 0, days }
      }),
    link: (id: string) =>
      this.serve(`analytics.link ${id}`, (): LinkAnalytics => {
        const series = this.state.series.get(id) ?? [0, 1, 2, 3]
        const total = series.reduce((a, b) => a + b, 0)
        return {
          linkId: id,
          range: { startDate: T0, endDate: T0 },
          interval: 'hour',
          totalClicks: total,
          uniqueVisitors: total,
          qrScans: 0,
          botDetection: { count: 0, percentage: 0 },
          blockedVisits: 0,
          responseTime: 1,
          bounceRate: 0,
          geography: [
            { country: 'FR', region: null, clicks: 7, percentage: 70 },
            { country: 'DE', region: null, clicks: 3, percentage: 30 },
          ],
          devices: [{ device: 'mobile', clicks: 6, percentage: 60 }],
          browsers: [],
          os: [],
          referrers: [{ domain: 'news.ycombinator.com', clicks: 5 }],
          timeSeries: series.map((clicks, i) => ({
            timestamp: new Date(Date.parse(T0) + i * 3_600_000).toISOString(),
            clicks,
            bots: 0,
          })),
          utmSources: [],
          utmMediums: [],
          utmCampaigns: [],
          ...(this.state.platforms.has(id) && { platforms: this.state.platforms.get(id), installs: 4 }),
          ...(this.state.installRevenue.has(id) && { installRevenue: this.state.installRevenue.get(id) }),
        }
      }),
  }

  smartLinks = {
    list: (q: { page?: number; limit?: number } = {}) =>
      this.serve('smartLinks.list', () => {
        if (this.state.smartLinks === null) throw apiError(404, 'Route GET:/api/use/smart-links not found')
        return page(this.state.smartLinks, q)
      }),
  }

  /** The game analytics every game answers with (ranges are recorded in `calls`). */
  gameFigures = {
    overview: {
      dau: 321,
      mau: 4567,
      revenue: { total: 1234.5, iap: 1000, ad: 200.5, subscription: 34 },
      arpu: 0.27,
      arppu: 12.34,
      avgSessionSeconds: 412,
      retention: { d1: 41.5, d7: 18.25, d30: 6 },
      range: { startDate: '2026-10-25', endDate: '2026-11-23' },
    },
    dailyRevenue: [10, 0, 30, 60],
  }

  private range(q: { startDate?: string; endDate?: string } = {}): string {
    return q.startDate ? ` from ${q.startDate.slice(0, 10)}` : ''
  }

  private gameAnalytics() {
    return {
      gameOverview: (id: string, q: { startDate?: string } = {}) =>
        this.serve(`analytics.gameOverview ${id}${this.range(q)}`, () => this.gameFigures.overview),
      gameRevenue: (id: string, q: { startDate?: string } = {}) =>
        this.serve(`analytics.gameRevenue ${id}${this.range(q)}`, () => {
          const rows = this.gameFigures.dailyRevenue.map((total, i) => ({
            group: `2026-11-${20 + i}`,
            total,
            iap: total,
            ad: 0,
            subscription: 0,
            transactions: total / 10,
            payingUsers: total / 10,
            arppu: 10,
          }))
          return { data: rows, totals: rows[0]!, currency: 'USD', range: { startDate: '', endDate: '' } }
        }),
      gameRetention: (id: string) =>
        this.serve(`analytics.gameRetention ${id}`, () => {
          const cell = (percentage: number, band: 'green' | 'yellow' | 'amber' | 'red' | 'none') => ({
            retained: Math.round(percentage),
            percentage,
            band,
          })
          return {
            data: [
              {
                cohort: '2026-11-20',
                size: 100,
                days: {
                  d0: cell(100, 'green'),
                  d1: cell(42, 'yellow'),
                  d3: cell(20, 'amber'),
                  d7: null,
                  d14: null,
                  d30: null,
                },
              },
              {
                cohort: '2026-11-21',
                size: 80,
                days: {
                  d0: cell(100, 'green'),
                  d1: cell(10, 'red'),
                  d3: null,
                  d7: null,
                  d14: null,
                  d30: null,
                },
              },
            ],
            range: { startDate: '', endDate: '' },
          }
        }),
      gameGeography: (id: string) =>
        this.serve(`analytics.gameGeography ${id}`, () => ({
          data: [
            { country: 'BR', players: 120, sessions: 400, revenue: 700, revenuePerPlayer: 5.83 },
            { country: null, players: 3, sessions: 5, revenue: 0, revenuePerPlayer: 0 },
          ],
          range: { startDate: '', endDate: '' },
        })),
      gameAttribution: (id: string, q: { groupBy?: string } = {}) =>
        this.serve(`analytics.gameAttribution ${id} ${q.groupBy ?? 'source'}`, () => {
          const rows = this.state.linkAttribution
          const sum = (k: 'installs' | 'conversions' | 'revenue' | 'cost' | 'commission') =>
            rows.reduce((n, r) => n + r[k], 0)
          return {
            data: rows,
            totals: {
              installs: sum('installs'),
              conversions: sum('conversions'),
              revenue: sum('revenue'),
              cost: sum('cost'),
              commission: sum('commission'),
              avgCpa: null,
              avgRoas: null,
            },
            currency: 'USD',
            range: { startDate: '', endDate: '' },
          }
        }),
      gameLeaderboard: (id: string) =>
        this.serve(`analytics.gameLeaderboard ${id}`, () => ({
          data: [
            { rank: 1, playerId: 'whale_1', revenue: 499.99 },
            { rank: 2, playerId: 'dolphin_7', revenue: 49.5 },
          ],
          range: { startDate: '', endDate: '' },
        })),
      gameEvents: (id: string) =>
        this.serve(`analytics.gameEvents ${id}`, () => ({
          data: [
            { eventType: 'level_start', custom: false, count: 900, uniquePlayers: 120, percentage: 60 },
            { eventType: 'boss_fight', custom: true, count: 400, uniquePlayers: null, percentage: 26.67 },
            { eventType: 'purchase', custom: false, count: 200, uniquePlayers: 40, percentage: 13.33 },
          ],
          totals: { count: 1500 },
          range: { startDate: '', endDate: '' },
        })),
      gameFunnel: notServed('analytics.gameFunnel'),
    }
  }

  domains = {
    list: (q: { page?: number; limit?: number } = {}) =>
      this.serve('domains.list', () => page(this.state.domains, q)),
    add: notServed('domains.add'),
    verify: notServed('domains.verify'),
    checkPropagation: notServed('domains.checkPropagation'),
    setDefault: notServed('domains.setDefault'),
  }

  webhooks = {
    list: (q: { page?: number; limit?: number } = {}) =>
      this.serve('webhooks.list', () => page(this.state.webhooks, q)),
    enable: notServed('webhooks.enable'),
    disable: notServed('webhooks.disable'),
    test: notServed('webhooks.test'),
    deliveries: (id: string, q: { page?: number; limit?: number } = {}) =>
      this.serve(`webhooks.deliveries ${id}`, () => {
        const rows = this.state.deliveries.get(id) ?? []
        const failed = rows.filter((d) => d.status === 'failed').length
        return {
          ...page(rows, q),
          totals: { total: rows.length, success: rows.length - failed, failed, pending: 0 },
        }
      }),
    retry: notServed('webhooks.retry'),
  }

  /** GDPR deletions by id, listed newest first (the last set first). */
  readonly deletions = new Map<string, GdprDeletion>()

  gaming = {
    requestDeletion: notServed('gaming.requestDeletion'),
    deletion: (id: string) =>
      this.serve(`gaming.deletion ${id}`, (): GdprDeletion => {
        const d = this.deletions.get(id)
        if (!d) throw apiError(404, 'GDPR deletion not found')
        return d
      }),
    deletions: (q: { page?: number; limit?: number } = {}) =>
      this.serve('gaming.deletions', (): PageOf<GdprDeletion> =>
        page([...this.deletions.values()].reverse(), q),
      ),
  }

  /** The games, newest first: the named ones, then Game 1 … N (the third with every module off). */
  private gameList(): Game[] {
    const game = (name: string, on: boolean) =>
      ({
        id: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        name,
        status: 'active',
        platform: 'ios',
        reportingCurrency: 'USD',
        modules: { analytics: on, fraud: on, skan: on },
      }) as Game
    return [
      ...this.state.newerGames.map((name) => game(name, true)),
      ...Array.from({ length: this.state.games }, (_, i) => game(`Game ${i + 1}`, i < 2)),
    ]
  }

  games = {
    list: (q: { page?: number; limit?: number } = {}) =>
      this.serve('games.list', (): PageOf<Game> => page(this.gameList(), q)),
    get: (id: string) =>
      this.serve('games.get', (): Game => {
        const game = this.gameList().find((g) => g.id === id)
        if (!game) throw apiError(404, 'Game not found')
        return game
      }),
  }
}
