/**
 * End to end: the built `linkctl` against the built linkd, as two people. The owner invites; the
 * teammate runs the printed join command in a config directory of their own and gets a profile;
 * whoami, members, invitations, role, revoke-invite and remove do what they say, with the exit
 * codes of a refused token (410: 1, unknown: 5) and of a removed member's key (4).
 * Needs `npm run build` first.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Invitation, Member, Whoami } from '../../src/contract/team.js'
import type { PageOf } from '../../src/contract/common.js'
import { startLinkdForCli, type LinkdForCli } from '../support/processes.js'

let l: LinkdForCli
/** The teammate: no owner key, no URL, their own config directory. */
const ana = (args: string[]) =>
  l.linkctl(args, { LINKCTL_URL: '', LINKCTL_API_KEY: '', LINKCTL_CONFIG_DIR: join(l.work, 'ana') })
const json = <T>(stdout: string) => JSON.parse(stdout) as T

beforeAll(async () => {
  l = await startLinkdForCli('linkctl-team-e2e-')
}, 60_000)
afterAll(() => l?.close())

describe('linkctl team and whoami against a running linkd', () => {
  let token = ''
  let anaId = ''
  let linkId = ''

  it('whoami says the owner key is the Owner member', async () => {
    const r = await l.linkctl(['whoami', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const me = json<Whoami>(r.stdout)
    expect(me.member).toMatchObject({ name: 'Owner', role: 'owner' })
    expect(me.effectivePermissions).toContain('team:write')
    const piped = await l.linkctl(['whoami'])
    expect(piped.stdout.split('\n')[0]).toBe('MEMBER\tROLE\tEMAIL\tKEY\tORGANIZATION\tPERMISSIONS')
  })

  it('invite prints the token first and the join command the teammate runs', async () => {
    const r = await l.linkctl(['team', 'invite', 'ana@example.com'])
    expect(r.code, r.stderr).toBe(0)
    const [first, what, command] = r.stdout.split('\n')
    token = first ?? ''
    expect(token).toMatch(/^lkinv_[A-Za-z0-9]{32}$/)
    expect(what).toMatch(/^Invited ana@example.com as member \(inv_/)
    expect(command).toBe(`  linkctl team join ${token} --url ${l.daemon.url} --name <Name>`)
    const pending = await l.linkctl(['team', 'invitations', '--status', 'pending', '--json'])
    expect(json<PageOf<Invitation>>(pending.stdout).data.map((i) => i.email)).toEqual(['ana@example.com'])
    expect(pending.stdout).not.toContain(token)
  })

  it('the teammate joins with that command: a profile with their key, which works', async () => {
    const args = `team join ${token} --url ${l.daemon.url} --name Ana`.split(' ')
    const r = await ana(args)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(
      /Joined .* as Ana \(member, mem_\w+\)\. Saved Ana's key \(lk_•••\w{4}\) as profile "default"/,
    )
    const saved = json<{ currentProfile: string; profiles: Record<string, { url: string; apiKey: string }> }>(
      readFileSync(join(l.work, 'ana', 'config.json'), 'utf8'),
    )
    expect(saved.currentProfile).toBe('default')
    expect(saved.profiles.default?.url).toBe(l.daemon.url)
    expect(r.stderr).not.toContain(saved.profiles.default?.apiKey ?? '?')
    const me = await ana(['whoami', '--json'])
    expect(me.code, me.stderr).toBe(0)
    expect(json<Whoami>(me.stdout).member).toMatchObject({
      name: 'Ana',
      role: 'member',
      email: 'ana@example.com',
    })
    anaId = json<Whoami>(me.stdout).member.id
    const link = await ana(['links', 'create', 'https://example.com/ana', '--json'])
    expect(link.code, link.stderr).toBe(0)
    linkId = json<{ id: string }>(link.stdout).id
  })

  it('a used token is refused with exit 1, an unknown one with exit 5; nothing is saved', async () => {
    const again = await ana([
      'team',
      'join',
      token,
      '--url',
      l.daemon.url,
      '--name',
      'Ana',
      '--profile',
      'again',
    ])
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(
      /this invitation can no longer be used: this invitation is accepted; .*\(HTTP 410\)/,
    )
    const unknown = await ana([
      'team',
      'join',
      `lkinv_${'Z'.repeat(32)}`,
      '--url',
      l.daemon.url,
      '--name',
      'Ana',
      '--profile',
      'again',
    ])
    expect(unknown.code, unknown.stderr).toBe(5)
    expect(unknown.stderr).toMatch(/no invitation has this token/)
    const profiles = await ana(['profile', 'list', '--json'])
    expect(json<{ name: string }[]>(profiles.stdout).map((p) => p.name)).toEqual(['default'])
  })

  it('members lists both; role demotes the teammate, whose key follows at once', async () => {
    const members = await l.linkctl(['team', 'members', '--json'])
    expect(json<PageOf<Member>>(members.stdout).data.map((m) => [m.name, m.role])).toEqual(
      expect.arrayContaining([
        ['Owner', 'owner'],
        ['Ana', 'member'],
      ]),
    )
    const r = await l.linkctl(['team', 'role', anaId, 'viewer'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(new RegExp(`Ana \\(${anaId}\\) is now viewer`))
    const me = json<Whoami>((await ana(['whoami', '--json'])).stdout)
    expect(me.member.role).toBe('viewer')
    expect(me.effectivePermissions.every((p) => p.endsWith(':read'))).toBe(true)
    const refused = await ana(['team', 'invite', 'eve@example.com'])
    expect(refused.code).toBe(4)
    expect((await ana(['links', 'get', linkId, '--json'])).code).toBe(0)
    const create = await ana(['links', 'create', 'https://example.com/no', '--json'])
    expect(create.code).toBe(4)
    expect(create.stderr).toMatch(/links:write/)
  })

  it('revoke-invite makes a token unusable', async () => {
    const invited = await l.linkctl(['team', 'invite', 'bo@example.com', '--role', 'viewer', '--json'])
    const inv = json<Invitation & { token: string }>(invited.stdout)
    const r = await l.linkctl(['team', 'revoke-invite', inv.id])
    expect(r.code, r.stderr).toBe(0)
    const revoked = await l.linkctl(['team', 'invitations', '--status', 'revoked'])
    expect(revoked.stdout).toContain(`${inv.id}\tbo@example.com\tviewer\trevoked`)
    const join = await l.linkctl(['team', 'join', inv.token, '--name', 'Bo', '--profile', 'bo'], {
      LINKCTL_API_KEY: '',
    })
    expect(join.code).toBe(1)
  })

  it('remove needs --yes without a terminal; then the teammate’s key is refused (exit 4)', async () => {
    const refused = await l.linkctl(['team', 'remove', anaId])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/add --yes/)
    const r = await l.linkctl(['team', 'remove', anaId, '--yes'])
    expect(r.code, r.stderr).toBe(0)
    const after = await ana(['whoami'])
    expect(after.code).toBe(4)
    const members = await l.linkctl(['team', 'members'])
    expect(members.stdout).not.toContain(anaId)
  })
  it('the owner answers "who did this?" from linkctl audit', async () => {
    type Entry = { action: string; memberId: string | null; resourceId: string | null }
    const r = await l.linkctl(['audit', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const entries = json<PageOf<Entry>>(r.stdout).data
    const owner = json<Whoami>((await l.linkctl(['whoami', '--json'])).stdout).member.id
    const step = (action: string, resourceId: string | null = null) =>
      entries.find((e) => e.action === action && (resourceId === null || e.resourceId === resourceId))
    expect(step('invitation.create')?.memberId).toBe(owner)
    expect(step('invitation.accept')?.memberId).toBe(anaId)
    expect(step('link.create', linkId)?.memberId).toBe(anaId)
    expect(step('member.update', anaId)?.memberId).toBe(owner)
    expect(step('member.remove', anaId)?.memberId).toBe(owner)
    const byAna = await l.linkctl(['audit', '--member', anaId, '--json'])
    expect(
      json<PageOf<Entry>>(byAna.stdout)
        .data.map((e) => e.action)
        .sort(),
    ).toEqual(['invitation.accept', 'link.create'])
    const table = await l.linkctl(['audit', '--action', 'member.remove'])
    expect(table.stdout).toContain(anaId)
  })
})
