import type { Clock } from '../../clock.js'
import { DAY_MS, floorTo, HOUR_MS, iso, utcDayNumber } from '../../clock.js'
import { AppError } from '../../http/errors.js'
import { queryTime } from '../../http/query-time.js'
import type { AnalyticsQuery, LinkAnalytics } from '../../../src/contract/click-analytics.js'
import { LINK_LIMITS, SMART_LINK_PLATFORMS, type SmartLinkPlatform } from '../../../src/contract/limits.js'
import type { PlatformShare } from '../../../src/contract/smart-links.js'
import { platformOf } from './classify.js'
import { round } from '../../../src/contract/numbers.js'
import type { LinkVariant } from '../../../src/contract/variants.js'
import type { ClickStore, DimRow } from './store.js'
import { locationOf } from '../../urls.js'

const WEEK = 7 * DAY_MS
/** 1970-01-05T00:00:00Z, a Monday: weeks start on Monday 00:00 UTC (ISO 8601). */
const FIRST_MONDAY = 4 * DAY_MS
export const DEFAULT_RANGE = 30 * DAY_MS
const TOP = 50

type Interval = LinkAnalytics['interval']

function bucketStart(t: number, interval: Interval): number {
  if (interval === 'hour') return floorTo(t, HOUR_MS)
  if (interval === 'day') return floorTo(t, DAY_MS)
  return floorTo(t, WEEK, FIRST_MONDAY)
}
const SIZE: Record<Interval, number> = { hour: HOUR_MS, day: DAY_MS, week: WEEK }

const pct = (part: number, whole: number) => (whole > 0 ? round((part / whole) * 100, 2) : 0)

/**
 * A range edge of the query (validated as an ISO 8601 date-time or date) in ms; a date alone is
 * a whole UTC day, so as the range `end` it is the day's last millisecond (ranges are inclusive).
 */
export function parseDate(
  value: string | undefined,
  field: string,
  edge: 'start' | 'end',
): number | undefined {
  if (value === undefined) return undefined
  const t = queryTime(value, field)
  return edge === 'end' && value.length === 10 ? t + DAY_MS - 1 : t
}

/** Sorted by clicks (then name), the first 50. */
function top<T extends { clicks: number }>(items: T[], name: (t: T) => string): T[] {
  return items.sort((a, b) => b.clicks - a.clicks || name(a).localeCompare(name(b))).slice(0, TOP)
}

/**
 * The installs attributed to a link by click id, with an install day in [fromDay, toDay] (UTC day
 * numbers), over every game of the organization, and per game their revenue in that range.
 */
export type LinkInstalls = (
  organizationId: string,
  linkId: string,
  fromDay: number,
  toDay: number,
) => Promise<Pick<LinkAnalytics, 'installs' | 'installRevenue'>>

/** The click ids of the installs LinkInstalls counts (the same link, days and games). */
export type LinkInstallClicks = (
  organizationId: string,
  linkId: string,
  fromDay: number,
  toDay: number,
) => Promise<string[]>

export interface LinkAnalyticsDeps {
  store: Pick<ClickStore, 'hours' | 'dims' | 'visitors' | 'clickVariants'>
  clock: Clock
  /** A link or smart link of an organization; throws NotFound for another organization's. */
  links: {
    owned(
      organizationId: string,
      id: string,
    ): Promise<{ id: string; kind: 'link' | 'smart'; variants: LinkVariant[] }>
  }
  /** Writes buffered clicks, so that a read sees every click made before it. */
  flush(): Promise<void>
  /** Smart links' attributed installs (gaming); without it they are left out. */
  installs?: LinkInstalls
  /** Their click ids, for the installs of each variant of a split smart link; without it, 0. */
  installClicks?: LinkInstallClicks
}

/**
 * Link analytics from the pre-aggregated counters only. Range: both ends inclusive; totals and
 * the time series count whole UTC hours (from the hour holding startDate to the one holding
 * endDate), dimension lists and visitor figures whole UTC days.
 */
