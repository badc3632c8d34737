/**
 * GET /analytics/games/:gameId/players (the explorer: prefix search, filters, sorts, the
 * pagination envelope) and /players/:playerId (the profile and the player's newest events), read
 * from the player profiles and the player's own events by the (game_id, player_id, ts) index.
 */
import type {
  PlayerProfile,
  PlayerQuery,
  PlayerRow,
  PlayersPage,
  PlayersQuery,
} from '../../../../src/contract/gaming-revenue.js'
import { iso } from '../../../clock.js'
import { notFound } from '../../../http/errors.js'
import { pageOf, pageParams } from '../../../http/pagination.js'
import type { GameRecord } from '../games/index.js'
import type { PlayersStore } from '../storage/index.js'
import type { PlayerFilter, PlayerRow as StoredRow } from '../storage/index.js'
import { money, toMicros } from '../../../../src/contract/numbers.js'
import { segmentBounds, segmentOf } from './segments.js'
import { optionalDays } from './days.js'

/** The explorer's filter in store terms: segment and minRevenue narrow the same revenue range. */
export function playerFilter(
  game: GameRecord,
  q: Omit<PlayersQuery, 'page' | 'limit' | 'perPage'>,
): PlayerFilter {
  let from = q.minRevenue !== undefined ? toMicros(q.minRevenue) : undefined
  let below: number | undefined
  if (q.segment) {
    const [segmentFrom, segmentBelow] = segmentBounds(game)[q.segment]
    from = Math.max(from ?? 0, segmentFrom)
    below = segmentBelow ?? undefined
  }
  const { start: lastActiveFromDay, end: lastActiveToDay } = optionalDays(
    q.lastActiveFrom,
    q.lastActiveTo,
    'lastActiveFrom',
    'lastActiveTo',
  )
  return {
    search: q.search,
    platform: q.platform,
    country: q.country?.toUpperCase(),
    minRevenue: from,
    belowRevenue: below,
    lastActiveFromDay,
    lastActiveToDay,
  }
}

export const presentPlayer = (game: GameRecord, r: StoredRow): PlayerRow => ({
  playerId: r.playerId,
  sessions: r.sessions,
  revenue: money(r.revenueMicros),
  segment: segmentOf(game, r.revenueMicros),
  lastActiveAt: iso(r.lastActiveAt),
  platform: r.platform,
  country: r.country,
})

export async function playersPage(
  players: PlayersStore,
  game: GameRecord,
  q: PlayersQuery,
): Promise<PlayersPage> {
  const p = pageParams(q)
  const { rows, total } = await players.page(
    game.id,
    playerFilter(game, q),
    q.sort ?? 'revenue',
    q.order ?? 'desc',
    {
      offset: p.offset,
      limit: p.perPage,
    },
  )
  return {
    ...pageOf(
      rows.map((r) => presentPlayer(game, r)),
      total,
      p,
    ),
    currency: game.reportingCurrency,
  }
}

export async function playerProfile(
  players: PlayersStore,
  game: GameRecord,
  playerId: string,
  q: PlayerQuery,
): Promise<PlayerProfile> {
  const p = pageParams(q)
  const [profile, events] = await Promise.all([
    players.profile(game.id, playerId),
    players.events(game.id, playerId, { offset: p.offset, limit: p.perPage }),
  ])
  if (!profile) throw notFound(`player ${playerId}`)
  const revenueMicros = Number(profile.revenue_total_micros)
  return {
    ...presentPlayer(game, {
      playerId,
      sessions: Number(profile.session_count),
      revenueMicros,
      lastActiveAt: Number(profile.last_active_at),
      platform: profile.platform,
      country: profile.country,
    }),
    firstSeenAt: iso(Number(profile.first_seen_at)),
    device: profile.device_fingerprint,
    attribution: {
      affiliate: profile.affiliate,
      campaign: profile.campaign,
      source: profile.source,
      medium: profile.medium,
      linkId: profile.link_id,
      clickId: profile.click_id,
    },
    revenueByType: {
      iap: money(Number(profile.revenue_iap_micros)),
      ad: money(Number(profile.revenue_ad_micros)),
      subscription: money(Number(profile.revenue_subscription_micros)),
    },
    transactions: Number(profile.transactions),
    currency: game.reportingCurrency,
    events: pageOf(
      events.rows.map((e) => ({
        eventId: e.event_id,
        eventType: e.event_type,
        timestamp: iso(Number(e.ts)),
        sessionId: e.session_id,
        platform: e.platform,
        revenue: e.revenue_type ? money(Number(e.revenue_micros)) : null,
        revenueType: e.revenue_type as 'iap' | 'ad' | 'subscription' | null,
        verdict: e.verdict as 'accept' | 'flag',
        data: e.data ? (JSON.parse(e.data) as Record<string, unknown>) : null,
      })),
      events.total,
      p,
    ),
  }
}
