/**
 * Click analytics: one link's (or smart link's) analytics over a range, and the organization's
 * clicks per UTC day (`GET /api/use/analytics/clicks`).
 */
import Type, { type Static } from 'typebox'
import { Nullable, StringEnum, Timestamp } from './common.js'
import { PlatformShare } from './smart-links.js'
import { DAY_PATTERN } from './text.js'
import { ANALYTICS_INTERVALS } from './limits.js'

/** A range edge of click analytics: an ISO 8601 date-time, or a date alone (a whole UTC day). */
const RangeEdge = (edge: 'start' | 'end') =>
  Type.Optional(
    Type.Union([Type.String({ format: 'date-time' }), Type.String({ format: 'date' })], {
      description: `ISO 8601 date-time, or a date: its ${edge === 'start' ? 'first' : 'last'} millisecond (UTC)`,
    }),
  )

export const AnalyticsQuery = Type.Object(
  {
    startDate: RangeEdge('start'),
    endDate: RangeEdge('end'),
    interval: Type.Optional(StringEnum(ANALYTICS_INTERVALS)),
  },
  { additionalProperties: false },
)
export type AnalyticsQuery = Static<typeof AnalyticsQuery>

const Share = (name: string) =>
  Type.Object({ [name]: Type.String(), clicks: Type.Integer(), percentage: Type.Number() })
const Counted = Type.Object({ value: Type.String(), clicks: Type.Integer() })

export const LinkAnalytics = Type.Object(
  {
    linkId: Type.String(),
    range: Type.Object({ startDate: Timestamp, endDate: Timestamp }),
    interval: StringEnum(ANALYTICS_INTERVALS),
    totalClicks: Type.Integer({
      description: 'Human clicks in the range (QR scans included, bots excluded)',
    }),
    uniqueVisitors: Type.Integer({
      description: 'Distinct daily-salted hashes of IP + user agent, summed per day',
    }),
    qrScans: Type.Integer(),
    botDetection: Type.Object({ count: Type.Integer(), percentage: Type.Number() }),
    blockedVisits: Type.Integer({
      description:
        'Visits answered with the safety warning page (the link was flagged), whole UTC days; in botDetection too',
    }),
    responseTime: Type.Number({ description: 'Average server time to produce the redirect, ms' }),
    bounceRate: Type.Number({ description: 'Percent of unique visitors with exactly one click' }),
    geography: Type.Array(
      Type.Object({
        country: Type.String(),
        region: Nullable(Type.String()),
        clicks: Type.Integer(),
        percentage: Type.Number(),
      }),
    ),
    devices: Type.Array(Share('device')),
    browsers: Type.Array(Share('browser')),
    os: Type.Array(Share('os')),
    referrers: Type.Array(Type.Object({ domain: Type.String(), clicks: Type.Integer() })),
    timeSeries: Type.Array(
      Type.Object({ timestamp: Timestamp, clicks: Type.Integer(), bots: Type.Integer() }),
    ),
    utmSources: Type.Array(Counted),
    utmMediums: Type.Array(Counted),
    utmCampaigns: Type.Array(Counted),
    platforms: Type.Optional(
      Type.Array(PlatformShare, {
        description: "A smart link's human clicks per target platform (smart links only)",
      }),
    ),
    installs: Type.Optional(
      Type.Integer({
        description:
          'Smart links only: players of any game of the organization whose install (in the range) was attributed to this link by click id',
      }),
    ),
    variants: Type.Optional(
      Type.Array(
        Type.Object({
          destinationUrl: Type.String(),
          weight: Type.Integer(),
          clicks: Type.Integer({ description: 'Human clicks that went to this variant in the range' }),
          uniqueVisitors: Type.Integer({ description: 'Daily visitors of this variant, summed per day' }),
          installs: Type.Integer({
            description:
              'Installs attributed by click id to visits of this variant (smart links only; 0 for links, whose visits carry no click id)',
          }),
        }),
        { description: 'Links and smart links with variants: the figures of each current variant' },
      ),
    ),
    installRevenue: Type.Optional(
      Type.Array(
        Type.Object({
          gameId: Type.String({ description: 'The game (its slug)' }),
          currency: Type.String({ description: "The game's reporting currency (ISO 4217)" }),
          installs: Type.Integer({ description: 'Attributed installs of this game in the range' }),
          revenue: Type.Number({ description: 'Revenue in the range of those players, reporting currency' }),
        }),
        { description: 'Smart links only: per game, the attributed installs and their revenue' },
      ),
    ),
  },
  { $id: 'LinkAnalytics', title: 'LinkAnalytics' },
)
export type LinkAnalytics = Static<typeof LinkAnalytics>

/** `GET /api/use/analytics/clicks`: the organization's clicks per UTC day. */
export const ClicksQuery = Type.Object(
  {
    startDate: RangeEdge('start'),
    endDate: RangeEdge('end'),
  },
  { additionalProperties: false },
)
export type ClicksQuery = Static<typeof ClicksQuery>

export const ClickDay = Type.Object({
  date: Type.String({ pattern: DAY_PATTERN, description: 'UTC date YYYY-MM-DD' }),
  clicks: Type.Integer({ description: 'Human clicks (QR scans included, bots excluded)' }),
  bots: Type.Integer({ description: 'Clicks by bots and link previews' }),
  qrScans: Type.Integer(),
})
export type ClickDay = Static<typeof ClickDay>

export const OrganizationClicks = Type.Object(
  {
    range: Type.Object({ startDate: Timestamp, endDate: Timestamp }),
    totalClicks: Type.Integer({
      description: "Human clicks of the organization's links on the days of the range (bots excluded)",
    }),
    bots: Type.Integer(),
    qrScans: Type.Integer(),
    days: Type.Array(ClickDay, { description: 'Every UTC day of the range, oldest first, zero-filled' }),
  },
  { $id: 'OrganizationClicks', title: 'OrganizationClicks' },
)
export type OrganizationClicks = Static<typeof OrganizationClicks>
