/** The keys commands' run functions against the real daemon (in-memory SQLite, fake clock). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  API_KEY_PATTERN,
  type ApiKey,
  type ApiKeyWithSecret,
  type KeyActivity,
} from '../../../src/contract/keys.js'
import { PRESETS } from '../../../src/contract/scopes.js'
import type { PageOf } from '../../../src/contract/common.js'
import { exitCodeFor, formatError } from '../../../src/session/exit-codes.js'
import { runKeysActivate } from '../../../src/cli/commands/keys/activate.js'
import { runKeysActivity } from '../../../src/cli/commands/keys/activity.js'
import { runKeysCreate } from '../../../src/cli/commands/keys/create.js'
import { runKeysDeactivate } from '../../../src/cli/commands/keys/deactivate.js'
import { runKeysDelete } from '../../../src/cli/commands/keys/delete.js'
import { runKeysGet } from '../../../src/cli/commands/keys/get.js'
import { runKeysList } from '../../../src/cli/commands/keys/list.js'
import { runKeysRegenerate } from '../../../src/cli/commands/keys/regenerate.js'
import { runKeysRevoke } from '../../../src/cli/commands/keys/revoke.js'
import { runKeysTest } from '../../../src/cli/commands/keys/test.js'
import { runKeysUpdate } from '../../../src/cli/commands/keys/update.js'
import type { KeyFlags } from '../../../src/cli/commands/keys/shared.js'
import { runApi } from '../../../src/cli/commands/api.js'
import { runStatus, type StatusReport } from '../../../src/cli/commands/status.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { cli, decliningCtx, testCtx } from '../../support/cli.js'

let d: TestDaemon
beforeAll(async () => {
  d = await startTestDaemon()
})
afterAll(() => d.close())

/** A context authenticated with `apiKey` (the owner key by default). */
function as(apiKey: string | undefined = d.ownerKey, opts: { json?: boolean; isTTY?: boolean } = {}) {
  return testCtx({
    flags: { url: d.url, apiKey },
    json: opts.json ?? true,
    isTTY: opts.isTTY ?? false,
    env: { NO_COLOR: '1' },
  })
}

/** Runs `fn` and returns what the CLI would exit with (0 when it succeeds), plus its error line. */
async function exit(fn: () => Promise<void>): Promise<{ code: number; message: string }> {
  try {
    await fn()
    return { code: 0, message: '' }
  } catch (err) {
    return { code: exitCodeFor(err), message: formatError(err) }
  }
}

async function create(flags: KeyFlags = {}): Promise<ApiKeyWithSecret> {
  const { ctx, out } = as()
  await runKeysCreate({ name: 'cli test', ...flags }, ctx)
  return JSON.parse(out.text) as ApiKeyWithSecret
}

