/**
 * The team commands and whoami, parsed and run whole against a stand-in daemon answering the
 * contract's shapes: what the user sees (stdout, stderr, exit code) and what is sent.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Invitation, Member, Whoami } from '../../../src/contract/team.js'
import { runTeamRemove } from '../../../src/cli/commands/team/remove.js'
import { exitCodeFor } from '../../../src/session/exit-codes.js'
import {
  cli,
  decliningCtx,
  errorReply,
  OWNER_KEY,
  page,
  sampleKey,
  stubServer,
  tempDir,
  validKeyTest,
  type Reply,
} from '../../support/cli.js'

type Stub = Awaited<ReturnType<typeof stubServer>>
const T = '2026-11-21T10:00:00.000Z'
const TOKEN = `lkinv_${'t'.repeat(32)}`
const NEW_KEY = `lk_live_${'n'.repeat(32)}`

const member = (over: Partial<Member> = {}): Member => ({
  id: 'mem_owner',
  name: 'Owner',
  email: null,
  role: 'owner',
  joinedAt: T,
  invitedBy: null,
  ...over,
})
const ANA = member({
  id: 'mem_ana',
  name: 'Ana',
  email: 'ana@example.com',
  role: 'member',
  invitedBy: 'mem_owner',
})
const invitation = (over: Partial<Invitation> = {}): Invitation => ({
  id: 'inv_1',
  email: 'ana@example.com',
  role: 'member',
  status: 'pending',
  expiresAt: '2026-11-28T10:00:00.000Z',
  invitedBy: 'mem_owner',
  createdAt: T,
  ...over,
})
const WHOAMI: Whoami = {
  member: member(),
  key: { id: 'key_owner', name: 'owner', preview: 'lk_•••AbCd' },
  organization: { id: 'org_1', name: 'Acme', plan: 'enterprise' },
  permissions: ['links:read', 'links:write', 'team:write'],
  effectivePermissions: ['links:read', 'links:write'],
}

/** What accept answers next (tests change it). */
let acceptReply: Reply
function daemon(): Promise<Stub> {
  return stubServer({
    'POST /api/keys/test': () => ({ status: 200, body: validKeyTest() }),
    'GET /api/team/me': () => ({ status: 200, body: WHOAMI }),
    'GET /api/team/members': () => ({ status: 200, body: page([member(), ANA]) }),
    'PATCH /api/team/members/mem_ana': (req) => ({
      status: 200,
      body: { ...ANA, ...(req.body as object) },
    }),
    'DELETE /api/team/members/mem_ana': () => ({ status: 204 }),
    'POST /api/team/invitations': (req) => ({
      status: 201,
      body: { ...invitation(req.body as Partial<Invitation>), token: TOKEN },
    }),
    'GET /api/team/invitations': () => ({ status: 200, body: page([invitation()]) }),
    'DELETE /api/team/invitations/inv_1': () => ({ status: 204 }),
    'POST /api/team/invitations/accept': () => acceptReply,
  })
}

