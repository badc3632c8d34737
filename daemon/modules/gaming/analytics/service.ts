import type { Clock } from '../../../clock.js'
import type { Overview, OverviewQuery } from '../../../../src/contract/gaming.js'
import {
  EXPORT_LIMITS,
  LEADERBOARD_LIMITS,
  type Events,
  type ExportQuery,
  type Geography,
  type Leaderboard,
  type LeaderboardQuery,
  type Retention,
  type RetentionQuery,
} from '../../../../src/contract/gaming.js'
import { eventsReport, geographyReport, leaderboardReport } from './breakdowns.js'
import { createExportRegistry, encodeExport } from './export.js'
import { registerReportSources } from './export-sources.js'
import { registerMoneySources } from './export-money.js'
import { retentionReport } from './retention.js'
import { scopeOf } from './scope.js'
import type { GameService } from '../games/index.js'
import type {
  AcquisitionStore,
  AggregatesStore,
  FunnelStore,
  PlayersStore,
  RawEventsStore,
} from '../storage/index.js'
import type { FunnelQuery } from '../../../../src/contract/gaming-funnel.js'
import { funnelReport } from './funnel.js'
import { rawFile } from '../../../raw-export.js'
import type { RawEventsExportQuery } from '../../../../src/contract/raw-export.js'
import { rawEventRows } from './raw-events.js'
import type {
  AttributionQuery,
  PlayerQuery,
  PlayersQuery,
  RevenueQuery,
} from '../../../../src/contract/gaming-revenue.js'
import type { GamingAnalyticsService } from './api.js'
import { attributionReport, type LinkShortUrls } from './attribution.js'
import { playerProfile, playersPage } from './players.js'
import { revenueReport } from './revenue.js'
import { segmentsReport } from './segments.js'
import { dateOfDay, utcDayNumber } from '../../../clock.js'
import { dayRange } from './days.js'
import { money, round } from '../../../../src/contract/numbers.js'
import { AppError } from '../../../http/errors.js'
import type { GameRecord } from '../games/index.js'

