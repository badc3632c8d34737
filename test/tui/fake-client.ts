/**
 * A fake of the TUI's client interface serving fixed, in-memory data (the real one is
 * LinkdClient): links (as many as asked, e.g. 100k), keys, domains, webhooks, games, QR codes and health.
 * `failNext` makes the next calls throw what the real client throws; `calls` records requests.
 */
import { ApiError, ConnectionError, type BytesResponse } from '../../src/client/index.js'
import type { PageOf } from '../../src/contract/common.js'
import type { ApiKey, KeyTestResult } from '../../src/contract/keys.js'
import type { Game } from '../../src/contract/games.js'
import type { GdprDeletion } from '../../src/contract/gaming.js'
import type {
  CreateLinkBody,
  LinkAnalytics,
  OrganizationClicks,
  UpdateLinkBody,
} from '../../src/contract/links.js'
import type { Webhook } from '../../src/contract/webhooks.js'
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

export function unreachable(): ConnectionError {
  return new ConnectionError('http://127.0.0.1:1', new Error('connect ECONNREFUSED 127.0.0.1:1'))
}

export class FakeClient implements TuiClient {
  readonly calls: string[] = []
  /** The bodies of link creates and updates, in order, as sent. */
  readonly linkBodies: unknown[] = []
  /** Thrown by the next calls, one each, before they are served. */
  readonly failures: Failure[] = []
  /** Validation errors the next link create/update answers with. */
  linkWriteError: ApiError | null = null
  /** Test deliveries fail (the receiver is down). */
  receiverDown = false

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
    create: (body: { name: string; permissions?: string[]; preset?: string }) =>
      this.serve('keys.create', () => {
        const key = makeKey(`key_${this.state.keys.length}new`, {
          name: body.name,
          permissions: body.permissions ?? [`preset:${body.preset}`],
        })
        this.state.keys.push(key)
        return { ...key, key: 'lk_live_SECRETVALUE1234' }
      }),
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
    revoke: (id: string) => this.serve(`keys.revoke ${id}`, () => this.setKey(id, 'revoked')),
    activate: (id: string) => this.serve(`keys.activate ${id}`, () => this.setKey(id, 'active')),
    deactivate: (id: string) => this.serve(`keys.deactivate ${id}`, () => this.setKey(id, 'inactive')),
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

