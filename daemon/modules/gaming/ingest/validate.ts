/**
 * Batch and per-event checks of the ingestion (contract "Gaming ingestion"). A bad batch throws
 * an AppError; a bad event becomes a per-event error and the rest of the batch goes on.
 */
import { AppError } from '../../../http/errors.js'
import { nestedDeeperThan, nestingMessage } from '../../../http/json-guards.js'
import { FREE_FORM_NESTING_MAX, GAME_PLATFORMS, INGEST_LIMITS as L } from '../../../../src/contract/limits.js'
import type { GamePlatform, RevenueType } from '../../../../src/contract/limits.js'
import type { IngestError } from '../../../../src/contract/gaming.js'
import { PATTERN_MESSAGES, PLAIN_TEXT_PATTERN } from '../../../../src/contract/text.js'
import { CUSTOM_BIT, TYPE_BIT, type Attribution, type GameEvent } from '../storage/index.js'
import { utcDayNumber } from '../../../clock.js'
import { toMicros } from '../../../../src/contract/numbers.js'

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** ISO 8601 date-time with a zone (Z or ±hh:mm). */
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i
const CUSTOM_TYPE_RE = /^[A-Za-z][A-Za-z0-9_.:-]*$/
const PLATFORMS: ReadonlySet<string> = new Set(GAME_PLATFORMS)
const CURRENCIES: ReadonlySet<string> = new Set(
  (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('currency'),
)

/**
 * Revenue of the monetization events: purchase, subscription_start and subscription_renew must
 * carry data.amount and data.currency; item_purchased (IAP) and ad_watched (ad revenue) count
 * revenue when they carry both.
 */
const REVENUE: Readonly<Record<string, { type: RevenueType; required: boolean }>> = {
  purchase: { type: 'iap', required: true },
  item_purchased: { type: 'iap', required: false },
  subscription_start: { type: 'subscription', required: true },
  subscription_renew: { type: 'subscription', required: true },
  ad_watched: { type: 'ad', required: false },
}

/**
 * An event that passed every check, normalized for the pipeline; the fields the storage layers
 * keep are storage's GameEvent.
 */
export interface NormalizedEvent extends GameEvent {
  index: number
  data: Record<string, unknown> | null
}
export type { Attribution }

export interface ParsedBatch {
  batchId: string
  batchTimestamp: number
  events: unknown[]
}

const bad = (field: string, message: string) =>
  new AppError('ValidationError', `${field}: ${message}`, [{ field, message }])

export function parseTimestamp(v: unknown): number | undefined {
  if (typeof v !== 'string' || !DATETIME_RE.test(v)) return undefined
  const t = Date.parse(v)
  return Number.isFinite(t) ? t : undefined
}

/** The batch envelope: malformed JSON or a missing field is 400, more than 1,000 events 413. */
export function parseBatch(raw: Buffer): ParsedBatch {
  let body: unknown
  try {
    body = JSON.parse(raw.toString('utf8'))
  } catch {
    throw bad('body', 'is not valid JSON')
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw bad('body', 'must be a JSON object')
  const b = body as Record<string, unknown>
  const details: { field: string; message: string }[] = []
  if (typeof b.batch_id !== 'string' || !UUID_RE.test(b.batch_id))
    details.push({ field: 'batch_id', message: b.batch_id === undefined ? 'is required' : 'must be a UUID' })
  const batchTimestamp = parseTimestamp(b.batch_timestamp)
  if (batchTimestamp === undefined)
    details.push({
      field: 'batch_timestamp',
      message: b.batch_timestamp === undefined ? 'is required' : 'must be an ISO 8601 date-time',
    })
  if (!Array.isArray(b.events))
    details.push({ field: 'events', message: b.events === undefined ? 'is required' : 'must be an array' })
  if (details.length)
    throw new AppError('ValidationError', `${details[0]!.field} ${details[0]!.message}`, details)
  const events = b.events as unknown[]
  if (events.length > L.eventsPerBatch)
    throw new AppError(
      'PayloadTooLarge',
      `a batch holds at most ${L.eventsPerBatch} events (got ${events.length})`,
    )
  return { batchId: (b.batch_id as string).toLowerCase(), batchTimestamp: batchTimestamp!, events }
}

function str(v: unknown, max = L.idMax): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) v = String(v)
  return typeof v === 'string' && v.length > 0 && v.length <= max ? v : null
}

/**
 * Ids are stored and looked up as given: one holding a control, bidirectional or zero-width
 * character (the contract's definition) is refused. PostgreSQL's text cannot hold NUL at all.
 */
const PLAIN_ID = new RegExp(PLAIN_TEXT_PATTERN, 'u')
const NOT_PLAIN = PATTERN_MESSAGES[PLAIN_TEXT_PATTERN]!