describe('team commands', () => {
  let stub: Stub
  let cfg: ReturnType<typeof tempDir>
  beforeAll(async () => (stub = await daemon()))
  afterAll(() => stub.close())
  beforeEach(() => {
    cfg = tempDir()
    stub.requests.length = 0
    acceptReply = {
      status: 201,
      body: {
        member: ANA,
        apiKey: { ...sampleKey({ id: 'key_ana', name: 'Ana', preview: 'lk_•••nnnn' }), key: NEW_KEY },
      },
    }
  })
  afterEach(() => cfg.remove())
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    cli(args, {
      env: { LINKCTL_CONFIG_DIR: cfg.dir, LINKCTL_URL: stub.url, LINKCTL_API_KEY: OWNER_KEY, ...env },
    })
  const config = () => JSON.parse(readFileSync(join(cfg.dir, 'config.json'), 'utf8')) as unknown

  it('invite prints the token once, first, then the exact join command for this linkd', async () => {
    const r = await run(['team', 'invite', 'ana@example.com'])
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout.split('\n')
    expect(lines[0]).toBe(TOKEN)
    expect(lines[1]).toMatch(
      /^Invited ana@example.com as member \(inv_1\); the token expires 2026-11-28T10:00:00.000Z/,
    )
    expect(lines[2]).toBe(`  linkctl team join ${TOKEN} --url ${stub.url} --name <Name>`)
    expect(r.stderr).toMatch(/warning: this is the only time the token is shown/)
    expect(stub.requests.at(-1)).toMatchObject({
      method: 'POST',
      url: '/api/team/invitations',
      body: { email: 'ana@example.com', role: 'member' },
    })
    const json = await run(['team', 'invite', 'bo@example.com', '--role', 'viewer', '--json'])
    expect(JSON.parse(json.stdout)).toMatchObject({ email: 'bo@example.com', role: 'viewer', token: TOKEN })
  })

  it('members and invitations: TSV when piped, filters sent as the query', async () => {
    const m = await run(['team', 'members', '--role', 'member'])
    expect(m.code, m.stderr).toBe(0)
    expect(m.stdout.split('\n')[0]).toBe('ID\tNAME\tROLE\tEMAIL\tJOINED\tINVITED BY')
    expect(m.stdout).toContain('mem_ana\tAna\tmember\tana@example.com\t')
    expect(stub.requests.at(-1)?.url).toBe('/api/team/members?role=member')
    // `list` and `ls`, as every other noun's listing verb, are the same command.
    for (const verb of ['list', 'ls'])
      expect((await run(['team', verb, '--role', 'member'])).stdout).toBe(m.stdout)
    const i = await run(['team', 'invitations', '--status', 'pending'])
    expect(i.stdout.split('\n')[1]).toMatch(/^inv_1\tana@example.com\tmember\tpending\t/)
    expect(stub.requests.at(-1)?.url).toBe('/api/team/invitations?status=pending')
    const bad = await run(['team', 'invitations', '--status', 'lost'])
    expect(bad.code).toBe(2)
  })

  it('role changes the role and says so; --json prints the member', async () => {
    const r = await run(['team', 'role', 'mem_ana', 'admin'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/Ana \(mem_ana\) is now admin/)
    expect(stub.requests.at(-1)).toMatchObject({ method: 'PATCH', body: { role: 'admin' } })
    const json = await run(['team', 'role', 'mem_ana', 'viewer', '--json'])
    expect(JSON.parse(json.stdout)).toMatchObject({ id: 'mem_ana', role: 'viewer' })
    expect((await run(['team', 'role', 'mem_ana', 'boss'])).code).toBe(2)
  })

  it('role and remove take a member by e-mail or name too; an unknown one is exit 5 and changes nothing', async () => {
    for (const ref of ['ANA@example.com', 'ana']) {
      const r = await run(['team', 'role', ref, 'admin'])
      expect(r.code, r.stderr).toBe(0)
      expect(stub.requests.at(-1)).toMatchObject({ method: 'PATCH', url: '/api/team/members/mem_ana' })
    }
    // Asked on a terminal by name: the members are fetched once, for the id and for the question.
    stub.requests.length = 0
    const declining = decliningCtx(stub.url, OWNER_KEY)
    await runTeamRemove({ id: 'Ana' }, declining.ctx).catch(() => undefined)
    expect(declining.questions[0]).toMatch(/^Remove member Ana \(mem_ana, member\)\?/)
    expect(stub.requests.filter((q) => q.url.startsWith('/api/team/members')).length).toBe(1)
    const removed = await run(['team', 'remove', 'ana@example.com', '--yes'])
    expect(removed.code, removed.stderr).toBe(0)
    expect(stub.requests.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/team/members/mem_ana' })
    stub.requests.length = 0
    const unknown = await run(['team', 'role', 'bo@example.com', 'admin'])
    expect(unknown.code).toBe(5)
    expect(unknown.stderr).toMatch(
      /no member with the e-mail or name "bo@example.com" \(linkctl team members lists them\)/,
    )
    expect(stub.requests.some((q) => q.method !== 'GET' && q.method !== 'POST')).toBe(false)
  })

  it('remove needs --yes without a terminal, asks on one, and removes with --yes', async () => {
    const refused = await run(['team', 'remove', 'mem_ana'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/refusing to remove member mem_ana without confirmation: add --yes/)
    const declining = decliningCtx(stub.url, OWNER_KEY)
    const err = await runTeamRemove({ id: 'mem_ana' }, declining.ctx).catch((e: unknown) => e)
    expect(exitCodeFor(err)).toBe(1)
    expect(declining.questions).toEqual([
      'Remove member Ana (mem_ana, member)? All of their API keys are revoked at once; this cannot be undone.',
    ])
    expect(stub.requests.some((q) => q.method === 'DELETE')).toBe(false)
    const r = await run(['team', 'remove', 'mem_ana', '--yes'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/Removed member mem_ana; their API keys are revoked/)
    expect(stub.requests.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/team/members/mem_ana' })
  })

  it('revoke-invite deletes the invitation; an unknown one is exit 5', async () => {
    const r = await run(['team', 'revoke-invite', 'inv_1'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/Revoked invitation inv_1/)
    const missing = await run(['team', 'revoke-invite', 'inv_nope'])
    expect(missing.code).toBe(5)
  })

  it('join accepts without an API key and saves the key as a profile, never printing it', async () => {
    const r = await cli(['team', 'join', TOKEN, '--url', stub.url, '--name', 'Ana'], {
      env: { LINKCTL_CONFIG_DIR: cfg.dir },
    })
    expect(r.code, r.stderr).toBe(0)
    const sent = stub.requests.at(-1)
    expect(sent).toMatchObject({ url: '/api/team/invitations/accept', body: { token: TOKEN, name: 'Ana' } })
    expect(sent?.headers.authorization).toBeUndefined()
    expect(config()).toEqual({
      currentProfile: 'default',
      profiles: { default: { url: stub.url, apiKey: NEW_KEY } },
    })
    expect(r.stdout).toBe('')
    expect(r.stderr).not.toContain(NEW_KEY)
    expect(r.stderr).toContain(
      `Joined ${stub.url} as Ana (member, mem_ana). Saved Ana's key (lk_•••nnnn) as profile "default" (${join(cfg.dir, 'config.json')}), now current.`,
    )
  })

  it('join never overwrites a profile holding a key (the token is not spent); --profile and --json', async () => {
    await cli(['login', '--url', stub.url, '--api-key', OWNER_KEY], { env: { LINKCTL_CONFIG_DIR: cfg.dir } })
    stub.requests.length = 0
    const env = { LINKCTL_CONFIG_DIR: cfg.dir }
    const refused = await cli(['team', 'join', TOKEN, '--url', stub.url, '--name', 'Ana'], { env })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/profile "default" already holds a key .*pass --profile <name>/)
    expect(stub.requests).toEqual([])
    const r = await cli(
      ['team', 'join', TOKEN, '--url', stub.url, '--name', 'Ana', '--profile', 'ana', '--json'],
      {
        env,
      },
    )
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ member: { id: 'mem_ana' }, apiKey: { key: NEW_KEY } })
    expect(config()).toMatchObject({
      currentProfile: 'ana',
      profiles: { default: { apiKey: OWNER_KEY }, ana: { url: stub.url, apiKey: NEW_KEY } },
    })
  })

  it('join: an unknown token is exit 5, a used or expired one exit 1, each saying what to do', async () => {
    const env = { LINKCTL_CONFIG_DIR: cfg.dir }
    const args = ['team', 'join', TOKEN, '--url', stub.url, '--name', 'Ana']
    acceptReply = errorReply(404, 'NotFound', 'Invitation not found', '/api/team/invitations/accept')
    const unknown = await cli(args, { env })
    expect(unknown.code).toBe(5)
    expect(unknown.stderr).toMatch(
      /^error: no invitation has this token: check that it was copied whole \(HTTP 404\); ask the teammate who invited you for a new one/,
    )
    acceptReply = errorReply(410, 'Gone', 'Invitation already used', '/api/team/invitations/accept')
    const gone = await cli(args, { env })
    expect(gone.code).toBe(1)
    expect(gone.stderr).toMatch(
      /^error: this invitation can no longer be used: Invitation already used \(HTTP 410\); ask the teammate who invited you/,
    )
    const json = await cli([...args, '--json'], { env })
    expect(JSON.parse(json.stderr)).toMatchObject({ statusCode: 410, message: 'Invitation already used' })
    expect(json.stderr).toMatch(/"hint":"this invitation can no longer be used: Invitation already used/)
    expect(config()).toEqual({ profiles: {} })
  })

  it('whoami shows member, role, key, organization and effective permissions', async () => {
    const r = await run(['whoami'], { COLUMNS: '200' })
    expect(r.code, r.stderr).toBe(0)
    const [header, values] = r.stdout.split('\n')
    expect(header).toBe('MEMBER\tROLE\tEMAIL\tKEY\tORGANIZATION\tPERMISSIONS\tNOT IN ROLE')
    expect(values).toBe(
      'Owner (mem_owner)\towner\t\towner (key_owner, lk_•••AbCd)\tAcme (org_1, enterprise)\tlinks:read,links:write\tteam:write',
    )
    const json = await run(['whoami', '--json'])
    expect(JSON.parse(json.stdout)).toEqual(WHOAMI)
  })
})
