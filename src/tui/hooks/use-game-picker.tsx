/**
 * A list of the games to pick one from (Games, Fraud, SKAN): ↑/↓ to move, Enter, → or l opens it. While a game
 * is open the list is not driven by keys and only the open game is read again; `close()` goes back to it.
 */
import { Box } from 'ink'
import { Text } from '../components/text.js'
import { useRef, useState, type ReactNode } from 'react'
import type { Game } from '../../contract/games.js'
import type { PageOf } from '../../contract/common.js'
import { Table, type TableColumn } from '../components/table.js'
import { useTui } from '../context.js'
import { useKeys } from './use-keys.js'
import { byId, useFollowingCursor } from './use-list-keys.js'
import { usePoll } from './use-poll.js'
import { plural } from '../../contract/numbers.js'

const COLUMNS: TableColumn<Game>[] = [
  { header: 'GAME', value: (g) => g.name, fit: 'flex' },
  { header: 'ID', width: 20, value: (g) => g.id },
  { header: 'PLATFORM', width: 11, value: (g) => g.platform },
  { header: 'STATUS', width: 9, value: (g) => g.status },
]

export interface GamePicker {
  /** The game open, or null while the list is shown. */
  open: Game | null
  close(): void
  /** The list (to render while no game is open). */
  list: ReactNode
}

export function useGamePicker(active: boolean, width: number, height: number, hint: string): GamePicker {
  const env = useTui()
  const [openId, setOpenId] = useState<string | null>(null)
  const last = useRef<PageOf<Game> | null>(null)
  const poll = usePoll(
    'games',
    async () => {
      if (openId === null) return (last.current = await env.client.games.list({ limit: 100 }))
      // The open game is read again each refresh: a change made elsewhere (retention, modules) shows.
      const game = await env.client.games.get(openId)
      const page = last.current
      return page && (last.current = { ...page, data: page.data.map((g) => (g.id === game.id ? game : g)) })
    },
    [env.client, openId],
  )
  const games = poll.data?.data ?? []
  const open = (openId !== null && games.find((g) => g.id === openId)) || null
  const rows = Math.max(1, height - 2)
  const pos = useFollowingCursor(games, byId, rows)

  useKeys(
    (input, key) => {
      if (pos.move(input, key)) return
      const game = games[pos.cursor]
      if (game && (key.return || key.rightArrow || input === 'l')) setOpenId(game.id)
    },
    active && openId === null,
  )

  let list: ReactNode
  if (!poll.data) list = <Text dimColor>loading…</Text>
  else if (games.length === 0) list = <Text>No games yet: create one with linkctl games create</Text>
  else
    list = (
      <Box flexDirection="column">
        <Text dimColor wrap="truncate">{`${plural(poll.data.total, 'game')} · Enter ${hint}`}</Text>
        <Table
          columns={COLUMNS}
          rows={games.slice(pos.top, pos.top + rows)}
          width={width}
          selected={pos.cursor - pos.top}
          color={env.color}
        />
      </Box>
    )
  return { open, close: () => setOpenId(null), list }
}
