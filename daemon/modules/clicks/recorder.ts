import { DAY_MS, floorTo, HOUR_MS, iso } from '../../clock.js'
import type { EventBus } from '../../events.js'
import { QR_MARKER } from '../../../src/contract/limits.js'
import { qrCodeIdOf, type ClickDelta, type ResolvedLink } from '../links/index.js'
import { botReason, parseAgent, referrerDomain, utmOf } from './classify.js'
import { countryName, type Locate } from './location.js'
import type { ClickBatch, ClickRow, DimDelta, HourDelta, OrgDayDelta, VisitorOfBatch } from './batch.js'
import type { ClickStore } from './store.js'
import { createBatcher } from '../../batcher.js'
import type { UnitOfWork } from '../../db/unit-of-work.js'

/** SQLITE_READONLY, SQLITE_FULL, SQLITE_BUSY, SQLITE_IOERR_…: the code only, never a message. */
function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^[A-Z0-9_]{1,64}$/.test(code) ? code : 'Error'
}

/** What the redirect hands over: raw request facts, enriched only at flush time (off the hot path). */
export interface ClickInput {
  link: ResolvedLink
  ts: number
  method: string
  ip: string
  userAgent: string
  referer: string | undefined
  query: Record<string, unknown> | undefined
  responseMs: number
  /** `clk_…` of a human visit of a smart link (the redirect made it and put it in Location). */
  clickId?: string
  /** The device page found an iPad behind a Mac's user agent: an iOS tablet. */
  ipad?: boolean
  /** The variant's destination URL the visit went to (a link with variants, no rule matched). */
  variant?: string
  /** The visit's visitor hash when the redirect already worked it out (to pick a variant). */
  visitorHash?: string
  /** The link is flagged by a safety list: the visit got the warning page (never a human click). */
  blocked?: boolean
}

/** What recording needs of the QR codes: each code's scans, inside the flush's unit of work. */
export interface QrScanCounter {
  /** Adds the scans of codes of those links; returns the ids that counted (existing codes of that link). */
  addScans(
    deltas: ReadonlyArray<{ qrCodeId: string; linkId: string; scans: number }>,
    unit: UnitOfWork,
  ): Promise<Set<string>>
}

/** What recording needs of the links service: links.clicks, inside the flush's unit of work. */
export interface LinkClickCounter {
  addClicks(deltas: ReadonlyArray<ClickDelta>, unit: UnitOfWork): Promise<void>
}

export interface RecorderDeps {
  store: Pick<ClickStore, 'transaction' | 'apply'>
  links: LinkClickCounter
  /** Per-code scans of `?qr=qr_…` visits; absent: those count on the link only. */
  qrCodes?: QrScanCounter
  events: EventBus
  locate: Locate
  visitorHash(ts: number, ip: string, userAgent: string): string
  /** A flush in the background failed (its clicks are kept for the next one, bounded). */
  onError?(err: unknown): void
  /** Clicks given up (the database kept refusing them): how many this time, and why. */
  onDrop?(count: number, err: unknown): void
  /** Flush when this many clicks are buffered (default 250: keeps a flush under the p99 budget). */
  maxBuffer?: number
  /**
   * Flush at least this often once started (default 500 ms): a click waits at most this long in
   * memory before its write starts, which leaves the other half of the documented crash bound
   * ("a kill -9 loses at most the clicks of the last second") for that write to commit.
   */
  flushMs?: number
}

/** Dimension names of link_click_dims. */
export const DIMS = [
  'country',
  'region',
  'device',
  'browser',
  'os',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  // Split destinations: human clicks per variant URL, and its visitors new to the day.
  'variant',
  'variant_visitors',
  // Visits answered with the safety warning page (value ''): bots in the hourly counters too.
  'blocked',
] as const
export type Dim = (typeof DIMS)[number]

interface Enriched {
  row: ClickRow
  link: ResolvedLink
  /** The `qr_…` id a human visit came with (a QR code resource's, if it still is one of this link). */
  qrCodeId: string | null
}

/** A QR code resource's id as `?qr=` carries it. */
const QR_CODE_ID = /^qr_[A-Za-z0-9_-]{1,64}$/

/**
 * The `qr` marker of a visit: '1' (the link's own QR image), a QR code resource's id, or none.
 * Either is a QR scan of the link; only an id can count on a code.
 */
function qrOf(query: Record<string, unknown> | undefined): { isQr: boolean; qrCodeId: string | null } {
  let v = query?.[QR_MARKER]
  if (Array.isArray(v)) v = v[0]
  if (v === '1') return { isQr: true, qrCodeId: null }
  if (typeof v === 'string' && QR_CODE_ID.test(v)) return { isQr: true, qrCodeId: v }
  return { isQr: false, qrCodeId: null }
}

