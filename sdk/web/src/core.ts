/**
 * The pure parts of the web SDK: ids, sizes, batch splitting, retry timing and the queue state.
 * No I/O here, so Node tests cover them without a browser.
 */

/** Ingestion limits (docs/reference/gaming.md): events per batch, bytes per batch and per event. */
export const MAX_EVENTS = 1000
export const MAX_BATCH_BYTES = 1_048_576
export const MAX_EVENT_BYTES = 10_240
/** A session ends after this long without an event (the server's own session gap). */
export const SESSION_GAP_MS = 30 * 60_000
/** Retry-After is honoured up to an hour; longer answers are read as an hour. */
export const MAX_RETRY_AFTER_MS = 3_600_000

export interface SdkEvent {
  event_id: string
  event_type: string
  timestamp: string
  player_id: string
  session_id: string
  data?: Record<string, unknown>
}

/** A batch keeps its id from creation to its last retry, so the server never counts it twice. */
export interface Batch {
  id: string
  events: SdkEvent[]
}

/** What the SDK keeps between page loads (localStorage) or in memory (Node). */
export interface State {
  /** Events tracked but not yet put in a batch. */
  buf: SdkEvent[]
  /** Batches waiting to be sent, oldest first. */
  q: Batch[]
  /** Current session id and the time of its last event. */
  s?: { id: string; at: number }
  /** Player id (identify) or the anonymous id made on first use. */
  p?: string
  /** The click id of the landing URL, until the first app_install carries it. */
  c?: string
  /** Whether an app_install was tracked already. */
  i?: boolean
  /** The server's clock minus this device's (ms), from the answers' Date headers; queued times carry it. */
  o?: number
}

export const emptyState = (): State => ({ buf: [], q: [] })

const encoder = new TextEncoder()
export const utf8 = (s: string) => encoder.encode(s) as Uint8Array<ArrayBuffer>
/** Size of a value as the server measures it: UTF-8 bytes of its JSON. */
export const jsonBytes = (v: unknown): number => utf8(JSON.stringify(v)).length

/**
 * A time-ordered UUID (version 7, RFC 9562): the Unix ms `ms` in the first 48 bits, then random
 * bits from getRandomValues (which unlike randomUUID also exists on plain http pages). Ids made
 * close in time sort close together, so the server's indexes take a batch's events on the last
 * pages instead of one random page each: fewer pages written per commit.
 */
export function uuid(random: (bytes: Uint8Array) => Uint8Array, ms: number): string {
  const b = random(new Uint8Array(16))
  let t = Math.max(0, Math.floor(ms))
  for (let i = 5; i >= 0; i--, t = Math.floor(t / 256)) b[i] = t % 256
  b[6] = (b[6]! & 15) | 0x70
  b[8] = (b[8]! & 63) | 128
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/** Bytes of a batch's envelope without its events (36-character id, 24-character timestamp). */
const ENVELOPE = jsonBytes({
  batch_id: uuid((b) => b, 0),
  batch_timestamp: new Date(0).toISOString(),
  events: [],
})

/**
 * Splits events, in order, into batches of at most `maxCount` events and `maxBytes` bytes of
 * JSON body (envelope and commas included). An event is never split; one too big for any batch
 * is the caller's to drop (see MAX_EVENT_BYTES).
 */
export function splitBatches(events: SdkEvent[], maxCount: number, maxBytes: number): SdkEvent[][] {
  const out: SdkEvent[][] = []
  let cur: SdkEvent[] = []
  let bytes = ENVELOPE
  for (const e of events) {
    const size = jsonBytes(e)
    if (cur.length && (cur.length >= maxCount || bytes + 1 + size > maxBytes)) {
      out.push(cur)
      cur = []
      bytes = ENVELOPE
    }
    bytes += size + (cur.length ? 1 : 0)
    cur.push(e)
  }
  if (cur.length) out.push(cur)
  return out
}

/** Bytes of a whole batch body as sent (before gzip). */
export const batchBytes = (events: SdkEvent[]): number =>
  ENVELOPE + events.reduce((n, e) => n + jsonBytes(e), 0) + Math.max(0, events.length - 1)

/**
 * Exponential backoff with jitter: attempt 0, 1, 2… waits base·2^attempt capped at `max`, of
 * which a random half is taken off ("equal jitter": never less than half, so clients that failed
 * together spread out but none hammers).
 */
export function backoffDelay(attempt: number, random: number, base = 1000, max = 60_000): number {
  const ceiling = Math.min(max, base * 2 ** attempt)
  return Math.round(ceiling / 2 + (ceiling / 2) * random)
}

/** Retry-After in ms (seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now: number): number | undefined {
  if (!header) return undefined
  const ms = /^\s*\d+\s*$/.test(header) ? Number(header) * 1000 : Date.parse(header) - now
  return Number.isFinite(ms) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms)) : undefined
}

/**
 * What to do with an answer: `done` (2xx), `retry` (network error, 408, 429, 5xx) or `drop`
 * (any other 4xx: sending the same batch again cannot succeed).
 */
export function verdict(status: number | undefined): 'done' | 'retry' | 'drop' {
  if (status === undefined) return 'retry'
  if (status >= 200 && status < 300) return 'done'
  if (status === 408 || status === 429 || status >= 500) return 'retry'
  return 'drop'
}

/** A correction smaller than this is noise (the Date header has whole seconds). */
export const SKEW_MS = 5000

/**
 * The server's clock minus this device's, from an answer's Date header (whole seconds, so its
 * middle) against the middle of the request; undefined without a readable header.
 */
export function clockOffset(date: string | null, sentAt: number, receivedAt: number): number | undefined {
  const server = date ? Date.parse(date) : NaN
  return Number.isFinite(server) ? Math.round(server + 500 - (sentAt + receivedAt) / 2) : undefined
}

/** Moves every queued time (events, the session's last event) by `delta` ms. */
export function shiftState(state: State, delta: number): void {
  const shift = (e: SdkEvent) => (e.timestamp = new Date(Date.parse(e.timestamp) + delta).toISOString())
  state.buf.forEach(shift)
  for (const b of state.q) b.events.forEach(shift)
  if (state.s) state.s.at += delta
}

/**
 * Keeps the queued events within `maxBytes` (JSON of the whole state): the oldest batches go
 * first, then the oldest unbatched events. Returns how many events were dropped.
 */
export function boundState(state: State, maxBytes: number): number {
  let dropped = 0
  let size = jsonBytes(state)
  while (size > maxBytes && (state.q.length || state.buf.length)) {
    const batch = state.q[0]
    const gone = batch ? batch.events.shift() : state.buf.shift()
    if (batch && !batch.events.length) state.q.shift()
    dropped += 1
    size -= jsonBytes(gone) + 1
  }
  return dropped
}
