/** The fixed data the fake client of the TUI serves: builders of links, keys, domains, webhooks. */
import type { PageOf } from '../../src/contract/common.js'
import type { Health } from '../../src/contract/health.js'
import type { ApiKey } from '../../src/contract/keys.js'
import type { Domain } from '../../src/contract/domains.js'
import type { AttributionRow } from '../../src/contract/gaming-revenue.js'
import type { Link } from '../../src/contract/links.js'
import type { LinkAnalytics } from '../../src/contract/click-analytics.js'
import type { PlatformShare, SmartLink } from '../../src/contract/smart-links.js'
import type { Delivery, Webhook } from '../../src/contract/webhooks.js'
import { sampleKey } from '../support/cli.js'

export const T0 = '2026-11-20T10:00:00.000Z'

export function makeLink(i: number, extra: Partial<Link> = {}): Link {
  return {
    id: `lnk_${i}`,
    shortUrl: `http://s.test/c${i}`,
    shortCode: `c${i}`,
    destinationUrl: `https://example.com/page/${i}`,
    title: `Link number ${i}`,
    status: 'active',
    clicks: i % 97,
    createdAt: T0,
    updatedAt: T0,
    tags: [],
    metadata: {},
    expiresAt: null,
    customDomainId: null,
    redirectType: 302,
    expiredUrl: null,
    maxClicks: null,
    startsAt: null,
    forwardQuery: true,
    rules: [],
    variants: [],
    passwordProtected: false,
    og: null,
    ...extra,
  }
}

export function makeSmartLink(i: number, extra: Partial<SmartLink> = {}): SmartLink {
  return {
    id: `sml_${i}`,
    shortUrl: `http://s.test/play${i}`,
    shortCode: `play${i}`,
    customDomainId: null,
    title: `Smart link ${i}`,
    tags: [],
    fallbackUrl: `https://game.example/${i}`,
    ios: { url: `https://apps.apple.com/app/id${i}` },
    android: { url: `https://play.google.com/store/apps/details?id=com.example.g${i}` },
    desktop: null,
    appendClickId: true,
    gameId: null,
    variants: [],
    clicks: 10 * i,
    createdAt: T0,
    updatedAt: T0,
    ...extra,
  }
}

export function makeKey(id: string, extra: Partial<ApiKey> = {}): ApiKey {
  return sampleKey({
    id,
    name: `key ${id}`,
    description: null,
    permissions: ['links:read'],
    preview: `lk_•••${id.slice(-4)}`,
    lastUsedAt: null,
    lastUsedIp: null,
    usage: { totalRequests: 1234, requestsToday: 56, requestsThisMonth: 789 },
    ...extra,
  })
}

export function makeDomain(id: string, extra: Partial<Domain> = {}): Domain {
  return {
    id,
    domain: `${id}.example.com`,
    verificationStatus: 'pending',
    sslStatus: null,
    isDefault: false,
    verificationMethod: 'CNAME',
    dnsRecords: [
      { type: 'CNAME', name: `${id}.example.com`, value: 'links.example.net', status: 'Pending' },
      { type: 'TXT', name: `_linkd.${id}.example.com`, value: `linkd-verify=tok_${id}`, status: 'Pending' },
    ],
    verificationFile: null,
    warnings: [],
    rootRedirectUrl: null,
    rootRedirectFlagged: null,
    createdAt: T0,
    updatedAt: T0,
    verifiedAt: null,
    lastCheckedAt: null,
    sslExpiresAt: null,
    ...extra,
  }
}

export function makeWebhook(id: string, extra: Partial<Webhook> = {}): Webhook {
  return {
    id,
    name: `hook ${id}`,
    url: `https://hooks.example.com/${id}`,
    events: ['link.created'],
    retryPolicy: 'exponential',
    maxRetries: 3,
    timeoutSeconds: 10,
    headers: {},
    status: 'active',
    consecutiveFailures: 0,
    failedAttempts: 0,
    createdAt: T0,
    updatedAt: T0,
    ...extra,
  } as Webhook
}

