/**
 * Funnels computed in the database, one query: each step's time per player is the MIN over that
 * player's events of the step's type (SQLite: a seek per player in index game_events_funnel_player:
 * game, type, player, time, event id; PostgreSQL: a join it can hash), chained step by step through materialized CTEs, then players and the
 * median time from the previous step per step (and per group) by window functions. Same rules as
 * docs/reference/gaming.md: step 1 is the first matching event of the range; step k the earliest
 * matching event at or after step k-1's time, at most `window` after step 1; one event counts for
 * one step (at a shared millisecond, steps of the same type take the smallest event ids first).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely'
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
    const path = `$."${c.field.replace(/[\\"]/g, '\\$&')}"`
    const type = sql`json_type(e.data, ${path})`
    parts.push(sql`(${type} = 'text' AND json_extract(e.data, ${path}) = ${c.value})`)
    if (numeric) parts.push(sql`(${type} IN ('integer', 'real') AND json_extract(e.data, ${path}) = ${num})`)
    if (bool) parts.push(sql`${type} = ${c.value}`)
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

export function createFunnelStore(db: Kysely<Database>, dialect: Dialect): FunnelStore {
  return {
    async cells(gameId, steps, from, to, windowMs, column) {
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
      const first = sql`SELECT e.player_id, MIN(e.ts) AS t0 FROM game_events e
        WHERE e.game_id = ${gameId} AND e.event_type = ${steps[0]!.eventType} AND e.ts >= ${from}
          AND e.ts <= ${to} ${cond(0)} GROUP BY e.player_id`
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
      // ck: step k's time of the players who reached step k-1 (NULL: not reached). SQLite: a
      // correlated MIN per player (one index seek). PostgreSQL: sk, the times of the players
      // reaching step k by a join its planner may hash (one scan of the step's events, where a
      // seek per player costs several times more), joined back to every player of step k-1.
      for (let k = 1; k < steps.length; k++) {
        const reached = k === 1 ? sql`` : sql`WHERE c.${t(k - 1)} IS NOT NULL`
        const within = sql`e.ts >= c.${t(k - 1)} AND e.ts <= c.t0 + ${windowMs} ${cond(k)} ${unused(k)}`
        const [ck, sk, from] = [sql.raw(`c${k}`), sql.raw(`s${k}`), sql.raw(prev)]
        if (dialect === 'sqlite')
          ctes.push(sql`${ck} AS MATERIALIZED (SELECT c.*,
            (SELECT MIN(e.ts) ${events(k)} AND ${within}) AS ${t(k)} FROM ${from} c ${reached})`)
        else
          ctes.push(
            sql`${sk} AS MATERIALIZED (SELECT c.player_id, MIN(e.ts) AS t FROM ${from} c JOIN game_events e
              ON e.game_id = ${gameId} AND e.event_type = ${steps[k]!.eventType} AND e.player_id = c.player_id
              AND ${within} GROUP BY c.player_id)`,
            sql`${ck} AS MATERIALIZED (SELECT c.*, s.t AS ${t(k)} FROM ${from} c
              LEFT JOIN ${sk} s ON s.player_id = c.player_id ${reached})`,
          )
        prev = `c${k}`
        if (needsId[k]) {
          ctes.push(sql`${sql.raw(`c${k}i`)} AS MATERIALIZED (SELECT c.*,
            CASE WHEN c.${t(k)} IS NULL THEN NULL ELSE ${idOf(k)} END AS ${id(k)} FROM ${sql.raw(prev)} c)`)
          prev = `c${k}i`
        }
      }
      // The gap from the previous step of each player reaching step k >= 2, for the whole funnel
      // (grp NULL) and, grouped, under the player's value.
      const stepOf = (k: number) => sql.raw(needsId[k] ? `c${k}i` : `c${k}`)
      const gapRows = (grp: RawBuilder<unknown>, where: RawBuilder<unknown>) =>
        steps.slice(1).map(
          (_, i) =>
            sql`SELECT ${grp} AS grp, ${sql.lit(i + 2)} AS k, c.${t(i + 1)} - c.${t(i)} AS g
              FROM ${stepOf(i + 1)} c WHERE c.${t(i + 1)} IS NOT NULL ${where}`,
        )
      const gaps = [...gapRows(sql`CAST(NULL AS TEXT)`, sql``)]
      const firsts = [sql`SELECT CAST(NULL AS TEXT) AS grp, 1 AS k, COUNT(*) AS n, 0 AS g FROM c0`]
      if (column) {
        gaps.push(...gapRows(sql`c.grp`, sql`AND c.grp IS NOT NULL`))
        firsts.push(sql`SELECT grp, 1 AS k, COUNT(*) AS n, 0 AS g FROM c0 WHERE grp IS NOT NULL GROUP BY grp`)
      }
      const { rows } = await sql<{ grp: string | null; k: number; n: number; g: number }>`
        WITH ${sql.join(ctes)},
        gaps AS (${sql.join(gaps, sql` UNION ALL `)}),
        ranked AS (SELECT grp, k, g, ROW_NUMBER() OVER (PARTITION BY grp, k ORDER BY g) AS rn,
          COUNT(*) OVER (PARTITION BY grp, k) AS n FROM gaps)
        SELECT grp, k, n, g FROM ranked WHERE rn = (n + 1) / 2 OR rn = n / 2 + 1
        UNION ALL ${sql.join(firsts, sql` UNION ALL `)}`.execute(db)
      // The median: the middle gap, or the mean of the two middle ones.
      const cells = new Map<string, FunnelCell & { sum: number; parts: number }>()
      for (const r of rows) {
        const key = `${r.grp ?? '\u0000'}\n${r.k}`
        const cell = cells.get(key)
        if (cell) {
          cell.sum += Number(r.g)
          cell.parts++
        } else
          cells.set(key, {
            group: r.grp,
            step: Number(r.k),
            players: Number(r.n),
            medianMs: null,
            sum: Number(r.g),
            parts: 1,
          })
      }
      return [...cells.values()].map(({ sum, parts, ...c }) => ({
        ...c,
        medianMs: c.step === 1 ? null : sum / parts,
      }))
    },
  }
}
