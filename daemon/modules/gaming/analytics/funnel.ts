/**
 * Funnels from raw events: the steps parsed and the range checked here, each player's walk through
 * the steps computed by the database (funnel-store.ts, which states the rules), the figures here.
 */
import {
  FUNNEL_LIMITS,
  FUNNEL_WINDOWS,
  type Funnel,
  type FunnelQuery,
  type FunnelStep,
} from '../../../../src/contract/gaming-funnel.js'
import { NONE_GROUP } from '../../../../src/contract/gaming-revenue.js'
import { INGEST_LIMITS } from '../../../../src/contract/limits.js'
import { round } from '../../../../src/contract/numbers.js'
import { EVENT_TYPE_PATTERN } from '../../../../src/contract/text.js'
import { AppError } from '../../../http/errors.js'
import { DAY_MS, dateOfDay, utcDayNumber } from '../../../clock.js'
import type { GameRecord } from '../games/index.js'
import { GROUP_COLUMNS, type FunnelCell, type FunnelStepSpec, type FunnelStore } from '../storage/index.js'
import { MAX_RANGE_DAYS, parseDay } from './days.js'
import { byGroup } from './money.js'

/** A parsed step: its event type and optional condition on a top-level data field. */
export type StepSpec = FunnelStepSpec

const TYPE = new RegExp(EVENT_TYPE_PATTERN)
const bad = (message: string): never => {
  throw new AppError('ValidationError', `steps: ${message}`, [{ field: 'steps', message }])
}

/**
 * `type` or `type:field=value`, comma-separated. An event type may hold ':' itself: with a '=',
 * the field is what follows the last ':' before the first '='; a step ending with ':' is an empty
 * condition (a 400), not a type. Spaces around each part are dropped.
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
    if (eq < 0 && part.endsWith(':'))
      bad(`step ${i + 1} has an empty condition after ':': write type:field=value, or the type alone`)
    const eventType = eq < 0 ? part : head.slice(0, colon).trim()
    if (!TYPE.test(eventType) || eventType.length > INGEST_LIMITS.customTypeMax)
      bad(
        `step ${i + 1}: "${eventType}" is not an event type (a letter, then letters, digits, _ . : -; up to ${INGEST_LIMITS.customTypeMax})`,
      )
    if (eq < 0) return { eventType, condition: null }
    const field = head.slice(colon + 1).trim()
    const value = part.slice(eq + 1).trim()
    if (!field) bad(`step ${i + 1} has an empty field name`)
    if (!value) bad(`step ${i + 1} has an empty value`)
    return { eventType, condition: { field, value } }
  })
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

const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 4) : null)

/** The rows of one funnel from its cells (players and median gap per step; absent: nobody). */
export function stepRows(steps: StepSpec[], cells: FunnelCell[]): FunnelStep[] {
  const byStep = new Map(cells.map((c) => [c.step, c]))
  const players = (k: number) => byStep.get(k + 1)?.players ?? 0
  return steps.map((s, k) => {
    const m = k === 0 ? null : (byStep.get(k + 1)?.medianMs ?? null)
    return {
      step: k + 1,
      eventType: s.eventType,
      condition: s.condition ? `${s.condition.field}=${s.condition.value}` : null,
      players: players(k),
      conversion: ratio(players(k), players(0)),
      stepConversion: ratio(players(k), k === 0 ? players(0) : players(k - 1)),
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
  const column = q.groupBy ? GROUP_COLUMNS[q.groupBy] : null
  const cells = await store.cells(game.id, steps, start * DAY_MS, (end + 1) * DAY_MS - 1, windowMs, column)
  const range = { startDate: dateOfDay(start), endDate: dateOfDay(end) }
  const byGroupValue = new Map<string | null, FunnelCell[]>()
  for (const c of cells) {
    const group = c.group === null ? null : c.group === '' ? NONE_GROUP : c.group
    let list = byGroupValue.get(group)
    if (!list) byGroupValue.set(group, (list = []))
    list.push(c)
  }
  const data = stepRows(steps, byGroupValue.get(null) ?? [])
  if (!q.groupBy) return { data, range }
  const groups = [...byGroupValue]
    .filter((e): e is [string, FunnelCell[]] => e[0] !== null)
    .map(([group, list]) => ({ group, steps: stepRows(steps, list) }))
    .sort((a, b) => b.steps[0]!.players - a.steps[0]!.players || byGroup(a, b))
  return { data, groups, range }
}
