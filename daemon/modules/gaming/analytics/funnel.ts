/**
 * Funnels from raw events. A player's step 1 is their first step-1 event of the range; step k is
 * the first event matching it at or after step k-1's time (the same millisecond counts; one event
 * counts for one step), at most `window` after step 1. Each step's events are read in one pass in
 * time order (funnel-store.ts), so the earliest qualifying event of each player is the one taken:
 * the furthest step reached and the earliest time of each step.
 */
import {
  FUNNEL_LIMITS,
  FUNNEL_WINDOWS,
  type Funnel,
  type FunnelQuery,
  type FunnelStep,
} from '../../../../src/contract/gaming-funnel.js'
import { NONE_GROUP } from '../../../../src/contract/gaming-revenue.js'
import { round } from '../../../../src/contract/numbers.js'
import { EVENT_TYPE_PATTERN } from '../../../../src/contract/text.js'
import { AppError } from '../../../http/errors.js'
import { DAY_MS, dateOfDay, utcDayNumber } from '../../../clock.js'
import type { GameRecord } from '../games/index.js'
import { GROUP_COLUMNS, type FunnelStore } from '../storage/index.js'
import { MAX_RANGE_DAYS, parseDay } from './days.js'
import { byGroup } from './money.js'

/** A parsed step: its event type and optional condition on a top-level data field. */
export interface StepSpec {
  eventType: string
  condition: { field: string; value: string } | null
}

const TYPE = new RegExp(EVENT_TYPE_PATTERN)
const bad = (message: string): never => {
  throw new AppError('ValidationError', `steps: ${message}`, [{ field: 'steps', message }])
}

/**
 * `type` or `type:field=value`, comma-separated. An event type may hold ':' itself: with a '=',
 * the field is what follows the last ':' before the first '='.
 */
export function parseSteps(text: string): StepSpec[] {
  const parts = text.split(',').map((s) => s.trim())
  if (parts.length < FUNNEL_LIMITS.stepsMin || parts.length > FUNNEL_LIMITS.stepsMax)
    bad(`${FUNNEL_LIMITS.stepsMin} to ${FUNNEL_LIMITS.stepsMax} comma-separated steps (got ${parts.length})`)
  return parts.map((part, i) => {
    const eq = part.indexOf('=')
    const head = eq < 0 ? part : part.slice(0, eq)
    const colon = head.lastIndexOf(':')
    if (eq >= 0 && colon < 0) bad(`step ${i + 1} has a condition without a field: write type:field=value`)
    const eventType = eq < 0 ? part : head.slice(0, colon)
    if (!TYPE.test(eventType))
      bad(`step ${i + 1}: "${eventType}" is not an event type (a letter, then letters, digits, _ . : -)`)
    if (eq < 0) return { eventType, condition: null }
    const field = head.slice(colon + 1)
    const value = part.slice(eq + 1)
    if (!field) bad(`step ${i + 1} has an empty field name`)
    if (!value) bad(`step ${i + 1} has an empty value`)
    return { eventType, condition: { field, value } }
  })
}

/**
 * Whether an event's data meets a condition: the field's value as text equals it, so a number 3
 * and a string "3" both match `level=3`, a boolean matches `true`/`false`; objects, arrays and null
 * never match.
 */
export function meets(data: string | null, condition: StepSpec['condition']): boolean {
  if (!condition) return true
  if (data === null) return false
  let v: unknown
  try {
    v = (JSON.parse(data) as Record<string, unknown>)[condition.field]
  } catch {
    return false
  }
  if (typeof v === 'string') return v === condition.value
  if (typeof v === 'number' || typeof v === 'boolean') return String(v) === condition.value
  return false
}

/**
 * The range of a funnel: days as other analytics queries (366 at most), but raw events only exist
 * within the game's raw retention: an explicit startDate before it is a 400 naming it; without
 * one, the range starts at the later of 30 days before its end and the first retained day.
 */
export function funnelRange(game: GameRecord, q: FunnelQuery, now: number): { start: number; end: number } {
  const cutoff = Math.max(now - game.rawRetentionDays * DAY_MS, game.rawFloor)
  const firstRetained = Math.ceil(cutoff / DAY_MS)
  const end = parseDay(q.endDate, 'endDate') ?? utcDayNumber(now)
  const asked = parseDay(q.startDate, 'startDate')
  const start = asked ?? Math.min(end, Math.max(end - 29, firstRetained))
  if (start > end)
    throw new AppError('ValidationError', 'startDate must not be after endDate', [
      { field: 'startDate', message: 'must not be after endDate' },
    ])
  if (end - start + 1 > MAX_RANGE_DAYS)
    throw new AppError('ValidationError', `the range is at most ${MAX_RANGE_DAYS} days`, [
      { field: 'startDate', message: `at most ${MAX_RANGE_DAYS} days before endDate` },
    ])
  if (start < firstRetained) {
    const message = `funnels read raw events, which this game keeps ${game.rawRetentionDays} days (rawRetentionDays): the range must start on or after ${dateOfDay(firstRetained)}`
    throw new AppError('ValidationError', message, [{ field: 'startDate', message }])
  }
  return { start, end }
}

