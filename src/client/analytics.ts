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
import type { Funnel, FunnelQuery } from '../contract/gaming-funnel.js'
import type {
  AnalyticsQuery,
  ClicksQuery,
  LinkAnalytics,
  OrganizationClicks,
} from '../contract/click-analytics.js'
import type { Requests } from './http.js'

/** Analytics: a link's and the organization's clicks (`/api/use/analytics`), a game's reports
 * (`/api/v1/analytics/games/:gameId/…`). */
export function analyticsApi(http: Requests) {
  return {
    link: (id: string, query: AnalyticsQuery = {}) =>
      http.data<LinkAnalytics>('GET', `/api/use/analytics/links/${encodeURIComponent(id)}`, { query }),
    /** The organization's clicks per UTC day, over all its links. */
    clicks: (query: ClicksQuery = {}) =>
      http.data<OrganizationClicks>('GET', '/api/use/analytics/clicks', { query }),
    gameOverview: (gameId: string, query: OverviewQuery = {}) =>
      http.data<Overview>('GET', `/api/v1/analytics/games/${encodeURIComponent(gameId)}/overview`, { query }),
    gameRetention: (gameId: string, query: RetentionQuery = {}) =>
      http.data<Retention>('GET', `/api/v1/analytics/games/${encodeURIComponent(gameId)}/retention`, {
        query,
      }),
    /** A funnel of the game named by the query (`/api/v1/gaming/analytics/funnel`). */
    gameFunnel: (query: FunnelQuery) =>
      http.data<Funnel>('GET', '/api/v1/gaming/analytics/funnel', { query }),
    gameLeaderboard: (gameId: string, query: LeaderboardQuery = {}) =>
      http.data<Leaderboard>('GET', `/api/v1/analytics/games/${encodeURIComponent(gameId)}/leaderboard`, {
        query,
      }),
    gameGeography: (gameId: string, query: OverviewQuery = {}) =>
      http.data<Geography>('GET', `/api/v1/analytics/games/${encodeURIComponent(gameId)}/geography`, {
        query,
      }),
    gameEvents: (gameId: string, query: OverviewQuery = {}) =>
      http.data<Events>('GET', `/api/v1/analytics/games/${encodeURIComponent(gameId)}/events`, { query }),
    /** The export streamed (CSV or JSON); no timeout by default: a million rows take a while. */
    gameExport: (gameId: string, query: ExportQuery, timeoutMs = 3_600_000) =>
      http.stream(`/api/v1/analytics/games/${encodeURIComponent(gameId)}/export`, { query, timeoutMs }),
    gameRevenue: (gameId: string, query: RevenueQuery = {}) =>
      http.data<RevenueReport>('GET', `/api/v1/analytics/games/${encodeURIComponent(gameId)}/revenue`, {
        query,
      }),
    gameAttribution: (gameId: string, query: AttributionQuery = {}) =>
      http.data<AttributionReport>(
        'GET',
        `/api/v1/analytics/games/${encodeURIComponent(gameId)}/attribution`,
        {
          query,
        },
      ),
    gameSegments: (gameId: string) =>
      http.data<SegmentsReport>('GET', `/api/v1/analytics/games/${encodeURIComponent(gameId)}/segments`),
    gamePlayers: (gameId: string, query: PlayersQuery = {}) =>
      http.data<PlayersPage>('GET', `/api/v1/analytics/games/${encodeURIComponent(gameId)}/players`, {
        query,
      }),
    gamePlayer: (gameId: string, playerId: string, query: PlayerQuery = {}) =>
      http.data<PlayerProfile>(
        'GET',
        `/api/v1/analytics/games/${encodeURIComponent(gameId)}/players/${encodeURIComponent(playerId)}`,
        { query },
      ),
  }
}