describe('keys commands against linkd', () => {
  it('create --json returns the key once, with the flags mapped to API fields', async () => {
    const { ctx, out, err } = as()
    await runKeysCreate(
      {
        name: 'ci deploy',
        description: 'pipeline',
        preset: 'read-only',
        requestLimit: 500,
        timePeriod: 'minute',
        allowedIp: ['127.0.0.1', '10.0.0.0/8'],
        allowedOrigin: ['https://app.example.com'],
        expiresAt: '2027-01-01T00:00:00.000Z',
        environment: 'test',
      },
      ctx,
    )
    const k = JSON.parse(out.text) as ApiKeyWithSecret
    expect(k.key).toMatch(API_KEY_PATTERN)
    expect(k.key.startsWith('lk_test_')).toBe(true)
    expect(k).toMatchObject({
      name: 'ci deploy',
      description: 'pipeline',
      permissions: [...PRESETS['read-only']],
      requestLimit: 500,
      timePeriod: 'minute',
      allowedIps: ['127.0.0.1', '10.0.0.0/8'],
      allowedOrigins: ['https://app.example.com'],
      expiresAt: '2027-01-01T00:00:00.000Z',
      status: 'active',
    })
    expect(err.text).toMatch(/warning: .*only time the full key is shown/)
  })

  it('create without scopes warns that linkd refuses the key everything, and how to give it some', async () => {
    const bare = as()
    await runKeysCreate({ name: 'no scopes' }, bare.ctx)
    const k = JSON.parse(bare.out.text) as ApiKeyWithSecret
    expect(k.permissions).toEqual([])
    expect(bare.err.text).toContain(
      `warning: the key has no scopes: linkd refuses it every resource (403); give it some with linkctl keys update ${k.id} --preset read-only (or --scope …)`,
    )
    const scoped = as()
    await runKeysCreate({ name: 'some scopes', scope: ['links:read'] }, scoped.ctx)
    expect(scoped.err.text).not.toContain('no scopes')
  })

  it('list: TSV when piped, filtered by --search and --status, JSON envelope with --json', async () => {
    const k = await create({ name: 'zebra-unique', permissions: ['links:read'] })
    const piped = as(d.ownerKey, { json: false })
    await runKeysList({ search: 'zebra-unique' }, piped.ctx)
    const lines = piped.out.text.trimEnd().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]?.split('\t')[0]).toBe('ID')
    expect(lines[1]?.split('\t').slice(0, 6)).toEqual([
      k.id,
      'zebra-unique',
      'active',
      'live',
      k.preview,
      'links:read',
    ])
    expect(piped.out.text).not.toContain(k.key)

    const json = as()
    await runKeysList({ status: 'active', limit: '10', page: 1 }, json.ctx)
    const env = JSON.parse(json.out.text) as PageOf<ApiKey>
    expect(env).toMatchObject({ page: 1, perPage: 10 })
    expect(env.data.every((x) => x.status === 'active')).toBe(true)
    expect(env.data.map((x) => x.id)).toContain(k.id)
  })

  it('get shows the key without its secret; TTY output is a table', async () => {
    const k = await create()
    const tty = as(d.ownerKey, { json: false, isTTY: true })
    await runKeysGet({ id: k.id }, tty.ctx)
    expect(tty.out.text).toMatch(new RegExp(`^ID\\s+${k.id}$`, 'm'))
    expect(tty.out.text).toContain(k.preview)
    expect(tty.out.text).not.toContain(k.key)
  })

  it('update changes fields; --preset replaces the scopes; "" clears the description', async () => {
    const k = await create({ description: 'old', permissions: ['links:read'] })
    const { ctx, out } = as()
    await runKeysUpdate(
      { id: k.id, name: 'renamed', description: '', preset: 'analytics-only', requestLimit: 5 },
      ctx,
    )
    expect(JSON.parse(out.text)).toMatchObject({
      id: k.id,
      name: 'renamed',
      description: null,
      permissions: ['analytics:read'],
      requestLimit: 5,
    })
    expect((await exit(() => runKeysUpdate({ id: k.id }, as().ctx))).code).toBe(2)
  })

  it('deactivate and activate: an inactive key is refused (exit 4) until it is activated', async () => {
    const k = await create({ preset: 'full' })
    await runKeysDeactivate({ id: k.id, yes: true }, as().ctx)
    const refused = await exit(() => runKeysList({}, as(k.key).ctx))
    expect(refused.code).toBe(4)
    expect(refused.message).toMatch(/^error: .*\(HTTP 401\)\n$/)
    const { ctx, err } = as(d.ownerKey, { json: false })
    await runKeysActivate({ id: k.id }, ctx)
    expect(err.text).toBe(`Activated key cli test (${k.id}); status: active\n`)
    const listed = as(k.key)
    expect((await exit(() => runKeysList({}, listed.ctx))).code).toBe(0)
    expect(JSON.parse(listed.out.text).data).toContainEqual(
      expect.objectContaining({ id: k.id, status: 'active' }),
    )
  })

  it('revoke: the revoked key gets 401 (exit 4); activating it again is a conflict (exit 6)', async () => {
    const k = await create({ preset: 'full' })
    const { ctx, out } = as()
    await runKeysRevoke({ id: k.id, yes: true }, ctx)
    expect(JSON.parse(out.text)).toMatchObject({ id: k.id, status: 'revoked' })
    expect((await exit(() => runKeysGet({ id: k.id }, as(k.key).ctx))).code).toBe(4)
    expect((await exit(() => runKeysActivate({ id: k.id }, as().ctx))).code).toBe(6)
    const tested = as()
    expect((await exit(() => runKeysTest({ key: k.key }, tested.ctx))).code).toBe(4)
    expect(JSON.parse(tested.out.text)).toMatchObject({ valid: false, reason: 'revoked' })
  })

  it('regenerate: the new value works, the old one stops (exit 4)', async () => {
    const k = await create({ preset: 'full' })
    const { ctx, out, err } = as()
    await runKeysRegenerate({ id: k.id }, ctx)
    const fresh = JSON.parse(out.text) as ApiKeyWithSecret
    expect(fresh.key).toMatch(API_KEY_PATTERN)
    expect(fresh.key).not.toBe(k.key)
    expect(err.text).toMatch(/previous key stopped working/)
    const listed = as(fresh.key)
    expect((await exit(() => runKeysList({}, listed.ctx))).code).toBe(0)
    expect(JSON.parse(listed.out.text).data).toContainEqual(expect.objectContaining({ id: k.id }))
    expect((await exit(() => runKeysList({}, as(k.key).ctx))).code).toBe(4)
  })

  it("another organization's key is not found (exit 5); a key without keys:write is forbidden (exit 4)", async () => {
    const other = await d.testApp.createOrg('other-org')
    const { ctx, out } = as(other.ownerKey)
    await runKeysCreate({ name: 'theirs' }, ctx)
    const theirs = JSON.parse(out.text) as ApiKeyWithSecret
    const notFound = await exit(() => runKeysGet({ id: theirs.id }, as().ctx))
    expect(notFound.code).toBe(5)
    expect((await exit(() => runKeysRevoke({ id: theirs.id, yes: true }, as().ctx))).code).toBe(5)

    const reader = await create({ preset: 'read-only' })
    const forbidden = await exit(() => runKeysCreate({ name: 'nope' }, as(reader.key).ctx))
    expect(forbidden).toMatchObject({ code: 4, message: expect.stringMatching(/\(HTTP 403\)/) })
  })

  it('validation errors from the daemon exit 1 and name the field, once', async () => {
    const r = await exit(() => runKeysCreate({ name: 'bad', allowedOrigin: ['not an origin'] }, as().ctx))
    expect(r.code).toBe(1)
    expect(r.message).toBe(
      'error: allowedOrigins.0: "not an origin" is not an origin such as https://app.example.com (HTTP 400)\n',
    )
  })

  it('delete: needs --yes without a terminal, asks on one, then the key is gone (exit 5)', async () => {
    const k = await create()
    expect((await exit(() => runKeysDelete({ id: k.id }, as().ctx))).code).toBe(2)
    const declined = decliningCtx(d.url, d.ownerKey)
    const { questions } = declined
    expect((await exit(() => runKeysDelete({ id: k.id }, declined.ctx))).code).toBe(1)
    expect(questions).toEqual([`Delete API key cli test (${k.id})? This cannot be undone.`])
    const kept = as()
    expect((await exit(() => runKeysGet({ id: k.id }, kept.ctx))).code).toBe(0)
    expect(JSON.parse(kept.out.text)).toMatchObject({ id: k.id, name: 'cli test', status: 'active' })
    const { ctx, err } = as()
    await runKeysDelete({ id: k.id, yes: true }, ctx)
    expect(err.text).toBe(`Deleted key ${k.id}\n`)
    expect((await exit(() => runKeysGet({ id: k.id }, as().ctx))).code).toBe(5)
  })

  it('test and activity: what a key is, and what it did', async () => {
    const k = await create({ permissions: ['keys:read'] })
    const t = as()
    await runKeysTest({ key: k.key }, t.ctx)
    expect(JSON.parse(t.out.text)).toMatchObject({
      valid: true,
      key: { id: k.id, permissions: ['keys:read'], organization: { name: 'default' } },
      rateLimit: { limit: 1000, period: 'hour' },
    })
    const fromStdin = testCtx({ flags: { url: d.url }, json: true, stdin: `${k.key}\n` })
    await runKeysTest({ key: '-' }, fromStdin.ctx)
    expect(JSON.parse(fromStdin.out.text)).toMatchObject({ valid: true, key: { id: k.id } })
    await runKeysList({}, as(k.key).ctx)
    const a = as()
    await runKeysActivity({ id: k.id }, a.ctx)
    const activity = JSON.parse(a.out.text) as PageOf<KeyActivity>
    expect(activity.data[0]).toMatchObject({
      method: 'GET',
      endpoint: expect.stringContaining('/api/keys'),
      statusCode: 200,
    })
    const piped = as(d.ownerKey, { json: false })
    await runKeysActivity({ id: k.id }, piped.ctx)
    const [header, first] = piped.out.text.split('\n')
    expect(header).toBe('TIME\tMETHOD\tENDPOINT\tSTATUS\tMS\tIP\tCOUNTRY\tERROR')
    // Loopback has no country: it reads Unknown, as in the TUI.
    expect(first?.split('\t')[6]).toBe('Unknown')
  })

  it('status reports health, readiness and who the key is', async () => {
    const { ctx, out } = as()
    await runStatus({}, ctx)
    const s = JSON.parse(out.text) as StatusReport
    expect(s.daemon.status).toBe('ok')
    expect(s.ready.ready).toBe(true)
    expect(s.auth).toMatchObject({ valid: true, key: { organization: { name: 'default' } } })
    expect(Array.isArray(s.ready.jobs)).toBe(true)
  })

  it('api calls any endpoint with fields as query (GET) or body (POST)', async () => {
    const get = as()
    await runApi(
      { method: 'get', path: '/api/keys', field: ['limit=10'], rawField: ['search=zebra-unique'] },
      get.ctx,
    )
    expect(JSON.parse(get.out.text)).toMatchObject({ perPage: 10, total: 1 })
    const post = as()
    await runApi(
      { method: 'POST', path: 'api/keys', rawField: ['name=via api'], field: ['permissions[]=links:read'] },
      post.ctx,
    )
    expect(JSON.parse(post.out.text)).toMatchObject({ name: 'via api', permissions: ['links:read'] })
  })

  it('the whole CLI: a revoked key exits 4 with one error line', async () => {
    const k = await create({ preset: 'full' })
    await runKeysRevoke({ id: k.id, yes: true }, as().ctx)
    const r = await cli(['keys', 'list'], { env: { LINKCTL_URL: d.url, LINKCTL_API_KEY: k.key } })
    expect(r.code).toBe(4)
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(r.stderr).toMatch(/^error: /)
  })
})

