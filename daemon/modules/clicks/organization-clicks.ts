import type { Clock } from '../../clock.js'
import { DAY_MS, floorTo, iso } from '../../clock.js'
import { AppError } from '../../http/errors.js'
import type { ClicksQuery, OrganizationClicks } from '../../../src/contract/click-analytics.js'
import { LINK_LIMITS } from '../../../src/contract/limits.js'
import { DEFAULT_RANGE, parseDate } from './link-analytics.js'
import type { ClickStore } from './store.js'

export interface OrganizationClicksDeps {
  store: Pick<ClickStore, 'organizationDays'>
  clock: Clock
  /** Writes buffered clicks, so that a read sees every click made before it. */
  flush(): Promise<void>
}

/**
 * The whole UTC days of a clicks query: from the day holding startDate to the day holding endDate
 * (default the last 30 days up to now), at most 2,000 (a 400 naming the field otherwise).
 */
export function clickDays(
  q: { startDate?: string | undefined; endDate?: string | undefined },
  now: number,
): { start: number; end: number; firstDay: number; lastDay: number } {
  const end = parseDate(q.endDate, 'endDate', 'end') ?? now
  const start = parseDate(q.startDate, 'startDate', 'start') ?? end - DEFAULT_RANGE
  if (start > end)
    throw new AppError('ValidationError', 'startDate must not be after endDate', [
      { field: 'startDate', message: 'must not be after endDate' },
    ])
  const firstDay = floorTo(start, DAY_MS)
  const lastDay = floorTo(end, DAY_MS)
  const dayCount = (lastDay - firstDay) / DAY_MS + 1
  if (dayCount > LINK_LIMITS.seriesMax)
    throw new AppError(
      'ValidationError',
      `the range holds ${dayCount} days; at most ${LINK_LIMITS.seriesMax} are allowed: narrow the range`,
      [{ field: 'startDate', message: `gives more than ${LINK_LIMITS.seriesMax} days before endDate` }],
    )
  return { start, end, firstDay, lastDay }
}

/**
 * `GET /api/use/analytics/clicks`: an organization's clicks per UTC day, from its daily counters
 * (org_click_days, added by each click flush; never raw clicks, one row a day however many links).
 * The range holds whole UTC days: from the day holding startDate to the day holding endDate
 * (default: the last 30 days up to now), at most 2,000 of them. Clicks of links deleted since
 * still count: they were the organization's clicks that day.
 */
export function createOrganizationClicks(deps: OrganizationClicksDeps) {
  return async function organizationClicks(
    organizationId: string,
    q: ClicksQuery,
  ): Promise<OrganizationClicks> {
    const { start, end, firstDay, lastDay } = clickDays(q, deps.clock.now())
    await deps.flush()
    const totals = await deps.store.organizationDays(organizationId, firstDay, lastDay)

    const byDay = new Map(totals.map((t) => [t.dayStart, t]))
    const days: OrganizationClicks['days'] = []
    for (let day = firstDay; day <= lastDay; day += DAY_MS) {
      const t = byDay.get(day)
      days.push({
        date: iso(day).slice(0, 10),
        clicks: t?.clicks ?? 0,
        bots: t?.bots ?? 0,
        qrScans: t?.qrScans ?? 0,
      })
    }
    const sum = (key: 'clicks' | 'bots' | 'qrScans') => days.reduce((n, d) => n + d[key], 0)
    return {
      range: { startDate: iso(start), endDate: iso(end) },
      totalClicks: sum('clicks'),
      bots: sum('bots'),
      qrScans: sum('qrScans'),
      days,
    }
  }
}
