/**
 * Team: the members with their roles and the pending invitations; invite (e-mail and role, the
 * token shown once with the command the teammate runs), change a member's role, remove a member
 * and revoke an invitation (each removal after y).
 */
import { Box } from 'ink'
import { Text } from '../components/text.js'
import { useState } from 'react'
import type { Invitation, InvitationWithToken, Member } from '../../contract/team.js'
import { ROLES, type Role } from '../../contract/scopes.js'
import { relativeTime } from '../../format/cells.js'
import { troubleOf } from '../api.js'
import { Confirm, type Confirmation } from '../components/confirm.js'
import { Form } from '../components/form.js'
import { Table, type TableColumn } from '../components/table.js'
import { allowed, hasScope, tint, useTui, type ScreenDef, type ScreenProps } from '../context.js'
import { useCapture, useKeys } from '../hooks/use-keys.js'
import { byId, LIST_KEYS, useFollowingCursor } from '../hooks/use-list-keys.js'
import { usePoll } from '../hooks/use-poll.js'
import { plural } from '../../contract/numbers.js'

function memberColumns(now: number): TableColumn<Member>[] {
  return [
    { header: 'NAME', value: (m) => m.name, fit: 'flex' },
    {
      header: 'ROLE',
      value: (m) => m.role,
      colour: (m) => (m.role === 'owner' ? 'magenta' : m.role === 'viewer' ? 'gray' : undefined),
    },
    { header: 'EMAIL', value: (m) => m.email ?? '', fit: 'flex' },
    { header: 'JOINED', width: 12, value: (m) => relativeTime(Date.parse(m.joinedAt), now) },
    { header: 'ID', width: 24, value: (m) => m.id },
  ]
}

function invitationColumns(now: number): TableColumn<Invitation>[] {
  return [
    { header: 'EMAIL', value: (i) => i.email, fit: 'flex' },
    { header: 'ROLE', width: 6, value: (i) => i.role },
    { header: 'EXPIRES', width: 12, value: (i) => relativeTime(Date.parse(i.expiresAt), now) },
    { header: 'ID', width: 24, value: (i) => i.id },
  ]
}

/** The role keys of the role picker: the first letter of each role. */
const ROLE_KEYS: Record<string, Role> = Object.fromEntries(ROLES.map((r) => [r[0], r]))

function Team({ active, width, height }: ScreenProps) {
  const env = useTui()
  const { client } = env
  const members = usePoll('members', () => client.team.members({ limit: 100 }), [client])
  const invitations = usePoll(
    'invitations',
    () => client.team.invitations({ status: 'pending', limit: 100 }),
    [client],
  )
  const memberList = members.data?.data ?? []
  const pending = invitations.data?.data ?? []
  const memberRows = Math.max(2, Math.min(memberList.length, Math.floor((height - 7) / 2)))
  const inviteRows = Math.max(1, height - memberRows - 7)
  const memberPos = useFollowingCursor(memberList, byId, memberRows)
  const invitePos = useFollowingCursor(pending, byId, inviteRows)
  const [pane, setPane] = useState<'members' | 'invitations'>('members')
  const [mode, setMode] = useState<'list' | 'invite' | 'role'>('list')
  const [created, setCreated] = useState<InvitationWithToken | null>(null)
  const [confirm, setConfirm] = useState<Confirmation | null>(null)
  const [result, setResult] = useState<string | null>(null)
  const member = memberList[memberPos.cursor]
  const invitation = pending[invitePos.cursor]
  const canWrite = hasScope(env, 'team:write')
  const now = env.clock.now()

  const reload = () => {
    members.reload()
    invitations.reload()
  }

  useKeys((input, key) => {
    if (confirm || mode !== 'list' || created) return
    if (key.leftArrow || key.rightArrow || input === 'h' || input === 'l')
      return setPane((p) => (p === 'members' ? 'invitations' : 'members'))
    if ((pane === 'members' ? memberPos : invitePos).move(input, key)) return
    const action = { i: 'i (invite)', r: 'r (change role)', d: 'd (remove)', x: 'x (revoke invitation)' }[
      input
    ]
    if (action && !allowed(env, 'team:write', action)) return
    if (input === 'i') return setMode('invite')
    if (pane === 'members' && member) {
      if (input === 'r') return setMode('role')
      if (input === 'd')
        return setConfirm({
          question: `Remove ${member.name} (${member.role})? All of their API keys are revoked at once; this cannot be undone.`,
          run: async () => {
            await client.team.removeMember(member.id)
            env.say(`removed ${member.name}; their keys are revoked`)
            reload()
          },
        })
    }
    if (pane === 'invitations' && invitation && input === 'x')
      return setConfirm({
        question: `Revoke the invitation of ${invitation.email}? Its token stops working.`,
        run: async () => {
          await client.team.revokeInvitation(invitation.id)
          env.say(`revoked the invitation of ${invitation.email}`)
          reload()
        },
      })
  }, active)

  if (created) return <NewInvitation created={created} active={active} close={() => setCreated(null)} />
  if (mode === 'invite')
    return (
      <Form
        title="Invite a teammate (no mail is sent: you pass them the token)"
        fields={[
          { name: 'email', label: 'E-mail' },
          { name: 'role', label: `Role (${ROLES.join(', ')})`, value: 'member' },
        ]}
        active={active}
        cancel={() => setMode('list')}
        submit={async (values) => {
          const role = values.role?.trim() as Role
          if (!ROLES.includes(role)) throw new Error(`role must be one of ${ROLES.join(', ')}`)
          const invited = await client.team.invite({ email: values.email?.trim() ?? '', role })
          setMode('list')
          setCreated(invited)
          reload()
        }}
      />
    )
  if (mode === 'role' && member)
    return (
      <RolePicker
        member={member}
        active={active}
        done={(role) => {
          setMode('list')
          if (!role || role === member.role) return
          setResult(`Changing the role of ${member.name}…`)
          client.team
            .setRole(member.id, role)
            .then((m) => setResult(`${m.name} is now ${m.role}`))
            .catch((err: unknown) =>
              setResult(`Changing the role of ${member.name} failed: ${troubleOf(err).message}`),
            )
            .finally(() => members.reload())
        }}
      />
    )
  if (!members.data) return <Text dimColor>loading…</Text>
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate">
        {`${plural(members.data.total, 'member')} · ${plural(invitations.data?.total ?? 0, 'pending invitation')} · ←/→ list${canWrite ? ' · i invite · r role · d remove' : ''}`}
      </Text>
      <Table
        columns={memberColumns(now)}
        rows={memberList.slice(memberPos.top, memberPos.top + memberRows)}
        width={width}
        selected={pane === 'members' ? memberPos.cursor - memberPos.top : undefined}
        color={env.color}
      />
      <Box marginTop={1}>
        <Text bold>Pending invitations</Text>
        {canWrite ? <Text dimColor> · x revoke</Text> : null}
      </Box>
      {pending.length === 0 ? (
        <Text dimColor>{invitations.data ? 'none' : 'loading…'}</Text>
      ) : (
        <Table
          columns={invitationColumns(now)}
          rows={pending.slice(invitePos.top, invitePos.top + inviteRows)}
          width={width}
          selected={pane === 'invitations' ? invitePos.cursor - invitePos.top : undefined}
          color={env.color}
        />
      )}
      {confirm ? <Confirm ask={confirm} active={active} done={() => setConfirm(null)} /> : null}
      {result ? <Text>{result}</Text> : null}
    </Box>
  )
}