const BOLD_GREEN = '\u001b[1;32m'
const RESET = '\u001b[0m'

describe('keys commands: confirmation, the key in use, the one-time value', () => {
  const env = (apiKey: string) => ({ LINKCTL_URL: d.url, LINKCTL_API_KEY: apiKey, NO_COLOR: '1' })
  const status = async (id: string) => {
    const { ctx, out } = as()
    await runKeysGet({ id }, ctx)
    return (JSON.parse(out.text) as ApiKey).status
  }

  it.each(['revoke', 'deactivate', 'delete'])(
    '%s without a terminal and without --yes exits 2 saying to add --yes; nothing changes',
    async (verb) => {
      const k = await create()
      const r = await cli(['keys', verb, k.id], { env: env(d.ownerKey) })
      expect(r.code).toBe(2)
      expect(r.stderr).toBe(
        `error: refusing to ${verb} key ${k.id} without confirmation: add --yes (stdin is not a terminal)\n`,
      )
      expect(await status(k.id)).toBe('active')
    },
  )

  it('revoke and deactivate ask on a terminal; declining changes nothing (exit 1)', async () => {
    const k = await create()
    const declined = decliningCtx(d.url, d.ownerKey)
    expect((await exit(() => runKeysRevoke({ id: k.id }, declined.ctx))).code).toBe(1)
    expect((await exit(() => runKeysDeactivate({ id: k.id }, declined.ctx))).code).toBe(1)
    expect(declined.questions).toEqual([
      `Revoke API key cli test (${k.id})? It stops working for good; this cannot be undone.`,
      `Deactivate API key cli test (${k.id})? Requests with it get 401 until a key with its scopes activates it again.`,
    ])
    expect(declined.err.text).not.toMatch(/WARNING/)
    expect(await status(k.id)).toBe('active')
  })

  it('acting on the key in use warns loudly, naming where the key came from', async () => {
    const k = await create({ preset: 'full' })
    const r = await cli(['keys', 'deactivate', k.id, '--yes'], { env: env(k.key) })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(
      new RegExp(`^WARNING: ${k.id} is the key linkctl is using \\(from LINKCTL_API_KEY\\); .*linkctl login`),
    )
    expect(await status(k.id)).toBe('inactive')
    const viaFlag = decliningCtx(d.url, d.ownerKey)
    const owner = JSON.parse(
      (await cli(['keys', 'test', d.ownerKey, '--json'], { env: env(d.ownerKey) })).stdout,
    )
    await exit(() => runKeysRevoke({ id: owner.key.id as string }, viaFlag.ctx))
    expect(viaFlag.err.text).toMatch(
      /^WARNING: key_\w+ is the key linkctl is using \(from the --api-key flag\)/,
    )
    // Another key: no warning.
    const other = await create()
    const quiet = await cli(['keys', 'revoke', other.id, '--yes'], { env: env(d.ownerKey) })
    expect(quiet.stderr).not.toMatch(/WARNING/)
  })

  it('create and regenerate print the one-time value first, alone on its line; bold on a colour TTY', async () => {
    const piped = await cli(['keys', 'create', '--name', 'first line'], { env: env(d.ownerKey) })
    expect(piped.code, piped.stderr).toBe(0)
    const [first, header] = piped.stdout.split('\n')
    expect(first).toMatch(API_KEY_PATTERN)
    expect(header?.split('\t').slice(0, 2)).toEqual(['ID', 'NAME'])
    const id = piped.stdout.split('\n')[2]!.split('\t')[0]!
    const colour = await cli(['keys', 'regenerate', id], {
      env: { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey },
      isTTY: true,
    })
    expect(colour.code, colour.stderr).toBe(0)
    const line = colour.stdout.split('\n')[0]!
    expect(line.startsWith(BOLD_GREEN) && line.endsWith(RESET)).toBe(true)
    expect(line.slice(BOLD_GREEN.length, -RESET.length)).toMatch(API_KEY_PATTERN)
    const plain = await cli(['keys', 'regenerate', id], { env: env(d.ownerKey), isTTY: true })
    expect(plain.stdout).toMatch(/^lk_live_\w+\n/)
    expect(plain.stdout.split('\n').slice(1).join('\n')).not.toMatch(/lk_live_/)
  })
})

