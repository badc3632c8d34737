import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { runLogin } from '../../src/cli/commands/auth.js'
import { cli, OWNER_KEY, page, stubServer, tempDir, testCtx, validKeyTest } from '../support/cli.js'

type Stub = Awaited<ReturnType<typeof stubServer>>
const KEY_A = `lk_live_${'a'.repeat(32)}`
const KEY_B = `lk_live_${'b'.repeat(32)}`
const KEY_C = `lk_live_${'c'.repeat(32)}`
const BAD_KEY = `lk_live_${'x'.repeat(32)}`

/** A daemon stand-in that accepts every key but BAD_KEY and answers GET /api/keys. */
function daemon(): Promise<Stub> {
  return stubServer({
    'POST /api/keys/test': (req) =>
      (req.body as { key?: string }).key === BAD_KEY
        ? { status: 200, body: { valid: false, reason: 'revoked' } }
        : { status: 200, body: validKeyTest() },
    'GET /api/keys': () => ({ status: 200, body: page([]) }),
  })
}

const authOf = (s: Stub) => s.requests.at(-1)?.headers.authorization

describe('login, logout and profiles', () => {
  let stub: Stub
  let cfg: ReturnType<typeof tempDir>
  beforeAll(async () => (stub = await daemon()))
  afterAll(() => stub.close())
  beforeEach(() => (cfg = tempDir()))
  afterEach(() => cfg.remove())
  const env = () => ({ LINKCTL_CONFIG_DIR: cfg.dir })

  it('saves the profile in a 0600 config file and makes it current', async () => {
    const r = await cli(['login', '--url', stub.url, '--api-key', KEY_A, '--profile', 'work'], { env: env() })
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/Logged in to .* as owner .*profile "work" is now current/)
    expect(r.stderr).not.toContain(KEY_A)
    const file = join(cfg.dir, 'config.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      currentProfile: 'work',
      profiles: { work: { url: stub.url, apiKey: KEY_A } },
    })
    expect(stub.requests.at(-1)).toMatchObject({ url: '/api/keys/test', body: { key: KEY_A } })
    expect(authOf(stub)).toBeUndefined()
  })

  it('keeps profiles under XDG_CONFIG_HOME when set (LINKCTL_CONFIG_DIR still wins), and says where', async () => {
    // The test helper sets LINKCTL_CONFIG_DIR; empty is unset.
    const xdg = join(cfg.dir, 'xdg')
    const r = await cli(['login', '--url', stub.url, '--api-key', KEY_A], {
      env: { XDG_CONFIG_HOME: xdg, LINKCTL_CONFIG_DIR: '' },
    })
    expect(r.code, r.stderr).toBe(0)
    const file = join(xdg, 'linkctl-nodejs', 'config.json')
    expect(r.stderr).toContain(`(saved in ${file})`)
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual({ url: stub.url, apiKey: KEY_A })
    const listed = await cli(['profile', 'list'], { env: { XDG_CONFIG_HOME: xdg, LINKCTL_CONFIG_DIR: '' } })
    expect(listed.stdout).toContain(`default\t${stub.url}`)
    const override = await cli(['profile', 'list'], { env: { XDG_CONFIG_HOME: xdg, ...env() } })
    expect(override.stdout).not.toContain(stub.url)
  })

  it('refuses an invalid key with exit 4 and saves nothing', async () => {
    const r = await cli(['login', '--url', stub.url, '--api-key', BAD_KEY], { env: env() })
    expect(r.code).toBe(4)
    expect(r.stderr).toBe('error: the key is not valid (revoked); nothing saved\n')
    const list = await cli(['profile', 'list', '--json'], { env: env() })
    expect(JSON.parse(list.stdout)).toEqual([])
  })

  it('prompts for the key on a terminal', async () => {
    const asked: string[] = []
    const { ctx } = testCtx({
      env: env(),
      flags: { url: stub.url },
      allowNewProfile: true,
      canPrompt: true,
      prompt: {
        secret: (q) => (asked.push(q), Promise.resolve(KEY_B)),
        confirm: () => Promise.resolve(false),
      },
    })
    await runLogin({}, ctx)
    expect(asked).toEqual([`API key for ${stub.url}: `])
    expect((await ctx.store()).get('default')).toEqual({ url: stub.url, apiKey: KEY_B })
  })

  it('profile list masks keys; profile use switches; logout forgets the key only', async () => {
    await cli(['login', '--url', stub.url, '--api-key', KEY_A, '--profile', 'a'], { env: env() })
    await cli(['login', '--url', stub.url, '--api-key', KEY_B, '--profile', 'b'], { env: env() })
    const list = await cli(['profile', 'list'], { env: env() })
    expect(list.stdout).toBe(
      `CURRENT\tNAME\tURL\tKEY\n\ta\t${stub.url}\tlk_•••aaaa\n*\tb\t${stub.url}\tlk_•••bbbb\n`,
    )
    expect((await cli(['profile', 'use', 'a'], { env: env() })).code).toBe(0)
    const json = JSON.parse((await cli(['profile', 'list', '--json'], { env: env() })).stdout) as unknown[]
    expect(json).toEqual([
      { name: 'a', url: stub.url, apiKey: 'lk_•••aaaa', current: true },
      { name: 'b', url: stub.url, apiKey: 'lk_•••bbbb', current: false },
    ])
    const missing = await cli(['profile', 'use', 'nope'], { env: env() })
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringMatching(/no profile named "nope"/)])

    expect((await cli(['logout'], { env: env() })).stderr).toMatch(/removed the key of profile "a"/)
    const after = JSON.parse(readFileSync(join(cfg.dir, 'config.json'), 'utf8')) as { profiles: object }
    expect(after.profiles).toEqual({ a: { url: stub.url }, b: { url: stub.url, apiKey: KEY_B } })
    expect(statSync(join(cfg.dir, 'config.json')).mode & 0o777).toBe(0o600)
    const noKey = await cli(['keys', 'list'], { env: env() })
    expect(noKey.code).toBe(4)
  })
})