export function makeDelivery(id: string, webhookId: string, extra: Partial<Delivery> = {}): Delivery {
  return {
    id,
    webhookId,
    event: 'link.created',
    status: 'success',
    attempts: 1,
    maxAttempts: 4,
    responseStatusCode: 200,
    durationMs: 42,
    error: null,
    test: false,
    createdAt: T0,
    sentAt: T0,
    nextAttemptAt: null,
    completedAt: T0,
    ...extra,
  } as Delivery
}

export function page<T>(rows: T[], q: { page?: number; limit?: number } = {}): PageOf<T> {
  const limit = q.limit ?? 20
  const p = q.page ?? 1
  const data = rows.slice((p - 1) * limit, p * limit)
  return { data, total: rows.length, page: p, perPage: limit, hasMore: p * limit < rows.length }
}

export interface FakeState {
  health: Health
  links: Link[]
  /** The smart links; null: a daemon without them (their route answers 404). */
  smartLinks: SmartLink[] | null
  /** A link's `platforms` in its analytics (smart links). */
  platforms: Map<string, PlatformShare[]>
  /** A link's `installRevenue` in its analytics: installs it brought and their revenue per game. */
  installRevenue: Map<string, NonNullable<LinkAnalytics['installRevenue']>>
  /** Attribution by link of every game: the rows of `groupBy=link`. */
  linkAttribution: AttributionRow[]
  /** Clicks per hour of each link's analytics (the sparkline). */
  series: Map<string, number[]>
  /** The organization's human clicks per UTC day, oldest first: the last is today. */
  clicksPerDay: number[]
  keys: ApiKey[]
  domains: Domain[]
  webhooks: Webhook[]
  deliveries: Map<string, Delivery[]>
  /** Games `Game 1` … `Game N` (game-1 …), the third with every module off. */
  games: number
  /** Games made later, by name, newest first: listed above the others, every module on. */
  newerGames: string[]
  /** GET /api/use's features.gaming: false, a daemon with gaming turned off. */
  gaming: boolean
}

export function fakeState(linkCount = 30): FakeState {
  const links: Link[] = []
  for (let i = 0; i < linkCount; i++) links.push(makeLink(i))
  return {
    health: {
      status: 'ok',
      version: '9.8.7',
      uptimeSeconds: 3725,
      checks: { database: 'ok', migrations: 'ok' },
      jobs: [
        { name: 'webhook-sender', lastRunAt: T0, lastStatus: 'ok', lastError: null, lastDurationMs: 3 },
        {
          name: 'acme-renewal',
          lastRunAt: T0,
          lastStatus: 'error',
          lastError: 'dns timeout',
          lastDurationMs: 9,
        },
      ],
      clicks: { buffered: 0, dropped: 0, writeError: null },
    },
    links,
    smartLinks: [makeSmartLink(1), makeSmartLink(2, { ios: null, title: null })],
    platforms: new Map(),
    installRevenue: new Map(),
    linkAttribution: [],
    series: new Map(),
    clicksPerDay: [40, 17],
    keys: [makeKey('key_aaaa'), makeKey('key_bbbb', { status: 'inactive', name: 'ci bot' })],
    domains: [
      makeDomain('go', {
        verificationStatus: 'verified',
        sslStatus: 'active',
        sslExpiresAt: '2027-02-01T00:00:00.000Z',
        isDefault: true,
      }),
      makeDomain('new'),
    ],
    webhooks: [makeWebhook('wh_ok'), makeWebhook('wh_bad', { consecutiveFailures: 4, name: 'billing hook' })],
    deliveries: new Map([
      [
        'wh_bad',
        [
          makeDelivery('dl_1', 'wh_bad', {
            status: 'failed',
            responseStatusCode: 500,
            durationMs: 1234,
            error: 'HTTP 500',
          }),
        ],
      ],
    ]),
    games: 3,
    newerGames: [],
    gaming: true,
  }
}