export function createGamingAnalyticsService(deps: {
  clock: Clock
  games: GameService
  /** The storage layers' reads (storage's stores). */
  aggregates: AggregatesStore
  acquisition: AcquisitionStore
  players: PlayersStore
  /** Funnels' reads of raw events. */
  funnels: FunnelStore
  /** The raw events (the raw export). */
  rawEvents: RawEventsStore
  /** Short URLs of an organization's links by id (deleted ones left out): attribution by link. */
  linkRefs?: LinkShortUrls
}): GamingAnalyticsService {
  const store = deps.aggregates
  /**
   * The game of an analytics route: 404 in another organization, 409 while `modules.analytics`
   * is off (as fraud and SKAN do). Ingestion keeps folding meanwhile (decision
   * analytics-module-toggle): turned back on, the reports are complete.
   */
  async function analyticsGame(organizationId: string, slug: string): Promise<GameRecord> {
    const game = await deps.games.record(organizationId, slug)
    if (!game.modules.analytics)
      throw new AppError(
        'Conflict',
        `gaming analytics is off for game ${slug}: turn it on with linkctl games update ${slug} --analytics ` +
          `(API: PATCH /api/v1/admin/games/${slug} with {"modules":{"analytics":true}})`,
      )
    return game
  }
  const games = { ...deps.games, record: analyticsGame }
  const scope = (organizationId: string, slug: string, q: OverviewQuery) =>
    scopeOf(games, deps.clock.now(), organizationId, slug, q)
  const reports = {
    /**
     * DAU (last day of the range), MAU (30 days to the range end), revenue, ARPU and ARPPU over
     * the distinct active and paying players of the range, average session length, and classic
     * D1/D7/D30 retention of the install cohorts of the range old enough to have reached day N.
     */
    async overview(organizationId: string, slug: string, q: OverviewQuery): Promise<Overview> {
      const game = await games.record(organizationId, slug)
      const { start, end } = dayRange(q, deps.clock.now())
      const today = utcDayNumber(deps.clock.now())
      const [totals, dau, mau, active, payers] = await Promise.all([
        store.dailyTotals(game.id, start, end),
        store.activeOn(game.id, end),
        store.distinct(game.id, 'active', end - 29, end),
        store.distinct(game.id, 'active', start, end),
        store.distinct(game.id, 'paying', start, end),
      ])
      const retention = async (n: number) => {
        const last = Math.min(end, today) - n
        if (last < start) return null
        const r = await store.retention(game.id, n, start, last)
        return r.size === 0 ? null : round((100 * r.retained) / r.size, 2)
      }
      const [d1, d7, d30] = await Promise.all([retention(1), retention(7), retention(30)])
      const totalMicros = totals.iap + totals.ad + totals.subscription
      return {
        dau,
        mau,
        revenue: {
          total: money(totalMicros),
          iap: money(totals.iap),
          ad: money(totals.ad),
          subscription: money(totals.subscription),
        },
        arpu: active ? round(money(totalMicros) / active, 6) : 0,
        arppu: payers ? round(money(totalMicros) / payers, 6) : 0,
        avgSessionSeconds: totals.sessions ? round(totals.sessionSeconds / totals.sessions, 2) : 0,
        retention: { d1, d7, d30 },
        range: { startDate: dateOfDay(start), endDate: dateOfDay(end) },
      }
    },

    // Retention, leaderboard, geography, events (retention.ts, breakdowns.ts).
    async retention(organizationId: string, slug: string, q: RetentionQuery): Promise<Retention> {
      return retentionReport(store, await scope(organizationId, slug, q), q)
    },
    async leaderboard(organizationId: string, slug: string, q: LeaderboardQuery): Promise<Leaderboard> {
      const limit = q.limit ?? LEADERBOARD_LIMITS.default
      return leaderboardReport(store, await scope(organizationId, slug, q), limit)
    },
    async geography(organizationId: string, slug: string, q: OverviewQuery): Promise<Geography> {
      return geographyReport(store, await scope(organizationId, slug, q))
    },
    async events(organizationId: string, slug: string, q: OverviewQuery): Promise<Events> {
      return eventsReport(store, await scope(organizationId, slug, q))
    },
    // Revenue, attribution, segments, players (each report in its own file).
    async revenue(organizationId: string, slug: string, q: RevenueQuery) {
      const game = await games.record(organizationId, slug)
      return revenueReport(deps, game, dayRange(q, deps.clock.now()), q)
    },
    async attribution(organizationId: string, slug: string, q: AttributionQuery) {
      const game = await games.record(organizationId, slug)
      return attributionReport(deps, game, dayRange(q, deps.clock.now()), q)
    },
    async segments(organizationId: string, slug: string) {
      return segmentsReport(deps.players, await games.record(organizationId, slug))
    },
    async players(organizationId: string, slug: string, q: PlayersQuery) {
      return playersPage(deps.players, await games.record(organizationId, slug), q)
    },
    async player(organizationId: string, slug: string, playerId: string, q: PlayerQuery) {
      return playerProfile(deps.players, await games.record(organizationId, slug), playerId, q)
    },
    // Funnels read raw events (funnel.ts).
    async funnel(organizationId: string, q: FunnelQuery) {
      return funnelReport(deps.funnels, await games.record(organizationId, q.gameId), q, deps.clock.now())
    },
  }
  const exports = createExportRegistry()
  registerReportSources(exports, reports)
  registerMoneySources(exports, reports, { ...deps, games })
  /** A game's raw events over a range of UTC days: 404 for another organization's game, 409 while analytics is off. */
  async function rawEvents(organizationId: string, slug: string, range: OverviewQuery) {
    const game = await analyticsGame(organizationId, slug)
    const { start, end } = dayRange(range, deps.clock.now())
    return { rows: rawEventRows(deps.rawEvents, game.id, start, end), start, end }
  }
  return {
    ...reports,
    rawEvents,
    async rawExport(organizationId: string, query: RawEventsExportQuery) {
      const { rows, start, end } = await rawEvents(organizationId, query.gameId, query)
      const name = `${query.gameId}-raw_events-${dateOfDay(start)}-${dateOfDay(end)}`
      return rawFile(name, rows, query.format ?? 'ndjson')
    },
    /** A smart link's attributed installs over every game of the organization, and their revenue. */
    async linkInstalls(organizationId: string, linkId: string, fromDay: number, toDay: number) {
      const games = (await deps.games.all()).filter((g) => g.organizationId === organizationId)
      const rows = await deps.players.linkInstalls(
        games.map((g) => g.id),
        linkId,
        fromDay,
        toDay,
      )
      const byId = new Map(games.map((g) => [g.id, g]))
      const installRevenue = rows
        .map((r) => ({
          gameId: byId.get(r.gameId)!.slug,
          currency: byId.get(r.gameId)!.reportingCurrency,
          installs: r.installs,
          revenue: money(r.revenueMicros),
        }))
        .sort((a, b) => a.gameId.localeCompare(b.gameId))
      return { installs: rows.reduce((n, r) => n + r.installs, 0), installRevenue }
    },
    async linkInstallClicks(organizationId: string, linkId: string, fromDay: number, toDay: number) {
      const games = (await deps.games.all()).filter((g) => g.organizationId === organizationId)
      return deps.players.linkInstallClicks(
        games.map((g) => g.id),
        linkId,
        fromDay,
        toDay,
      )
    },
    /** The export registry: more types are added with exports.register (export-sources.ts). */
    exports,
    /** An export, checked (404, 400) before the first byte; the body streams with constant memory. */
    async export(organizationId: string, slug: string, query: ExportQuery) {
      await analyticsGame(organizationId, slug)
      const source = exports.source(query.type)
      const rows = await source.open({ organizationId, slug, query })
      const { start, end } = dayRange(query, deps.clock.now())
      const format = query.format ?? 'csv'
      return {
        fileName: `${slug}-${query.type}-${dateOfDay(start)}-${dateOfDay(end)}.${format}`,
        contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
        body: encodeExport(
          typeof source.columns === 'function' ? source.columns(query) : source.columns,
          rows,
          format,
          query.limit ?? EXPORT_LIMITS.default,
        ),
      }
    },
  }
}