export function createLinkAnalytics(deps: LinkAnalyticsDeps) {
  const { store } = deps

  function range(q: AnalyticsQuery): { start: number; end: number; interval: Interval } {
    const interval = q.interval ?? 'day'
    const end = parseDate(q.endDate, 'endDate', 'end') ?? deps.clock.now()
    const start = parseDate(q.startDate, 'startDate', 'start') ?? end - DEFAULT_RANGE
    if (start > end)
      throw new AppError('ValidationError', 'startDate must not be after endDate', [
        { field: 'startDate', message: 'must not be after endDate' },
      ])
    const buckets = (bucketStart(end, interval) - bucketStart(start, interval)) / SIZE[interval] + 1
    if (buckets > LINK_LIMITS.seriesMax)
      throw new AppError(
        'ValidationError',
        `the range holds ${buckets} ${interval} intervals; at most ${LINK_LIMITS.seriesMax} are allowed: narrow the range or use a longer interval`,
        [{ field: 'interval', message: `gives more than ${LINK_LIMITS.seriesMax} intervals for this range` }],
      )
    return { start, end, interval }
  }

  return {
    /** The analytics of one link of an organization (NotFound for another organization's). */
    async link(organizationId: string, id: string, q: AnalyticsQuery): Promise<LinkAnalytics> {
      const link = await deps.links.owned(organizationId, id)
      const { start, end, interval } = range(q)
      await deps.flush()

      const smart = link.kind === 'smart'
      const [hours, dims, visitors, installs, variantInstalls] = await Promise.all([
        store.hours(link.id, floorTo(start, HOUR_MS), end),
        store.dims(link.id, floorTo(start, DAY_MS), end),
        store.visitors(link.id, floorTo(start, DAY_MS), end),
        smart && deps.installs
          ? deps.installs(organizationId, link.id, utcDayNumber(start), utcDayNumber(end))
          : undefined,
        smart && link.variants.length > 0 && deps.installClicks
          ? deps
              .installClicks(organizationId, link.id, utcDayNumber(start), utcDayNumber(end))
              .then((ids) => store.clickVariants(organizationId, ids))
          : new Map<string, string>(),
      ])

      const size = SIZE[interval]
      const first = bucketStart(start, interval)
      const last = bucketStart(end, interval)
      const series = new Map<number, { clicks: number; bots: number }>()
      for (let b = first; b <= last; b += size) series.set(b, { clicks: 0, bots: 0 })
      let clicks = 0
      let bots = 0
      let qrScans = 0
      let responseMsSum = 0
      for (const h of hours) {
        clicks += h.clicks
        bots += h.bots
        qrScans += h.qrScans
        responseMsSum += h.responseMsSum
        const s = series.get(bucketStart(h.hourStart, interval))
        if (s) {
          s.clicks += h.clicks
          s.bots += h.bots
        }
      }

      const byDim = new Map<string, DimRow[]>()
      for (const d of dims) byDim.set(d.dim, [...(byDim.get(d.dim) ?? []), d])
      const of = (dim: string) => byDim.get(dim) ?? []
      const sum = (rows: DimRow[]) => rows.reduce((n, r) => n + r.clicks, 0)
      const share = <K extends string>(dim: string, key: K) => {
        const rows = of(dim)
        const whole = sum(rows)
        return top(
          rows.map((r) => ({
            [key]: r.value || 'Unknown',
            clicks: r.clicks,
            percentage: pct(r.clicks, whole),
          })),
          (x) => String(x[key]),
        ) as Array<{ [P in K]: string } & { clicks: number; percentage: number }>
      }
      const counted = (dim: string) =>
        top(
          of(dim).map((r) => ({ value: r.value, clicks: r.clicks })),
          (x) => x.value,
        )

      return {
        linkId: link.id,
        range: { startDate: iso(start), endDate: iso(end) },
        interval,
        totalClicks: clicks,
        uniqueVisitors: visitors.visitors,
        qrScans,
        botDetection: { count: bots, percentage: pct(bots, clicks + bots) },
        blockedVisits: sum(of('blocked')),
        responseTime: clicks + bots > 0 ? round(responseMsSum / (clicks + bots), 2) : 0,
        bounceRate: pct(visitors.singleClick, visitors.visitors),
        geography: geography(of('country'), of('region')),
        devices: share('device', 'device'),
        browsers: share('browser', 'browser'),
        os: share('os', 'os'),
        referrers: top(
          of('referrer').map((r) => ({ domain: r.value, clicks: r.clicks })),
          (x) => x.domain,
        ),
        timeSeries: [...series].map(([t, s]) => ({ timestamp: iso(t), clicks: s.clicks, bots: s.bots })),
        utmSources: counted('utm_source'),
        utmMediums: counted('utm_medium'),
        utmCampaigns: counted('utm_campaign'),
        ...(link.variants.length > 0 && {
          variants: variantFigures(link.variants, of('variant'), of('variant_visitors'), variantInstalls),
        }),
        ...(smart ? { platforms: platforms(of('os')), ...installs } : {}),
      }
    },
  }
}