/** Each player's progress: the steps reached, the time of the last one, the events used at that time. */
interface Progress {
  reached: number
  first: number
  last: number
  usedAtLast: string[]
  /** Milliseconds from each step to the next reached (index k-1: from step k to step k+1). */
  gaps: number[]
}

const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 4) : null)

function median(xs: number[]): number | null {
  if (xs.length === 0) return null
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

/** The rows of one funnel from the progress of its players. */
export function stepRows(steps: StepSpec[], players: Iterable<Progress>): FunnelStep[] {
  const counts = steps.map(() => 0)
  const gaps: number[][] = steps.map(() => [])
  for (const p of players)
    for (let k = 0; k < p.reached; k++) {
      counts[k]!++
      if (k > 0) gaps[k]!.push(p.gaps[k - 1]!)
    }
  return steps.map((s, k) => {
    const m = k === 0 ? null : median(gaps[k]!)
    return {
      step: k + 1,
      eventType: s.eventType,
      condition: s.condition ? `${s.condition.field}=${s.condition.value}` : null,
      players: counts[k]!,
      conversion: ratio(counts[k]!, counts[0]!),
      stepConversion: ratio(counts[k]!, k === 0 ? counts[0]! : counts[k - 1]!),
      // Seconds with 3 decimals: whole milliseconds.
      medianSecondsFromPrevious: m === null ? null : Math.round(m) / 1000,
    }
  })
}

/** The funnel of a game over a day range, optionally one funnel per acquisition group. */
export async function funnelReport(
  store: FunnelStore,
  game: GameRecord,
  q: FunnelQuery,
  now: number,
): Promise<Funnel> {
  const steps = parseSteps(q.steps)
  const windowMs = FUNNEL_WINDOWS[q.window ?? '1d']
  const { start, end } = funnelRange(game, q, now)
  const players = new Map<string, Progress>()
  // Step 1: each player's first matching event of the range.
  let latestFirst = -Infinity
  let earliest = Infinity
  const s1 = steps[0]!
  for await (const page of store.typeEvents(
    game.id,
    s1.eventType,
    start * DAY_MS,
    (end + 1) * DAY_MS - 1,
    !!s1.condition,
  ))
    for (const e of page) {
      if (players.has(e.playerId) || !meets(e.data, s1.condition)) continue
      players.set(e.playerId, { reached: 1, first: e.ts, last: e.ts, usedAtLast: [e.eventId], gaps: [] })
      latestFirst = Math.max(latestFirst, e.ts)
      earliest = Math.min(earliest, e.ts)
    }
  // Steps 2..n: one pass each over the events from the earliest step 1 to the latest window's end.
  for (let k = 1; k < steps.length && players.size > 0; k++) {
    const s = steps[k]!
    for await (const page of store.typeEvents(
      game.id,
      s.eventType,
      earliest,
      latestFirst + windowMs,
      !!s.condition,
    ))
      for (const e of page) {
        const p = players.get(e.playerId)
        if (!p || p.reached !== k || e.ts < p.last || e.ts > p.first + windowMs) continue
        if (e.ts === p.last && p.usedAtLast.includes(e.eventId)) continue
        if (!meets(e.data, s.condition)) continue
        p.gaps.push(e.ts - p.last)
        if (e.ts === p.last) p.usedAtLast.push(e.eventId)
        else p.usedAtLast = [e.eventId]
        p.last = e.ts
        p.reached = k + 1
      }
  }
  const range = { startDate: dateOfDay(start), endDate: dateOfDay(end) }
  const data = stepRows(steps, players.values())
  if (!q.groupBy) return { data, range }
  const byGroupValue = new Map<string, Progress[]>()
  for await (const page of store.playerValues(game.id, GROUP_COLUMNS[q.groupBy]))
    for (const [playerId, value] of page) {
      const p = players.get(playerId)
      if (!p) continue
      const group = value === null || value === '' ? NONE_GROUP : value
      let list = byGroupValue.get(group)
      if (!list) byGroupValue.set(group, (list = []))
      list.push(p)
    }
  const groups = [...byGroupValue]
    .map(([group, list]) => ({ group, steps: stepRows(steps, list) }))
    .sort((a, b) => b.steps[0]!.players - a.steps[0]!.players || byGroup(a, b))
  return { data, groups, range }
}
