/**
 * Gaming analytics, part B: revenue, attribution, segments and the players explorer
 * (contract "Gaming analytics"). Money is a number in the game's reporting currency (`currency`).
 */
import Type, { type Static } from 'typebox'
import { Nullable, Page, PageQuery, StringEnum, Timestamp } from './common.js'
import { GAME_PLATFORMS } from './limits.js'
import { OverviewQuery } from './gaming.js'
import { COUNTRY_PATTERN, DAY_PATTERN } from './text.js'

import { ATTRIBUTION_GROUPS, PLAYER_SORTS, REVENUE_GROUPS, SEGMENTS } from './limits.js'

export { ATTRIBUTION_GROUPS, PLAYER_SORTS, REVENUE_GROUPS, SEGMENTS, type Segment } from './limits.js'

const Range = Type.Object({ startDate: Type.String(), endDate: Type.String() })
const Currency = Type.String({ description: "The game's reporting currency (ISO 4217)", examples: ['USD'] })
const Money = Type.Number({ description: 'In the reporting currency' })
const Day = Type.String({ pattern: DAY_PATTERN, description: 'UTC date YYYY-MM-DD' })

/**
 * The group of the players without a value for the grouping (no source, no link, …): with it, the
 * rows of every grouping add up to the totals.
 */
export const NONE_GROUP = '(none)'

export const RevenueQuery = Type.Object({
  ...OverviewQuery.properties,
  groupBy: Type.Optional(StringEnum(REVENUE_GROUPS, { default: 'day' })),
})
export type RevenueQuery = Static<typeof RevenueQuery>

const RevenueFigures = {
  total: Money,
  iap: Money,
  ad: Money,
  subscription: Money,
  transactions: Type.Integer(),
  payingUsers: Type.Integer({ description: 'Distinct players with a paid event in the group and range' }),
  arppu: Type.Number({ description: 'total / payingUsers; 0 without paying users' }),
}
export const RevenueRow = Type.Object({
  group: Type.String({
    description: `Day YYYY-MM-DD, ISO week YYYY-Www, month YYYY-MM, platform or source; ${NONE_GROUP} for the players without a source`,
  }),
  ...RevenueFigures,
})
export type RevenueRow = Static<typeof RevenueRow>
export const RevenueReport = Type.Object({
  data: Type.Array(RevenueRow),
  totals: Type.Object(RevenueFigures),
  currency: Currency,
  range: Range,
})
export type RevenueReport = Static<typeof RevenueReport>

export const AttributionQuery = Type.Object({
  ...OverviewQuery.properties,
  groupBy: Type.Optional(StringEnum(ATTRIBUTION_GROUPS, { default: 'source' })),
})
export type AttributionQuery = Static<typeof AttributionQuery>
const AttributionFigures = {
  installs: Type.Integer({ description: 'Players installed in the range with this first-touch value' }),
  conversions: Type.Integer({ description: 'Of those installs, players who have paid (so far)' }),
  revenue: Money,
  cost: Type.Number({ description: 'Sum of data.cost of app_install events in the range' }),
  commission: Type.Number({ description: 'Sum of data.commission of revenue events in the range' }),
  avgCpa: Nullable(Type.Number({ description: 'cost / conversions; null when conversions is 0' })),
  avgRoas: Nullable(Type.Number({ description: 'revenue / cost; null when cost is 0' })),
}
export const AttributionRow = Type.Object({
  group: Type.String({
    description: `The first-touch value; for groupBy=link the link (or smart link) id; ${NONE_GROUP} for the players without one`,
  }),
  shortUrl: Type.Optional(
    Nullable(
      Type.String({ description: "groupBy=link only: the link's short URL; null when the link was deleted" }),
    ),
  ),
  ...AttributionFigures,
})
export type AttributionRow = Static<typeof AttributionRow>
export const AttributionReport = Type.Object({
  data: Type.Array(AttributionRow),
  totals: Type.Object(AttributionFigures),
  currency: Currency,
  range: Range,
})
export type AttributionReport = Static<typeof AttributionReport>

