/**
 * `linkctl fraud watch <game>`: a live feed of new fraud events. It polls the events route (newest
 * first) every --interval seconds and prints each event it has not printed before, oldest of the
 * new first; the events there at start are not printed. An event can be committed a moment after
 * a newer one (two batches in flight), so each poll reads back to SLACK_MS before the newest event
 * seen, and the ids seen in that window are remembered (bounded: older ids are forgotten).
 */
import { InvalidArgumentError, type Command } from 'commander'
import type { LinkdClient } from '../../../client/index.js'
import type { FraudEvent } from '../../../contract/fraud.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { note, visible, warn } from '../../output.js'
import { stopSignals, StoppedBySignal, type StopSignal } from '../../../session/signals.js'
import { eventLine, GAME_ARGUMENT } from './shared.js'

/** How far before the newest event seen each poll reads again. */
const SLACK_MS = 60_000
/** The pages of one poll, at most (a burst beyond 2,000 events in a poll is printed in part). */
const MAX_PAGES = 10
const PAGE = 200

function secondsArg(value: string): number {
  const n = Number(value)
  if (!/^\d+(\.\d+)?$/.test(value) || n < 0.1 || n > 3600)
    throw new InvalidArgumentError('expected a number of seconds from 0.1 to 3600')
  return n
}

const newestFirst = (a: FraudEvent, b: FraudEvent) =>
  b.receivedAt.localeCompare(a.receivedAt) || b.id.localeCompare(a.id)

/**
 * The events received from SLACK_MS before `newest` on (before the newest event there is, when
 * `newest` is unknown), newest first.
 */
async function recent(client: LinkdClient, game: string, newest: number | undefined): Promise<FraudEvent[]> {
  const out: FraudEvent[] = []
  let horizon = newest === undefined ? undefined : newest - SLACK_MS
  for (let page = 1; page <= MAX_PAGES; page++) {
    const p = await client.fraud.events(game, { page, limit: PAGE })
    out.push(...p.data)
    const first = p.data[0]
    if (horizon === undefined && first) horizon = Date.parse(first.receivedAt) - SLACK_MS
    const oldest = p.data[p.data.length - 1]
    if (!p.hasMore || !oldest || horizon === undefined || Date.parse(oldest.receivedAt) < horizon) break
  }
  const from = horizon
  return from === undefined ? out : out.filter((e) => Date.parse(e.receivedAt) >= from)
}

/** Watches until `until` resolves: by default the first SIGINT, SIGTERM or SIGHUP (exit 130, 143, 129). */
export async function runFraudWatch(
  o: { game: string; interval?: number },
  ctx: Ctx,
  until?: Promise<StopSignal | void>,
): Promise<void> {
  const signals = until ? undefined : stopSignals()
  try {
    const stopped = await watch(o, ctx, until ?? signals!.first)
    if (stopped) throw new StoppedBySignal(stopped)
  } finally {
    signals?.release()
  }
}

async function watch(
  o: { game: string; interval?: number },
  ctx: Ctx,
  until: Promise<StopSignal | void>,
): Promise<StopSignal | void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const intervalMs = Math.round((o.interval ?? 2) * 1000)
  let stopped = false
  let signal: StopSignal | void = undefined
  void until.then((s) => {
    stopped = true
    signal = s
  })
  // id → receivedAt (ms) of every event printed or present at start, within the window.
  const seen = new Map<string, number>()
  let newest: number | undefined
  const remember = (events: FraudEvent[]) => {
    for (const e of events) {
      const at = Date.parse(e.receivedAt)
      seen.set(e.id, at)
      newest = Math.max(newest ?? at, at)
    }
    for (const [id, at] of seen) if (newest !== undefined && at < newest - SLACK_MS) seen.delete(id)
  }
  remember(await recent(client, o.game, undefined))
  note(ctx, `Watching the fraud events of ${o.game} (every ${intervalMs / 1000} s); Ctrl-C to stop`)
  let failing = false
  while (!stopped) {
    let timer: NodeJS.Timeout | undefined
    await Promise.race([until, new Promise((resolve) => (timer = setTimeout(resolve, intervalMs)))])
    clearTimeout(timer)
    if (stopped) break
    try {
      const fresh = (await recent(client, o.game, newest)).filter((e) => !seen.has(e.id))
      if (failing) note(ctx, 'reconnected')
      failing = false
      fresh.sort(newestFirst).reverse()
      for (const e of fresh) ctx.stdout.write(`${ctx.json ? JSON.stringify(e) : visible(eventLine(e))}\n`)
      remember(fresh)
    } catch (err) {
      // A refusal that will not pass (key revoked, fraud turned off, game deleted) ends the watch.
      // (The status of an ApiError; the client is loaded lazily, so no instanceof here.)
      const status = (err as { status?: unknown }).status
      if (typeof status === 'number' && status < 500 && status !== 429) throw err
      // The daemon restarting or briefly unreachable: say so once, keep polling.
      if (!failing) warn(ctx, `${(err as Error).message}; retrying every ${intervalMs / 1000} s`)
      failing = true
    }
  }
  return signal
}

export function register(fraud: Command): void {
  jsonOption(
    fraud
      .command('watch')
      .description('live feed of new fraud events of a game (until Ctrl-C); --json: one JSON object per line')
      .argument('<game>', GAME_ARGUMENT)
      .option('--interval <seconds>', 'seconds between polls (default 2)', secondsArg),
  ).action(action<{ interval?: number }>(([game], o, ctx) => runFraudWatch({ ...o, game: game ?? '' }, ctx)))
}
