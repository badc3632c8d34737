/**
 * Games: pick a game, then its overview over 7, 30 or 90 days (see game-overview.tsx), or its
 * funnel (game-funnel.tsx; `f` switches).
 */
import { Text } from '../components/text.js'
import { useState } from 'react'
import type { FunnelWindow } from '../../contract/limits.js'
import { hasScope, useRelearnWhile, useTui, type ScreenDef, type ScreenProps } from '../context.js'
import { useGamePicker } from '../hooks/use-game-picker.js'
import { useKept } from '../hooks/use-kept.js'
import { useKeys } from '../hooks/use-keys.js'
import { LIST_KEYS } from '../hooks/use-list-keys.js'
import { FUNNEL_WINDOW_CYCLE, GameFunnel } from './game-funnel.js'
import { GameOverview, RANGES } from './game-overview.js'

function Games({ active, width, height }: ScreenProps) {
  const env = useTui()
  const picker = useGamePicker(active, width, height, 'open')
  const open = picker.open
  const [range, setRange] = useState(1)
  const [funnel, setFunnel] = useKept('games funnel pane', false)
  const [stepsByGame, setStepsByGame] = useKept<Record<string, string>>('games funnel steps', {})
  const [window, setWindow] = useKept<FunnelWindow>('games funnel window', '1d')
  const [editing, setEditing] = useState(false)
  const [fetches, setFetches] = useState(0)
  useRelearnWhile(open !== null && !hasScope(env, 'analytics:read'), env)

  useKeys((input, key) => {
    if (!open) return
    if (key.escape || key.leftArrow || input === 'h') return picker.close()
    // Analytics off: nothing to range over or edit, only the way back.
    if (open.modules?.analytics === false) return
    if (input === '[') return setRange((r) => Math.max(0, r - 1))
    if (input === ']') return setRange((r) => Math.min(RANGES.length - 1, r + 1))
    if (input === 'f') return setFunnel((on) => !on)
    if (!funnel) return
    if (input === 'e') return setEditing(true)
    if (input === 'r') return setFetches((n) => n + 1)
    if (input === 'w')
      return setWindow(
        (w) => FUNNEL_WINDOW_CYCLE[(FUNNEL_WINDOW_CYCLE.indexOf(w) + 1) % FUNNEL_WINDOW_CYCLE.length]!,
      )
  }, active && !editing)

  if (!open) return picker.list
  if (!hasScope(env, 'analytics:read'))
    return (
      <Text>{`The figures of ${open.name} need the scope analytics:read; this key does not have it.`}</Text>
    )
  // Every analytics route answers 409 for it: said once, with the way to turn it on.
  if (open.modules?.analytics === false)
    return (
      <Text>
        {`Gaming Analytics is off for ${open.name}: turn it on with linkctl games update ${open.id} --analytics (Esc: back)`}
      </Text>
    )
  const days = RANGES[range] ?? 30
  if (funnel)
    return (
      <GameFunnel
        game={open}
        days={days}
        steps={stepsByGame[open.id]}
        window={window}
        fetches={fetches}
        editing={editing}
        active={active}
        width={width}
        setSteps={(steps) => setStepsByGame((all) => ({ ...all, [open.id]: steps }))}
        stopEditing={() => setEditing(false)}
      />
    )
  return <GameOverview game={open} days={days} width={width} height={height} />
}

export const games: ScreenDef = {
  id: 'games',
  gaming: true,
  title: 'Games',
  scope: 'games:read',
  keys: [
    ...LIST_KEYS,
    { keys: 'Enter, → or l', does: 'open the game: overview, sparklines, retention, countries, leaderboard' },
    { keys: '[ / ]', does: 'a shorter / longer range: 7, 30 or 90 days' },
    { keys: 'f', does: "the game's funnel / back to its overview" },
    { keys: 'e', does: 'funnel: edit its steps (Enter applies, Esc cancels)' },
    { keys: 'w', does: 'funnel: the next window (1h, 1d, 7d, 30d)' },
    { keys: 'r', does: 'funnel: fetch it again (it is not refreshed on its own)' },
    { keys: 'Esc, ← or h', does: 'back to the games' },
  ],
  render: (props) => <Games {...props} />,
}