/**
 * The figures of each current variant, by its URL: human clicks, daily visitors, and installs
 * (`installs`: the variant of each attributed install's click, by click id). URLs are compared as
 * sent (locationOf): clicks of a variant stored as typed by an earlier linkd count under its
 * encoded form.
 */
function variantFigures(
  variants: LinkVariant[],
  clicks: DimRow[],
  visitors: DimRow[],
  installs: ReadonlyMap<string, string>,
): NonNullable<LinkAnalytics['variants']> {
  const add = (to: Map<string, number>, url: string, n: number) => {
    const sent = locationOf(url)
    to.set(sent, (to.get(sent) ?? 0) + n)
  }
  const count = (rows: DimRow[]) => {
    const out = new Map<string, number>()
    for (const r of rows) add(out, r.value, r.clicks)
    return out
  }
  const clicksOf = count(clicks)
  const visitorsOf = count(visitors)
  const installsOf = new Map<string, number>()
  for (const v of installs.values()) add(installsOf, v, 1)
  return variants.map((v) => {
    const url = locationOf(v.destinationUrl)
    return {
      destinationUrl: v.destinationUrl,
      weight: v.weight,
      clicks: clicksOf.get(url) ?? 0,
      uniqueVisitors: visitorsOf.get(url) ?? 0,
      installs: installsOf.get(url) ?? 0,
    }
  })
}

/**
 * A smart link's human clicks per target platform, from the per-OS counters (the redirect picks
 * the target by the same OS reading): ios, android, desktop, other, each with its share.
 */
function platforms(os: DimRow[]): PlatformShare[] {
  const clicks: Record<SmartLinkPlatform, number> = { ios: 0, android: 0, desktop: 0, other: 0 }
  for (const r of os) clicks[platformOf(r.value || null)] += r.clicks
  const whole = os.reduce((n, r) => n + r.clicks, 0)
  return SMART_LINK_PLATFORMS.map((platform) => ({
    platform,
    clicks: clicks[platform],
    percentage: pct(clicks[platform], whole),
  }))
}

/**
 * One entry per country and region: a country's clicks are split over its known regions ("CC/Region"
 * counters), the rest stay under region null. Unknown countries are listed as "Unknown".
 */
function geography(countries: DimRow[], regions: DimRow[]): LinkAnalytics['geography'] {
  const whole = countries.reduce((n, r) => n + r.clicks, 0)
  const regionsOf = new Map<string, DimRow[]>()
  for (const r of regions) {
    const cc = r.value.slice(0, r.value.indexOf('/'))
    regionsOf.set(cc, [...(regionsOf.get(cc) ?? []), r])
  }
  const out: LinkAnalytics['geography'] = []
  for (const c of countries) {
    const country = c.value || 'Unknown'
    let rest = c.clicks
    for (const r of regionsOf.get(c.value) ?? []) {
      const n = Math.min(r.clicks, rest)
      if (n <= 0) continue
      rest -= n
      out.push({
        country,
        region: r.value.slice(r.value.indexOf('/') + 1),
        clicks: n,
        percentage: pct(n, whole),
      })
    }
    if (rest > 0) out.push({ country, region: null, clicks: rest, percentage: pct(rest, whole) })
  }
  return top(out, (g) => `${g.country}/${g.region ?? ''}`)
}
