/**
 * What the TUI asks of the daemon: the few client calls its screens make, as an interface.
 * LinkdClient (src/client) implements it as it is; tests pass a fake serving fixed data.
 * A screen gets it through `useTui().client`; adding a call here is adding it to the fake.
 */
import type { PageOf } from '../contract/common.js'
import type { Health } from '../contract/health.js'
import type { ApiKey, ApiKeyWithSecret, CreateKeyBody, KeyActivity, KeyTestResult } from '../contract/keys.js'
import type { AddDomainBody, Domain, Propagation } from '../contract/domains.js'
import type { Game, ListGamesQuery } from '../contract/games.js'
import type {
  BlocklistEntry,
  CreateBlocklistBody,
  DashboardQuery,
  FraudDashboard,
  FraudEvent,
  FraudEventsQuery,
  FraudReview,
  FraudRule,
  UpdateRuleBody,
} from '../contract/fraud.js'
import type { CampaignWithReport, SkanCampaign } from '../contract/skan.js'
import type { OptimizeResult } from '../contract/skan-optimize.js'
import type {
  GdprDeletion,
  GdprDeletionBody,
  Geography,
  Leaderboard,
  LeaderboardQuery,
  Overview,
  OverviewQuery,
  Retention,
  RetentionQuery,
} from '../contract/gaming.js'
import type { RevenueQuery, RevenueReport } from '../contract/gaming-revenue.js'
import type {
  AnalyticsQuery,
  ClicksQuery,
  CreateLinkBody,
  Link,
  LinkAnalytics,
  ListLinksQuery,
  OrganizationClicks,
  QrQuery,
  UpdateLinkBody,
} from '../contract/links.js'
import type {
  DeliveriesPage,
  Delivery,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  Webhook,
} from '../contract/webhooks.js'
import type { PageQuery } from '../contract/common.js'

export interface TuiClient {
  health(): Promise<Health>
  ready(): Promise<Health>
  keys: {
    list(query?: PageQuery): Promise<PageOf<ApiKey>>
    create(body: CreateKeyBody): Promise<ApiKeyWithSecret>
    revoke(id: string): Promise<ApiKey>
    activate(id: string): Promise<ApiKey>
    deactivate(id: string): Promise<ApiKey>
    activity(id: string, query?: { page?: number; limit?: number }): Promise<PageOf<KeyActivity>>
    test(key: string): Promise<KeyTestResult>
  }
  links: {
    list(query?: ListLinksQuery): Promise<PageOf<Link>>
    create(body: CreateLinkBody): Promise<Link>
    update(id: string, body: UpdateLinkBody): Promise<Link>
    delete(id: string): Promise<void>
    /** The QR image (the TUI draws the code itself; asking records its creation). */
    qr(id: string, query?: QrQuery): Promise<unknown>
  }
  analytics: {
    link(id: string, query?: AnalyticsQuery): Promise<LinkAnalytics>
    /** The organization's clicks per UTC day (Home's "clicks today"). */
    clicks(query?: ClicksQuery): Promise<OrganizationClicks>
    gameOverview(gameId: string, query?: OverviewQuery): Promise<Overview>
    gameRevenue(gameId: string, query?: RevenueQuery): Promise<RevenueReport>
    gameRetention(gameId: string, query?: RetentionQuery): Promise<Retention>
    gameGeography(gameId: string, query?: OverviewQuery): Promise<Geography>
    gameLeaderboard(gameId: string, query?: LeaderboardQuery): Promise<Leaderboard>
  }
  domains: {
    list(query?: PageQuery): Promise<PageOf<Domain>>
    add(body: AddDomainBody): Promise<Domain>
    verify(id: string): Promise<Domain>
    checkPropagation(id: string): Promise<Propagation>
    setDefault(id: string): Promise<Domain>
  }
  webhooks: {
    list(query?: ListWebhooksQuery): Promise<PageOf<Webhook>>
    enable(id: string): Promise<Webhook>
    disable(id: string): Promise<Webhook>
    test(id: string): Promise<Delivery>
    deliveries(id: string, query?: ListDeliveriesQuery): Promise<DeliveriesPage>
    retry(id: string, deliveryId: string): Promise<Delivery>
  }
  games: {
    list(query?: ListGamesQuery): Promise<PageOf<Game>>
  }
  fraud: {
    dashboard(gameId: string, query?: DashboardQuery): Promise<FraudDashboard>
    events(gameId: string, query?: FraudEventsQuery): Promise<PageOf<FraudEvent>>
    review(gameId: string, id: string, review: FraudReview): Promise<FraudEvent>
    rules(gameId: string): Promise<FraudRule[]>
    updateRule(gameId: string, id: string, body: UpdateRuleBody): Promise<FraudRule>
    blocklist(gameId: string, query?: PageQuery): Promise<PageOf<BlocklistEntry>>
    block(gameId: string, body: CreateBlocklistBody): Promise<BlocklistEntry>
    unblock(gameId: string, id: string): Promise<void>
  }
  skan: {
    campaigns(gameId: string): Promise<SkanCampaign[]>
    /** The campaign with its report. */
    campaign(id: string): Promise<CampaignWithReport>
    /** The optimizer's proposal; `apply` replaces the campaign's schema with it. */
    optimize(campaignId: string, opts?: { apply?: boolean }): Promise<OptimizeResult>
  }
  gaming: {
    requestDeletion(body: GdprDeletionBody): Promise<GdprDeletion>
    deletion(id: string): Promise<GdprDeletion>
  }
}

