/**
 * GDPR: the organization's deletions (newest first, from the list route: completed ones are kept
 * 365 days), each refresh; submit a player's deletion (typing DELETE, as the API requires); follow
 * one by id (shown even when older than the page listed).
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
import { plural } from '../../contract/numbers.js'

const COLUMNS: TableColumn<GdprDeletion>[] = [
  { header: 'ID', width: 18, value: (d) => d.id },
  { header: 'GAME', width: 10, value: (d) => d.gameId, drop: 1 },
  { header: 'PLAYER', width: 10, value: (d) => d.playerId },
  {
    header: 'STATUS',
    width: 9,
    value: (d) => d.status,
    colour: (d) => (d.status === 'completed' ? 'green' : 'yellow'),
  },
  {
    // The rows purged from every table.
    header: 'REMOVED',
    width: 7,
    value: (d) => (d.purged ? Object.values(d.purged).reduce((a, b) => a + b, 0) : ''),
    align: 'right',
    drop: 2,
  },
]

/** Deletions read per refresh (the newest). */
const LISTED = 100

function Gdpr({ active, width, height }: ScreenProps) {
  const env = useTui()
  const { client } = env
  const [mode, setMode] = useState<'list' | 'submit' | 'follow'>('list')
  // The deletions followed by id are kept while another tab is shown.
  const [followed, setFollowed] = useKept<string[]>('gdpr.followed', [])
  const canWrite = hasScope(env, 'gdpr:write')
  // Followed deletions off the listed page: still running ones are read again every refresh.
  const [known, setKnown] = useKept<ReadonlyMap<string, GdprDeletion>>('gdpr.known', new Map())
  // The same box, for the poll: the latest deletions, whatever the render it was made in.
  const knownRef = useKeptRef<ReadonlyMap<string, GdprDeletion>>('gdpr.known', new Map())
  const listed = usePoll(
    'gdpr',
    async () => {
      const page = await client.gaming.deletions({ limit: LISTED })
      const onPage = new Set(page.data.map((d) => d.id))
      const running = followed.filter(
        (id) => !onPage.has(id) && knownRef.current.get(id)?.status !== 'completed',
      )
      const read = await Promise.all(running.map((id) => client.gaming.deletion(id)))
      if (read.length > 0) setKnown((k) => new Map([...k, ...read.map((d) => [d.id, d] as const)]))
      return page
    },
    [client, followed.join(',')],
  )

  const follow = (deletion: GdprDeletion) => {
    setKnown((k) => new Map([...k, [deletion.id, deletion]]))
    setFollowed((f) => (f.includes(deletion.id) ? f : [...f, deletion.id]))
    setMode('list')
    listed.reload()
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
  const page = listed.data
  if (!page) return <Text dimColor>loading GDPR deletions…</Text>
  const onPage = new Set(page.data.map((d) => d.id))
  const extra = followed
    .filter((id) => !onPage.has(id))
    .map((id) => known.get(id))
    .filter((d): d is GdprDeletion => d !== undefined)
  const rows = [...page.data, ...extra].sort(
    (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id),
  )
  const shown = rows.slice(0, Math.max(1, height - 3))
  const count = page.total + extra.length
  return (
    <Box flexDirection="column">
      <Text dimColor>{`${canWrite ? 'n new deletion · ' : ''}f follow a deletion by id`}</Text>
      {rows.length === 0 ? (
        <Text>No GDPR deletions.</Text>
      ) : (
        <>
          <Text>{`${plural(count, 'deletion')}${shown.length < count ? `, newest ${shown.length} shown` : ''} (records kept 365 days after completion)`}</Text>
          <Table columns={COLUMNS} rows={shown} width={width} color={env.color} />
        </>
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
