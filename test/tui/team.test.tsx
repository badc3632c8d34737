/**
 * The Team screen against the fake client: members and pending invitations, invite (the token
 * shown once with the join command), role change, remove after y, revoke, errors and scopes.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { apiError, FakeClient } from './fake-client.js'
import { INVITE_TOKEN } from './fake-team.js'
import { frameWhere, frameWith, KEY, press, renderTui } from './harness.js'

afterEach(() => cleanup())

const LIST = '3 members · 1 pending invitation'

describe('team screen', () => {
  it('lists the members with their roles and the pending invitations; 0 goes to it', async () => {
    const app = renderTui()
    await frameWith(app, 'Jobs')
    await press(app, '0')
    const frame = await frameWith(app, LIST, 'cy@example.com')
    expect(frame.split('\n')[0]).toContain(' 10 Team')
    expect(frame).toMatch(/Owner\s+owner\s+.*mem_owner/)
    expect(frame).toMatch(/Ana\s+member\s+ana@example.com\s+.*mem_ana/)
    expect(frame).toMatch(/Bo\s+viewer\s+bo@example.com/)
    expect(frame).toContain('Pending invitations')
    expect(frame).toMatch(/cy@example.com\s+admin\s+in \d+ years?\s+inv_1/)
  })

  it('invites: e-mail and role, then the token once with the command the teammate runs', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'team', url: 'http://linkd.test:8080' })
    await frameWith(app, LIST)
    await press(app, 'i')
    await frameWith(app, 'Invite a teammate', 'Role (owner, admin, member, viewer): member')
    await press(app, 'dee@example.com', KEY.enter)
    for (let i = 0; i < 'member'.length; i++) await press(app, KEY.backspace)
    await press(app, 'viewer', KEY.enter)
    const shown = await frameWith(app, INVITE_TOKEN, 'shown only this once')
    expect(shown).toContain('Invited dee@example.com as viewer')
    expect(shown.replace(/\s+/g, ' ')).toContain(
      `linkctl team join ${INVITE_TOKEN} --url http://linkd.test:8080 --name <Name>`,
    )
    expect(client.calls).toContain('team.invite dee@example.com')
    await press(app, 'z')
    const list = await frameWith(app, '2 pending invitations', 'dee@example.com')
    expect(list).not.toContain(INVITE_TOKEN)
  })

  it('a wrong role in the invite form is said under it, and nothing is sent', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'team' })
    await frameWith(app, LIST)
    await press(app, 'i', 'x@example.com', KEY.enter, KEY.backspace, KEY.enter)
    await frameWith(app, 'role must be one of owner, admin, member, viewer')
    expect(client.calls.filter((c) => c.startsWith('team.invite'))).toEqual([])
  })

  it('changes the selected member’s role with one key', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'team' })
    await frameWith(app, LIST)
    await press(app, 'j', 'r')
    await frameWith(app, 'New role for Ana (now member)', 'o owner · a admin · m member · v viewer')
    await press(app, 'a')
    const frame = await frameWith(app, 'Ana is now admin')
    await frameWhere(app, (f) => /Ana\s+admin/.test(f), 'Ana as admin in the table')
    expect(frame).not.toContain('New role for')
    expect(client.calls).toContain('team.setRole mem_ana admin')
  })

  it('removes a member only after y; n cancels', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'team' })
    await frameWith(app, LIST)
    await press(app, 'j', 'j', 'd')
    await frameWith(
      app,
      'Remove Bo (viewer)? All of their API keys are revoked at once; this cannot be undone. [y/N]',
    )
    await press(app, 'n')
    await frameWith(app, 'cancelled')
    expect(client.calls.some((c) => c.startsWith('team.removeMember'))).toBe(false)
    await press(app, 'd')
    await frameWith(app, 'Remove Bo (viewer)?')
    await press(app, 'y')
    const frame = await frameWith(app, 'removed Bo; their keys are revoked', '2 members')
    expect(frame).not.toMatch(/Bo\s+viewer/)
    expect(client.calls).toContain('team.removeMember mem_bo')
  })

  it('revokes a pending invitation after y', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'team' })
    await frameWith(app, LIST)
    await press(app, 'l', 'x')
    await frameWith(app, 'Revoke the invitation of cy@example.com? Its token stops working. [y/N]')
    await press(app, 'y')
    await frameWith(app, 'revoked the invitation of cy@example.com', '0 pending invitations')
    expect(client.calls).toContain('team.revokeInvitation inv_1')
  })

  it('shows the daemon’s refusals: the last owner (409), a role change refused (403)', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'team' })
    await frameWith(app, LIST)
    await press(app, 'd', 'y')
    await frameWith(app, 'failed: The last owner cannot be removed')
    expect(app.lastFrame()).toMatch(/Owner\s+owner/)
    await press(app, 'j', 'r')
    await frameWith(app, 'New role for Ana')
    client.failures.push(apiError(403, 'Cannot grant a role above your own'))
    await press(app, 'o')
    await frameWith(app, 'Changing the role of Ana failed: not allowed: Cannot grant a role above your own')
  })

  it('a key without team:write is told the missing scope; without team:read the screen says so', async () => {
    const readOnly = renderTui({ initialScreen: 'team', scopes: new Set(['team:read']) })
    const frame = await frameWith(readOnly, LIST)
    expect(frame).not.toContain('i invite')
    await press(readOnly, 'i')
    expect(await frameWith(readOnly, 'i (invite) needs the scope team:write')).not.toContain(
      'Invite a teammate',
    )
    cleanup()
    const none = renderTui({ initialScreen: 'team', scopes: new Set(['links:read']) })
    await frameWith(none, 'Team needs the scope team:read; this key does not have it.')
  })
})
