/**
 * `linkctl tui`: checks the terminal and the flags, learns the key's scopes (POST /api/keys/test,
 * as `linkctl status` does; again when they matter: app.tsx), then loads Ink and React (only now: other commands never load them)
 * and runs the app on the alternate screen, restoring the terminal however it ends.
 */
import { setFlagsFromString } from 'node:v8'
import type { Ctx } from '../session/context.js'
import { UsageError } from '../session/exit-codes.js'
import { SIGNAL_EXIT_CODES, STOP_SIGNALS, type StopSignal } from '../session/signals.js'
import { maskKey } from '../format/cells.js'
import type { RateLimitInfo } from '../contract/keys.js'
import type { TuiClient } from './api.js'

export interface TuiOptions {
  refresh?: string
}

export const DEFAULT_REFRESH_SECONDS = 5
const ENTER_ALT_SCREEN = '\x1b[?1049h'
const LEAVE_ALT_SCREEN = '\x1b[?1049l'
const SHOW_CURSOR = '\x1b[?25h'
const HIDE_CURSOR = '\x1b[?25l'

export function parseRefresh(value: string | undefined): number {
  if (value === undefined) return DEFAULT_REFRESH_SECONDS
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1 || n > 3600)
    throw new UsageError(`invalid --refresh "${value}": expected whole seconds from 1 to 3600`)
  return n
}

/** Requests the busiest screen (Home) makes per refresh, at most. */
export const REQUESTS_PER_REFRESH = 7
const PERIOD_SECONDS = { minute: 60, hour: 3600, day: 86_400 } as const

/**
 * The refresh interval within the key's rate limit: polling may use half of it, so that the
 * user's own commands keep the other half. A key of 1,000 requests an hour refreshes every 51 s.
 */
export function refreshWithin(
  seconds: number,
  rateLimit: { limit: number; period: keyof typeof PERIOD_SECONDS } | undefined,
): number {
  if (!rateLimit || rateLimit.limit <= 0) return seconds
  const floor = Math.ceil((REQUESTS_PER_REFRESH * PERIOD_SECONDS[rateLimit.period]) / (rateLimit.limit / 2))
  return Math.max(seconds, floor)
}

/** How long the start waits for the key test: a daemon that does not answer must not hold the screen. */
export const KEY_TEST_WAIT_MS = 3_000

/**
 * The key's scopes and a line saying who is connected where; scopes null when unknown (the
 * daemon is down or slower than `waitMs`: the screens say so and retry, their scopes are tried).
 */
