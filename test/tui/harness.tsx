/**
 * Renders the TUI with ink-testing-library against a client (a fake serving fixed data, or a real
 * LinkdClient: tui-daemon.tsx) and a clock that moves only when the test moves it (refreshes and
 * retries happen when the test says), and waits for frames.
 */
import { render } from 'ink-testing-library'
import { App, type AppProps } from '../../src/tui/app.js'
import type { TuiClient } from '../../src/tui/api.js'
import { FakeClient } from './fake-client.js'
import { ManualClock } from './manual-clock.js'

export type Rendered<C extends TuiClient = FakeClient> = ReturnType<typeof render> & {
  client: C
  clock: ManualClock
  /** One refresh interval passes: the polls of what is on screen load again. */
  refresh(): void
}

export function renderTui<C extends TuiClient = FakeClient>(
  opts: Partial<AppProps> & { client?: C; clock?: ManualClock } = {},
): Rendered<C> {
  const client = opts.client ?? (new FakeClient() as TuiClient as C)
  const clock = opts.clock ?? new ManualClock()
  const props = { refreshSeconds: 1, color: false, scopes: null, ...opts, client, clock }
  const app = render(<App {...props} />)
  return Object.assign(app, { client, clock, refresh: () => clock.advance(props.refreshSeconds * 1000) })
}

/**
 * The last frame once it satisfies `ok` (polls; fails after 20 s with the frame it saw: a wait
 * catches a hang, not slowness, and a loaded CI machine runs a real linkd's answers slowly).
 */
export async function frameWhere(
  app: Pick<Rendered, 'lastFrame'>,
  ok: (frame: string) => boolean,
  what = 'frame',
): Promise<string> {
  const end = Date.now() + 20_000
  for (;;) {
    const frame = app.lastFrame() ?? ''
    if (ok(frame)) return frame
    if (Date.now() > end) throw new Error(`no ${what} in time; last frame:\n${frame}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/**
 * Refreshes until the frame satisfies `ok`. One refresh is not enough against a real linkd: a poll
 * whose request is in flight when the clock moves schedules its next load after it answers, so that
 * refresh passes unseen and the answer in flight may predate the change the test made.
 */
export async function refreshUntil(
  app: Pick<Rendered, 'lastFrame' | 'refresh'>,
  ok: (frame: string) => boolean,
  what = 'frame',
): Promise<string> {
  let refreshed = 0
  return frameWhere(
    app,
    (frame) => {
      if (ok(frame)) return true
      if (++refreshed % 10 === 1) app.refresh()
      return false
    },
    what,
  )
}

export const frameWith = (app: Pick<Rendered, 'lastFrame'>, ...texts: string[]) =>
  frameWhere(app, (f) => texts.every((t) => f.includes(t)), `frame with ${texts.join(', ')}`)

/**
 * Sends keys one write at a time (Ink reads one key per write), letting Ink process each: React
 * renders and re-subscribes the input handlers in setImmediate tasks, which a busy machine can
 * leave behind an expired timer, so the next key waits for those too (else it meets a stale handler).
 */
export async function press(app: Pick<Rendered, 'stdin'>, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    app.stdin.write(k)
    await new Promise((r) => setTimeout(r, 30))
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r))
  }
}

export const KEY = {
  tab: '\t',
  shiftTab: '\x1b[Z',
  enter: '\r',
  escape: '\x1b',
  up: '\x1b[A',
  down: '\x1b[B',
  backspace: '\x7f',
  ctrlC: '\x03',
}

/** Gives the fake terminal a size and tells the app, as a terminal resize does. */
export function resize(app: Pick<Rendered, 'stdout'>, columns: number, rows: number): void {
  const stdout = app.stdout as unknown as { emit(event: string): void }
  Object.defineProperty(stdout, 'columns', { value: columns, configurable: true })
  Object.defineProperty(stdout, 'rows', { value: rows, configurable: true })
  stdout.emit('resize')
}
