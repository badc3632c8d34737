/**
 * The SKAN schema optimizer: pure, no I/O, no clock. From each player's first-window revenue and
 * events it proposes a schema: value = revenue bucket × 2^k + k key-event bits, revenue in the high
 * bits so each tier is a contiguous range for the coarse bands (docs/reference/skan.md).
 */
import { AppError } from '../../../http/errors.js'
import type { CoarseBand, ConversionSchema } from '../../../../src/contract/skan.js'
import { round, toMicros } from '../../../../src/contract/numbers.js'
import { measureError, roundedMoney, type Measured, type RevenueError } from './optimize-error.js'
import type { History } from './optimize-error.js'
export type { History } from './optimize-error.js'

/** Fewer installs than this with a complete first window: no proposal (422). */
export const MIN_INSTALLS = 100
/** Key event bits of a proposal unless asked otherwise; at most 4 (two bits stay for revenue). */
export const DEFAULT_EVENT_BITS = 2
export const MAX_EVENT_BITS = 4
/** A payer bucket holds at least this many payers of the history (fewer buckets otherwise). */
export const MIN_PAYERS_PER_BUCKET = 10
/** The bucket index bits as pseudo-events of the `events` map. */
export const REVENUE_BIT_PREFIX = 'revenue_bucket_'
/**
 * Event types never proposed as key events: done by (nearly) every player, or revenue events
 * whose information the revenue bits already carry, or every custom type at once.
 */
const NOT_KEY_EVENTS: ReadonlySet<string> = new Set([
  'session_start',
  'session_end',
  'app_install',
  'app_open',
  'app_close',
  'purchase',
  'subscription_start',
  'subscription_renew',
  'custom',
])

/** A range of fine values, both ends included. */
export interface Band {
  min: number
  max: number
}
export type { ConversionSchema }

export interface OptimizeOptions {
  current: ConversionSchema
  lockWindowHours: number
  eventBits?: number
}

/** A range of revenue, reporting currency: min inclusive, max exclusive (null: no upper bound). */
export interface RevenueRange {
  min: number
  max: number | null
}

export interface KeyEvent {
  event: string
  value: number
  /** Players who did it in the window, and their share of the installs. */
  players: number
  share: number
  /** Correlation of "did the event" with window revenue (point-biserial), -1..1. */
  association: number
}

export interface BucketRow {
  bucket: number
  values: Band
  revenueRange: RevenueRange
  decodedRevenue: number
  players: number
  share: number
}

export interface ValueRow {
  value: number
  bucket: number
  events: string[]
  revenueRange: RevenueRange
  decodedRevenue: number
  players: number
  share: number
}

export interface Proposal {
  installs: number
  payers: number
  current: ConversionSchema
  proposed: ConversionSchema
  keyEvents: KeyEvent[]
  buckets: BucketRow[]
  values: ValueRow[]
  expectedError: RevenueError
  /** The same figures for the current schema, or null with the reason. */
  currentError: RevenueError | null
  currentErrorReason: string | null
}

/** Whether a bit set (< 2^31: event type bits go up to 20) has `bit`. */
const hasBit = (mask: number, bit: number) => ((mask >>> bit) & 1) === 1

/** The `limit` candidate event bits most positively associated with revenue, strongest first. */
export function keyEvents(history: History, limit: number): KeyEvent[] {
  const { revenueMicros: revenue, eventTypes, typeByBit } = history
  const n = revenue.length
  let sum = 0
  let sumSquares = 0
  // One pass: per bit, the players who did the type and their revenue (bit sets are < 2^21).
  const doers = new Array<number>(typeByBit.length).fill(0)
  const doersRevenue = new Array<number>(typeByBit.length).fill(0)
  for (let i = 0; i < n; i++) {
    const r = revenue[i]!
    sum += r
    sumSquares += r * r
    for (let mask = eventTypes[i]!; mask !== 0; mask &= mask - 1) {
      const bit = 31 - Math.clz32(mask & -mask)
      doers[bit]!++
      doersRevenue[bit]! += r
    }
  }
  const mean = sum / n
  const deviation = Math.sqrt(Math.max(0, sumSquares / n - mean * mean))
  const found: Array<Omit<KeyEvent, 'value'>> = []
  typeByBit.forEach((event, bit) => {
    const did = doers[bit]!
    if (NOT_KEY_EVENTS.has(event) || did === 0 || did === n || deviation === 0) return
    const share = did / n
    const gap = doersRevenue[bit]! / did - (sum - doersRevenue[bit]!) / (n - did)
    const association = (gap * Math.sqrt(share * (1 - share))) / deviation
    if (association > 0) found.push({ event, players: did, share, association })
  })
  found.sort((a, b) => b.association - a.association || (a.event < b.event ? -1 : 1))
  return found.slice(0, limit).map((e, i) => ({
    ...e,
    value: 2 ** i,
    share: round(e.share, 6),
    association: round(e.association, 6),
  }))
}

