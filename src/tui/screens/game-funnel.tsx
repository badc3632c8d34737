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
import type { Funnel, FunnelQuery } from '../../contract/gaming-funnel.js'
import type { FunnelWindow } from '../../contract/limits.js'
import { bar, fitHead, percent } from '../../format/cells.js'
import { uptime } from '../../format/uptime.js'
import { useTui, type TuiEnv } from '../context.js'
import { usePoll } from '../hooks/use-poll.js'
import { refusedField } from '../api.js'

export const FUNNEL_WINDOW_CYCLE: FunnelWindow[] = ['1h', '1d', '7d', '30d']
/** The steps a game's funnel starts with: install, a first session, a purchase. */
export const DEFAULT_STEPS = 'app_install,session_start,purchase'

const ratio = (r: number | null) => (r === null ? '-' : percent(r * 100, 1))
const median = (s: number | null) => (s === null ? '' : s < 1 ? `${Math.round(s * 1000)}ms` : uptime(s))

const DAY_MS = 86_400_000

/**
 * The funnel of the last `days` days. A start the daemon refuses (raw events removed before it,
 * as when a short retention was extended since) is left to the daemon: its answer's range says
 * which days it read (from the first one it keeps).
 */
async function funnelOf(env: TuiEnv, q: Omit<FunnelQuery, 'startDate' | 'endDate'>, days: number) {
  const dayIso = (msAgo: number) => new Date(env.clock.now() - msAgo).toISOString().slice(0, 10)
  const endDate = dayIso(0)
  try {
    return await env.client.analytics.gameFunnel({ ...q, startDate: dayIso((days - 1) * DAY_MS), endDate })
  } catch (err) {
    if (!refusedField(err, 'startDate')) throw err
    return env.client.analytics.gameFunnel({ ...q, endDate })
  }
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
  steps: string
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
  const { game, steps, window, width } = props
  // Raw events older than the game keeps them are gone: a range reaching back further is a 400.
  const days = Math.min(props.days, game.rawRetentionDays)
  const poll = usePoll(
    `funnel ${game.id}`,
    () => funnelOf(env, { gameId: game.id, steps, window }, days),
    [game.id, days, steps, window, props.fetches],
    { repeat: false },
  )
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
  const f: Funnel | undefined = poll.data
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
