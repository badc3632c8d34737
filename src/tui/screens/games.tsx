/** Games: pick a game, then its overview over 7, 30 or 90 days (see game-overview.tsx). */
import { Box, Text } from 'ink'
import { useState } from 'react'
import type { Game } from '../../contract/games.js'
import { Table, type TableColumn } from '../components/table.js'
import { hasScope, useTui, type ScreenDef, type ScreenProps } from '../context.js'
import { useKeys } from '../hooks/use-keys.js'
import { LIST_KEYS, useCursor } from '../hooks/use-list-keys.js'
import { usePoll } from '../hooks/use-poll.js'
import { GameOverview, RANGES } from './game-overview.js'

const COLUMNS: TableColumn<Game>[] = [
  { header: 'GAME', width: 24, value: (g) => g.name },
  { header: 'ID', width: 20, value: (g) => g.id },
  { header: 'PLATFORM', width: 9, value: (g) => g.platform },
  { header: 'STATUS', width: 9, value: (g) => g.status },
]

function Games({ active, width, height }: ScreenProps) {
  const env = useTui()
  const poll = usePoll('games', () => env.client.games.list({ limit: 100 }), [env.client])
  const games = poll.data?.data ?? []
  const rows = Math.max(1, height - 2)
  const pos = useCursor(games.length, rows)
  const [open, setOpen] = useState<Game | null>(null)
  const [range, setRange] = useState(1)

  useKeys((input, key) => {
    if (open) {
      if (key.escape || key.leftArrow || input === 'h') return setOpen(null)
      if (input === '[') return setRange((r) => Math.max(0, r - 1))
      if (input === ']') return setRange((r) => Math.min(RANGES.length - 1, r + 1))
      return
    }
    if (pos.move(input, key)) return
    const game = games[pos.cursor]
    if (game && (key.return || key.rightArrow || input === 'l')) setOpen(game)
  }, active)

  if (open && !hasScope(env, 'analytics:read'))
    return (
      <Text>{`The figures of ${open.name} need the scope analytics:read; this key does not have it.`}</Text>
    )
  if (open) return <GameOverview game={open} days={RANGES[range] ?? 30} width={width} height={height} />
  if (!poll.data) return <Text dimColor>loading…</Text>
  if (games.length === 0) return <Text>No games yet: create one with linkctl games create</Text>
  return (
    <Box flexDirection="column">
      <Text dimColor>{`${poll.data.total} games · Enter open`}</Text>
      <Table
        columns={COLUMNS}
        rows={games.slice(pos.top, pos.top + rows)}
        selected={pos.cursor - pos.top}
        color={env.color}
      />
    </Box>
  )
}

export const games: ScreenDef = {
  id: 'games',
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
