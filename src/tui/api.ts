/**
 * What the TUI asks of the daemon: the calls of the typed client (src/client) its screens make,
 * picked from LinkdClient so that they cannot drift from it; tests pass a fake serving fixed data.
 * A screen gets it through `useTui().client`; adding a call here is adding it to the fake.
 */
import type { LinkdClient } from '../client/index.js'
import { unstatedDetails, withStatus } from '../session/exit-codes.js'

/** The calls `K` of the client's namespace `N`. */
type Calls<N extends keyof LinkdClient, K extends keyof LinkdClient[N]> = Pick<LinkdClient[N], K>

export interface TuiClient extends Pick<LinkdClient, 'health' | 'ready' | 'discovery'> {
  keys: Calls<'keys', 'list' | 'create' | 'revoke' | 'activate' | 'deactivate' | 'activity' | 'test'>
  links: Calls<'links', 'list' | 'create' | 'update' | 'delete' | 'qr'>
  smartLinks: Calls<'smartLinks', 'list'>
  qrCodes: Calls<'qrCodes', 'list' | 'create' | 'update' | 'delete'>
  analytics: Calls<
    'analytics',
    | 'link'
    | 'clicks'
    | 'gameOverview'
    | 'gameRevenue'
    | 'gameRetention'
    | 'gameGeography'
    | 'gameLeaderboard'
    | 'gameEvents'
    | 'gameAttribution'
    | 'gameFunnel'
  >
  domains: Calls<'domains', 'list' | 'add' | 'verify' | 'checkPropagation' | 'setDefault'>
  webhooks: Calls<'webhooks', 'list' | 'enable' | 'disable' | 'test' | 'deliveries' | 'retry'>
  games: Calls<'games', 'list' | 'get'>
  fraud: Calls<
    'fraud',
    'dashboard' | 'events' | 'review' | 'rules' | 'updateRule' | 'blocklist' | 'block' | 'unblock'
  >
  skan: Calls<'skan', 'campaigns' | 'campaign' | 'optimize'>
  gaming: Calls<'gaming', 'requestDeletion' | 'deletion' | 'deletions'>
  team: Calls<
    'team',
    'me' | 'members' | 'invitations' | 'invite' | 'setRole' | 'removeMember' | 'revokeInvitation'
  >
}

/** An error as the status line says it, and how long to wait before trying again. */
export interface Trouble {
  kind: 'unreachable' | 'auth' | 'rate-limited' | 'error'
  message: string
  /** Retry-After of a 429, seconds, when the daemon sent one. */
  retryAfter: number | null
  /**
   * The same request would fail again (a 4xx other than 408 and 429: a refused key, a missing
   * game, a scope): not retried until the user acts. A 5xx, a 408, a 429 or no answer is retried.
   */
  permanent: boolean
}

interface ErrorShape {
  name?: unknown
  status?: unknown
  retryAfter?: unknown
  message?: unknown
  body?: { details?: { field: string; message: string }[] }
}

/** Classifies what a client call threw (by name: the client need not be loaded to tell). */
export function troubleOf(err: unknown): Trouble {
  const e = (typeof err === 'object' && err !== null ? err : {}) as ErrorShape
  const message = typeof e.message === 'string' ? e.message : String(err)
  const retryAfter = typeof e.retryAfter === 'number' ? e.retryAfter : null
  if (e.name === 'ConnectionError')
    return { kind: 'unreachable', message, retryAfter: null, permanent: false }
  if (e.name === 'ApiError' && typeof e.status === 'number') {
    const permanent = e.status >= 400 && e.status < 500 && e.status !== 408 && e.status !== 429
    const t = (kind: Trouble['kind'], text: string): Trouble => ({
      kind,
      message: text,
      retryAfter,
      permanent,
    })
    // linkd's message says why (invalid, malformed, expired, revoked): whole at 80 columns.
    if (e.status === 401) return t('auth', `key refused: ${message}`)
    if (e.status === 403) return t('auth', `not allowed: ${message}`)
    if (e.status === 429) return t('rate-limited', `rate limited: ${message}`)
    return t('error', withStatus(message, e.status))
  }
  return { kind: 'error', message, retryAfter: null, permanent: false }
}

/** A 400 whose details name `field`: the API refused that value of the query or body. */
export function refusedField(err: unknown, field: string): boolean {
  const e = (typeof err === 'object' && err !== null ? err : {}) as ErrorShape
  return e.name === 'ApiError' && e.status === 400 && !!e.body?.details?.some((d) => d.field === field)
}

/** The API's validation messages of a failed write, one per line ("field: message"). */
export function validationLines(err: unknown): string[] {
  const e = (typeof err === 'object' && err !== null ? err : {}) as ErrorShape
  const first = troubleOf(err).message
  // A one-field error's message is often that very line (`validation()` on the daemon).
  const rest = unstatedDetails(first, e.body?.details).map((d) =>
    d.field ? `${d.field}: ${d.message}` : d.message,
  )
  return [first, ...rest]
}

export const BACKOFF_MIN_MS = 1_000
export const BACKOFF_MAX_MS = 30_000

/**
 * The wait before the next try after `failures` failures in a row (1 s, 2 s, 4 s … 30 s), or
 * the daemon's Retry-After when it said one: a key's window (a minute, an hour, a day) does not
 * open earlier, so an earlier try would only be refused again.
 */
export function retryDelayMs(failures: number, trouble: Trouble): number {
  if (trouble.retryAfter !== null && trouble.retryAfter > 0) return trouble.retryAfter * 1000
  const exponent = Math.max(0, Math.min(failures - 1, 10))
  return Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** exponent)
}
