/** The analytics module's interfaces, imported by its own files (other modules import its index.ts). */
import type {
  Events,
  ExportQuery,
  Geography,
  Leaderboard,
  LeaderboardQuery,
  Overview,
  OverviewQuery,
  Retention,
  RetentionQuery,
} from '../../../../src/contract/gaming.js'
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
} from '../../../../src/contract/gaming-revenue.js'
import type { LinkAnalytics } from '../../../../src/contract/click-analytics.js'
import type { ExportRegistry } from './export.js'
import type { Funnel, FunnelQuery } from '../../../../src/contract/gaming-funnel.js'
import type { RawFile, RawRows } from '../../../raw-export.js'
import type { RawEventsExportQuery } from '../../../../src/contract/raw-export.js'

/** An export ready to send: its file name, content type and the body as text chunks. */
export interface ExportFile {
  fileName: string
  contentType: string
  body: AsyncGenerator<string>
}

/** The reports of a game (each checks the game of the organization and the range), and the export. */
export interface GamingAnalyticsService {
  /** DAU, MAU, revenue, ARPU, ARPPU, average session length and D1/D7/D30 retention of the range. */
  overview(organizationId: string, slug: string, q: OverviewQuery): Promise<Overview>
  /** Retention of the install cohorts of the range, per install day or ISO week. */
  retention(organizationId: string, slug: string, q: RetentionQuery): Promise<Retention>
  /** Top players by revenue earned in the range. */
  leaderboard(organizationId: string, slug: string, q: LeaderboardQuery): Promise<Leaderboard>
  /** Players, sessions and revenue per country of the range. */
  geography(organizationId: string, slug: string, q: OverviewQuery): Promise<Geography>
  /** Events and distinct players per event type of the range. */
  events(organizationId: string, slug: string, q: OverviewQuery): Promise<Events>
  /** Revenue per day, week, month, platform or source of the range, with the totals. */
  revenue(organizationId: string, slug: string, q: RevenueQuery): Promise<RevenueReport>
  /** Installs, conversions, revenue, cost and commission per first-touch attribution value. */
  attribution(organizationId: string, slug: string, q: AttributionQuery): Promise<AttributionReport>
  /** A smart link's installs attributed by click id (install day in [fromDay, toDay]), per game with revenue. */
  linkInstalls(
    organizationId: string,
    linkId: string,
    fromDay: number,
    toDay: number,
  ): Promise<{ installs: number; installRevenue: LinkInstallRevenue[] }>
  /** The click ids of the installs linkInstalls counts (per-variant installs of a split smart link). */
  linkInstallClicks(organizationId: string, linkId: string, fromDay: number, toDay: number): Promise<string[]>
  /** Players and revenue per spending segment (whale, dolphin, minnow, free). */
  segments(organizationId: string, slug: string): Promise<SegmentsReport>
  /** A page of the players explorer (search, filters, sorts). */
  players(organizationId: string, slug: string, q: PlayersQuery): Promise<PlayersPage>
  /** One player's profile and a page of their newest events. */
  player(organizationId: string, slug: string, playerId: string, q: PlayerQuery): Promise<PlayerProfile>
  /** Players at each ordered step of a funnel of the game named by the query, from raw events. */
  funnel(organizationId: string, q: FunnelQuery): Promise<Funnel>
  /** The export registry: more types are added with exports.register (export-sources.ts). */
  exports: ExportRegistry
  /** An export, checked (404, 400) before the first byte; the body streams with constant memory. */
  export(organizationId: string, slug: string, query: ExportQuery): Promise<ExportFile>
  /**
   * A game's raw events over a range of UTC days (default the last 30), checked first (404, 409,
   * 400); the rows are read page by page as they are consumed.
   */
  rawEvents(
    organizationId: string,
    slug: string,
    range: OverviewQuery,
  ): Promise<{ rows: RawRows; start: number; end: number }>
  /** The raw events export as a file (NDJSON, CSV or Parquet), streamed. */
  rawExport(organizationId: string, query: RawEventsExportQuery): Promise<RawFile>
}

export type LinkInstallRevenue = NonNullable<LinkAnalytics['installRevenue']>[number]