  private setKey(id: string, status: ApiKey['status']): ApiKey {
    const key = this.state.keys.find((k) => k.id === id)
    if (!key) throw apiError(404, 'API key not found')
    key.status = status
    return key
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
    create: (body: CreateLinkBody) =>
      this.serve('links.create', () => {
        this.linkBodies.push(structuredClone(body))
        if (this.linkWriteError) {
          const e = this.linkWriteError
          this.linkWriteError = null
          throw e
        }
        const link = makeLink(this.state.links.length, {
          destinationUrl: body.destinationUrl,
          title: body.title ?? null,
          shortCode: body.customSlug ?? `n${this.state.links.length}`,
          clicks: 0,
          expiredUrl: body.expiredUrl ?? null,
          maxClicks: body.maxClicks ?? null,
          passwordProtected: body.password !== undefined,
        })
        this.state.links.unshift(link)
        return link
      }),
    update: (id: string, body: UpdateLinkBody) =>
      this.serve(`links.update ${id}`, () => {
        this.linkBodies.push(structuredClone(body))
        if (this.linkWriteError) {
          const e = this.linkWriteError
          this.linkWriteError = null
          throw e
        }
        const link = this.state.links.find((l) => l.id === id)
        if (!link) throw apiError(404, 'Link not found')
        // As the daemon does: the password is write-only, the preview replaced as a whole.
        const { password, og, ...rest } = body
        Object.assign(link, rest)
        if (password !== undefined) link.passwordProtected = password !== null
        if (og !== undefined)
          link.og = og && {
            title: og.title ?? null,
            description: og.description ?? null,
            imageUrl: og.imageUrl ?? null,
          }
        return link
      }),
    delete: (id: string) =>
      this.serve(`links.delete ${id}`, () => {
        this.state.links = this.state.links.filter((l) => l.id !== id)
      }),
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
    }
  }

  domains = {
    list: (q: { page?: number; limit?: number } = {}) =>
      this.serve('domains.list', () => page(this.state.domains, q)),
    add: (body: { domain: string }) => this.serve('domains.add', () => makeDomain(body.domain)),
    verify: (id: string) =>
      this.serve(`domains.verify ${id}`, () => {
        const d = this.state.domains.find((x) => x.id === id)!
        d.verificationStatus = 'failed'
        return d
      }),
    checkPropagation: (id: string) =>
      this.serve(`domains.checkPropagation ${id}`, () => {
        const d = this.state.domains.find((x) => x.id === id)!
        return {
          domain: d.domain,
          propagated: false,
          checkedAt: T0,
          resolvers: ['1.1.1.1', '8.8.8.8'],
          records: d.dnsRecords.map((r) => ({
            ...r,
            resolvers: [
              { resolver: '1.1.1.1', status: 'Verified', found: [r.value], reachable: true },
              { resolver: '8.8.8.8', status: 'Pending', found: [], reachable: false, error: 'ETIMEOUT' },
            ],
          })),
        } as never
      }),
    setDefault: (id: string) =>
      this.serve(`domains.setDefault ${id}`, () => {
        for (const d of this.state.domains) d.isDefault = d.id === id
        return this.state.domains.find((x) => x.id === id)!
      }),
  }

  webhooks = {
    list: (q: { page?: number; limit?: number } = {}) =>
      this.serve('webhooks.list', () => page(this.state.webhooks, q)),
    enable: (id: string) => this.serve(`webhooks.enable ${id}`, () => this.setHook(id, 'active')),
    disable: (id: string) => this.serve(`webhooks.disable ${id}`, () => this.setHook(id, 'disabled')),
    test: (id: string) =>
      this.serve(`webhooks.test ${id}`, () => {
        // As the daemon does: a test delivery in the log, and its result as the webhook's latest attempt.
        const delivery = makeDelivery(`dl_test_${this.calls.length}`, id, {
          test: true,
          durationMs: 77,
          ...(this.receiverDown
            ? { status: 'failed', responseStatusCode: null, error: 'connection refused' }
            : {}),
        })
        this.state.deliveries.set(id, [delivery, ...(this.state.deliveries.get(id) ?? [])])
        const hook = this.state.webhooks.find((w) => w.id === id)!
        hook.failedAttempts = this.receiverDown ? hook.failedAttempts + 1 : 0
        return delivery
      }),
    deliveries: (id: string, q: { page?: number; limit?: number } = {}) =>
      this.serve(`webhooks.deliveries ${id}`, () => {
        const rows = this.state.deliveries.get(id) ?? []
        const failed = rows.filter((d) => d.status === 'failed').length
        return {
          ...page(rows, q),
          totals: { total: rows.length, success: rows.length - failed, failed, pending: 0 },
        }
      }),
    retry: (id: string, deliveryId: string) =>
      this.serve(`webhooks.retry ${id} ${deliveryId}`, () =>
        makeDelivery(deliveryId, id, { status: 'success', durationMs: 55 }),
      ),
  }

  private setHook(id: string, status: Webhook['status']): Webhook {
    const hook = this.state.webhooks.find((w) => w.id === id)!
    hook.status = status
    // Enabling resets the failures in a row, as the daemon does.
    if (status === 'active') Object.assign(hook, { consecutiveFailures: 0, failedAttempts: 0 })
    return hook
  }

  /** GDPR deletions by id; each read moves a deletion one status on (queued → processing → completed). */
  readonly deletions = new Map<string, GdprDeletion>()

  /** A deletion read once more: queued → processing → completed. */
  private progress(d: GdprDeletion): GdprDeletion {
    if (d.status === 'processing')
      Object.assign(d, { status: 'completed', completedAt: T0, purged: { game_events: 12, game_players: 1 } })
    else if (d.status === 'queued') Object.assign(d, { status: 'processing', startedAt: T0 })
    return d
  }

  gaming = {
    requestDeletion: (body: { gameId: string; playerId: string; reason: string; confirmation: string }) =>
      this.serve('gaming.requestDeletion', (): GdprDeletion => {
        if (body.confirmation !== 'DELETE')
          throw apiError(400, 'confirmation must be DELETE', [
            { field: 'confirmation', message: 'must be DELETE' },
          ])
        const deletion: GdprDeletion = {
          id: `gdpr_${this.deletions.size + 1}`,
          gameId: body.gameId,
          playerId: body.playerId,
          reason: body.reason,
          status: 'queued',
          createdAt: T0,
          startedAt: null,
          completedAt: null,
          purged: null,
          expiresAt: '2027-11-20T10:00:00.000Z',
        }
        this.deletions.set(deletion.id, deletion)
        return deletion
      }),
    deletion: (id: string) =>
      this.serve(`gaming.deletion ${id}`, (): GdprDeletion => {
        const d = this.deletions.get(id)
        if (!d) throw apiError(404, 'GDPR deletion not found')
        return this.progress(d)
      }),
    /** Newest first (created in order: the last id first); each read moves a running one on. */
    deletions: (q: { page?: number; limit?: number } = {}) =>
      this.serve('gaming.deletions', (): PageOf<GdprDeletion> =>
        page(
          [...this.deletions.values()].reverse().map((d) => this.progress(d)),
          q,
        ),
      ),
  }

  games = {
    list: (q: { page?: number; limit?: number } = {}) =>
      this.serve('games.list', (): PageOf<Game> => {
        const games = Array.from(
          { length: this.state.games },
          (_, i) =>
            ({
              id: `game-${i + 1}`,
              name: `Game ${i + 1}`,
              status: 'active',
              platform: 'ios',
              reportingCurrency: 'USD',
              // The third game has fraud and SKAN off.
              modules: { analytics: true, fraud: i < 2, skan: i < 2 },
            }) as Game,
        )
        return page(games, q)
      }),
  }
}
