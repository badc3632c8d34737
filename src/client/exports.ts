import type {
  ClicksExportQuery,
  CreateExportDestinationBody,
  ExportDestination,
  ExportRun,
  RawEventsExportQuery,
} from '../contract/raw-export.js'
import type { PageOf, PageQuery } from '../contract/common.js'
import type { Requests } from './http.js'

/** Raw exports (streamed) and the destinations of scheduled exports. */
export function exportsApi(http: Requests) {
  return {
    /** A game's raw events, streamed; no timeout by default: millions of rows take a while. */
    rawEvents: (query: Omit<RawEventsExportQuery, 'type'>, timeoutMs = 6 * 3_600_000) =>
      http.stream('/api/v1/gaming/export', { query: { type: 'raw_events', ...query }, timeoutMs }),
    /** The organization's (or one link's) raw clicks, streamed. */
    clicks: (query: ClicksExportQuery = {}, timeoutMs = 6 * 3_600_000) =>
      http.stream('/api/use/analytics/clicks/export', { query, timeoutMs }),
    destinations: {
      create: (body: CreateExportDestinationBody) =>
        http.data<ExportDestination>('POST', '/api/exports/destinations', { body }),
      list: (query: PageQuery = {}) =>
        http.data<PageOf<ExportDestination>>('GET', '/api/exports/destinations', { query }),
      remove: async (id: string): Promise<void> => {
        await http.call('DELETE', `/api/exports/destinations/${encodeURIComponent(id)}`)
      },
      /** Writes one day now; the answer comes once the objects are stored. */
      run: (id: string, date?: string) =>
        http.data<ExportRun>('POST', `/api/exports/destinations/${encodeURIComponent(id)}/run`, {
          body: date ? { date } : {},
          timeoutMs: 6 * 3_600_000,
        }),
    },
  }
}
