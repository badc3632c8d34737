/**
 * The change feed between processes on one database: after a commit that changes a cached thing
 * (links, domains, webhook subscriptions, fraud rules, games), NOTIFY; others drop or reload their copy.
 * A dropped LISTEN connection reconnects and makes every cache forget; cache expiry is the net.
 */
import type pg from 'pg'
import { newId } from '../crypto.js'
import type { Db } from './open.js'

export type ChangeTopic = 'link' | 'domains' | 'webhooks' | 'fraud' | 'games'

/** The key of a notice that means "everything of this topic" (after a reconnection). */
export const EVERYTHING = '*'

export interface ChangeFeed {
  /** Tells the other processes that `key` (a link id, an organization id) of `topic` changed. */
  publish(topic: ChangeTopic, key?: string): void
  /** Runs `handler` for the other processes' notices of `topic`. */
  on(topic: ChangeTopic, handler: (key: string) => void): void
  start(): Promise<void>
  stop(): Promise<void>
}

/** The PostgreSQL channel (one for every topic). */
export const CHANGE_CHANNEL = 'linkd_changes'

export interface ChangeFeedOptions {
  onError(err: unknown, what: string): void
  /** Wait before reconnecting the LISTEN connection (default 500 ms, doubling up to 5 s). */
  retryMs?: number
}

export function createChangeFeed(db: Db, opts: ChangeFeedOptions): ChangeFeed {
  if (db.dialect === 'postgres') return postgresFeed(db.pool, opts)
  return { publish() {}, on() {}, start: async () => {}, stop: async () => {} }
}

interface Notice {
  /** The publishing process: it does not hear its own notices (its caches changed already). */
  o: string
  t: ChangeTopic
  k: string
}

function postgresFeed(pool: pg.Pool, opts: ChangeFeedOptions): ChangeFeed {
  const origin = newId('proc')
  const firstRetryMs = opts.retryMs ?? 500
  const handlers = new Map<ChangeTopic, Array<(key: string) => void>>()
  let stopped = false
  let retryMs = firstRetryMs
  let retry: NodeJS.Timeout | undefined

  function deliver(topic: ChangeTopic, key: string): void {
    for (const handler of handlers.get(topic) ?? [])
      try {
        handler(key)
      } catch (err) {
        opts.onError(err, `change feed handler (${topic})`)
      }
  }

  function onNotification(msg: pg.Notification): void {
    if (msg.channel !== CHANGE_CHANNEL || !msg.payload) return
    let notice: Notice
    try {
      notice = JSON.parse(msg.payload) as Notice
    } catch {
      return
    }
    if (notice.o !== origin) deliver(notice.t, notice.k)
  }

  /** Ends the listening connection once (never back to the pool: it is dead or listening). */
  let drop: (() => void) | undefined

  async function listen(): Promise<void> {
    const c = await pool.connect()
    let released = false
    const release = (err?: Error) => {
      if (released) return false
      released = true
      c.off('notification', onNotification)
      if (drop === dropThis) drop = undefined
      c.release(err ?? true)
      return true
    }
    const dropThis = () => void release()
    const lost = (err?: Error) => {
      if (!release(err) || stopped) return
      opts.onError(err ?? new Error('connection ended'), 'change feed connection lost; reconnecting')
      reconnectLater()
    }
    c.on('error', lost)
    c.on('end', () => lost())
    c.on('notification', onNotification)
    try {
      await c.query(`LISTEN ${CHANGE_CHANNEL}`)
    } catch (err) {
      release()
      throw err
    }
    if (released) throw new Error('connection lost while subscribing')
    drop = dropThis
  }

  function reconnectLater(): void {
    if (stopped || retry) return
    retry = setTimeout(() => {
      retry = undefined
      listen().then(
        () => {
          retryMs = firstRetryMs
          // Notices sent while the connection was down never arrive: forget everything once.
          for (const topic of handlers.keys()) deliver(topic, EVERYTHING)
        },
        (err: unknown) => {
          opts.onError(err, 'change feed reconnection failed')
          retryMs = Math.min(retryMs * 2, 5000)
          reconnectLater()
        },
      )
    }, retryMs)
    retry.unref()
  }

  return {
    publish(topic, key = EVERYTHING) {
      if (stopped) return
      const notice: Notice = { o: origin, t: topic, k: key }
      pool
        .query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, JSON.stringify(notice)])
        .catch((err: unknown) => opts.onError(err, 'change notice not sent'))
    },
    on(topic, handler) {
      handlers.set(topic, [...(handlers.get(topic) ?? []), handler])
    },
    start: listen,
    async stop() {
      stopped = true
      if (retry) clearTimeout(retry)
      retry = undefined
      drop?.()
    },
  }
}
