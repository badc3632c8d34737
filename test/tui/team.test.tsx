/**
 * The Team screen against a real linkd: members and pending invitations, invite (the token shown
 * once with the join command), role change, remove after y, revoke, the daemon's refusals; the
 * scope rules against the fake client.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { LinkdClient } from '../../src/client/index.js'
import type { Role } from '../../src/contract/scopes.js'
import { frameWhere, frameWith, KEY, press, renderTui, resize } from './harness.js'
import { newOrg, renderOnDaemon, useDaemon } from './tui-daemon.js'
import { whoAmI } from '../../src/tui/run.js'

afterEach(() => cleanup())

const daemon = useDaemon()
const LIST = '3 members · 1 pending invitation'

/** An organization of its owner, Ana (member) and Bo (viewer), cy@example.com invited as admin. */
async function team() {
  const d = daemon()
  const org = await newOrg(d)
  const join = async (role: Role, name: string) => {
    const { token } = await org.api.team.invite({ email: `${name.toLowerCase()}@example.com`, role })
    return (await new LinkdClient({ baseUrl: d.url }).team.accept(token, name)).member.id
  }
  // Joined a second apart: the daemon lists members in the order they joined.
  d.clock.advance(1000)
  const ana = await join('member', 'Ana')
  d.clock.advance(1000)
  const bo = await join('viewer', 'Bo')
  const cy = await org.api.team.invite({ email: 'cy@example.com', role: 'admin' })
  return { org, ana, bo, cy: cy.id }
}