/** One key picks the new role (o, a, m, v); any other key cancels. */
function RolePicker(props: { member: Member; active: boolean; done(role: Role | null): void }) {
  const env = useTui()
  useCapture()
  useKeys((input) => props.done(ROLE_KEYS[input] ?? null), props.active)
  return (
    <Box flexDirection="column">
      <Text bold>{`New role for ${props.member.name} (now ${props.member.role}):`}</Text>
      <Text color={tint(env, 'yellow')}>
        {`${ROLES.map((r) => `${r[0]} ${r}`).join(' · ')} · any other key: cancel`}
      </Text>
    </Box>
  )
}

/** The new invitation's token, shown once, with the command the teammate runs. */
function NewInvitation(props: { created: InvitationWithToken; active: boolean; close(): void }) {
  const env = useTui()
  useKeys(() => props.close(), props.active)
  const { created } = props
  return (
    <Box flexDirection="column">
      <Text
        bold
      >{`Invited ${created.email} as ${created.role}; the token expires ${relativeTime(Date.parse(created.expiresAt), env.clock.now())}.`}</Text>
      <Text color={tint(env, 'green')}>{created.token}</Text>
      <Text>They run:</Text>
      {/* Two lines joined by the shell (\), not cut where the terminal's width falls. */}
      <Text>{`linkctl team join ${created.token} \\`}</Text>
      <Text>{`  --url ${env.url ?? '<this linkd URL>'} --name <Name>`}</Text>
      <Text color={tint(env, 'yellow')}>
        Copy it now (select it with the mouse; in tmux, copy mode): it is shown only this once.
      </Text>
      <Text dimColor>Any key: back to the list</Text>
    </Box>
  )
}

export const team: ScreenDef = {
  id: 'team',
  title: 'Team',
  scope: 'team:read',
  keys: [
    ...LIST_KEYS,
    { keys: '←/→ or h/l', does: 'between the members and the pending invitations' },
    { keys: 'i', does: 'invite a teammate: e-mail and role; the token is shown once (team:write)' },
    { keys: 'r', does: "change the member's role: o, a, m or v (team:write)" },
    { keys: 'd', does: 'remove the member and revoke their keys, after y (team:write)' },
    { keys: 'x', does: 'revoke the pending invitation, after y (team:write)' },
  ],
  render: (props) => <Team {...props} />,
}
