/** What every screen receives: the client, the refresh interval, the key's scopes, the terminal. */
import { createContext, useContext, useEffect } from 'react'
import type { ReactNode } from 'react'
import type { TuiClient, Trouble } from './api.js'
import type { TuiClock } from './clock.js'

export interface TuiEnv {
  client: TuiClient
  refreshMs: number
  /** Now, and the timers of polls and retries (clock.ts). */
  clock: TuiClock
  /** The daemon's URL (what a teammate joins with); undefined in tests that do not say. */
  url?: string
  /** Colour allowed (NO_COLOR unset). */
  color: boolean
  /** The key's scopes; null when they could not be learnt (every screen is then tried). */
  scopes: ReadonlySet<string> | null
  /** Why the key cannot be used (none given, revoked, expired, unknown), when the daemon said so. */
  keyProblem?: string
  /** False when the daemon has gaming turned off (GET /api/use's features): no gaming screen or total. */
  gaming: boolean
  /** A poll's trouble (null: it recovered), shown on the status line. */
  report(source: string, trouble: Trouble | null, retryInMs?: number): void
  /** A screen typing into a field takes every key (q, digits, Tab) until it lets go. */
  capture(on: boolean): void
  /** A short message on the status line (the result of an action). */
  say(message: string): void
  /**
   * Asks the daemon again for the key's scopes (a promotion, a key's scopes changed): when
   * something the user wants needs a scope the key lacked.
   */
  relearn(): void
  /** What screens keep while another tab is shown (use-kept.ts): one store per app. */
  kept: Map<string, { current: unknown }>
}

export const TuiContext = createContext<TuiEnv | null>(null)

export function useTui(): TuiEnv {
  const env = useContext(TuiContext)
  if (!env) throw new Error('useTui outside the TUI')
  return env
}

/** A colour name, or undefined under NO_COLOR (Ink then prints plain text). */
export function tint(env: Pick<TuiEnv, 'color'>, colour: string): string | undefined {
  return env.color ? colour : undefined
}

export interface KeyHelp {
  keys: string
  does: string
}

export interface ScreenProps {
  /** The screen gets the keyboard (false behind the help overlay). */
  active: boolean
  width: number
  height: number
}

/** One tab: adding a screen is one file exporting this and one line in screens/index.ts. */
export interface ScreenDef {
  id: string
  title: string
  /** The scope the key needs to see the screen (null: none). */
  scope: string | null
  /** Part of Gaming Intelligence: no tab when the daemon has gaming turned off (GET /api/use). */
  gaming?: boolean
  /** Every key of the screen, for the `?` overlay. */
  keys: KeyHelp[]
  render(props: ScreenProps): ReactNode
}

/** The key has the scope (or its scopes are unknown: the daemon will say). */
export function hasScope(env: Pick<TuiEnv, 'scopes'>, scope: string): boolean {
  return env.scopes === null || env.scopes.has(scope)
}

/**
 * For a key pressed for an action: true when the key's scopes allow it; otherwise false, and the
 * status line says which scope is missing (an action the key cannot do is never silent).
 */
export function allowed(
  env: Pick<TuiEnv, 'scopes' | 'say' | 'relearn'>,
  scope: string,
  action: string,
): boolean {
  if (hasScope(env, scope)) return true
  env.say(`${action} needs the scope ${scope}; this key does not have it`)
  env.relearn()
  return false
}

/**
 * While `refused` (what is shown needs a scope the key lacks), the key's scopes are read again
 * now and every refresh interval: a promotion shows the screen without a restart.
 */
export function useRelearnWhile(
  refused: boolean,
  env: Pick<TuiEnv, 'relearn' | 'clock' | 'refreshMs'>,
): void {
  const { relearn, clock, refreshMs } = env
  useEffect(() => {
    if (!refused) return
    let cancel = () => {}
    const tick = () => {
      relearn()
      cancel = clock.after(refreshMs, tick)
    }
    tick()
    return () => cancel()
  }, [refused, relearn, clock, refreshMs])
}
