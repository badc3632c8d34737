import { floorTo, HOUR_MS, type Clock } from '../../clock.js'
import type { EventBus } from '../../events.js'
import type {
  AnalyticsQuery,
  ClicksQuery,
  LinkAnalytics,
  OrganizationClicks,
} from '../../../src/contract/click-analytics.js'
import type { LinkVariant } from '../../../src/contract/variants.js'
import { createVisitorHasher } from './classify.js'
import { createLinkAnalytics, type LinkInstallClicks, type LinkInstalls } from './link-analytics.js'
import type { Locate } from './location.js'
import { clickDays, createOrganizationClicks } from './organization-clicks.js'
import { rawClickRows } from './raw-export.js'
import { rawFile } from '../../raw-export.js'
import { iso } from '../../clock.js'
import {
  createClickRecorder,
  type ClickInput,
  type LinkClickCounter,
  type QrScanCounter,
} from './recorder.js'
import type { ClickRef, ClickStore } from './store.js'
import type { ClicksService, RawClicksQuery } from './api.js'
import type { ClicksExportQuery } from '../../../src/contract/raw-export.js'

/** What the clicks module needs of the links service. */
export interface ClickLinks extends LinkClickCounter {
  /** A link or smart link of an organization; throws NotFound for another organization's. */
  owned(
    organizationId: string,
    id: string,
  ): Promise<{ id: string; kind: 'link' | 'smart'; variants: LinkVariant[] }>
  /** Which of `ids` are links that still exist (the purge asks; the links table is not ours). */
  existingIds(ids: readonly string[]): Promise<Set<string>>
}

/** Link ids of the click tables checked against the links service per request. */
const PURGE_SCAN_PAGE = 500
/** Deleted links purged per run at most (the rest wait for the next run). */
const PURGE_LINKS_PER_RUN = 100

export interface ClicksServiceDeps {
  store: ClickStore
  links: ClickLinks
  /** Per-code scans of QR code resources (the qr-codes module). */
  qrCodes?: QrScanCounter
  events: EventBus
  clock: Clock
  masterKey: Buffer
  locate: Locate
  /** A flush in the background failed (its clicks are kept for the next one, bounded). */
  onError?(err: unknown): void
  /** Clicks dropped because the database kept refusing them (logged by the caller). */
  onDrop?(count: number, err: unknown): void
  /** The flush before an analytics read failed: the read answers from what is stored. */
  onReadFlushError?(err: unknown): void
  /** The installs attributed to a smart link and their revenue (gaming, given by the composition). */
  installs?: LinkInstalls
  /** The click ids of those installs (per-variant installs of a split smart link). */
  installClicks?: LinkInstallClicks
  maxBuffer?: number
  flushMs?: number
}

/**
 * The clicks module: it owns the click tables (raw clicks and their counters). It records the
 * clicks the redirect hands over (buffered, enriched and written off the request path, with
 * links.clicks updated through the links service in the same transaction), answers the link
 * analytics reads, and purges the clicks of deleted links.
 */
export function createClicksService(deps: ClicksServiceDeps): ClicksService {
  const { store } = deps
  const visitorHash = createVisitorHasher(deps.masterKey)
  const recorder = createClickRecorder({
    store,
    links: deps.links,
    ...(deps.qrCodes ? { qrCodes: deps.qrCodes } : {}),
    events: deps.events,
    locate: deps.locate,
    visitorHash,
    ...(deps.onError ? { onError: deps.onError } : {}),
    ...(deps.onDrop ? { onDrop: deps.onDrop } : {}),
    ...(deps.maxBuffer ? { maxBuffer: deps.maxBuffer } : {}),
    ...(deps.flushMs ? { flushMs: deps.flushMs } : {}),
  })
  // When the database refuses the buffered clicks, a read still answers from what is stored.
  const flush = () => recorder.flush().catch((err: unknown) => deps.onReadFlushError?.(err))
  const analytics = createLinkAnalytics({
    store,
    clock: deps.clock,
    links: deps.links,
    flush,
    ...(deps.installs ? { installs: deps.installs } : {}),
    ...(deps.installClicks ? { installClicks: deps.installClicks } : {}),
  })
  const organizationClicks = createOrganizationClicks({ store, clock: deps.clock, flush })

  /** The raw clicks of a range (a link of the organization: 404 otherwise), buffered clicks written first. */
  async function rawClicks(organizationId: string, q: RawClicksQuery) {
    const { firstDay, lastDay } = clickDays(q, deps.clock.now())
    if (q.linkId !== undefined) await deps.links.owned(organizationId, q.linkId)
    await flush()
    return {
      rows: rawClickRows(store, organizationId, q.linkId, firstDay, lastDay),
      firstDay,
      lastDay,
    }
  }

  return {
    /** The click buffer: flush, start, stop, pending, and status() for /health/ready. */
    recorder,
    rawClicks,
    async rawExport(organizationId: string, q: ClicksExportQuery) {
      const { rows, firstDay, lastDay } = await rawClicks(organizationId, q)
      const name = `${q.linkId ?? 'clicks'}-${iso(firstDay).slice(0, 10)}-${iso(lastDay).slice(0, 10)}`
      return rawFile(name, rows, q.format ?? 'ndjson')
    },
    /** Buffers the click of a redirect; never waits on the disk. */
    record(click: ClickInput): void {
      recorder.record(click)
    },
    visitorHash,

    /** Buffered clicks are written first: an install may arrive right after its click. */
    async clickRefs(organizationId: string, clickIds: readonly string[]): Promise<ClickRef[]> {
      if (clickIds.length === 0) return []
      await flush()
      return store.clickRefs(organizationId, clickIds)
    },

    /** `GET /api/use/analytics/links/:id`. */
    link: (organizationId: string, id: string, q: AnalyticsQuery): Promise<LinkAnalytics> =>
      analytics.link(organizationId, id, q),

    /** `GET /api/use/analytics/clicks`: the organization's clicks per UTC day. */
    organization: (organizationId: string, q: ClicksQuery): Promise<OrganizationClicks> =>
      organizationClicks(organizationId, q),

    /** From the hourly counters: a link's human clicks in the hours from `since`'s on. */
    async humanClicksSince(linkId: string, since: number): Promise<number> {
      await flush()
      const rows = await store.hours(linkId, floorTo(since, HOUR_MS), deps.clock.now())
      return rows.reduce((n, r) => n + r.clicks, 0)
    },

    /**
     * Deletes the click data of links that no longer exist, up to `budget` rows (the purge job).
     * The links service says which links exist: the click tables' link ids are checked against
     * it page by page. Returns the rows deleted; a link whose data is only partly gone is
     * finished by the next call (its hourly rows go last, so it is found again).
     */
    async purgeDeletedLinks(budget: number): Promise<number> {
      const orphans: string[] = []
      let after: string | null = null
      while (orphans.length < PURGE_LINKS_PER_RUN) {
        const ids = await store.linkIdsWithClicks(after, PURGE_SCAN_PAGE)
        if (ids.length === 0) break
        const live = await deps.links.existingIds(ids)
        for (const id of ids) if (!live.has(id)) orphans.push(id)
        if (ids.length < PURGE_SCAN_PAGE) break
        after = ids[ids.length - 1] ?? null
      }
      let deleted = 0
      for (const linkId of orphans.slice(0, PURGE_LINKS_PER_RUN)) {
        if (deleted >= budget) break
        deleted += await store.purgeLink(linkId, budget - deleted)
      }
      return deleted
    },
  }
}