/** The counter increments of a set of clicks. Bots count in hours.bots only; humans everywhere. */
export function aggregate(rows: ClickRow[]): ClickBatch {
  const hours = new Map<string, HourDelta>()
  const orgDays = new Map<string, OrgDayDelta>()
  /** Per link and day: dimension counters and visitor counters. */
  const days = new Map<string, { dims: Map<string, DimDelta>; visitors: Map<string, VisitorOfBatch> }>()
  for (const r of rows) {
    const hourStart = floorTo(r.ts, HOUR_MS)
    const hk = `${r.linkId}\n${hourStart}`
    let h = hours.get(hk)
    if (!h)
      hours.set(hk, (h = { linkId: r.linkId, hourStart, clicks: 0, bots: 0, qrScans: 0, responseMsSum: 0 }))
    h.responseMsSum += r.responseMs
    const dayStart = floorTo(r.ts, DAY_MS)
    const ok = `${r.organizationId}\n${dayStart}`
    let o = orgDays.get(ok)
    if (!o)
      orgDays.set(ok, (o = { organizationId: r.organizationId, dayStart, clicks: 0, bots: 0, qrScans: 0 }))
    const dk = `${r.linkId}\n${dayStart}`
    let day = days.get(dk)
    if (!day) days.set(dk, (day = { dims: new Map(), visitors: new Map() }))
    const dims = day.dims
    const add = (dim: Dim, value: string | null) => {
      if (value === null) return
      const k = `${dim}\n${value}`
      const d = dims.get(k)
      if (d) d.clicks++
      else dims.set(k, { linkId: r.linkId, dayStart, dim, value, clicks: 1 })
    }
    if (r.isBot) {
      h.bots++
      o.bots++
      if (r.botReason === 'blocked') add('blocked', '')
      continue
    }
    h.clicks++
    o.clicks++
    if (r.isQr) {
      h.qrScans++
      o.qrScans++
    }
    // Unknown country, browser and OS are counted under '' so that each list adds up to 100 %.
    add('country', r.country ?? '')
    if (r.country && r.region) add('region', `${r.country}/${r.region}`)
    add('device', r.device)
    add('browser', r.browser ?? '')
    add('os', r.os ?? '')
    add('referrer', r.referrerDomain)
    add('utm_source', r.utmSource)
    add('utm_medium', r.utmMedium)
    add('utm_campaign', r.utmCampaign)
    add('variant', r.variant)

    const v = day.visitors.get(r.visitorHash)
    if (v) v.clicks++
    else
      day.visitors.set(r.visitorHash, {
        linkId: r.linkId,
        dayStart,
        visitorHash: r.visitorHash,
        clicks: 1,
        variant: r.variant,
      })
  }
  const all = [...days.values()]
  return {
    rows,
    hours: [...hours.values()],
    orgDays: [...orgDays.values()],
    dims: all.flatMap((d) => [...d.dims.values()]),
    visitors: all.flatMap((d) => [...d.visitors.values()]),
  }
}

/**
 * Click recording with group commit: the redirect pushes a record and replies; every `maxBuffer`
 * clicks or `flushMs` (and on shutdown, and before any analytics read) the buffer is enriched
 * (bot flag, device, place, visitor hash, referrer, UTM), written in one transaction, added to
 * links.clicks, and announced (link.clicked / qr_code.scanned; bots never).
 */