/**
 * Lower revenue edges (micros) of the payer buckets: bucket j (1-based) starts at the payer
 * revenue of rank ⌊(j-1)·P/B⌋ in ascending order (the (j-1)/B quantile), so each bucket holds
 * P/B payers; equal edges (ties) merge their buckets.
 */
export function payerBucketEdges(payerRevenue: Float64Array, maxBuckets: number): number[] {
  const payers = payerRevenue.length
  if (payers === 0) return []
  const buckets = Math.min(maxBuckets, Math.max(1, Math.floor(payers / MIN_PAYERS_PER_BUCKET)))
  const edges: number[] = []
  for (let j = 0; j < buckets; j++) {
    const edge = payerRevenue[Math.floor((j * payers) / buckets)]!
    if (edges.length === 0 || edge > edges[edges.length - 1]!) edges.push(edge)
  }
  return edges
}

/** The bucket of a revenue: 0 without revenue, else the last payer bucket whose edge it reaches. */
export function bucketOf(revenueMicros: number, edges: readonly number[]): number {
  if (revenueMicros <= 0) return 0
  let low = 1
  let high = edges.length
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if (edges[middle - 1]! <= revenueMicros) low = middle
    else high = middle - 1
  }
  return low
}

/** The positive revenues, ascending. */
function payerRevenueOf(revenueMicros: ArrayLike<number>): Float64Array {
  let payers = 0
  for (let i = 0; i < revenueMicros.length; i++) if (revenueMicros[i]! > 0) payers++
  const out = new Float64Array(payers)
  let at = 0
  for (let i = 0; i < revenueMicros.length; i++) if (revenueMicros[i]! > 0) out[at++] = revenueMicros[i]!
  return out.sort()
}

const bitsFor = (count: number) => (count <= 1 ? 0 : Math.ceil(Math.log2(count)))

/** Micros each bucket decodes to: 0, the midpoint of each closed bucket, the mean of the open top one. */
function bucketDecodes(edges: readonly number[], payerRevenue: Float64Array): number[] {
  let topSum = 0
  let topPlayers = 0
  for (const revenue of payerRevenue)
    if (edges.length > 0 && revenue >= edges[edges.length - 1]!) {
      topSum += revenue
      topPlayers++
    }
  return [
    0,
    ...edges.map((edge, j) => {
      const next = edges[j + 1]
      return next === undefined ? Math.round(topSum / topPlayers) : Math.round((edge + next) / 2)
    }),
  ]
}

/** Coarse bands by revenue tier: low = bucket 0, medium = the lower half of the payer buckets. */
function coarseBands(width: number, payerBuckets: number): Record<CoarseBand, Band> {
  const mediumBuckets = Math.max(1, Math.ceil(payerBuckets / 2))
  return {
    low: { min: 0, max: width - 1 },
    medium: { min: width, max: (mediumBuckets + 1) * width - 1 },
    high: { min: (mediumBuckets + 1) * width, max: 63 },
  }
}

/** The layout of a proposal: value = bucket × width + the key events' bits. */
interface Layout {
  keys: KeyEvent[]
  edges: number[]
  width: number
  decodes: number[]
  installs: number
  measured: Measured
}

/** The bucket and value tables of a proposal, and the fine values' decoded revenue. */
function tables(layout: Layout) {
  const { keys, edges, width, decodes, installs, measured } = layout
  const rangeOf = (bucket: number): RevenueRange =>
    bucket === 0
      ? { min: 0, max: 0 }
      : {
          min: roundedMoney(edges[bucket - 1]!),
          max: edges[bucket] === undefined ? null : roundedMoney(edges[bucket]!),
        }
  const share = (players: number) => round(players / installs, 6)
  const values: ValueRow[] = []
  const buckets: BucketRow[] = []
  const fine: Record<string, number> = {}
  for (let bucket = 0; bucket <= edges.length; bucket++) {
    const decodedRevenue = roundedMoney(decodes[bucket]!)
    let bucketPlayers = 0
    for (let eventBits = 0; eventBits < width; eventBits++) {
      const value = bucket * width + eventBits
      const players = measured.playersByValue[value] ?? 0
      bucketPlayers += players
      fine[String(value)] = decodedRevenue
      values.push({
        value,
        bucket,
        events: keys.filter((e) => (eventBits & e.value) !== 0).map((e) => e.event),
        revenueRange: rangeOf(bucket),
        decodedRevenue,
        players,
        share: share(players),
      })
    }
    buckets.push({
      bucket,
      values: { min: bucket * width, max: bucket * width + width - 1 },
      revenueRange: rangeOf(bucket),
      decodedRevenue,
      players: bucketPlayers,
      share: share(bucketPlayers),
    })
  }
  return { values, buckets, fine }
}

