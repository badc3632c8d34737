/**
 * GET /analytics/games/:gameId/attribution: per first-touch affiliate, campaign, source, medium or link
 * of the players, the installs of the range, how many of them became paying players, the revenue
 * of the range, the acquisition cost (data.cost of app_install) and the affiliate commission
 * (data.commission of revenue events), avgCpa and avgRoas. Read from game_daily_dims and
 * game_acquisition_daily.
 */
import {
  NONE_GROUP,
  type AttributionQuery,
  type AttributionReport,
  type AttributionRow,
} from '../../../../src/contract/gaming-revenue.js'
import type { GameRecord } from '../games/index.js'
import type { AcquisitionStore } from '../storage/index.js'
import { byGroup, ratio } from './money.js'
import { money, round } from '../../../../src/contract/numbers.js'
import { dateOfDay } from '../../../clock.js'

interface Counters {
  installs: number
  conversions: number
  revenue: number
  cost: number
  commission: number
}

const figures = (c: Counters): Omit<AttributionRow, 'group'> => ({
  installs: c.installs,
  conversions: c.conversions,
  revenue: money(c.revenue),
  cost: money(c.cost),
  commission: money(c.commission),
  avgCpa: ratio(money(c.cost), c.conversions, null),
  avgRoas: c.cost ? round(c.revenue / c.cost, 6) : null,
})

/** Short URLs of an organization's links among `ids`; deleted ones are left out. */
export type LinkShortUrls = (organizationId: string, ids: readonly string[]) => Promise<Map<string, string>>

export async function attributionReport(
  deps: {
    acquisition: Pick<AcquisitionStore, 'revenueByDim' | 'acquisitionByDim'>
    linkRefs?: LinkShortUrls
  },
  game: GameRecord,
  range: { start: number; end: number },
  q: AttributionQuery,
): Promise<AttributionReport> {
  const { start, end } = range
  const dim = q.groupBy ?? 'source'
  const store = deps.acquisition
  const [dims, acquisition] = await Promise.all([
    store.revenueByDim(game.id, dim, start, end),
    store.acquisitionByDim(game.id, dim, start, end),
  ])
  const groups = new Map<string, Counters>()
  const of = (value: string) => {
    let c = groups.get(value)
    if (!c) groups.set(value, (c = { installs: 0, conversions: 0, revenue: 0, cost: 0, commission: 0 }))
    return c
  }
  for (const d of dims) {
    const c = of(d.value)
    c.installs += d.installs
    c.revenue += d.iap + d.ad + d.subscription
  }
  for (const a of acquisition) {
    const c = of(a.value)
    c.cost += a.cost
    c.commission += a.commission
    c.conversions += a.conversions
  }
  const total: Counters = { installs: 0, conversions: 0, revenue: 0, cost: 0, commission: 0 }
  const data: AttributionRow[] = []
  // Players without the value are stored under '': the (none) row; the totals are the rows' sum.
  for (const [value, c] of groups) {
    if (!(c.installs || c.conversions || c.revenue || c.cost || c.commission)) continue
    for (const k of Object.keys(total) as (keyof Counters)[]) total[k] += c[k]
    data.push({ group: value === '' ? NONE_GROUP : value, ...figures(c) })
  }
  data.sort((a, b) => b.installs - a.installs || byGroup(a, b))
  if (dim === 'link') {
    const ids = [...groups.keys()].filter((v) => v !== '')
    const urls = deps.linkRefs ? await deps.linkRefs(game.organizationId, ids) : new Map<string, string>()
    for (const r of data) r.shortUrl = urls.get(r.group) ?? null
  }
  return {
    data,
    totals: figures(total),
    currency: game.reportingCurrency,
    range: { startDate: dateOfDay(start), endDate: dateOfDay(end) },
  }
}
