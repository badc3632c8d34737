/**
 * A game's funnel over a range: each step as a bar of its players with the conversion from step 1
 * and from the previous step, and the median time between them. `e` edits the steps (a small
 * form; the API's message when it refuses them), `w` changes the window. A funnel reads raw events
 * (seconds on a large game): it is fetched when its steps, window or range change and on `r`, not
 * every refresh.
 */
import { Box } from 'ink'
import { Text } from '../components/text.js'
import { Form } from '../components/form.js'
import type { Game } from '../../contract/games.js'
import type { Events, EventsRow } from '../../contract/gaming.js'
import type { Funnel, FunnelQuery } from '../../contract/gaming-funnel.js'
import type { FunnelWindow } from '../../contract/limits.js'
import { bar, fitHead, percent } from '../../format/cells.js'
import { uptime } from '../../format/uptime.js'
import { useTui, type TuiEnv } from '../context.js'
import { usePoll } from '../hooks/use-poll.js'
import { refusedField } from '../api.js'

export const FUNNEL_WINDOW_CYCLE: FunnelWindow[] = ['1h', '1d', '7d', '30d']
/** The steps of a game that sent fewer than 2 event types (see defaultSteps). */
export const DEFAULT_STEPS = 'app_install,session_start,purchase'

/** Event types that close something: no step towards anything. */
const ENDINGS = new Set(['session_end', 'app_close'])

/**
 * The steps a game's funnel starts with: its own 3 most frequent event types of the range (the
 * events report; not session_end or app_close): app_install first (everything follows it), then
 * the one the most players sent first (a funnel narrows); DEFAULT_STEPS when it sent fewer than 2.
 */
export function defaultSteps(events: Events): string {
  const players = (r: EventsRow) => r.uniquePlayers ?? 0
  const first = (r: EventsRow) => Number(r.eventType === 'app_install')
  const rows = events.data
    .filter((r) => r.count > 0 && !ENDINGS.has(r.eventType) && !r.eventType.endsWith(':'))
    .sort((a, b) => b.count - a.count)
    .slice(0, 3)
    .sort((a, b) => first(b) - first(a) || players(b) - players(a) || b.count - a.count)
  return rows.length < 2 ? DEFAULT_STEPS : rows.map((r) => r.eventType).join(',')
}

const ratio = (r: number | null) => (r === null ? '-' : percent(r * 100, 1))
const median = (s: number | null) => (s === null ? '' : s < 1 ? `${Math.round(s * 1000)}ms` : uptime(s))

const DAY_MS = 86_400_000

/**
 * The funnel of the last `days` days. A start the daemon refuses (raw events removed before it,
 * as when a short retention was extended since) is left to the daemon: its answer's range says
 * which days it read (from the first one it keeps).
 */
async function funnelOf(env: TuiEnv, q: Omit<FunnelQuery, 'startDate' | 'endDate'>, days: number) {
  const { startDate, endDate } = rangeOf(env, days)
  try {
    return await env.client.analytics.gameFunnel({ ...q, startDate, endDate })
  } catch (err) {
    if (!refusedField(err, 'startDate')) throw err
    return env.client.analytics.gameFunnel({ ...q, endDate })
  }
}

function rangeOf(env: TuiEnv, days: number) {
  const dayIso = (msAgo: number) => new Date(env.clock.now() - msAgo).toISOString().slice(0, 10)
  return { startDate: dayIso((days - 1) * DAY_MS), endDate: dayIso(0) }
}

const daysOf = (r: Funnel['range']) => (Date.parse(r.endDate) - Date.parse(r.startDate)) / DAY_MS + 1

/** Why the range read is shorter than the days asked, if it is. */
function shorter(range: Funnel['range'], asked: number, kept: number): string {
  const read = daysOf(range)
  if (read >= asked) return ''
  return read >= kept
    ? ` (raw events are kept ${kept} days)`
    : ` (no raw events kept before ${range.startDate})`
}

export function GameFunnel(props: {
  game: Game
  days: number
  /** The steps chosen with `e`; undefined: the game's defaults (defaultSteps). */
  steps: string | undefined
  window: FunnelWindow
  /** Counts the user's `r` presses: each fetches the funnel again. */
  fetches: number
  editing: boolean
  active: boolean
  width: number
  setSteps(steps: string): void
  stopEditing(): void
}) {
  const env = useTui()
  const { game, window, width } = props
  // Raw events older than the game keeps them are gone: a range reaching back further is a 400.
  const days = Math.min(props.days, game.rawRetentionDays)
  const poll = usePoll(
    `funnel ${game.id}`,
    async () => {
      const steps =
        props.steps ?? defaultSteps(await env.client.analytics.gameEvents(game.id, rangeOf(env, days)))
      return { steps, funnel: await funnelOf(env, { gameId: game.id, steps, window }, days) }
    },
    [game.id, days, props.steps, window, props.fetches],
    { repeat: false },
  )
  const steps = props.steps ?? poll.data?.steps ?? DEFAULT_STEPS
  if (props.editing)
    return (
      <Form
        title={`Funnel steps of ${game.name}: 2-10 event types, comma-separated, each optionally type:field=value`}
        fields={[{ name: 'steps', label: 'steps', value: steps }]}
        active={props.active}
        cancel={props.stopEditing}
        submit={async (v) => {
          const next = (v.steps ?? '').trim()
          // Asked once here, so that the API's message about bad steps shows under the field.
          await funnelOf(env, { gameId: game.id, steps: next, window }, days)
          props.setSteps(next)
          props.stopEditing()
        }}
      />
    )
  const f: Funnel | undefined = poll.data?.funnel
  const shown = f ? daysOf(f.range) : days
  const head = fitHead(
    `Funnel of ${game.name}`,
    ` · window ${window} · ${shown} days · e steps · w window · r fetch · f overview`,
    width,
  )
  // A refusal of this query shows here, whole, not only cut short on the status line, and in place of
  // the figures of an earlier query (other steps, window or range).
  if (!f || poll.trouble?.permanent)
    return (
      <Box flexDirection="column">
        <Text bold wrap="truncate">
          {head}
        </Text>
        <Text dimColor>{poll.trouble ? poll.trouble.message : 'loading…'}</Text>
      </Box>
    )
  const names = f.data.map((s) => (s.condition ? `${s.eventType}:${s.condition}` : s.eventType))
  const nameWidth = Math.min(28, Math.max(...names.map((n) => n.length)))
  const top = f.data[0]?.players ?? 0
  const barWidth = Math.max(5, Math.min(40, width - nameWidth - 40))
  const count = Math.max(1, ...f.data.map((s) => String(s.players).length))
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        {head}
      </Text>
      <Text
        dimColor
      >{`${f.range.startDate} to ${f.range.endDate}${shorter(f.range, props.days, game.rawRetentionDays)}: players, from step 1, from the previous step, median time`}</Text>
      {f.data.map((s, i) => (
        <Text key={s.step} wrap="truncate">
          {`${String(s.step).padStart(2)} ${names[i]!.slice(0, nameWidth).padEnd(nameWidth)} ${bar(s.players, top, barWidth).padEnd(barWidth)} ${String(s.players).padStart(count)} ${ratio(s.conversion).padStart(6)} ${ratio(s.stepConversion).padStart(6)} ${median(s.medianSecondsFromPrevious)}`}
        </Text>
      ))}
      {top === 0 ? (
        <Text dimColor>{`No player did step 1 (${names[0]}) in the range: e changes the steps.`}</Text>
      ) : null}
    </Box>
  )
}
