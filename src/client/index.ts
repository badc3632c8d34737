import type { ErrorBody, PageOf, PageQuery } from '../contract/common.js'
import type {
  ApiKey,
  ApiKeyWithSecret,
  CreateKeyBody,
  KeyActivity,
  KeyTestResult,
  ListKeysQuery,
  UpdateKeyBody,
} from '../contract/keys.js'
import type { Discovery, Health } from '../contract/health.js'
import type {
  AttributionQuery,
  AttributionReport,
  PlayerProfile,
  PlayerQuery,
  PlayersPage,
  PlayersQuery,
  RevenueQuery,
  RevenueReport,
  SegmentsReport,
} from '../contract/gaming-revenue.js'
import type {
  AddDomainBody,
  Domain,
  DomainStats,
  ListDomainsQuery,
  Propagation,
  SslDetails,
  UpdateDomainBody,
} from '../contract/domains.js'
import type {
  CreateGameBody,
  Game,
  GameWithSecrets,
  ListGamesQuery,
  UpdateGameBody,
} from '../contract/games.js'
import type {
  BlocklistEntry,
  CreateBlocklistBody,
  CreateRuleBody,
  DashboardQuery,
  FraudDashboard,
  FraudEvent,
  FraudEventsQuery,
  FraudReview,
  FraudRule,
  UpdateRuleBody,
} from '../contract/fraud.js'
import type {
  CampaignWithReport,
  CreateCampaignBody,
  PostbackAnswer,
  SkanCampaign,
  SkanPostback,
  UpdateCampaignBody,
} from '../contract/skan.js'
import type {
  GdprDeletion,
  GdprDeletionBody,
  IngestResult,
  Overview,
  OverviewQuery,
  Events,
  ExportQuery,
  Geography,
  Leaderboard,
  LeaderboardQuery,
  Retention,
  RetentionQuery,
} from '../contract/gaming.js'
import type {
  AnalyticsQuery,
  BulkCreateBody,
  BulkCreateResult,
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
  BulkWebhookBody,
  CreateWebhookBody,
  DeliveriesPage,
  Delivery,
  GenerateSignatureResult,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  UpdateWebhookBody,
  ValidateUrlResult,
  VerifySignatureResult,
  Webhook,
  WebhookAnalytics,
  WebhookTemplate,
  WebhookWithSecret,
} from '../contract/webhooks.js'
import type { WebhookEvent } from '../contract/limits.js'
import type { OptimizeResult as SkanOptimizeResult } from '../contract/skan-optimize.js'

/** Test and retry wait for the attempt, which may take the webhook's whole timeout (up to 60 s). */
const ATTEMPT_TIMEOUT_MS = 90_000

export interface ClientOptions {
  baseUrl: string
  apiKey?: string | undefined
  /** Per-request timeout, ms. */
  timeoutMs?: number
  userAgent?: string
}

/** A binary (or non-JSON) response body, e.g. a QR code image. */
export interface BytesResponse {
  status: number
  contentType: string
  body: Buffer
  headers: Record<string, string | string[] | undefined>
}

export interface RateLimitHeaders {
  limit: number | null
  remaining: number | null
  reset: number | null
}

export interface ApiResponse<T> {
  status: number
  body: T
  headers: Record<string, string | string[] | undefined>
  rateLimit: RateLimitHeaders
}

/** A non-2xx answer from the daemon, carrying its error body (ErrorBody). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly retryAfter: number | null,
  ) {
    super(body.message)
    this.name = 'ApiError'
  }
}

/** The daemon could not be reached at all. */
export class ConnectionError extends Error {
  constructor(
    readonly baseUrl: string,
    cause: unknown,
  ) {
    super(`cannot reach linkd at ${baseUrl}: ${reason(cause)}`)
    this.name = 'ConnectionError'
  }
}

type Query = Record<string, string | number | boolean | undefined>
export interface RequestOptions {
  query?: Query | undefined
  body?: unknown
  /** Bytes sent as they are (signed or compressed bodies); set the content type in `headers`. */
  rawBody?: Buffer | string
  headers?: Record<string, string>
  idempotencyKey?: string
  /** This request's timeout, ms (default the client's). */
  timeoutMs?: number
}