/** An error as the status line says it, and how long to wait before trying again. */
export interface Trouble {
  kind: 'unreachable' | 'auth' | 'rate-limited' | 'error'
  message: string
  /** Retry-After of a 429, seconds, when the daemon sent one. */
  retryAfter: number | null
}

interface ErrorShape {
  name?: unknown
  status?: unknown
  retryAfter?: unknown
  message?: unknown
  body?: { details?: { field: string; message: string }[] }
}

/** Classifies what a client call threw (by name: the client need not be loaded to tell). */
export function troubleOf(err: unknown): Trouble {
  const e = (typeof err === 'object' && err !== null ? err : {}) as ErrorShape
  const message = typeof e.message === 'string' ? e.message : String(err)
  const retryAfter = typeof e.retryAfter === 'number' ? e.retryAfter : null
  if (e.name === 'ConnectionError') return { kind: 'unreachable', message, retryAfter: null }
  if (e.name === 'ApiError' && typeof e.status === 'number') {
    if (e.status === 401)
      return { kind: 'auth', message: `key refused (revoked, expired or wrong): ${message}`, retryAfter }
    if (e.status === 403) return { kind: 'auth', message: `not allowed: ${message}`, retryAfter }
    if (e.status === 429) return { kind: 'rate-limited', message: `rate limited: ${message}`, retryAfter }
    return { kind: 'error', message: `${message} (HTTP ${e.status})`, retryAfter }
  }
  return { kind: 'error', message, retryAfter: null }
}

/** The API's validation messages of a failed write, one per line ("field: message"). */
export function validationLines(err: unknown): string[] {
  const e = (typeof err === 'object' && err !== null ? err : {}) as ErrorShape
  const lines = [troubleOf(err).message]
  for (const d of e.body?.details ?? []) lines.push(d.field ? `${d.field}: ${d.message}` : d.message)
  return lines
}

export const BACKOFF_MIN_MS = 1_000
export const BACKOFF_MAX_MS = 30_000

/**
 * The wait before the next try after `failures` failures in a row (1 s, 2 s, 4 s … 30 s), or
 * the daemon's Retry-After when it said one (also capped).
 */
export function retryDelayMs(failures: number, trouble: Trouble): number {
  if (trouble.retryAfter !== null && trouble.retryAfter > 0)
    return Math.min(BACKOFF_MAX_MS, trouble.retryAfter * 1000)
  const exponent = Math.max(0, Math.min(failures - 1, 10))
  return Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** exponent)
}
