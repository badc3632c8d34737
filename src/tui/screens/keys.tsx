/** Keys: the organization's API keys with their usage; create (scope picker), revoke, deactivate. */
import { Box } from 'ink'
import { Text } from '../components/text.js'
import { useState } from 'react'
import type { ApiKey, ApiKeyWithSecret } from '../../contract/keys.js'
import { relativeTime } from '../../format/cells.js'
import { Confirm, type Confirmation } from '../components/confirm.js'
import { Table, type TableColumn } from '../components/table.js'
import { allowed, hasScope, useTui, type ScreenDef, type ScreenProps } from '../context.js'
import { useKeys } from '../hooks/use-keys.js'
import { byId, LIST_KEYS, useFollowingCursor } from '../hooks/use-list-keys.js'
import { usePoll } from '../hooks/use-poll.js'
import { KeyActivityView, KeyCreate, NewKey } from './key-create.js'
import { plural } from '../../contract/numbers.js'

function columns(now: number): TableColumn<ApiKey>[] {
  return [
    { header: 'NAME', value: (k) => k.name, fit: 'flex' },
    { header: 'PREVIEW', width: 10, value: (k) => k.preview },
    {
      header: 'STATUS',
      value: (k) => k.status,
      colour: (k) => (k.status === 'active' ? 'green' : 'yellow'),
    },
    { header: 'TODAY', width: 7, value: (k) => k.usage.requestsToday, align: 'right' },
    { header: 'TOTAL', width: 9, value: (k) => k.usage.totalRequests, align: 'right' },
    {
      header: 'LAST USED',
      width: 12,
      value: (k) => (k.lastUsedAt ? relativeTime(Date.parse(k.lastUsedAt), now) : 'never'),
    },
    { header: 'SCOPES', value: (k) => k.permissions.join(', '), fit: 'flex' },
  ]
}

function Keys({ active, width, height }: ScreenProps) {
  const env = useTui()
  const { client } = env
  const poll = usePoll('keys', () => client.keys.list({ limit: 100 }), [client])
  const [mode, setMode] = useState<'list' | 'create'>('list')
  const [created, setCreated] = useState<ApiKeyWithSecret | null>(null)
  const [activityOf, setActivityOf] = useState<ApiKey | null>(null)
  const [confirm, setConfirm] = useState<Confirmation | null>(null)
  const keys = poll.data?.data ?? []
  const rows = Math.max(1, height - 3)
  const pos = useFollowingCursor(keys, byId, rows)
  const selected = keys[pos.cursor]
  const canWrite = hasScope(env, 'keys:write')

  const act = (question: string, run: () => Promise<ApiKey>, done: string) =>
    setConfirm({
      question,
      run: async () => {
        await run()
        env.say(done)
        poll.reload()
      },
    })

  useKeys((input, key) => {
    if (confirm || mode !== 'list' || created || activityOf) return
    if (pos.move(input, key)) return
    if (input === 'a' && selected) return setActivityOf(selected)
    const action = { n: 'n (new key)', r: 'r (revoke)', x: 'x (deactivate/activate)' }[input]
    if (action && !allowed(env, 'keys:write', action)) return
    if (input === 'n') return setMode('create')
    if (!selected) return
    if (input === 'r' && selected.status !== 'revoked')
      return act(
        `Revoke ${selected.name} (${selected.preview})? Requests with it fail from now on; this cannot be undone.`,
        () => client.keys.revoke(selected.id),
        `revoked ${selected.name}`,
      )
    if (input === 'x' && selected.status === 'active')
      return act(
        `Deactivate ${selected.name} (${selected.preview})? It can be activated again.`,
        () => client.keys.deactivate(selected.id),
        `deactivated ${selected.name}`,
      )
    if (input === 'x' && selected.status === 'inactive')
      return act(
        `Activate ${selected.name} (${selected.preview})?`,
        () => client.keys.activate(selected.id),
        `activated ${selected.name}`,
      )
  }, active)

  if (activityOf)
    return <KeyActivityView apiKey={activityOf} active={active} close={() => setActivityOf(null)} />
  if (created) return <NewKey created={created} active={active} close={() => setCreated(null)} />
  if (mode === 'create')
    return (
      <KeyCreate
        active={active}
        height={height}
        done={(key) => {
          setMode('list')
          if (key) {
            setCreated(key)
            poll.reload()
          }
        }}
      />
    )
  if (!poll.data) return <Text dimColor>loading…</Text>
  return (
    <Box flexDirection="column">
      <Text
        dimColor
      >{`${plural(poll.data.total, 'key')} · a activity${canWrite ? ' · n new · r revoke · x deactivate/activate' : ''}`}</Text>
      <Table
        columns={columns(env.clock.now())}
        width={width}
        rows={keys.slice(pos.top, pos.top + rows)}
        selected={pos.cursor - pos.top}
        color={env.color}
      />
      {confirm ? <Confirm ask={confirm} active={active} done={() => setConfirm(null)} /> : null}
    </Box>
  )
}

export const keys: ScreenDef = {
  id: 'keys',
  title: 'Keys',
  scope: 'keys:read',
  keys: [
    ...LIST_KEYS,
    {
      keys: 'n',
      does: 'new key: name, then scopes (Space ticks, a preset fills), Enter creates (keys:write)',
    },
    { keys: 'r', does: 'revoke the key, after y (keys:write)' },
    { keys: 'x', does: 'deactivate / activate the key, after y (keys:write)' },
    { keys: 'Esc', does: 'cancel the new key' },
  ],
  render: (props) => <Keys {...props} />,
}
