/**
 * The export row sources of the reports: each report flattened to one row per
 * line of its answer. Another type is one `registry.register(type, { columns, open })`: `open`
 * checks the request and returns an async iterable of flat rows (players pages by keyset).
 */
import {
  RETENTION_DAYS,
  type ExportQuery,
  type Overview,
  type OverviewQuery,
} from '../../../../src/contract/gaming.js'
import type { Events, Geography, Retention, RetentionQuery } from '../../../../src/contract/gaming.js'
import { rowsOf, type ExportRegistry, type FlatRow } from './export.js'

interface Reports {
  overview(organizationId: string, slug: string, q: OverviewQuery): Promise<Overview>
  retention(organizationId: string, slug: string, q: RetentionQuery): Promise<Retention>
  geography(organizationId: string, slug: string, q: OverviewQuery): Promise<Geography>
  events(organizationId: string, slug: string, q: OverviewQuery): Promise<Events>
}

const rangeOf = (q: ExportQuery) => ({ startDate: q.startDate, endDate: q.endDate })

const OVERVIEW_COLUMNS = [
  'startDate',
  'endDate',
  'dau',
  'mau',
  'revenueTotal',
  'revenueIap',
  'revenueAd',
  'revenueSubscription',
  'arpu',
  'arppu',
  'avgSessionSeconds',
  'retentionD1',
  'retentionD7',
  'retentionD30',
] as const

const RETENTION_COLUMNS = [
  'cohort',
  'size',
  ...RETENTION_DAYS.flatMap((n) => [`d${n}Retained`, `d${n}Percentage`, `d${n}Band`]),
]

export function registerReportSources(registry: ExportRegistry, reports: Reports): void {
  registry.register('overview', {
    columns: OVERVIEW_COLUMNS,
    async open({ organizationId, slug, query }) {
      const o = await reports.overview(organizationId, slug, rangeOf(query))
      const row: FlatRow = {
        startDate: o.range.startDate,
        endDate: o.range.endDate,
        dau: o.dau,
        mau: o.mau,
        revenueTotal: o.revenue.total,
        revenueIap: o.revenue.iap,
        revenueAd: o.revenue.ad,
        revenueSubscription: o.revenue.subscription,
        arpu: o.arpu,
        arppu: o.arppu,
        avgSessionSeconds: o.avgSessionSeconds,
        retentionD1: o.retention.d1,
        retentionD7: o.retention.d7,
        retentionD30: o.retention.d30,
      }
      return rowsOf([row])
    },
  })
  registry.register('retention', {
    columns: RETENTION_COLUMNS,
    async open({ organizationId, slug, query }) {
      const r = await reports.retention(organizationId, slug, {
        ...rangeOf(query),
        granularity: query.granularity,
      })
      return rowsOf(
        r.data.map((row) => {
          const flat: FlatRow = { cohort: row.cohort, size: row.size }
          for (const n of RETENTION_DAYS) {
            const cell = row.days[`d${n}`]
            flat[`d${n}Retained`] = cell?.retained ?? null
            flat[`d${n}Percentage`] = cell?.percentage ?? null
            flat[`d${n}Band`] = cell?.band ?? null
          }
          return flat
        }),
      )
    },
  })
  registry.register('geography', {
    columns: ['country', 'players', 'sessions', 'revenue', 'revenuePerPlayer'],
    async open({ organizationId, slug, query }) {
      return rowsOf((await reports.geography(organizationId, slug, rangeOf(query))).data)
    },
  })
  registry.register('events', {
    columns: ['eventType', 'custom', 'count', 'uniquePlayers', 'percentage'],
    async open({ organizationId, slug, query }) {
      return rowsOf((await reports.events(organizationId, slug, rangeOf(query))).data)
    },
  })
}
