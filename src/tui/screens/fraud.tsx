/**
 * Fraud: pick a game, then its dashboard figures (last 30 days) above one of three lists: the
 * live feed of fraud events, the rules, the blocklist (see fraud-panes.tsx). ←/→ switch lists.
 */
import { Box } from 'ink'
import { Text } from '../components/text.js'
import { useCallback, useState } from 'react'
import { fitHead, percent } from '../../format/cells.js'
import { plural } from '../../contract/numbers.js'
import type { FraudDashboard } from '../../contract/fraud.js'
import type { Game } from '../../contract/games.js'
import { useTui, type ScreenDef, type ScreenProps } from '../context.js'
import { useGamePicker } from '../hooks/use-game-picker.js'
import { useKeys } from '../hooks/use-keys.js'
import { LIST_KEYS } from '../hooks/use-list-keys.js'
import { usePoll } from '../hooks/use-poll.js'
import { Blocklist, EventFeed, RuleList } from './fraud-panes.js'

const PANES = [
  { id: 'events', title: 'Feed', Pane: EventFeed },
  { id: 'rules', title: 'Rules', Pane: RuleList },
  { id: 'blocklist', title: 'Blocklist', Pane: Blocklist },
] as const

const share = (x: number | null) => (x === null ? '-' : percent(x * 100, 2))

/** The dashboard's figures in four lines. */
export function dashboardLines(d: FraudDashboard): string[] {
  const threats = Object.entries(d.byThreatType)
    .filter(([, n]) => n > 0)
    .sort(([, a], [, b]) => b - a)
    .map(([type, n]) => `${type} ${n}`)
  const latency = d.avgDetectionLatencyUs === null ? '-' : `${d.avgDetectionLatencyUs.toFixed(1)} µs`
  return [
    `${plural(d.eventsAnalyzed, 'event')} analyzed · ${plural(d.threatsDetected, 'threat')} (${d.blocked} blocked, ${d.flagged} flagged)`,
    `fraud rate ${share(d.fraudRate)} · false positives ${share(d.falsePositiveRate)} · detection ${latency} an event`,
    `blocked now: ${plural(d.blockedIps, 'IP')}, ${plural(d.blockedDevices, 'device')}`,
    `by threat: ${threats.join(' · ') || 'none'}`,
  ]
}

interface GameProps {
  game: Game
  active: boolean
  width: number
  height: number
  hold(on: boolean): void
}

function GameFraud({ game, active, width, height, hold }: GameProps) {
  const env = useTui()
  const [pane, setPane] = useState(0)
  const [held, setHeld] = useState(false)
  const holdPane = useCallback(
    (on: boolean) => {
      setHeld(on)
      hold(on)
    },
    [hold],
  )
  const dashboard = usePoll(`fraud dashboard ${game.id}`, () => env.client.fraud.dashboard(game.id), [
    env.client,
    game.id,
  ])
  useKeys((_input, key) => {
    if (key.leftArrow) setPane((p) => (p + PANES.length - 1) % PANES.length)
    if (key.rightArrow) setPane((p) => (p + 1) % PANES.length)
  }, active && !held)
  const { Pane, id } = PANES[pane]!
  const range = dashboard.data?.range
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        {fitHead(
          `Fraud of ${game.name}`,
          ` (${game.id})${range ? ` · ${range.startDate} to ${range.endDate}` : ''}`,
          width,
        )}
      </Text>
      {dashboard.data ? (
        dashboardLines(dashboard.data).map((line, i) => (
          <Text key={i} wrap="truncate-end">
            {line}
          </Text>
        ))
      ) : (
        <Text dimColor>loading…</Text>
      )}
      <Box marginTop={1}>
        {PANES.map((p, i) => (
          <Text key={p.id} inverse={i === pane} bold={i === pane}>{` ${p.title} `}</Text>
        ))}
        <Text dimColor>{'  ←/→ switch · Esc back to the games'}</Text>
      </Box>
      <Pane
        key={`${id} ${game.id}`}
        game={game.id}
        active={active}
        width={width}
        rows={Math.max(3, height - 8)}
        hold={holdPane}
      />
    </Box>
  )
}

function Fraud({ active, width, height }: ScreenProps) {
  const picker = useGamePicker(active, width, height, 'open its fraud dashboard')
  const game = picker.open
  const [held, setHeld] = useState(false)
  useKeys((_input, key) => {
    if (game && key.escape) picker.close()
  }, active && !held)
  if (!game) return picker.list
  if (game.modules?.fraud === false)
    return (
      <Text>
        {`Fraud detection is off for ${game.name}: turn it on with linkctl games update ${game.id} --fraud (Esc: back)`}
      </Text>
    )
  return <GameFraud game={game} active={active} width={width} height={height} hold={setHeld} />
}

export const fraud: ScreenDef = {
  id: 'fraud',
  gaming: true,
  title: 'Fraud',
  scope: 'fraud:read',
  keys: [
    ...LIST_KEYS,
    { keys: 'Enter, → or l', does: 'open the game: figures, feed, rules, blocklist' },
    { keys: '←/→', does: 'in a game: the feed, the rules, the blocklist' },
    { keys: 'l / f', does: 'feed: mark the event legitimate / fraud' },
    { keys: 'o', does: "feed: the Log rules' records (status logged) / the threats again" },
    { keys: 'Space or Enter', does: 'rules: enable / disable the rule' },
    { keys: '+ / -', does: 'rules: priority up / down by 1' },
    { keys: 'a', does: 'blocklist: add an IP or a device' },
    { keys: 'd', does: 'blocklist: remove the entry after y' },
    { keys: 'l f Space + - a d', does: 'need the scope fraud:write' },
    { keys: 'Esc', does: 'back to the games' },
  ],
  render: (props) => <Fraud {...props} />,
}