export async function whoAmI(
  client: TuiClient,
  url: string,
  apiKey: string | undefined,
  waitMs = KEY_TEST_WAIT_MS,
): Promise<{
  scopes: ReadonlySet<string> | null
  identity: string
  rateLimit?: RateLimitInfo
  keyProblem?: string
}> {
  if (!apiKey)
    return {
      scopes: new Set(),
      identity: `no key (run linkctl login) · ${url}`,
      keyProblem: 'No API key: run linkctl login --api-key <key>, or set LINKCTL_API_KEY.',
    }
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer in time')), waitMs)
  })
  try {
    const result = await Promise.race([client.keys.test(apiKey), late])
    if (result.valid && result.key) {
      // What the key may do within its member's role, and who that member is (a linkd without
      // teams does not answer: the key's own scopes then).
      const me = await Promise.race([client.team.me(), late]).catch(() => null)
      const member = me ? `${me.member.name} (${me.member.role}) · ` : ''
      return {
        ...(result.rateLimit ? { rateLimit: result.rateLimit } : {}),
        scopes: new Set(me ? me.effectivePermissions : result.key.permissions),
        identity: `${member}${result.key.name} (${result.key.preview}) · ${result.key.organization.name} · ${url}`,
      }
    }
    const reason = result.reason ?? 'unknown'
    return {
      scopes: new Set(),
      identity: `${maskKey(apiKey)} not valid: ${reason} · ${url}`,
      keyProblem: `The key ${maskKey(apiKey)} is not valid (${reason}): run linkctl login --api-key <key> with a valid one.`,
    }
  } catch {
    return { scopes: null, identity: `${maskKey(apiKey)} · ${url}` }
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Whether the daemon has Gaming Intelligence (GET /api/use's `features.gaming`): false hides the
 * gaming screens. Unknown (no answer in `waitMs`, an older daemon) counts as on: the screens say why.
 */
export async function gamingOn(
  client: Pick<TuiClient, 'discovery'>,
  waitMs = KEY_TEST_WAIT_MS,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)))
  try {
    const doc = await Promise.race([client.discovery(), late])
    return doc?.features?.gaming !== false
  } catch {
    return true
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Before Ink and React load: React's production build (the development one records every render
 * in Node's performance timeline for ever) unless NODE_ENV is set, and V8's `--optimize-for-size`
 * so short-lived frames do not grow the heap. See docs/decisions/tui-rendering.md.
 */
export function prepareProcessForTui(): void {
  process.env.NODE_ENV ??= 'production'
  setFlagsFromString('--optimize-for-size')
}

export async function runTui(opts: TuiOptions, ctx: Ctx): Promise<void> {
  const stdinTTY = ctx.stdin.isTTY === true
  if (!ctx.isTTY || !stdinTTY)
    throw new UsageError(
      'linkctl tui needs a terminal (stdin and stdout must be a TTY). Without one, use the plain ' +
        'commands: linkctl status, linkctl links list, linkctl keys list, linkctl domains list, ' +
        'linkctl webhooks list (add --json for scripts)',
    )
  const asked = parseRefresh(opts.refresh)
  const target = await ctx.target()
  const client = await ctx.client()
  prepareProcessForTui()
  // Ink and React load while the daemon says who the key is.
  const [who, gaming, { mount }, { ScreenWriter, frameStdout, AUTOWRAP_ON }] = await Promise.all([
    whoAmI(client, target.url, target.apiKey),
    gamingOn(client),
    import('./app.js'),
    import('./screen-writer.js'),
  ])
  const refreshSeconds = refreshWithin(asked, who.rateLimit)
  const stdout = ctx.stdout as NodeJS.WriteStream
  // Ink renders each frame whole into a stand-in stdout; the writer sends the terminal only the
  // lines that changed (screen-writer.ts).
  const writer = new ScreenWriter(stdout)
  const frames = frameStdout(stdout, writer)
  let restored = false
  const restore = () => {
    if (restored) return
    restored = true
    // Nothing reaches the terminal after this (Ink's last render on its way out included).
    frames.detach()
    stdout.write(AUTOWRAP_ON + SHOW_CURSOR + LEAVE_ALT_SCREEN)
  }
  process.once('exit', restore)
  stdout.write(ENTER_ALT_SCREEN + HIDE_CURSOR)
  try {
    const app = mount(
      {
        client,
        refreshSeconds,
        color: ctx.color,
        scopes: who.scopes,
        gaming,
        identity: who.identity,
        ...(refreshSeconds > asked ? { refreshNote: `refresh ${refreshSeconds}s (key's rate limit)` } : {}),
        url: target.url,
        ...(who.keyProblem ? { keyProblem: who.keyProblem } : {}),
        // A promotion, a key's scopes changed: read again when a screen or an action needs it.
        relearn: () => whoAmI(client, target.url, target.apiKey),
        redraw: () => writer.redraw(),
      },
      {
        stdout: frames.stdout,
        stdin: ctx.stdin as NodeJS.ReadStream,
        stderr: ctx.stderr as NodeJS.WriteStream,
        exitOnCtrlC: false,
        patchConsole: false,
        // One write of the whole frame per render, without escape codes: the writer's input.
        debug: true,
      },
    )
    // A terminal closed (SIGHUP) or a kill (SIGTERM, SIGINT): the terminal is restored first.
    for (const signal of STOP_SIGNALS) process.once(signal, onSignal)
    await app.waitUntilExit()
  } finally {
    restore()
    process.off('exit', restore)
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal)
  }

  // Ends the TUI with the shell's exit code for the signal (128 + its number).
  function onSignal(signal: StopSignal): void {
    restore()
    process.exit(SIGNAL_EXIT_CODES[signal])
  }
}