/** The first of `keys` holding an id in `d`: the key and the id. */
function firstStr(
  d: Record<string, unknown> | null,
  keys: readonly string[],
): { key: string; value: string } | null {
  if (!d) return null
  for (const key of keys) {
    const value = str(d[key])
    if (value) return { key, value }
  }
  return null
}

/** A first-touch value taken from elsewhere (a link's UTM parameters): as an event's, or null. */
export function attributionValue(v: string | null): string | null {
  const value = str(v)
  return value !== null && PLAIN_ID.test(value) ? value : null
}

/** A click id as smart links make them (daemon/crypto.ts newId('clk')). */
const CLICK_ID_RE = /^clk_[A-Za-z0-9_-]{1,64}$/

/** The ids the storage layers keep from an event's data, by the data fields they come from. */
const DATA_IDS = {
  deviceFingerprint: ['device_fingerprint', 'device_id'],
  affiliate: ['affiliate', 'affiliate_id'],
  campaign: ['campaign', 'utm_campaign'],
  source: ['source', 'utm_source'],
  medium: ['medium', 'utm_medium'],
} as const
type DataIds = Record<keyof typeof DATA_IDS, string | null>
const DATA_ID_FIELDS = Object.entries(DATA_IDS) as Array<[keyof DataIds, readonly string[]]>

/** The data ids of an event, or the message refusing the first one holding a refused character. */
function dataIdsOf(data: Record<string, unknown> | null): DataIds | { error: string } {
  const out = {} as DataIds
  for (const [name, keys] of DATA_ID_FIELDS) {
    const found = firstStr(data, keys)
    if (found && !PLAIN_ID.test(found.value)) return { error: `data.${found.key} ${NOT_PLAIN}` }
    out[name] = found?.value ?? null
  }
  return out
}

type Money = Pick<GameEvent, 'revenueType' | 'revenueMicros' | 'currency' | 'costMicros' | 'commissionMicros'>

/** The money of an event that has none (spread into the event, never changed). */
const NO_MONEY: Money = Object.freeze({
  revenueType: null,
  revenueMicros: 0,
  currency: null,
  costMicros: 0,
  commissionMicros: 0,
})

const amountIn = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= L.amountMax

/**
 * The money of an event, in micro-units of the reporting currency: the revenue of the
 * monetization types (data.amount), the acquisition cost of app_install (data.cost) and the
 * affiliate commission of a revenue event (data.commission). They are in data.currency (the
 * reporting currency when absent on app_install); another currency than the reporting one needs
 * data.exchange_rate, a positive number of reporting units per 1 unit of data.currency.
 */
function moneyOf(
  type: string,
  data: Record<string, unknown> | null,
  reportingCurrency: string,
): Money | { error: string } {
  const rule = REVENUE[type]
  const amount = data?.amount
  const cur = data?.currency
  const isRevenue = rule !== undefined && (rule.required || amount !== undefined || cur !== undefined)
  const cost = type === 'app_install' ? data?.cost : undefined
  const commission = isRevenue ? data?.commission : undefined
  if (!isRevenue && cost === undefined) return NO_MONEY
  if (isRevenue && !amountIn(amount))
    return { error: `data.amount must be a number from 0 to ${L.amountMax.toLocaleString('en')} for ${type}` }
  if (cost !== undefined && !amountIn(cost))
    return { error: `data.cost must be a number from 0 to ${L.amountMax.toLocaleString('en')}` }
  if (commission !== undefined && !amountIn(commission))
    return { error: `data.commission must be a number from 0 to ${L.amountMax.toLocaleString('en')}` }
  if ((isRevenue || cur !== undefined) && (typeof cur !== 'string' || !CURRENCIES.has(cur)))
    return { error: `data.currency must be an ISO 4217 code (e.g. USD) for ${type}` }
  const currency = (cur as string | undefined) ?? reportingCurrency
  let rate = 1
  if (currency !== reportingCurrency) {
    const given = data?.exchange_rate
    if (typeof given !== 'number' || !Number.isFinite(given) || given <= 0)
      return {
        error: `data.exchange_rate (a positive number of ${reportingCurrency} per 1 ${currency}) is required: the game reports in ${reportingCurrency}`,
      }
    if (given > L.exchangeRateMax)
      return {
        error: `data.exchange_rate must be at most ${L.exchangeRateMax.toLocaleString('en')} ${reportingCurrency} per 1 ${currency}`,
      }
    rate = given
  }
  // Converted, each money field stays within the bound the stored sums are sized for.
  for (const [field, v] of [
    ['amount', isRevenue ? amount : undefined],
    ['cost', cost],
    ['commission', commission],
  ] as const)
    if (typeof v === 'number' && v * rate > L.convertedAmountMax)
      return {
        error: `data.${field} × data.exchange_rate must be at most ${L.convertedAmountMax.toLocaleString('en')} ${reportingCurrency}`,
      }
  // `+ 0` turns -0 (a valid amount) into 0.
  const micros = (v: unknown) => (typeof v === 'number' ? toMicros(v * rate) + 0 : 0)
  return {
    revenueType: isRevenue ? rule!.type : null,
    revenueMicros: isRevenue ? micros(amount) : 0,
    currency: isRevenue ? reportingCurrency : null,
    costMicros: micros(cost),
    commissionMicros: micros(commission),
  }
}

