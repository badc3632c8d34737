/** Games: pick a game, then its overview over 7, 30 or 90 days (see game-overview.tsx). */
import { Text } from '../components/text.js'
import { useState } from 'react'
import { hasScope, useTui, type ScreenDef, type ScreenProps } from '../context.js'
import { useGamePicker } from '../hooks/use-game-picker.js'
import { useKeys } from '../hooks/use-keys.js'
import { LIST_KEYS } from '../hooks/use-list-keys.js'
import { GameOverview, RANGES } from './game-overview.js'

function Games({ active, width, height }: ScreenProps) {
  const env = useTui()
  const picker = useGamePicker(active, width, height, 'open')
  const open = picker.open
  const [range, setRange] = useState(1)

  useKeys((input, key) => {
    if (!open) return
    if (key.escape || key.leftArrow || input === 'h') return picker.close()
    if (input === '[') return setRange((r) => Math.max(0, r - 1))
    if (input === ']') return setRange((r) => Math.min(RANGES.length - 1, r + 1))
  }, active)

  if (!open) return picker.list
  if (!hasScope(env, 'analytics:read'))
    return (
      <Text>{`The figures of ${open.name} need the scope analytics:read; this key does not have it.`}</Text>
    )
  return <GameOverview game={open} days={RANGES[range] ?? 30} width={width} height={height} />
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
    { keys: 'Esc, ← or h', does: 'back to the games' },
  ],
  render: (props) => <Games {...props} />,
}