/** The mean true revenue of the history's players whose values fall in a band. */
function bandMean(measured: Measured, band: Band): number {
  let sum = 0
  let players = 0
  for (let value = band.min; value <= band.max; value++) {
    sum += measured.revenueByValue[value] ?? 0
    players += measured.playersByValue[value] ?? 0
  }
  return players === 0 ? 0 : roundedMoney(sum / players)
}

export function optimize(history: History, options: OptimizeOptions): Proposal {
  const installs = history.revenueMicros.length
  if (installs < MIN_INSTALLS)
    throw new AppError(
      'Unprocessable',
      `too little history to propose a schema: ${installs} installs with a complete first conversion window (days 0-2), at least ${MIN_INSTALLS} needed`,
      [{ field: 'history', message: `${installs} installs; at least ${MIN_INSTALLS} needed` }],
    )
  const eventBits = Math.min(MAX_EVENT_BITS, Math.max(0, options.eventBits ?? DEFAULT_EVENT_BITS))
  const keys = keyEvents(history, eventBits)
  const width = 2 ** keys.length
  const payerRevenue = payerRevenueOf(history.revenueMicros)
  const edges = payerBucketEdges(payerRevenue, 64 / width - 1)
  const decodes = bucketDecodes(edges, payerRevenue)

  const events: Record<string, number> = {}
  for (const e of keys) events[e.event] = e.value
  // Each bit of the bucket index, named by its weight in the index.
  for (let indexBit = 0; indexBit < bitsFor(edges.length + 1); indexBit++)
    events[`${REVENUE_BIT_PREFIX}${2 ** indexBit}`] = width * 2 ** indexBit

  const keyBits = keys.map((e) => history.typeByBit.indexOf(e.event))
  const measured = measureError(history, (revenueMicros, mask) => {
    const bucket = bucketOf(revenueMicros, edges)
    let value = bucket * width
    for (let i = 0; i < keyBits.length; i++) if (hasBit(mask, keyBits[i]!)) value += 2 ** i
    return { value, estimateMicros: decodes[bucket]! }
  })
  const coarseValues = coarseBands(width, edges.length)
  const { values, buckets, fine } = tables({ keys, edges, width, decodes, installs, measured })
  const current = currentEstimate(history, options.current)
  return {
    installs,
    payers: payerRevenue.length,
    current: options.current,
    proposed: {
      events,
      coarseValues,
      lockWindow: options.lockWindowHours,
      decodedRevenue: {
        fine,
        coarse: {
          low: bandMean(measured, coarseValues.low),
          medium: bandMean(measured, coarseValues.medium),
          high: bandMean(measured, coarseValues.high),
        },
      },
    },
    keyEvents: keys,
    buckets,
    values,
    expectedError: measured.summary,
    currentError: typeof current === 'string' ? null : current,
    currentErrorReason: typeof current === 'string' ? current : null,
  }
}

/**
 * The error of the current schema on the same history, when the history can say which value each
 * player would have sent: every event of the schema must be a named event type (custom types
 * share one bit in the history; revenue buckets need edges the schema does not keep). A value
 * without decoded revenue counts 0, as the reports do. Otherwise the reason in words.
 */
function currentEstimate(history: History, schema: ConversionSchema): RevenueError | string {
  const bits: Array<[number, number]> = []
  for (const [event, value] of Object.entries(schema.events)) {
    const bit = history.typeByBit.indexOf(event)
    if (bit < 0 || event === 'custom')
      return `the current schema's event ${event} is not a named event type the history records`
    bits.push([bit, value])
  }
  const fine = schema.decodedRevenue?.fine ?? {}
  return measureError(history, (_, mask) => {
    let value = 0
    for (const [bit, weight] of bits) if (hasBit(mask, bit)) value += weight
    return { value, estimateMicros: toMicros(fine[String(value)] ?? 0) }
  }).summary
}