/** What went wrong, from fetch's error ("fetch failed" carries the socket error as its cause). */
function reason(err: unknown): string {
  if (err instanceof Error && err.name === 'TimeoutError') return 'no answer in time'
  const inner = err instanceof Error && err.cause instanceof Error ? err.cause : err
  return inner instanceof Error ? inner.message : String(inner)
}

/** JSON.parse, or undefined when the text is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

function num(v: string | string[] | undefined): number | null {
  const s = Array.isArray(v) ? v[0] : v
  if (s === undefined) return null
  const n = Number(s)
  return Number.isFinite(n) ? n : null
}

/** Status and headers of an answer (header names in lower case). */
interface Answer {
  statusCode: number
  headers: Record<string, string>
}

/** Typed client of the linkd HTTP API, used by linkctl, the TUI and the tests. */
export class LinkdClient {
  readonly baseUrl: string
  private readonly apiKey: string | undefined
  private readonly timeoutMs: number
  private readonly userAgent: string

  constructor(opts: ClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '')
    this.apiKey = opts.apiKey
    this.timeoutMs = opts.timeoutMs ?? 30_000
    this.userAgent = opts.userAgent ?? 'linkctl'
  }

  /**
   * Sends one request and returns the raw answer with its body as bytes; a non-2xx answer
   * becomes ApiError (with the error body when the daemon sent one), no answer ConnectionError.
   */
  private async send(
    method: string,
    path: string,
    opts: RequestOptions,
    accept: string,
  ): Promise<{ res: Answer; body: Buffer }> {
    const { res, answer, url } = await this.fetchAnswer(method, path, opts, accept)
    let bytes: Buffer
    try {
      bytes = Buffer.from(await answer.arrayBuffer())
    } catch (err) {
      throw new ConnectionError(this.baseUrl, err)
    }
    if (res.statusCode >= 400) this.fail(res, bytes, url)
    return { res, body: bytes }
  }

  /** The answer's head; its body is still to read. */
  private async fetchAnswer(
    method: string,
    path: string,
    opts: RequestOptions,
    accept: string,
  ): Promise<{ res: Answer; answer: Response; url: URL }> {
    const url = new URL(this.baseUrl + (path.startsWith('/') ? path : `/${path}`))
    for (const [k, v] of Object.entries(opts.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v))
    const headers: Record<string, string> = { 'user-agent': this.userAgent, accept }
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`
    if (opts.idempotencyKey) headers['x-idempotency-key'] = opts.idempotencyKey
    let body: string | Buffer | undefined
    if (opts.rawBody !== undefined) body = opts.rawBody
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body)
      headers['content-type'] = 'application/json'
    }
    Object.assign(headers, opts.headers)
    try {
      // Node's own fetch: loading the undici package costs a CLI command ~100 ms of start-up.
      const answer = await fetch(url, {
        method: method.toUpperCase(),
        headers,
        ...(body !== undefined ? { body } : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(opts.timeoutMs ?? this.timeoutMs),
      })
      return { res: { statusCode: answer.status, headers: Object.fromEntries(answer.headers) }, answer, url }
    } catch (err) {
      throw new ConnectionError(this.baseUrl, err)
    }
  }

  /** A non-2xx answer as ApiError, with the daemon's error body when it sent one. */
  private fail(res: Answer, bytes: Buffer, url: URL): never {
    const parsed = parseJson(bytes.toString('utf8'))
    const errBody: ErrorBody =
      parsed && typeof parsed === 'object' && 'error' in parsed
        ? (parsed as ErrorBody)
        : {
            error: 'HttpError',
            message: `HTTP ${res.statusCode}`,
            statusCode: res.statusCode,
            timestamp: new Date().toISOString(),
            path: url.pathname,
          }
    throw new ApiError(res.statusCode, errBody, num(res.headers['retry-after']))
  }

  /**
   * Like `bytes`, but the 2xx body is streamed as it arrives (exports of up to a million rows):
   * constant memory whatever the size. A non-2xx answer throws ApiError before any chunk.
   */
  async stream(
    path: string,
    opts: RequestOptions = {},
  ): Promise<{ headers: Answer['headers']; body: AsyncIterable<Uint8Array> }> {
    const { res, answer, url } = await this.fetchAnswer('GET', path, opts, '*/*')
    if (res.statusCode >= 400) {
      let bytes: Buffer
      try {
        bytes = Buffer.from(await answer.arrayBuffer())
      } catch (err) {
        throw new ConnectionError(this.baseUrl, err)
      }
      this.fail(res, bytes, url)
    }
    const reader = answer.body
    const baseUrl = this.baseUrl
    async function* chunks(): AsyncGenerator<Uint8Array> {
      if (!reader) return
      try {
        for await (const chunk of reader) yield chunk
      } catch (err) {
        throw new ConnectionError(baseUrl, err)
      }
    }
    return { headers: res.headers, body: chunks() }
  }

  /** Any endpoint; throws ApiError on non-2xx. */
  async call<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const { res, body } = await this.send(method, path, opts, 'application/json')
    const text = body.toString('utf8')
    const rateLimit = {
      limit: num(res.headers['x-ratelimit-limit']),
      remaining: num(res.headers['x-ratelimit-remaining']),
      reset: num(res.headers['x-ratelimit-reset']),
    }
    const parsed = text.length > 0 ? (parseJson(text) ?? text) : undefined
    return { status: res.statusCode, body: parsed as T, headers: res.headers, rateLimit }
  }

  /** Like `call`, but the 2xx body is returned as bytes with its content type (images, files). */
  async bytes(method: string, path: string, opts: RequestOptions = {}): Promise<BytesResponse> {
    const { res, body } = await this.send(method, path, opts, '*/*')
    const ct = res.headers['content-type']
    const contentType = (Array.isArray(ct) ? ct[0] : ct) ?? 'application/octet-stream'
    return { status: res.statusCode, contentType, body, headers: res.headers }
  }

  private async data<T>(method: string, path: string, opts?: RequestOptions): Promise<T> {
    return (await this.call<T>(method, path, opts)).body
  }

  // health and discovery
  health = () => this.data<Health>('GET', '/health')
  ready = () => this.data<Health>('GET', '/health/ready')
  discovery = () => this.data<Discovery>('GET', '/api/use')

  // API keys
  keys = {
    create: (body: CreateKeyBody, idempotencyKey?: string) =>
      this.data<ApiKeyWithSecret>('POST', '/api/keys', {
        body,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      }),
    list: (query: ListKeysQuery = {}) => this.data<PageOf<ApiKey>>('GET', '/api/keys', { query }),
    get: (id: string) => this.data<ApiKey>('GET', `/api/keys/${encodeURIComponent(id)}`),
    update: (id: string, body: UpdateKeyBody) =>
      this.data<ApiKey>('PATCH', `/api/keys/${encodeURIComponent(id)}`, { body }),
    delete: async (id: string) => {
      await this.call('DELETE', `/api/keys/${encodeURIComponent(id)}`)
    },
    regenerate: (id: string) =>
      this.data<ApiKeyWithSecret>('POST', `/api/keys/${encodeURIComponent(id)}/regenerate`),
    revoke: (id: string) => this.data<ApiKey>('POST', `/api/keys/${encodeURIComponent(id)}/revoke`),
    activate: (id: string) => this.data<ApiKey>('POST', `/api/keys/${encodeURIComponent(id)}/activate`),
    deactivate: (id: string) => this.data<ApiKey>('POST', `/api/keys/${encodeURIComponent(id)}/deactivate`),
    activity: (id: string, query: { page?: number; limit?: number } = {}) =>
      this.data<PageOf<KeyActivity>>('GET', `/api/keys/${encodeURIComponent(id)}/activity`, { query }),
    test: (key: string) => this.data<KeyTestResult>('POST', '/api/keys/test', { body: { key } }),
  }

  // short links (public API)
  links = {
    create: (body: CreateLinkBody, idempotencyKey?: string) =>
      this.data<Link>('POST', '/api/use/links', {
        body,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      }),
    list: (query: ListLinksQuery = {}) => this.data<PageOf<Link>>('GET', '/api/use/links', { query }),
    get: (id: string) => this.data<Link>('GET', `/api/use/links/${encodeURIComponent(id)}`),
    update: (id: string, body: UpdateLinkBody) =>
      this.data<Link>('PATCH', `/api/use/links/${encodeURIComponent(id)}`, { body }),
    delete: async (id: string) => {
      await this.call('DELETE', `/api/use/links/${encodeURIComponent(id)}`)
    },
    /** The whole response: `headers['idempotent-replayed']` tells a replayed chunk. */
    bulk: (body: BulkCreateBody, idempotencyKey?: string) =>
      this.call<BulkCreateResult>('POST', '/api/use/links/bulk', {
        body,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      }),
    /** The QR code image: SVG text or PNG bytes, with its content type. */
    qr: (id: string, query: QrQuery = {}) =>
      this.bytes('GET', `/api/use/links/${encodeURIComponent(id)}/qr`, { query }),
  }

  // webhooks
  webhooks = {
    create: (body: CreateWebhookBody) => this.data<WebhookWithSecret>('POST', '/api/webhooks', { body }),
    list: (query: ListWebhooksQuery = {}) => this.data<PageOf<Webhook>>('GET', '/api/webhooks', { query }),
    get: (id: string) => this.data<Webhook>('GET', `/api/webhooks/${encodeURIComponent(id)}`),
    update: (id: string, body: UpdateWebhookBody) =>
      this.data<Webhook>('PATCH', `/api/webhooks/${encodeURIComponent(id)}`, { body }),
    delete: async (id: string) => {
      await this.call('DELETE', `/api/webhooks/${encodeURIComponent(id)}`)
    },
    enable: (id: string) => this.data<Webhook>('POST', `/api/webhooks/${encodeURIComponent(id)}/enable`),
    disable: (id: string) => this.data<Webhook>('POST', `/api/webhooks/${encodeURIComponent(id)}/disable`),
    suspend: (id: string) => this.data<Webhook>('POST', `/api/webhooks/${encodeURIComponent(id)}/suspend`),
    rotateSecret: (id: string) =>
      this.data<WebhookWithSecret>('POST', `/api/webhooks/${encodeURIComponent(id)}/rotate-secret`),
    bulk: (body: BulkWebhookBody) => this.data<{ updated: number }>('POST', '/api/webhooks/bulk', { body }),
    test: (id: string, event?: WebhookEvent) =>
      this.data<Delivery>('POST', `/api/webhooks/${encodeURIComponent(id)}/test`, {
        body: event ? { event } : {},
        timeoutMs: ATTEMPT_TIMEOUT_MS,
      }),
    deliveries: (id: string, query: ListDeliveriesQuery = {}) =>
      this.data<DeliveriesPage>('GET', `/api/webhooks/${encodeURIComponent(id)}/deliveries`, { query }),
    retry: (id: string, deliveryId: string) =>
      this.data<Delivery>(
        'POST',
        `/api/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/retry`,
        { timeoutMs: ATTEMPT_TIMEOUT_MS },
      ),
    analytics: (id: string) =>
      this.data<WebhookAnalytics>('GET', `/api/webhooks/${encodeURIComponent(id)}/analytics`),
    templates: () => this.data<{ data: WebhookTemplate[] }>('GET', '/api/webhooks/templates'),
    validateUrl: (url: string) =>
      this.data<ValidateUrlResult>('POST', '/api/webhooks/utilities/validate-url', { body: { url } }),
    generateSignature: (body: { secret: string; payload: string; timestamp?: number }) =>
      this.data<GenerateSignatureResult>('POST', '/api/webhooks/utilities/generate-signature', { body }),
    verifySignature: (body: {
      secret: string
      payload: string
      signature: string
      timestamp: string | number
    }) => this.data<VerifySignatureResult>('POST', '/api/webhooks/utilities/verify-signature', { body }),
  }

  // analytics
  analytics = {
    link: (id: string, query: AnalyticsQuery = {}) =>
      this.data<LinkAnalytics>('GET', `/api/use/analytics/links/${encodeURIComponent(id)}`, { query }),
    /** The organization's clicks per UTC day, over all its links. */
    clicks: (query: ClicksQuery = {}) =>
      this.data<OrganizationClicks>('GET', '/api/use/analytics/clicks', { query }),
    gameOverview: (gameId: string, query: OverviewQuery = {}) =>
      this.data<Overview>('GET', `/api/v1/analytics/games/${encodeURIComponent(gameId)}/overview`, { query }),
    gameRetention: (gameId: string, query: RetentionQuery = {}) =>
      this.data<Retention>('GET', `/api/v1/analytics/games/${encodeURIComponent(gameId)}/retention`, {
        query,
      }),
    gameLeaderboard: (gameId: string, query: LeaderboardQuery = {}) =>
      this.data<Leaderboard>('GET', `/api/v1/analytics/games/${encodeURIComponent(gameId)}/leaderboard`, {
        query,
      }),
    gameGeography: (gameId: string, query: OverviewQuery = {}) =>
      this.data<Geography>('GET', `/api/v1/analytics/games/${encodeURIComponent(gameId)}/geography`, {
        query,
      }),
    gameEvents: (gameId: string, query: OverviewQuery = {}) =>
      this.data<Events>('GET', `/api/v1/analytics/games/${encodeURIComponent(gameId)}/events`, { query }),
    /** The export streamed (CSV or JSON); no timeout by default: a million rows take a while. */
    gameExport: (gameId: string, query: ExportQuery, timeoutMs = 3_600_000) =>
      this.stream(`/api/v1/analytics/games/${encodeURIComponent(gameId)}/export`, { query, timeoutMs }),
    gameRevenue: (gameId: string, query: RevenueQuery = {}) =>
      this.data<RevenueReport>('GET', `/api/v1/analytics/games/${encodeURIComponent(gameId)}/revenue`, {
        query,
      }),
    gameAttribution: (gameId: string, query: AttributionQuery = {}) =>
      this.data<AttributionReport>(
        'GET',
        `/api/v1/analytics/games/${encodeURIComponent(gameId)}/attribution`,
        {
          query,
        },
      ),
    gameSegments: (gameId: string) =>
      this.data<SegmentsReport>('GET', `/api/v1/analytics/games/${encodeURIComponent(gameId)}/segments`),
    gamePlayers: (gameId: string, query: PlayersQuery = {}) =>
      this.data<PlayersPage>('GET', `/api/v1/analytics/games/${encodeURIComponent(gameId)}/players`, {
        query,
      }),
    gamePlayer: (gameId: string, playerId: string, query: PlayerQuery = {}) =>
      this.data<PlayerProfile>(
        'GET',
        `/api/v1/analytics/games/${encodeURIComponent(gameId)}/players/${encodeURIComponent(playerId)}`,
        { query },
      ),
  }

  // games (admin)
  games = {
    create: (body: CreateGameBody) => this.data<GameWithSecrets>('POST', '/api/v1/admin/games', { body }),
    list: (query: ListGamesQuery = {}) => this.data<PageOf<Game>>('GET', '/api/v1/admin/games', { query }),
    get: (id: string) => this.data<Game>('GET', `/api/v1/admin/games/${encodeURIComponent(id)}`),
    update: (id: string, body: UpdateGameBody) =>
      this.data<Game>('PATCH', `/api/v1/admin/games/${encodeURIComponent(id)}`, { body }),
    regenerateKey: (id: string) =>
      this.data<GameWithSecrets>('POST', `/api/v1/admin/games/${encodeURIComponent(id)}/sdk-key`),
  }

  // fraud rules and blocklist of a game (admin)
  fraud = {
    rules: (game: string) =>
      this.data<{ data: FraudRule[] }>('GET', `${fraudBase(game)}/rules`).then((r) => r.data),
    createRule: (game: string, body: CreateRuleBody) =>
      this.data<FraudRule>('POST', `${fraudBase(game)}/rules`, { body }),
    updateRule: (game: string, id: string, body: UpdateRuleBody) =>
      this.data<FraudRule>('PATCH', `${fraudBase(game)}/rules/${encodeURIComponent(id)}`, { body }),
    deleteRule: async (game: string, id: string) => {
      await this.call('DELETE', `${fraudBase(game)}/rules/${encodeURIComponent(id)}`)
    },
    blocklist: (game: string, query: PageQuery = {}) =>
      this.data<PageOf<BlocklistEntry>>('GET', `${fraudBase(game)}/blocklist`, { query }),
    block: (game: string, body: CreateBlocklistBody) =>
      this.data<BlocklistEntry>('POST', `${fraudBase(game)}/blocklist`, { body }),
    unblock: async (game: string, id: string) => {
      await this.call('DELETE', `${fraudBase(game)}/blocklist/${encodeURIComponent(id)}`)
    },
    dashboard: (game: string, query: DashboardQuery = {}) =>
      this.data<FraudDashboard>('GET', `${fraudBase(game)}/dashboard`, { query }),
    /** Fraud events, newest first; pages of 10, 20, 50, 100 or 200. */
    events: (game: string, query: FraudEventsQuery = {}) =>
      this.data<PageOf<FraudEvent>>('GET', `${fraudBase(game)}/events`, { query }),
    review: (game: string, id: string, review: FraudReview) =>
      this.data<FraudEvent>('PATCH', `${fraudBase(game)}/events/${encodeURIComponent(id)}`, {
        body: { review },
      }),
  }

  // gaming ingestion (a client built with the SDK key) and GDPR
  gaming = {
    /** Sends one batch body as given; `headers` carry X-Game-ID, X-Organization-ID, signature. */
    sendEvents: (body: Buffer, headers: Record<string, string>) =>
      this.data<IngestResult>('POST', '/api/v1/gaming/events', {
        rawBody: body,
        headers: { 'content-type': 'application/json', ...headers },
      }),
    requestDeletion: (body: GdprDeletionBody) =>
      this.data<GdprDeletion>('POST', '/api/v1/gaming/gdpr/deletions', { body }),
    deletion: (id: string) =>
      this.data<GdprDeletion>('GET', `/api/v1/gaming/gdpr/deletions/${encodeURIComponent(id)}`),
  }

  // custom domains
  domains = {
    add: (body: AddDomainBody) => this.data<Domain>('POST', '/api/domains', { body }),
    list: (query: ListDomainsQuery = {}) => this.data<PageOf<Domain>>('GET', '/api/domains', { query }),
    stats: () => this.data<DomainStats>('GET', '/api/domains/stats'),
    get: (id: string) => this.data<Domain>('GET', `/api/domains/${encodeURIComponent(id)}`),
    verify: (id: string) => this.data<Domain>('POST', `/api/domains/${encodeURIComponent(id)}/verify`),
    update: (id: string, body: UpdateDomainBody) =>
      this.data<Domain>('PATCH', `/api/domains/${encodeURIComponent(id)}`, { body }),
    checkPropagation: (id: string) =>
      this.data<Propagation>('POST', `/api/domains/${encodeURIComponent(id)}/check-propagation`),
    ssl: (id: string) => this.data<SslDetails>('GET', `/api/domains/${encodeURIComponent(id)}/ssl`),
    setDefault: (id: string) =>
      this.data<Domain>('POST', `/api/domains/${encodeURIComponent(id)}/set-default`),
    delete: async (id: string) => {
      await this.call('DELETE', `/api/domains/${encodeURIComponent(id)}`)
    },
  }

  // SKAN campaigns, their reports and postbacks
  skan = {
    campaigns: (game: string) =>
      this.data<{ data: SkanCampaign[] }>(
        'GET',
        `/api/v1/skan/games/${encodeURIComponent(game)}/campaigns`,
      ).then((r) => r.data),
    createCampaign: (game: string, body: CreateCampaignBody) =>
      this.data<SkanCampaign>('POST', `/api/v1/skan/games/${encodeURIComponent(game)}/campaigns`, { body }),
    updateCampaign: (id: string, body: UpdateCampaignBody) =>
      this.data<SkanCampaign>('PATCH', `/api/v1/skan/campaigns/${encodeURIComponent(id)}`, { body }),
    /** The campaign with its report. */
    campaign: (id: string) =>
      this.data<CampaignWithReport>('GET', `/api/v1/skan/campaigns/${encodeURIComponent(id)}`),
    postbacks: (id: string, query: PageQuery = {}) =>
      this.data<PageOf<SkanPostback>>('GET', `/api/v1/skan/campaigns/${encodeURIComponent(id)}/postbacks`, {
        query,
      }),
    /** Posts a postback (no key needed: Apple signs it). */
    postback: (body: Record<string, unknown>) =>
      this.data<PostbackAnswer>('POST', '/api/v1/skan/postbacks', { body }),
    /** A proposed conversion schema from the game's history; `apply` replaces the campaign's. */
    optimize: (campaignId: string, opts: { apply?: boolean } = {}) =>
      this.data<SkanOptimizeResult>(
        'POST',
        `/api/v1/skan/campaigns/${encodeURIComponent(campaignId)}/optimize`,
        {
          ...(opts.apply ? { query: { apply: true } } : {}),
        },
      ),
  }
}

const fraudBase = (game: string) => `/api/v1/admin/fraud/games/${encodeURIComponent(game)}`
