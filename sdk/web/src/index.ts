/**
 * linkd's web game SDK: `createClient(options)` batches game events and sends them to
 * POST /api/v1/gaming/events. ESM, no dependencies; runs in browsers (queue in localStorage,
 * flush on page hide) and in Node 20+ (queue in memory). See docs/reference/gaming.md.
 */
import {
  MAX_BATCH_BYTES,
  MAX_EVENT_BYTES,
  MAX_EVENTS,
  SESSION_GAP_MS,
  SKEW_MS,
  backoffDelay,
  boundState,
  clockOffset,
  emptyState,
  jsonBytes,
  retryAfterMs,
  shiftState,
  splitBatches,
  utf8,
  uuid,
  verdict,
  type Batch,
  type SdkEvent,
  type State,
} from './core.js'

export { backoffDelay, clockOffset, splitBatches, retryAfterMs, verdict } from './core.js'
export type { Batch, SdkEvent } from './core.js'

const PATH = '/api/v1/gaming/events'
/** Browsers refuse keepalive requests whose bodies add up to more than 64 KiB. */
const KEEPALIVE_BYTES = 60_000

export interface StorageLike {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
}

export interface SdkError {
  /**
   * `dropped`: a batch refused by the server (status) or an event over 10 KB; `rejected`: events
   * of an accepted batch refused one by one (the first reason); `overflow`: queue full.
   */
  kind: 'dropped' | 'rejected' | 'overflow'
  message: string
  status?: number
  batchId?: string
  events: number
}

export interface ClientOptions {
  /** linkd's base URL (`https://linkd.example.com`) or the full ingestion URL. */
  endpoint: string
  gameId: string
  organizationId: string
  sdkKey: string
  /** Signs every batch (HMAC-SHA256 via WebCrypto). Anything in a web page is public. */
  signingSecret?: string
  /** Default 5,000. */
  flushIntervalMs?: number
  /** Events per batch, 1-1,000 (default 100); a full buffer is sent at once. */
  maxBatch?: number
  /** Bytes of JSON the offline queue may hold (default 512 KiB); the oldest events go first. */
  maxQueueBytes?: number
  /** Compress bodies with CompressionStream where it exists (default true). */
  gzip?: boolean
  /** First retry delay in ms (default 1,000), doubling up to retryMaxMs (default 60,000). */
  retryBaseMs?: number
  retryMaxMs?: number
  /** Defaults: localStorage in browsers, memory elsewhere. */
  storage?: StorageLike
  fetch?: typeof fetch
  onError?: (error: SdkError) => void
}

export interface Client {
  track(type: string, data?: Record<string, unknown>): void
  identify(playerId: string): void
  /** Batches what was tracked and sends the queue; resolves when this attempt is over. */
  flush(): Promise<void>
  /** Stops the timers and listeners, then flushes once. What is left stays queued. */
  shutdown(): Promise<void>
}

interface Subtle {
  importKey(f: 'raw', k: Uint8Array, a: object, x: boolean, u: string[]): Promise<unknown>
  sign(a: string, k: unknown, d: Uint8Array): Promise<ArrayBuffer>
}
interface Target {
  addEventListener?(type: string, f: () => void): void
  removeEventListener?(type: string, f: () => void): void
}
/** The browser globals the SDK uses, each optional (Node has none of them but crypto). */
type Env = Target & {
  localStorage?: StorageLike
  location?: { search: string }
  document?: Target & { visibilityState?: string }
  CompressionStream?: new (format: string) => object
  crypto: { getRandomValues<T extends Uint8Array>(a: T): T; subtle?: Subtle }
}

const memoryStorage = (): StorageLike => {
  const m = new Map<string, string>()
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v) }
}