export function createClickRecorder(deps: RecorderDeps) {
  const maxBuffer = deps.maxBuffer ?? 250
  const flushMs = deps.flushMs ?? 500
  let recorded = 0
  let received = 0

  function enrich(c: ClickInput): Enriched {
    const reason = c.blocked ? 'blocked' : botReason(c.method, c.userAgent)
    const agent = parseAgent(c.userAgent)
    const place = deps.locate(c.ip)
    const utm = utmOf(c.query, c.variant ?? c.link.destinationUrl)
    const qr = qrOf(c.query)
    return {
      link: c.link,
      qrCodeId: reason === null ? qr.qrCodeId : null,
      row: {
        linkId: c.link.id,
        organizationId: c.link.organizationId,
        ts: c.ts,
        visitorHash: c.visitorHash ?? deps.visitorHash(c.ts, c.ip, c.userAgent),
        isBot: reason !== null,
        botReason: reason,
        isQr: qr.isQr,
        country: place.country,
        region: place.region,
        city: place.city,
        device: c.ipad ? 'tablet' : agent.device,
        browser: agent.browser,
        os: c.ipad ? 'iOS' : agent.os,
        referrerDomain: referrerDomain(c.referer),
        utmSource: utm.source,
        utmMedium: utm.medium,
        utmCampaign: utm.campaign,
        responseMs: Math.round(c.responseMs * 1000) / 1000,
        clickId: c.clickId ?? null,
        variant: c.variant ?? null,
        qrCodeId: reason === null ? qr.qrCodeId : null,
      },
    }
  }

  /** `counted`: the QR code resources whose scans this flush counted (others: the link's own code). */
  function announce(clicks: Enriched[], counted: ReadonlySet<string>): void {
    const clicked = deps.events.listening('link.clicked')
    const scanned = deps.events.listening('qr_code.scanned')
    if (!clicked && !scanned) return
    for (const { row: r, link, qrCodeId } of clicks) {
      if (r.isBot || !(r.isQr ? scanned : clicked)) continue
      const visit = { country: countryName(r.country), device: r.device, browser: r.browser, os: r.os }
      if (r.isQr)
        deps.events.emit(
          'qr_code.scanned',
          {
            organizationId: r.organizationId,
            data: {
              qrCodeId: qrCodeId !== null && counted.has(qrCodeId) ? qrCodeId : qrCodeIdOf(r.linkId),
              linkId: r.linkId,
              shortUrl: link.shortUrl,
              scannedAt: iso(r.ts),
              ...(link.smart ? { kind: 'smart' as const } : {}),
              ...visit,
            },
          },
          r.ts,
        )
      else
        deps.events.emit(
          'link.clicked',
          {
            organizationId: r.organizationId,
            data: {
              linkId: r.linkId,
              shortUrl: link.shortUrl,
              clickedAt: iso(r.ts),
              ...(link.smart ? { kind: 'smart' as const } : {}),
              ...visit,
              countryCode: r.country,
              ...(r.city ? { city: r.city } : {}),
              ...(r.referrerDomain ? { referrer: r.referrerDomain } : {}),
            },
          },
          r.ts,
        )
    }
  }

  async function write(inputs: ClickInput[]): Promise<void> {
    const clicks = inputs.map(enrich)
    const rows = clicks.map((c) => c.row)
    const batch = aggregate(rows)
    const human = new Map<string, number>()
    for (const r of rows) if (!r.isBot) human.set(r.linkId, (human.get(r.linkId) ?? 0) + 1)
    // Human visits per QR code resource (bots carry no code id: see enrich).
    const scans = new Map<string, { qrCodeId: string; linkId: string; scans: number }>()
    for (const { qrCodeId, row } of clicks) {
      if (qrCodeId === null) continue
      const k = `${qrCodeId}\n${row.linkId}`
      const s = scans.get(k)
      if (s) s.scans++
      else scans.set(k, { qrCodeId, linkId: row.linkId, scans: 1 })
    }
    let counted: ReadonlySet<string> = new Set()
    // Click rows, counters, links.clicks and QR scans: one transaction, all of it or nothing.
    await deps.store.transaction(async (unit) => {
      if (scans.size > 0 && deps.qrCodes) counted = await deps.qrCodes.addScans([...scans.values()], unit)
      // A row keeps the code it named only when the scan counted on it (else: the link's own code).
      for (const r of rows) if (r.qrCodeId !== null && !counted.has(r.qrCodeId)) r.qrCodeId = null
      await deps.store.apply(batch, unit)
      if (human.size > 0)
        await deps.links.addClicks(
          [...human].map(([linkId, n]) => ({ linkId, clicks: n })),
          unit,
        )
    })
    recorded += rows.length
    announce(clicks, counted)
  }

  // Nothing is committed when a write fails (one transaction): the batcher keeps the clicks for
  // the next flush, up to 20 flushes' worth; beyond that (and at a failed shutdown) they are
  // dropped, counted and reported.
  const batch = createBatcher<ClickInput>({
    maxItems: maxBuffer,
    intervalMs: flushMs,
    maxRetained: 20 * maxBuffer,
    write,
    onError: (err) => deps.onError?.(err),
    onDrop: (count, err) => deps.onDrop?.(count, err),
  })

  return {
    /** Buffers one redirect; never waits. */
    record(c: ClickInput): void {
      received++
      batch.push(c)
    },
    /** Writes everything buffered so far (analytics reads call this first). */
    flush: () => batch.flush(),
    start: () => batch.start(),
    stop: () => batch.stop(),
    get pending(): number {
      return batch.pending
    },
    /** Clicks handed over since start: one per redirect answered, fast path included (metrics). */
    get received(): number {
      return received
    },
    /** Clicks written since start (benchmarks, tests and metrics). */
    get recorded(): number {
      return recorded
    },
    /**
     * For /health/ready: clicks waiting to be written, clicks dropped since start, and the error
     * code of the last flush when it failed (null once one succeeds).
     */
    status(): { buffered: number; dropped: number; writeError: string | null } {
      const err = batch.failure
      return {
        buffered: batch.pending,
        dropped: batch.dropped,
        writeError: err === undefined ? null : errorCode(err),
      }
    },
  }
}
export type ClickRecorder = ReturnType<typeof createClickRecorder>
