/**
 * Funnels computed in the database, one query: each step's time per player is the MIN over that
 * player's events of the step's type (SQLite: a seek per player in index game_events_funnel_player:
 * game, type, player, time, event id; PostgreSQL: a join it can hash), chained step by step through
 * materialized CTEs; per step, its players and their gaps from the previous step come back as JSON
 * arrays and the medians (per step, and per group) are taken here. Same rules as
 * docs/reference/gaming.md: step 1 is the first matching event of the range; step k the earliest
 * matching event at or after step k-1's time, at most `window` after step 1; one event counts for
 * one step (at a shared millisecond, steps of the same type take the smallest event ids first).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { ReadPool } from '../../../db/read-pool.js'
import type { Database } from '../../../db/schema.js'
import type { GroupColumn } from './types.js'

/** A funnel step: an event type and an optional condition on a top-level data field. */
export interface FunnelStepSpec {
  eventType: string
  condition: { field: string; value: string } | null
}

/** Players reaching a step and the median milliseconds from the previous step (null on step 1). */
export interface FunnelCell {
  /** The group's value ('' for none), or null for the whole funnel. */
  group: string | null
  /** 1-based. */
  step: number
  players: number
  medianMs: number | null
}

export interface FunnelStore {
  /**
   * The cells of a funnel whose step 1 falls in [from, to] (ms): the whole funnel's, and with
   * `column` each value's (players without a profile are in no group). Steps nobody reached have
   * no cell.
   */
  cells(
    gameId: string,
    steps: FunnelStepSpec[],
    from: number,
    to: number,
    windowMs: number,
    column: GroupColumn | null,
  ): Promise<FunnelCell[]>
}

type Dialect = 'sqlite' | 'postgres'

/**
 * Whether event `e`'s data meets a condition, as text: a string equal to the value; a number when
 * the value is how JavaScript writes that number (`3`, `3.5`; not `03` or `3.0`); a boolean for
 * `true` / `false`. Objects, arrays and null never match.
 */