export function createClient(o: ClientOptions): Client {
  const env = globalThis as unknown as Env
  /** The server's time as far as known: a device clock minutes off would have its batches refused. */
  const serverTime = (s: State) => Date.now() + (s.o ?? 0)
  const now = () => serverTime(read())
  /** A time-ordered id made at `ms` (the server's time as far as known). */
  const newId = (ms: number) => uuid((b) => env.crypto.getRandomValues(b), ms)
  const url = o.endpoint.endsWith(PATH) ? o.endpoint : o.endpoint.replace(/\/+$/, '') + PATH
  const maxBatch = Math.min(MAX_EVENTS, Math.max(1, o.maxBatch ?? 100))
  const maxQueue = o.maxQueueBytes ?? 524_288
  const doFetch = o.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a))
  const report = (e: SdkError) => {
    try {
      o.onError?.(e)
    } catch {
      // A failing callback must not stop the sending.
    }
  }
  if (o.signingSecret && !env.crypto.subtle)
    throw new Error('signingSecret needs WebCrypto (crypto.subtle: https or localhost pages)')

  let storage = o.storage
  if (!storage)
    try {
      storage = env.localStorage ?? memoryStorage()
    } catch {
      storage = memoryStorage() // localStorage denied (sandboxed frame, privacy settings)
    }
  const store = storage
  const key = `linkd:${o.organizationId}:${o.gameId}`

  const read = (): State => {
    try {
      return { ...emptyState(), ...(JSON.parse(store.getItem(key) ?? 'null') as State | null) }
    } catch {
      return emptyState()
    }
  }
  /** Read, change, write: another tab of the same game may have written in between. */
  const update = <T>(change: (s: State) => T): T => {
    const s = read()
    const result = change(s)
    let json = JSON.stringify(s)
    if (utf8(json).length > maxQueue) {
      const dropped = boundState(s, maxQueue)
      report({ kind: 'overflow', message: 'offline queue full: oldest events dropped', events: dropped })
      json = JSON.stringify(s)
    }
    try {
      store.setItem(key, json)
    } catch {
      // Quota exceeded: the events stay in memory of this page only.
    }
    return result
  }

  const click = new URLSearchParams(env.location?.search).get('linkd_click')
  if (click) update((s) => void (s.i ? 0 : (s.c = click.slice(0, 128))))

  let hmacKey: Promise<unknown> | undefined
  const sign = async (ts: string, body: Uint8Array): Promise<string> => {
    const subtle = env.crypto.subtle!
    hmacKey ??= subtle.importKey('raw', utf8(o.signingSecret!), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ])
    const msg = new Uint8Array(ts.length + 1 + body.length)
    msg.set(utf8(`${ts}.`))
    msg.set(body, ts.length + 1)
    const mac = new Uint8Array(await subtle.sign('HMAC', await hmacKey, msg))
    return 'sha256=' + Array.from(mac, (x) => x.toString(16).padStart(2, '0')).join('')
  }

  const gzip = async (body: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> => {
    const stream = new Blob([body]).stream().pipeThrough(new env.CompressionStream!('gzip') as never)
    return new Uint8Array(await new Response(stream as never).arrayBuffer())
  }

  /** One POST of a batch: its status, or undefined when the request failed on the way. */
  const post = async (batch: Batch, keepalive: boolean): Promise<Response | undefined> => {
    const json = JSON.stringify({
      batch_id: batch.id,
      batch_timestamp: new Date(now()).toISOString(),
      events: batch.events,
    })
    let body = utf8(json)
    const headers: Record<string, string> = {
      authorization: `Bearer ${o.sdkKey}`,
      'content-type': 'application/json',
      'x-game-id': o.gameId,
      'x-organization-id': o.organizationId,
    }
    try {
      if (o.gzip !== false && env.CompressionStream && body.length > 1024 && !keepalive) {
        body = await gzip(body)
        headers['content-encoding'] = 'gzip'
      }
      if (o.signingSecret) {
        const ts = String(now())
        headers['x-timestamp'] = ts
        headers['x-signature'] = await sign(ts, body)
      }
      return await doFetch(url, { method: 'POST', headers, body, keepalive })
    } catch {
      return undefined
    }
  }

  /**
   * Adopts the server's clock when this device's is off by SKEW_MS or more: the queued times move
   * with it. True when it did (a batch refused for its time is then sent again at once).
   */
  const learnClock = (res: Response, sentAt: number): boolean => {
    const seen = clockOffset(res.headers.get('date'), sentAt, Date.now())
    // Read first: most answers change nothing, and then nothing is written.
    return (
      seen !== undefined &&
      Math.abs(seen - (read().o ?? 0)) >= SKEW_MS &&
      update((s) => {
        const delta = seen - (s.o ?? 0)
        if (Math.abs(delta) < SKEW_MS) return false
        shiftState(s, delta)
        s.o = seen
        return true
      })
    )
  }

  let attempt = 0
  let retryTimer: ReturnType<typeof setTimeout> | undefined
  let sending: Promise<void> | undefined

  /** Sends queued batches in order until the queue is empty or one must wait for a retry. */
  const drain = (keepalive: boolean): Promise<void> =>
    (sending ??= (async () => {
      for (let batch = read().q[0]; batch && !retryTimer; batch = read().q[0]) {
        const sentAt = Date.now()
        const res = await post(batch, keepalive && jsonBytes(batch) < KEEPALIVE_BYTES)
        if (res && learnClock(res, sentAt) && res.status === 400) continue
        const what = verdict(res?.status)
        if (what === 'retry') {
          const wait =
            (res && (res.status === 429 || res.status === 503)
              ? retryAfterMs(res.headers.get('retry-after'), now())
              : undefined) ?? backoffDelay(attempt, Math.random(), o.retryBaseMs, o.retryMaxMs)
          attempt += 1
          retryTimer = setTimeout(() => {
            retryTimer = undefined
            void drain(false)
          }, wait)
          break
        }
        attempt = 0
        const id = batch.id
        const n = batch.events.length
        update((s) => void (s.q = s.q.filter((b) => b.id !== id)))
        if (res!.status === 202) {
          // Events refused one by one (bad player id, too old…): the batch itself is done.
          const r = (await res!.json().catch(() => ({}))) as {
            rejected?: number
            errors?: { message: string }[]
          }
          if (r.rejected)
            report({
              kind: 'rejected',
              message: r.errors?.[0]?.message ?? 'rejected',
              batchId: id,
              events: r.rejected,
            })
        }
        if (what === 'drop')
          report({
            kind: 'dropped',
            message: `refused with ${res!.status}`,
            status: res!.status,
            batchId: id,
            events: n,
          })
      }
    })().finally(() => (sending = undefined)))

  /**
   * Batches the buffer and sends. Without a send in flight the request starts synchronously (no
   * gzip on page hide, no await before fetch unless signing), before a closing page stops scripts.
   */
  const flushNow = (keepalive: boolean): Promise<void> => {
    if (read().buf.length)
      update((s) => {
        const limit = keepalive ? KEEPALIVE_BYTES : MAX_BATCH_BYTES
        const t = serverTime(s)
        for (const events of splitBatches(s.buf, maxBatch, limit)) s.q.push({ id: newId(t), events })
        s.buf = []
      })
    const run = () => (retryTimer ? undefined : drain(keepalive))
    return sending ? sending.then(run) : Promise.resolve(run())
  }

  const interval = setInterval(() => void flushNow(false), o.flushIntervalMs ?? 5000)
  ;(interval as { unref?: () => void }).unref?.()
  const onHide = () => void flushNow(true)
  const onVisibility = () => env.document?.visibilityState === 'hidden' && onHide()
  const onOnline = () => {
    clearTimeout(retryTimer)
    retryTimer = undefined
    void flushNow(false)
  }
  env.addEventListener?.('pagehide', onHide)
  env.addEventListener?.('online', onOnline)
  env.document?.addEventListener?.('visibilitychange', onVisibility)
  // What an earlier page (or a crash) left queued goes now, not at the first interval.
  const left = read()
  if (left.q.length || left.buf.length) void flushNow(false)

  return {
    track(type, data) {
      const full = update((s) => {
        const t = serverTime(s)
        if (!s.s || t - s.s.at > SESSION_GAP_MS) s.s = { id: newId(t), at: t }
        s.s.at = t
        s.p ??= newId(t)
        const d = { ...data }
        if (type === 'app_install' && !s.i) {
          s.i = true
          if (s.c && d.click_id === undefined) d.click_id = s.c
          delete s.c
        }
        const e: SdkEvent = {
          event_id: newId(t),
          event_type: type,
          timestamp: new Date(t).toISOString(),
          player_id: s.p,
          session_id: s.s.id,
          data: d,
        }
        if (jsonBytes(e) > MAX_EVENT_BYTES)
          report({ kind: 'dropped', message: `${type} event over ${MAX_EVENT_BYTES} bytes`, events: 1 })
        else s.buf.push(e)
        return s.buf.length >= maxBatch
      })
      if (full) void flushNow(false)
    },
    identify(playerId) {
      update((s) => void (s.p = playerId))
    },
    flush: () => flushNow(false),
    async shutdown() {
      clearInterval(interval)
      env.removeEventListener?.('pagehide', onHide)
      env.removeEventListener?.('online', onOnline)
      env.document?.removeEventListener?.('visibilitychange', onVisibility)
      await flushNow(false)
      clearTimeout(retryTimer)
    },
  }
}