describe('keys commands: privileges and the last key with keys:write', () => {
  /** The whole CLI (parsing and error output included) with `apiKey`, no stored profile. */
  const run = (apiKey: string, ...argv: string[]) =>
    cli([...argv, '--url', d.url, '--api-key', apiKey], {
      env: { LINKCTL_CONFIG_DIR: '/nonexistent-linkctl' },
    })

  it('revoke of a stronger key exits 4 naming the missing scopes; of the last keys:write key exits 6 saying why', async () => {
    const org = await d.testApp.createOrg('locked-out-org')
    const { ctx, out } = as(org.ownerKey)
    await runKeysCreate({ name: 'key admin', permissions: ['keys:read', 'keys:write', 'links:read'] }, ctx)
    const admin = JSON.parse(out.text) as ApiKeyWithSecret
    const owner = (await d.testApp.app.linkd.services.keys.list(org.orgId, { search: 'owner' })).data[0]!

    const forbidden = await run(admin.key, 'keys', 'revoke', owner.id, '--yes')
    expect(forbidden.code).toBe(4)
    expect(forbidden.stderr).toMatch(
      /^error: this key lacks links:write, .*, team:write, safety:read, safety:write, exports:read, exports:write held by the target key \(HTTP 403\)\n$/,
    )
    expect(forbidden.stderr).not.toMatch(/ keys:write,/)

    const last = await run(org.ownerKey, 'keys', 'deactivate', admin.id, '--yes')
    expect(last.code, last.stderr).toBe(0)
    const conflict = await run(org.ownerKey, 'keys', 'revoke', owner.id, '--yes')
    expect(conflict.code).toBe(6)
    // The owner key is also the key in use: the warning first, then the daemon's refusal.
    expect(conflict.stderr).toMatch(
      /^WARNING: key_\w+ is the key linkctl is using [^\n]*\nerror: API key key_\w+ is the organization's last active API key with keys:write; revoking it would leave no key able to manage keys\. Create another key with keys:write first \(or, on the server, run: linkd keys create --org <organization>\) \(HTTP 409\)\n$/,
    )
  })
})