export const SegmentRow = Type.Object({
  segment: StringEnum(SEGMENTS),
  players: Type.Integer(),
  share: Type.Number({ description: 'Percent of all players (0-100)' }),
  revenue: Money,
  revenueShare: Type.Number({ description: 'Percent of all lifetime revenue (0-100)' }),
  avgRevenue: Type.Number({ description: 'revenue / players; 0 without players' }),
})
export type SegmentRow = Static<typeof SegmentRow>
export const SegmentsReport = Type.Object({
  data: Type.Array(SegmentRow),
  thresholds: Type.Object({ whale: Money, dolphin: Money }),
  currency: Currency,
})
export type SegmentsReport = Static<typeof SegmentsReport>

export const PlayersQuery = Type.Object({
  ...PageQuery.properties,
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Player id prefix' })),
  platform: Type.Optional(StringEnum(GAME_PLATFORMS)),
  country: Type.Optional(Type.String({ pattern: COUNTRY_PATTERN, description: 'ISO 3166-1 alpha-2' })),
  segment: Type.Optional(StringEnum(SEGMENTS)),
  minRevenue: Type.Optional(Type.Number({ minimum: 0, maximum: 1_000_000_000 })),
  lastActiveFrom: Type.Optional(Day),
  lastActiveTo: Type.Optional(Day),
  sort: Type.Optional(StringEnum(PLAYER_SORTS, { default: 'revenue' })),
  order: Type.Optional(StringEnum(['asc', 'desc'] as const, { default: 'desc' })),
})
export type PlayersQuery = Static<typeof PlayersQuery>

const PlayerFields = {
  playerId: Type.String(),
  sessions: Type.Integer(),
  revenue: Money,
  segment: StringEnum(SEGMENTS),
  lastActiveAt: Timestamp,
  platform: Type.String(),
  country: Nullable(Type.String()),
}
export const PlayerRow = Type.Object(PlayerFields)
export type PlayerRow = Static<typeof PlayerRow>
export const PlayersPage = Type.Object({ ...Page(PlayerRow).properties, currency: Currency })
export type PlayersPage = Static<typeof PlayersPage>

export const PlayerParams = Type.Object({
  gameId: Type.String({ minLength: 1, maxLength: 64 }),
  playerId: Type.String({ minLength: 1, maxLength: 128 }),
})
export type PlayerParams = Static<typeof PlayerParams>

export const PlayerEvent = Type.Object({
  eventId: Type.String(),
  eventType: Type.String(),
  timestamp: Timestamp,
  sessionId: Nullable(Type.String()),
  platform: Type.String(),
  revenue: Nullable(Type.Number({ description: 'Revenue events: the amount in the reporting currency' })),
  revenueType: Nullable(StringEnum(['iap', 'ad', 'subscription'] as const)),
  verdict: StringEnum(['accept', 'flag'] as const),
  data: Nullable(Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true })),
})
export type PlayerEvent = Static<typeof PlayerEvent>

export const PlayerQuery = Type.Object({ ...PageQuery.properties })
export type PlayerQuery = Static<typeof PlayerQuery>

export const PlayerProfile = Type.Object({
  ...PlayerFields,
  firstSeenAt: Timestamp,
  device: Nullable(Type.String({ description: 'First-touch device fingerprint' })),
  attribution: Type.Object({
    affiliate: Nullable(Type.String()),
    campaign: Nullable(Type.String()),
    source: Nullable(Type.String()),
    medium: Nullable(Type.String()),
    linkId: Nullable(
      Type.String({ description: 'The link (or smart link) the install was attributed to by click id' }),
    ),
    clickId: Nullable(Type.String({ description: 'The click id (clk_…) the install was attributed to' })),
  }),
  revenueByType: Type.Object({ iap: Money, ad: Money, subscription: Money }),
  transactions: Type.Integer(),
  currency: Currency,
  events: Page(PlayerEvent),
})
export type PlayerProfile = Static<typeof PlayerProfile>
