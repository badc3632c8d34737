/** The clicks module's interfaces, imported by its own files (other modules import its index.ts). */
import type {
  AnalyticsQuery,
  ClicksQuery,
  LinkAnalytics,
  OrganizationClicks,
} from '../../../src/contract/click-analytics.js'
import type { ClickInput, ClickRecorder } from './recorder.js'
import type { ClickRef } from './store.js'
import type { RawFile, RawRows } from '../../raw-export.js'
import type { ClicksExportQuery } from '../../../src/contract/raw-export.js'

/** The range of raw clicks: an optional link, and dates (ISO 8601; whole UTC days). */
export interface RawClicksQuery {
  linkId?: string | undefined
  startDate?: string | undefined
  endDate?: string | undefined
}

export interface ClicksService {
  /** The click buffer: flush, start, stop, pending, and status() for /health/ready. */
  recorder: ClickRecorder
  /** Buffers the click of a redirect; never waits on the disk. */
  record(click: ClickInput): void
  /**
   * The daily visitor hash of a visit (uniqueVisitors counts them): SHA-256 of the UTC day's
   * salt, the address and the user agent. The redirect picks a link's variant by it.
   */
  visitorHash(ts: number, ip: string, userAgent: string): string
  /** Smart-link clicks of an organization by click id (buffered clicks flushed first). */
  clickRefs(organizationId: string, clickIds: readonly string[]): Promise<ClickRef[]>
  /** `GET /api/use/analytics/links/:id`: one link's analytics over a range. */
  link(organizationId: string, id: string, q: AnalyticsQuery): Promise<LinkAnalytics>
  /** `GET /api/use/analytics/clicks`: the organization's clicks per UTC day. */
  organization(organizationId: string, q: ClicksQuery): Promise<OrganizationClicks>
  /**
   * The raw clicks of the organization (or of one of its links: 404 for another's) on the UTC
   * days from startDate's to endDate's (default the last 30 days), read page by page as consumed.
   */
  rawClicks(
    organizationId: string,
    q: RawClicksQuery,
  ): Promise<{ rows: RawRows; firstDay: number; lastDay: number }>
  /** The raw clicks export as a file (NDJSON, CSV or Parquet), streamed. */
  rawExport(organizationId: string, q: ClicksExportQuery): Promise<RawFile>
  /** Human clicks of a link (or smart link) from the hour of `since` on (buffered clicks flushed first). */
  humanClicksSince(linkId: string, since: number): Promise<number>
  /** Job: deletes the click data of links that no longer exist, up to `budget` rows; returns how many. */
  purgeDeletedLinks(budget: number): Promise<number>
}
