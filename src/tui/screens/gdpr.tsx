/**
 * GDPR: submit a player's deletion (typing DELETE, as the API requires) and follow the status of
 * the deletions submitted or looked up here until they complete.
 */
import { Box } from 'ink'
import { Text } from '../components/text.js'
import { useState } from 'react'
import type { GdprDeletion } from '../../contract/gaming.js'
import { Form } from '../components/form.js'
import { Table, type TableColumn } from '../components/table.js'
import { allowed, hasScope, useTui, type ScreenDef, type ScreenProps } from '../context.js'
import { useKeys } from '../hooks/use-keys.js'
import { useKept, useKeptRef } from '../hooks/use-kept.js'
import { usePoll } from '../hooks/use-poll.js'

const COLUMNS: TableColumn<GdprDeletion>[] = [
  { header: 'ID', width: 18, value: (d) => d.id },
  { header: 'GAME', width: 14, value: (d) => d.gameId },
  { header: 'PLAYER', width: 14, value: (d) => d.playerId },
  {
    header: 'STATUS',
    width: 10,
    value: (d) => d.status,
    colour: (d) => (d.status === 'completed' ? 'green' : 'yellow'),
  },
  {
    header: 'ROWS REMOVED',
    width: 22,
    value: (d) => (d.purged ? Object.values(d.purged).reduce((a, b) => a + b, 0) : ''),
  },
]

function Gdpr({ active }: ScreenProps) {
  const env = useTui()
  const { client } = env
  const [mode, setMode] = useState<'list' | 'submit' | 'follow'>('list')
  // The deletions followed are kept while another tab is shown.
  const [followed, setFollowed] = useKept<string[]>('gdpr.followed', [])
  const canWrite = hasScope(env, 'gdpr:write')
  // Deletions still running are read again every refresh; completed ones are kept as they were.
  const [known, setKnown] = useKept<ReadonlyMap<string, GdprDeletion>>('gdpr.known', new Map())
  // The same box, for the poll: the latest deletions, whatever the render it was made in.
  const knownRef = useKeptRef<ReadonlyMap<string, GdprDeletion>>('gdpr.known', new Map())
  usePoll(
    'gdpr',
    async () => {
      const running = followed.filter((id) => knownRef.current.get(id)?.status !== 'completed')
      const read = await Promise.all(running.map((id) => client.gaming.deletion(id)))
      if (read.length > 0) setKnown((k) => new Map([...k, ...read.map((d) => [d.id, d] as const)]))
      return read.length
    },
    [client, followed.join(',')],
  )

  const follow = (deletion: GdprDeletion) => {
    setKnown((k) => new Map([...k, [deletion.id, deletion]]))
    setFollowed((f) => (f.includes(deletion.id) ? f : [...f, deletion.id]))
    setMode('list')
  }

  useKeys((input) => {
    if (mode !== 'list') return
    if (input === 'n' && allowed(env, 'gdpr:write', 'n (new deletion)')) setMode('submit')
    if (input === 'f') setMode('follow')
  }, active)

  if (mode === 'submit')
    return (
      <Form
        title="Delete a player's data (cannot be undone)"
        active={active}
        fields={[
          { name: 'gameId', label: 'Game id' },
          { name: 'playerId', label: 'Player id' },
          { name: 'reason', label: 'Reason', value: 'gdpr_request' },
          { name: 'confirmation', label: 'Type DELETE to confirm' },
        ]}
        cancel={() => setMode('list')}
        submit={async (v) => {
          const deletion = await client.gaming.requestDeletion({
            gameId: v.gameId ?? '',
            playerId: v.playerId ?? '',
            reason: v.reason ?? '',
            confirmation: v.confirmation ?? '',
          })
          env.say(`deletion ${deletion.id} queued`)
          follow(deletion)
        }}
      />
    )
  if (mode === 'follow')
    return (
      <Form
        title="Follow a deletion"
        active={active}
        fields={[{ name: 'id', label: 'Deletion id' }]}
        cancel={() => setMode('list')}
        submit={async (v) => follow(await client.gaming.deletion((v.id ?? '').trim()))}
      />
    )
  const rows = followed.map((id) => known.get(id)).filter((d): d is GdprDeletion => d !== undefined)
  return (
    <Box flexDirection="column">
      <Text dimColor>{`${canWrite ? 'n new deletion · ' : ''}f follow a deletion by id`}</Text>
      {rows.length === 0 ? (
        <Text>No deletion followed yet.</Text>
      ) : (
        <Table columns={COLUMNS} rows={rows} color={env.color} />
      )}
    </Box>
  )
}

export const gdpr: ScreenDef = {
  id: 'gdpr',
  gaming: true,
  title: 'GDPR',
  scope: 'gdpr:read',
  keys: [
    { keys: 'n', does: "delete a player's data: game, player, reason, then type DELETE (gdpr:write)" },
    { keys: 'f', does: 'follow a deletion by its id' },
    { keys: 'in forms', does: '↑/↓ or Tab between fields, Enter next / submit, Esc cancel' },
  ],
  render: (props) => <Gdpr {...props} />,
}
