/** SKAN: pick a game, then one of its campaigns: report, schema, optimizer (skan-campaign.tsx). */
import { Box } from 'ink'
import { Text } from '../components/text.js'
import { useState } from 'react'
import type { Game } from '../../contract/games.js'
import type { SkanCampaign } from '../../contract/skan.js'
import { fitHead } from '../../format/cells.js'
import { Table, type TableColumn } from '../components/table.js'
import { useTui, type ScreenDef, type ScreenProps } from '../context.js'
import { useGamePicker } from '../hooks/use-game-picker.js'
import { useKeys } from '../hooks/use-keys.js'
import { byId, LIST_KEYS, useFollowingCursor } from '../hooks/use-list-keys.js'
import { usePoll } from '../hooks/use-poll.js'
import { CampaignView, eventOfBit } from './skan-campaign.js'
import { plural } from '../../contract/numbers.js'

const COLUMNS: TableColumn<SkanCampaign>[] = [
  { header: 'CAMPAIGN', value: (c) => c.name, fit: 'flex' },
  { header: 'AD NETWORK', width: 24, value: (c) => c.adNetworkId },
  { header: 'SOURCE', width: 6, value: (c) => c.sourceIdentifier ?? '-' },
  { header: 'BIT 1', value: (c) => eventOfBit(c.conversionSchema, 1) || '-', fit: 'flex' },
]

function CampaignList(props: {
  game: Game
  active: boolean
  width: number
  height: number
  open(c: SkanCampaign): void
}) {
  const { game, active, width, height } = props
  const env = useTui()
  // The first 100 (the largest page); the heading says when there are more.
  const poll = usePoll(
    `skan campaigns ${game.id}`,
    () => env.client.skan.campaigns(game.id, { limit: 100 }),
    [env.client, game.id],
  )
  const campaigns = poll.data?.data ?? []
  const total = poll.data?.total ?? 0
  const rows = Math.max(1, height - 3)
  const pos = useFollowingCursor(campaigns, byId, rows)
  useKeys((input, key) => {
    if (pos.move(input, key)) return
    const campaign = campaigns[pos.cursor]
    if (campaign && (key.return || key.rightArrow || input === 'l')) props.open(campaign)
  }, active)

  if (!poll.data) return <Text dimColor>loading…</Text>
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        {fitHead(`SKAN campaigns of ${game.name}`, ` (${game.id})`, width)}
      </Text>
      {campaigns.length === 0 ? (
        <Text>{`No campaigns yet: create one with linkctl skan campaigns create ${game.id}`}</Text>
      ) : (
        <>
          <Text
            dimColor
          >{`${total > campaigns.length ? `${campaigns.length} of ${plural(total, 'campaign')} (the oldest; all with linkctl skan campaigns list --all)` : plural(campaigns.length, 'campaign')} · Enter open · Esc back to the games`}</Text>
          <Table
            columns={COLUMNS}
            rows={campaigns.slice(pos.top, pos.top + rows)}
            width={width}
            selected={pos.cursor - pos.top}
            color={env.color}
          />
        </>
      )}
    </Box>
  )
}

function Skan({ active, width, height }: ScreenProps) {
  const picker = useGamePicker(active, width, height, 'open its SKAN campaigns')
  const game = picker.open
  const [campaign, setCampaign] = useState<SkanCampaign | null>(null)
  const [held, setHeld] = useState(false)
  useKeys((_input, key) => {
    if (!key.escape) return
    if (campaign) setCampaign(null)
    else if (game) picker.close()
  }, active && !held)

  if (!game) return picker.list
  if (game.modules?.skan === false)
    return (
      <Text>
        {`SKAdNetwork is off for ${game.name}: turn it on with linkctl games update ${game.id} --skan (Esc: back)`}
      </Text>
    )
  if (campaign)
    return <CampaignView game={game} campaign={campaign} active={active} width={width} hold={setHeld} />
  return <CampaignList game={game} active={active} width={width} height={height} open={setCampaign} />
}

export const skan: ScreenDef = {
  id: 'skan',
  gaming: true,
  title: 'SKAN',
  scope: 'skan:read',
  keys: [
    ...LIST_KEYS,
    { keys: 'Enter, → or l', does: 'open the game’s campaigns, then a campaign' },
    { keys: 'o', does: 'campaign: the optimizer’s proposal beside it' },
    { keys: 'A', does: 'apply the proposal after y (skan:write)' },
    { keys: 'Esc', does: 'back to the campaigns, then to the games' },
  ],
  render: (props) => <Skan {...props} />,
}