describe('option precedence: flag > env > profile > default', () => {
  let viaProfile: Stub, viaEnv: Stub, viaFlag: Stub, other: Stub
  let cfg: ReturnType<typeof tempDir>
  beforeAll(async () => {
    ;[viaProfile, viaEnv, viaFlag, other] = await Promise.all([daemon(), daemon(), daemon(), daemon()])
    cfg = tempDir()
    const env = { LINKCTL_CONFIG_DIR: cfg.dir }
    await cli(['login', '--url', other.url, '--api-key', KEY_C, '--profile', 'other'], { env })
    await cli(['login', '--url', viaProfile.url, '--api-key', KEY_A], { env })
  })
  afterAll(async () => {
    cfg.remove()
    await Promise.all([viaProfile, viaEnv, viaFlag, other].map((s) => s.close()))
  })

  const list = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
    cli(['keys', 'list', ...argv], { env: { LINKCTL_CONFIG_DIR: cfg.dir, ...env } })

  it('uses the current profile when nothing else is given', async () => {
    expect((await list([])).code).toBe(0)
    expect(authOf(viaProfile)).toBe(`Bearer ${KEY_A}`)
  })

  it('env beats the profile', async () => {
    expect((await list([], { LINKCTL_URL: viaEnv.url, LINKCTL_API_KEY: KEY_B })).code).toBe(0)
    expect(authOf(viaEnv)).toBe(`Bearer ${KEY_B}`)
  })

  it('flags beat env', async () => {
    const r = await list(['--url', viaFlag.url, '--api-key', OWNER_KEY], {
      LINKCTL_URL: viaEnv.url,
      LINKCTL_API_KEY: KEY_B,
    })
    expect(r.code).toBe(0)
    expect(authOf(viaFlag)).toBe(`Bearer ${OWNER_KEY}`)
  })

  it('each setting is resolved on its own (env url, profile key)', async () => {
    const before = viaEnv.requests.length
    expect((await list([], { LINKCTL_URL: viaEnv.url })).code).toBe(0)
    expect(viaEnv.requests.length).toBe(before + 1)
    expect(authOf(viaEnv)).toBe(`Bearer ${KEY_A}`)
  })

  it('LINKCTL_PROFILE picks another profile, and --profile beats it', async () => {
    expect((await list([], { LINKCTL_PROFILE: 'other' })).code).toBe(0)
    expect(authOf(other)).toBe(`Bearer ${KEY_C}`)
    const before = viaProfile.requests.length
    expect((await list(['--profile', 'default'], { LINKCTL_PROFILE: 'other' })).code).toBe(0)
    expect(viaProfile.requests.length).toBe(before + 1)
  })

  it('an unknown explicit profile is an error; the sources are reported', async () => {
    const r = await list(['--profile', 'ghost'])
    expect([r.code, r.stderr]).toEqual([1, expect.stringMatching(/no profile named "ghost"/)])
    const { ctx } = testCtx({
      env: { LINKCTL_CONFIG_DIR: cfg.dir, LINKCTL_API_KEY: KEY_B },
      flags: { url: viaFlag.url },
    })
    expect(await ctx.target()).toEqual({
      url: viaFlag.url,
      apiKey: KEY_B,
      profile: 'default',
      sources: { url: 'flag', apiKey: 'env', profile: 'none' },
    })
  })

  it('falls back to http://127.0.0.1:8080 without any setting', async () => {
    const empty = tempDir()
    const { ctx } = testCtx({ env: { LINKCTL_CONFIG_DIR: empty.dir } })
    expect(await ctx.target()).toMatchObject({
      url: 'http://127.0.0.1:8080',
      apiKey: undefined,
      profile: 'default',
    })
    empty.remove()
  })
})