type Check = { ok: true; event: NormalizedEvent } | { ok: false; error: IngestError }

/** The per-event error of the event at `index` (its event_id when it has one). */
function failed(raw: unknown, index: number, error: string, message: string): Check {
  const id = raw && typeof raw === 'object' ? (raw as { event_id?: unknown }).event_id : undefined
  return {
    ok: false,
    error: { index, eventId: typeof id === 'string' ? id.slice(0, L.idMax) : null, error, message },
  }
}

const REQUIRED = ['event_id', 'event_type', 'timestamp', 'player_id'] as const
const isBlank = (v: unknown) => v === undefined || v === null || v === ''

/**
 * The last ids found plain: the events of a batch mostly share their player and session ids, so
 * the (Unicode) pattern runs once per batch rather than once per event.
 */
const plainSeen = ['', '']
function isPlain(id: string): boolean {
  if (id === plainSeen[0] || id === plainSeen[1]) return true
  if (!PLAIN_ID.test(id)) return false
  plainSeen[1] = plainSeen[0]!
  plainSeen[0] = id
  return true
}

/**
 * The UTF-8 bytes of JSON.stringify(v) for a number or a short string JSON writes as is
 * (printable ASCII but `"` and `\`), else undefined.
 */
function scalarBytes(v: unknown): number | undefined {
  if (typeof v === 'string') {
    if (v.length > 256) return undefined
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i)
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return undefined
    }
    return v.length + 2
  }
  if (typeof v === 'number') return Number.isFinite(v) ? String(v).length : 4
  if (typeof v === 'boolean') return v ? 4 : 5
  if (v === null) return 4
  return undefined
}

/**
 * The UTF-8 bytes of JSON.stringify(event) for an object JSON.parse made: the plain fields an
 * event carries are counted without writing the event out again; anything else (long or escaped
 * strings, objects) is written out field by field, `data` given as `dataJson` when it is known.
 */
export function jsonBytes(event: object, dataJson?: string): number {
  let n = 1
  for (const key of Object.keys(event)) {
    const value = (event as Record<string, unknown>)[key]
    n += (scalarBytes(key) ?? Buffer.byteLength(JSON.stringify(key))) + 2
    n +=
      scalarBytes(value) ??
      Buffer.byteLength(key === 'data' && dataJson !== undefined ? dataJson : JSON.stringify(value))
  }
  return n === 1 ? 2 : n
}

/**
 * One event: at most 10 KB, required fields, platform, type, timestamp age (≤ 24 h old, ≤ 5 min
 * ahead of `now`), session_id for session_start/end, amount (0 to 1,000,000) and ISO 4217 currency
 * of purchases; no field nested more than FREE_FORM_NESTING_MAX levels.
 */