function conditionSql(dialect: Dialect, c: { field: string; value: string }): RawBuilder<boolean> {
  const num = Number(c.value)
  const numeric = c.value.trim() !== '' && Number.isFinite(num) && String(num) === c.value
  const bool = c.value === 'true' || c.value === 'false'
  const parts: RawBuilder<boolean>[] = []
  if (dialect === 'sqlite') {
    // One json_extract where it decides alone (a fraction of the condition's cost): its text is a
    // JSON string's unless an object or array's (value '{…' or '[…'), its number a JSON number's
    // unless a boolean's (1 or 0); those cases check json_type too.
    const path = `$."${c.field.replace(/[\\"]/g, '\\$&')}"`
    const type = sql`json_type(e.data, ${path})`
    const value = sql`json_extract(e.data, ${path})`
    const alone: unknown[] = []
    if (/^[[{]/.test(c.value)) parts.push(sql`(${type} = 'text' AND ${value} = ${c.value})`)
    else alone.push(c.value)
    if (numeric && (num === 0 || num === 1))
      parts.push(sql`(${type} IN ('integer', 'real') AND ${value} = ${num})`)
    else if (numeric) alone.push(num)
    if (bool) parts.push(sql`${type} = ${c.value}`)
    if (alone.length > 0) parts.push(sql`${value} IN (${sql.join(alone)})`)
  } else {
    const value = sql`(e.data::jsonb -> ${c.field}::text)`
    const text = sql`(e.data::jsonb ->> ${c.field}::text)`
    parts.push(sql`(jsonb_typeof(${value}) = 'string' AND ${text} = ${c.value}::text)`)
    if (numeric)
      parts.push(
        sql`(CASE WHEN jsonb_typeof(${value}) = 'number' THEN ${text}::float8 = ${num}::float8 ELSE false END)`,
      )
    if (bool) parts.push(sql`(jsonb_typeof(${value}) = 'boolean' AND ${text} = ${c.value}::text)`)
  }
  return sql<boolean>`(${sql.join(parts, sql` OR `)})`
}

/** The players of one part of a funnel: player ids at or after `lo` and before `hi` (none: no bound). */
interface Part {
  lo: string | null
  hi: string | null
}

/**
 * With `pool` (a SQLite file), the query runs in its worker threads, split by player id into twice
 * as many parts as it has workers (about equal numbers of players), each worker taking the next
 * part: the event loop is free meanwhile, and every core reads to the end (one part a worker left
 * one idle while the other finished: 6 % slower at 1M players). Otherwise on `db`, whole.
 */
export function createFunnelStore(db: Kysely<Database>, dialect: Dialect, pool?: ReadPool): FunnelStore {
  /**
   * The player ids splitting the game's players into `parts` parts of equal numbers (an offset
   * into the profiles' key, its count kept by the store): about equal numbers of step-1 players.
   */
  async function bounds(gameId: string, parts: number): Promise<string[]> {
    const at = (i: number) => sql`SELECT (SELECT player_id FROM game_players WHERE game_id = ${gameId}
      ORDER BY player_id LIMIT 1 OFFSET (SELECT COALESCE(MAX(players), 0) * ${sql.lit(i)} / ${sql.lit(parts)}
        FROM game_player_totals WHERE game_id = ${gameId})) AS player_id`
    const picks = Array.from({ length: parts - 1 }, (_, i) => at(i + 1))
    const rows = await pool!.all<{ player_id: string | null }>(sql.join(picks, sql` UNION ALL `).compile(db))
    // Fewer players than parts: some bounds are the same, or none.
    return [...new Set(rows.flatMap((r) => (r.player_id === null ? [] : [r.player_id])))]
  }

  /**
   * Bounds are kept 10 minutes per game (1,000 games at most): any bounds split a funnel right,
   * and a game's players change slowly. At 1M players their query takes ~35 ms.
   */
  const kept = new Map<string, { until: number; ids: string[] }>()
  async function keptBounds(gameId: string, parts: number): Promise<string[]> {
    const key = `${gameId} ${parts}`
    const hit = kept.get(key)
    if (hit && hit.until > performance.now()) return hit.ids
    const ids = await bounds(gameId, parts)
    kept.delete(key)
    if (kept.size >= 1_000) kept.delete(kept.keys().next().value!)
    kept.set(key, { until: performance.now() + 600_000, ids })
    return ids
  }

  return {
    async cells(...args) {
      const gameId = args[0]
      const grouped = args[5] !== null
      const split = pool && pool.size > 1 ? await keptBounds(gameId, 2 * pool.size) : []
      const parts: Part[] = [...split, null].map((hi, i) => ({ lo: i === 0 ? null : split[i - 1]!, hi }))
      const query = (part: Part) => funnelQuery(dialect, args, part)
      if (!pool) return funnelCells([parseRows((await query(parts[0]!).execute(db)).rows)], grouped)
      const read = parts.map(async (part) => parseRows(await pool.all<StepRow>(query(part).compile(db))))
      return funnelCells(await Promise.all(read), grouped)
    },
  }
}

/** What a funnel reads: the arguments of FunnelStore.cells. */
type FunnelArgs = Parameters<FunnelStore['cells']>

/** The one query of a funnel's part (see the top of this file). */
function funnelQuery(dialect: Dialect, args: FunnelArgs, part: Part): RawBuilder<StepRow> {
  const [gameId, steps, from, to, windowMs, column] = args
  const t = (k: number) => sql.raw(`t${k}`)
  const id = (k: number) => sql.raw(`i${k}`)
  const cond = (k: number) => {
    const c = steps[k]!.condition
    return c ? sql`AND ${conditionSql(dialect, c)}` : sql``
  }
  // The event id a step took matters when a later step has its type (it cannot take it again).
  const needsId = steps.map((s, k) => steps.slice(k + 1).some((o) => o.eventType === s.eventType))
  // Events taken by earlier steps of the same type, left out of step k.
  const unused = (k: number) =>
    sql.join(
      steps
        .slice(0, k)
        .flatMap((s, j) =>
          s.eventType === steps[k]!.eventType
            ? [sql`AND NOT (e.ts = c.${t(j)} AND e.event_id = c.${id(j)})`]
            : [],
        ),
      sql` `,
    )
  const events = (k: number) =>
    sql`FROM game_events e WHERE e.game_id = ${gameId} AND e.event_type = ${steps[k]!.eventType}
      AND e.player_id = c.player_id`
  const idOf = (k: number) =>
    sql`(SELECT MIN(e.event_id) ${events(k)} AND e.ts = c.${t(k)} ${cond(k)} ${unused(k)})`
  // c0: each player's first step-1 time in the range (and group: NULL without a profile).
  const players = sql.join(
    [
      ...(part.lo === null ? [] : [sql`AND e.player_id >= ${part.lo}`]),
      ...(part.hi === null ? [] : [sql`AND e.player_id < ${part.hi}`]),
    ],
    sql` `,
  )
  const first = sql`SELECT e.player_id, MIN(e.ts) AS t0 FROM game_events e
    WHERE e.game_id = ${gameId} AND e.event_type = ${steps[0]!.eventType} AND e.ts >= ${from}
      AND e.ts <= ${to} ${cond(0)} ${players} GROUP BY e.player_id`
  const ctes: RawBuilder<unknown>[] = [
    column
      ? sql`c0 AS MATERIALIZED (SELECT f.player_id, f.t0,
          CASE WHEN p.player_id IS NULL THEN NULL ELSE COALESCE(${sql.ref(`p.${column}`)}, '') END AS grp
          FROM (${first}) f LEFT JOIN game_players p ON p.game_id = ${gameId} AND p.player_id = f.player_id)`
      : sql`c0 AS MATERIALIZED (SELECT f.player_id, f.t0, CAST(NULL AS TEXT) AS grp FROM (${first}) f)`,
  ]
  let prev = 'c0'
  if (needsId[0]) {
    ctes.push(sql`c0i AS MATERIALIZED (SELECT c.*, ${idOf(0)} AS i0 FROM c0 c)`)
    prev = 'c0i'
  }
  // ck: the players who reached step k, with step k's time and what later steps read: t0, the
  // group, the previous step's time, the times and event ids of steps whose type comes again.
  // SQLite: a correlated MIN per player (one index seek), kept when not NULL (LIMIT -1 keeps
  // the subquery from being flattened, which would run the MIN twice). PostgreSQL: sk, the
  // times by a join its planner may hash (one scan of the step's events, where a seek per
  // player costs several times more), joined back to the players of step k-1.
  for (let k = 1; k < steps.length; k++) {
    const keep = ['player_id', 't0', 'grp']
    for (let j = 0; j < k; j++) {
      if (j > 0 && (needsId[j] || j === k - 1)) keep.push(`t${j}`)
      if (needsId[j]) keep.push(`i${j}`)
    }
    const cols = sql.join(keep.map((c) => sql.ref(`c.${c}`)))
    const within = sql`e.ts >= c.${t(k - 1)} AND e.ts <= c.t0 + ${windowMs} ${cond(k)} ${unused(k)}`
    const [ck, sk, from] = [sql.raw(`c${k}`), sql.raw(`s${k}`), sql.raw(prev)]
    if (dialect === 'sqlite')
      ctes.push(sql`${ck} AS MATERIALIZED (SELECT * FROM (SELECT ${cols},
        (SELECT MIN(e.ts) ${events(k)} AND ${within}) AS ${t(k)} FROM ${from} c LIMIT -1)
        WHERE ${t(k)} IS NOT NULL)`)
    else
      ctes.push(
        sql`${sk} AS MATERIALIZED (SELECT c.player_id, MIN(e.ts) AS t FROM ${from} c JOIN game_events e
          ON e.game_id = ${gameId} AND e.event_type = ${steps[k]!.eventType} AND e.player_id = c.player_id
          AND ${within} GROUP BY c.player_id)`,
        sql`${ck} AS MATERIALIZED (SELECT ${cols}, s.t AS ${t(k)} FROM ${from} c
          JOIN ${sk} s ON s.player_id = c.player_id)`,
      )
    prev = `c${k}`
    if (needsId[k]) {
      ctes.push(sql`${sql.raw(`c${k}i`)} AS MATERIALIZED (SELECT c.*, ${idOf(k)} AS ${id(k)} FROM ${ck} c)`)
      prev = `c${k}i`
    }
  }
  // Per step, its players and, as JSON arrays in the same row order, their gaps from the
  // previous step and (grouped) their groups: the medians are taken here, where a sort of a
  // Float64Array per step and group costs a fraction of a window sort over every gap.
  const agg = (v: RawBuilder<unknown>) =>
    dialect === 'sqlite' ? sql`json_group_array(${v})` : sql`CAST(json_agg(${v}) AS TEXT)`
  const grps = column ? agg(sql`c.grp`) : sql`NULL`
  const stepOf = (k: number) => sql.raw(needsId[k] ? `c${k}i` : `c${k}`)
  const rows = [
    sql`SELECT 1 AS k, COUNT(*) AS n, NULL AS gaps, ${grps} AS grps FROM c0 c`,
    ...steps.slice(1).map(
      (_, i) =>
        sql`SELECT ${sql.lit(i + 2)} AS k, COUNT(*) AS n, ${agg(sql`c.${t(i + 1)} - c.${t(i)}`)} AS gaps,
          ${grps} AS grps FROM ${stepOf(i + 1)} c`,
    ),
  ]
  return sql<StepRow>`WITH ${sql.join(ctes)} ${sql.join(rows, sql` UNION ALL `)}`
}

/** A step's players and their gaps and groups as JSON arrays (NULL or '[]' for none). */
interface StepRow {
  k: number
  n: number
  gaps: string | null
  grps: string | null
}

/** A step's players, and in the same order their gaps from the previous step and their groups. */
interface StepPlayers {
  step: number
  players: number
  gaps: number[]
  groups: Array<string | null>
}

const parseRows = (rows: StepRow[]): StepPlayers[] =>
  rows.map((r) => ({
    step: Number(r.k),
    players: Number(r.n),
    gaps: JSON.parse(r.gaps ?? '[]') as number[],
    groups: JSON.parse(r.grps ?? '[]') as Array<string | null>,
  }))

/**
 * The median of some gaps: the middle one, or the mean of the two middle ones. Quickselect (a
 * random pivot: O(n) on average whatever the data) costs a fifth of a sort of a million gaps. It
 * reorders `a`.
 */
function median(a: Float64Array): number {
  const mid = a.length >> 1
  let [lo, hi] = [0, a.length - 1]
  // Partitions a[lo..hi] around a pivot until a[mid] is the mid-th smallest: then every value
  // before it is at most it.
  while (lo < hi) {
    const pivot = a[lo + Math.floor(Math.random() * (hi - lo + 1))]!
    let [i, j] = [lo, hi]
    while (i <= j) {
      while (a[i]! < pivot) i++
      while (a[j]! > pivot) j--
      if (i <= j) {
        ;[a[i], a[j]] = [a[j]!, a[i]!]
        i++
        j--
      }
    }
    if (mid <= j) hi = j
    else if (mid >= i) lo = i
    else break
  }
  if (a.length % 2 === 1) return a[mid]!
  let below = a[0]!
  for (let i = 1; i < mid; i++) if (a[i]! > below) below = a[i]!
  return (below + a[mid]!) / 2
}

/**
 * The cells from the steps' players of every part (players of one part are in no other): the whole
 * funnel's, and when `grouped` each group's (a NULL group: no profile, in no group). Gaps go into
 * one typed array per step and per group (counted first): at 1M players, pushing them into lists
 * of a Map took a second.
 */
function funnelCells(parts: StepPlayers[][], grouped: boolean): FunnelCell[] {
  const cells: FunnelCell[] = []
  for (const [k, first] of parts[0]!.entries()) {
    const rows = parts.map((p) => p[k]!)
    const step = first.step
    const players = rows.reduce((n, r) => n + r.players, 0)
    if (players === 0) continue
    const gaps = new Float64Array(step === 1 ? 0 : players)
    if (step > 1) {
      let at = 0
      for (const r of rows) {
        gaps.set(r.gaps, at)
        at += r.gaps.length
      }
    }
    if (grouped) cells.push(...groupCells(rows, step, gaps))
    // After the groups: the median reorders the gaps.
    cells.push({ group: null, step, players, medianMs: step === 1 ? null : median(gaps) })
  }
  return cells
}

/** A step's cells per group: each player's group in `rows`, their gaps in `gaps` in that order. */
function groupCells(rows: StepPlayers[], step: number, gaps: Float64Array): FunnelCell[] {
  const ids = new Map<string, number>()
  const counts: number[] = []
  const groupIds = new Int32Array(gaps.length || rows.reduce((n, r) => n + r.groups.length, 0))
  let i = 0
  for (const r of rows)
    for (const group of r.groups) {
      let id = -1
      if (group !== null) {
        id = ids.get(group) ?? -1
        if (id < 0) ids.set(group, (id = counts.push(0) - 1))
        counts[id]!++
      }
      groupIds[i++] = id
    }
  const lists = counts.map((n) => new Float64Array(step === 1 ? 0 : n))
  if (step > 1) {
    const filled = new Array<number>(counts.length).fill(0)
    for (let j = 0; j < groupIds.length; j++) {
      const id = groupIds[j]!
      if (id >= 0) lists[id]![filled[id]!++] = gaps[j]!
    }
  }
  return [...ids].map(([group, id]) => ({
    group,
    step,
    players: counts[id]!,
    medianMs: step === 1 ? null : median(lists[id]!),
  }))
}