describe('team screen against linkd', () => {
  it('lists the members with their roles and the pending invitations; 0 goes to it', async () => {
    const { org, ana, cy } = await team()
    const app = renderOnDaemon(daemon(), org.ownerKey)
    await frameWith(app, 'Jobs')
    await press(app, '0')
    const frame = await frameWith(app, LIST, 'cy@example.com')
    expect(frame.split('\n')[0]).toContain(' 10 Team')
    expect(frame).toMatch(/owner\s+.*mem_/)
    expect(frame).toMatch(new RegExp(`Ana\\s+member\\s+ana@example.com\\s+.*${ana}`))
    expect(frame).toMatch(/Bo\s+viewer\s+bo@example.com/)
    expect(frame).toContain('Pending invitations')
    expect(frame).toMatch(new RegExp(`cy@example.com\\s+admin\\s+in \\d+ days?\\s+${cy}`))
  })

  it('invites: e-mail and role, then the token once with the command the teammate runs', async () => {
    const { org } = await team()
    const app = renderOnDaemon(daemon(), org.ownerKey, {
      initialScreen: 'team',
      url: 'http://linkd.test:8080',
    })
    resize(app, 80, 24)
    await frameWith(app, LIST)
    await press(app, 'i')
    await frameWith(app, 'Invite a teammate', 'Role (owner, admin, member, viewer): member')
    await press(app, 'dee@example.com', KEY.enter)
    for (let i = 0; i < 'member'.length; i++) await press(app, KEY.backspace)
    await press(app, 'viewer', KEY.enter)
    const shown = await frameWith(app, 'Any key: back to the list')
    expect(shown).toContain('Invited dee@example.com as viewer')
    const token = /lkinv_\w+/.exec(shown)?.[0]
    // Its lines as the terminal shows them, pasted into a shell: one command (a line cut by the
    // terminal's width would run `--url` without its value).
    const lines = shown.split('\n')
    const command = lines.slice(
      lines.indexOf('They run:') + 1,
      lines.findIndex((l) => l.startsWith('Copy it now')),
    )
    expect(command.slice(0, -1).every((l) => l.endsWith(' \\'))).toBe(true)
    expect(command.join('\n').replace(/ \\\n\s*/g, ' ')).toBe(
      `linkctl team join ${token} --url http://linkd.test:8080 --name <Name>`,
    )
    expect(app.sent('team.invite')).toEqual([[{ email: 'dee@example.com', role: 'viewer' }]])
    await press(app, 'z')
    const list = await frameWith(app, '2 pending invitations', 'dee@example.com')
    expect(list).not.toContain(token)
    // The token shown is the invitation's: it joins.
    const joined = await new LinkdClient({ baseUrl: daemon().url }).team.accept(token!, 'Dee')
    expect(joined.member.role).toBe('viewer')
  })

  it('a wrong role in the invite form is said under it, and nothing is sent', async () => {
    const { org } = await team()
    const app = renderOnDaemon(daemon(), org.ownerKey, { initialScreen: 'team' })
    await frameWith(app, LIST)
    await press(app, 'i', 'x@example.com', KEY.enter, KEY.backspace, KEY.enter)
    await frameWith(app, 'role must be one of owner, admin, member, viewer')
    expect(app.sent('team.invite')).toEqual([])
  })

  it('changes the selected member’s role with one key', async () => {
    const { org, ana } = await team()
    const app = renderOnDaemon(daemon(), org.ownerKey, { initialScreen: 'team' })
    await frameWith(app, LIST)
    await press(app, 'j', 'r')
    await frameWith(app, 'New role for Ana (now member)', 'o owner · a admin · m member · v viewer')
    await press(app, 'a')
    const frame = await frameWith(app, 'Ana is now admin')
    await frameWhere(app, (f) => /Ana\s+admin/.test(f), 'Ana as admin in the table')
    expect(frame).not.toContain('New role for')
    expect(app.sent('team.setRole')).toEqual([[ana, 'admin']])
    expect((await org.api.team.members({ role: 'admin' })).data.map((m) => m.id)).toEqual([ana])
  })

  it('removes a member only after y; n cancels', async () => {
    const { org, bo } = await team()
    const app = renderOnDaemon(daemon(), org.ownerKey, { initialScreen: 'team' })
    await frameWith(app, LIST)
    await press(app, 'j', 'j', 'd')
    await frameWith(
      app,
      'Remove Bo (viewer)? All of their API keys are revoked at once; this cannot be undone. [y/N]',
    )
    await press(app, 'n')
    await frameWith(app, 'cancelled')
    expect(app.sent('team.removeMember')).toEqual([])
    await press(app, 'd')
    await frameWith(app, 'Remove Bo (viewer)?')
    await press(app, 'y')
    const frame = await frameWith(app, 'removed Bo; their keys are revoked', '2 members')
    expect(frame).not.toMatch(/Bo\s+viewer/)
    expect((await org.api.team.members()).data.map((m) => m.id)).not.toContain(bo)
  })

  it('revokes a pending invitation after y', async () => {
    const { org, cy } = await team()
    const app = renderOnDaemon(daemon(), org.ownerKey, { initialScreen: 'team' })
    await frameWith(app, LIST)
    await press(app, 'l', 'x')
    await frameWith(app, 'Revoke the invitation of cy@example.com? Its token stops working. [y/N]')
    await press(app, 'y')
    await frameWith(app, 'revoked the invitation of cy@example.com', '0 pending invitations')
    expect(app.sent('team.revokeInvitation')).toEqual([[cy]])
  })

  it('shows the daemon’s refusals: the last owner (409), a role above the caller’s own (403)', async () => {
    const d = daemon()
    const { org, ana } = await team()
    const app = renderOnDaemon(d, org.ownerKey, { initialScreen: 'team' })
    await frameWith(app, LIST)
    await press(app, 'd', 'y')
    const refused = await frameWith(app, 'failed:', 'last owner')
    expect(refused.replace(/\s+/g, ' ')).toContain(
      "failed: this member is the organization's last owner; removing it would leave no owner",
    )
    expect((await org.api.team.members()).total).toBe(3)
    cleanup()
    // An admin cannot make a member owner.
    await org.api.team.setRole(ana, 'admin')
    // Eve joins last: the fourth row.
    d.clock.advance(1000)
    const { token } = await org.api.team.invite({ email: 'eve@example.com', role: 'admin' })
    const admin = await new LinkdClient({ baseUrl: d.url }).team.accept(token, 'Eve')
    const asAdmin = renderOnDaemon(d, admin.apiKey.key, { initialScreen: 'team' })
    await frameWith(asAdmin, '4 members')
    await press(asAdmin, 'j', 'j', 'r')
    await frameWith(asAdmin, 'New role for Bo')
    await press(asAdmin, 'o')
    const forbidden = await frameWith(asAdmin, 'Changing the role of Bo failed: not allowed:')
    expect(forbidden.replace(/\s+/g, ' ')).toContain('cannot grant the owner role (above its own)')
    expect((await org.api.team.members({ role: 'owner' })).total).toBe(1)
  })
})

describe('team screen, scopes', () => {
  it('a viewer promoted by the owner while the TUI runs creates a link without a restart', async () => {
    const d = daemon()
    const org = await newOrg(d)
    const { token } = await org.api.team.invite({ email: 'vera@example.com', role: 'viewer' })
    const joined = await new LinkdClient({ baseUrl: d.url }).team.accept(token, 'Vera')
    const key = joined.apiKey.key
    // As linkctl tui starts: the scopes learnt once, and the way to learn them again.
    const probe = new LinkdClient({ baseUrl: d.url, apiKey: key })
    const who = await whoAmI(probe, d.url, key)
    const app = renderOnDaemon(d, key, {
      initialScreen: 'links',
      scopes: who.scopes,
      identity: who.identity,
      relearn: () => whoAmI(probe, d.url, key),
    })
    await frameWith(app, 'No links yet.', 'Vera (viewer)')
    await org.api.team.setRole(joined.member.id, 'member')
    await press(app, 'n')
    await frameWith(app, "this key's scopes changed: now with links:write")
    await press(app, 'n')
    await frameWith(app, 'New link', 'Destination URL')
  })

  it('a key without team:write is told the missing scope; without team:read the screen says so', async () => {
    const readOnly = renderTui({ initialScreen: 'team', scopes: new Set(['team:read']) })
    const frame = await frameWith(readOnly, '3 members')
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