export function checkEvent(
  raw: unknown,
  index: number,
  ctx: {
    now: number
    gamePlatform: GamePlatform
    /** The game's reporting currency: amounts in another one are converted with data.exchange_rate. */
    reportingCurrency: string
    countryOf(ip: string): string | null
    ip: string
  },
): Check {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return failed(raw, index, 'InvalidEvent', 'event must be an object')
  // Before anything walks the event recursively (JSON.stringify for its size, and later on).
  for (const field of Object.keys(raw))
    if (nestedDeeperThan((raw as Record<string, unknown>)[field], FREE_FORM_NESTING_MAX))
      return failed(raw, index, 'InvalidEvent', `${field} ${nestingMessage(FREE_FORM_NESTING_MAX)}`)
  const e = raw as Record<string, unknown>
  // data as stored (an object; anything else is refused below).
  const dataJson =
    e.data !== null && typeof e.data === 'object' && !Array.isArray(e.data)
      ? JSON.stringify(e.data)
      : undefined
  const size = jsonBytes(raw, dataJson)
  if (size > L.eventBytes)
    return failed(
      raw,
      index,
      'EventTooLarge',
      `event is ${size} bytes; at most ${L.eventBytes} bytes per event`,
    )
  if (isBlank(e.event_id) || isBlank(e.event_type) || isBlank(e.timestamp) || isBlank(e.player_id)) {
    const missing = REQUIRED.filter((k) => isBlank(e[k]))
    return failed(raw, index, 'InvalidEvent', `missing ${missing.join(', ')}`)
  }
  if (typeof e.event_id !== 'string' || !UUID_RE.test(e.event_id))
    return failed(raw, index, 'InvalidEvent', 'event_id must be a UUID')
  const type = e.event_type
  if (typeof type !== 'string' || type.length > L.customTypeMax || !CUSTOM_TYPE_RE.test(type))
    return failed(
      raw,
      index,
      'InvalidEvent',
      `event_type must be a named type or a custom name (a letter, then letters, digits, _ . : -; up to ${L.customTypeMax})`,
    )
  const playerId = str(e.player_id)
  if (!playerId || typeof e.player_id !== 'string')
    return failed(raw, index, 'InvalidEvent', `player_id must be a string of 1-${L.idMax} characters`)
  if (!isPlain(playerId)) return failed(raw, index, 'InvalidEvent', `player_id ${NOT_PLAIN}`)
  // A URL path reads `.` and `..` as "here" and "up": such a player's profile could not be asked for.
  if (playerId === '.' || playerId === '..')
    return failed(raw, index, 'InvalidEvent', 'player_id cannot be "." or ".." (a URL path cannot name them)')
  let sessionId: string | null = null
  if (e.session_id !== undefined && e.session_id !== null) {
    sessionId = typeof e.session_id === 'string' ? str(e.session_id) : null
    if (!sessionId)
      return failed(raw, index, 'InvalidEvent', `session_id must be a string of 1-${L.idMax} characters`)
    if (!isPlain(sessionId)) return failed(raw, index, 'InvalidEvent', `session_id ${NOT_PLAIN}`)
  }
  if (!sessionId && (type === 'session_start' || type === 'session_end'))
    return failed(raw, index, 'InvalidEvent', `session_id is required for ${type}`)
  let platform = ctx.gamePlatform
  if (e.platform !== undefined && e.platform !== null) {
    if (typeof e.platform !== 'string' || !PLATFORMS.has(e.platform))
      return failed(raw, index, 'InvalidEvent', `platform must be one of ${GAME_PLATFORMS.join(', ')}`)
    platform = e.platform as GamePlatform
  }
  const ts = parseTimestamp(e.timestamp)
  if (ts === undefined)
    return failed(raw, index, 'InvalidEvent', 'timestamp must be an ISO 8601 date-time with a zone')
  if (ts < ctx.now - L.maxEventAgeMs)
    return failed(raw, index, 'EventTooOld', 'timestamp is more than 24 hours old')
  if (ts > ctx.now + L.maxEventFutureMs)
    return failed(raw, index, 'EventInFuture', 'timestamp is more than 5 minutes in the future')
  let data: Record<string, unknown> | null = null
  if (e.data !== undefined && e.data !== null) {
    if (typeof e.data !== 'object' || Array.isArray(e.data))
      return failed(raw, index, 'InvalidEvent', 'data must be an object')
    data = e.data as Record<string, unknown>
  }

  const money = moneyOf(type, data, ctx.reportingCurrency)
  if ('error' in money) return failed(raw, index, 'InvalidEvent', money.error)
  const ids = dataIdsOf(data)
  if ('error' in ids) return failed(raw, index, 'InvalidEvent', ids.error)

  // A smart link's click id (`clk_…`): anything else is kept in data but never looked up.
  const clickId = type === 'app_install' && typeof data?.click_id === 'string' ? data.click_id : null
  const installClick = clickId !== null && CLICK_ID_RE.test(clickId) ? { installClick: clickId } : {}
  const countryField = typeof data?.country === 'string' ? data.country.toUpperCase() : null
  const country = countryField && /^[A-Z]{2}$/.test(countryField) ? countryField : ctx.countryOf(ctx.ip)
  const bit = TYPE_BIT.get(type)
  return {
    ok: true,
    event: {
      index,
      eventId: e.event_id.toLowerCase(),
      type,
      typeBit: bit ?? CUSTOM_BIT,
      custom: bit === undefined,
      ts,
      day: utcDayNumber(ts),
      playerId,
      sessionId,
      platform,
      data,
      dataJson: data ? dataJson! : null,
      ...money,
      country,
      deviceFingerprint: ids.deviceFingerprint,
      attribution: {
        affiliate: ids.affiliate,
        campaign: ids.campaign,
        source: ids.source,
        medium: ids.medium,
      },
      ...installClick,
    },
  }
}
