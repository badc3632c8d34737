/** The TUI's frame: tabs, keys between screens, help, scopes, errors in place, the error boundary. */
import { Text, useInput } from 'ink'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import type { ScreenDef } from '../../src/tui/context.js'
import { retryDelayMs, troubleOf, validationLines } from '../../src/tui/api.js'
import { cli, OWNER_KEY, sampleKey, stubServer } from '../support/cli.js'
import { whoAmI } from '../../src/tui/run.js'
import { apiError, FakeClient, unreachable } from './fake-client.js'
import { makeMember } from './fake-team.js'
import { frameWith, frameWhere, KEY, press, renderTui, resize } from './harness.js'

afterEach(() => cleanup())

function Echo(props: { name: string; active: boolean }) {
  useInput((input) => void (input === 'x' ? ((globalThis as { lastX?: string }).lastX = props.name) : 0), {
    isActive: props.active,
  })
  return <Text>{`screen ${props.name} body`}</Text>
}
const fakeScreen = (id: string, scope: string | null): ScreenDef => ({
  id,
  title: id.toUpperCase(),
  scope,
  keys: [{ keys: 'x', does: `the x of ${id}` }],
  render: (p) => <Echo name={id} active={p.active} />,
})
const THREE = [fakeScreen('one', null), fakeScreen('two', 'links:read'), fakeScreen('three', 'keys:write')]

describe('tui shell', () => {
  it('moves between screens with Tab, Shift-Tab and number keys', async () => {
    const app = renderTui({ screens: THREE })
    await frameWith(app, ' 1 ONE ', ' 2 TWO ', ' 3 THREE', 'screen one body')
    await press(app, KEY.tab)
    await frameWith(app, 'screen two body')
    await press(app, KEY.shiftTab, KEY.shiftTab)
    await frameWith(app, 'screen three body')
    await press(app, '1')
    await frameWith(app, 'screen one body')
  })

  it('? shows every key of the current screen and the global ones; any key closes it', async () => {
    const app = renderTui({ screens: THREE })
    await press(app, '2', '?')
    const help = await frameWith(app, 'Keys of TWO')
    expect(help).toContain('the x of two')
    expect(help).not.toContain('the x of one')
    for (const k of ['Tab / Shift-Tab', '1-9', 'q / Ctrl-C', '?', 'Ctrl-L']) expect(help).toContain(k)
    expect(help).not.toContain('screen two body')
    await press(app, 'z')
    await frameWith(app, 'screen two body')
  })

  it('Ctrl-L asks for a whole redraw, on a screen and over the help', async () => {
    let redraws = 0
    const app = renderTui({ screens: THREE, redraw: () => void redraws++ })
    await frameWith(app, 'screen one body')
    await press(app, '\x0c')
    expect(redraws).toBe(1)
    await press(app, '?', '\x0c')
    expect(redraws).toBe(2)
    // The key redraws; it neither closes the help nor moves anywhere.
    await frameWith(app, 'Keys of ONE')
  })

  it('a screen the key lacks the scope of says which scope it needs', async () => {
    const app = renderTui({ screens: THREE, scopes: new Set(['links:read']) })
    await press(app, '3')
    const frame = await frameWith(app, 'THREE needs the scope keys:write')
    expect(frame).toContain('Its scopes: links:read')
    expect(frame).not.toContain('screen three body')
    await press(app, '2')
    await frameWith(app, 'screen two body')
  })

  it('the command it suggests for a key with that scope is one linkctl runs', async () => {
    const app = renderTui({ initialScreen: 'webhooks', scopes: new Set(['links:read']) })
    const frame = await frameWith(app, 'Webhooks needs the scope webhooks:read')
    const advice = /A key with it: linkctl (.+)$/m.exec(frame)?.[1]
    expect(advice).toBeDefined()
    const stub = await stubServer({
      'POST /api/keys': (req) => ({ status: 201, body: { ...sampleKey(req.body as never), key: OWNER_KEY } }),
    })
    try {
      const run = await cli(advice!.trim().split(/ +/), {
        env: { LINKCTL_URL: stub.url, LINKCTL_API_KEY: OWNER_KEY },
      })
      expect(run.stderr).not.toContain('error')
      expect(run.code).toBe(0)
      expect(stub.requests.map((r) => r.body)).toEqual([
        expect.objectContaining({ permissions: ['webhooks:read'] }),
      ])
    } finally {
      await stub.close()
    }
  })

  it('with an unusable key, a screen says why the key fails instead of naming a scope', async () => {
    const problem = 'The key lk_•••efgh is not valid (revoked): run linkctl login'
    const app = renderTui({ screens: THREE, scopes: new Set(), keyProblem: problem })
    await press(app, '3')
    const frame = await frameWith(app, problem)
    expect(frame).not.toContain('needs the scope')
    expect(frame).not.toContain('screen three body')
  })

  it('a screen that throws while rendering shows the error; the others still work', async () => {
    const broken: ScreenDef = {
      ...fakeScreen('boom', null),
      render: () => {
        throw new Error('kaboom')
      },
    }
    const app = renderTui({ screens: [fakeScreen('one', null), broken] })
    await press(app, '2')
    await frameWith(app, 'This screen failed: kaboom')
    await press(app, '1')
    await frameWith(app, 'screen one body')
  })

  it('lays out within 80x24 and follows a resize', async () => {
    const app = renderTui({ screens: THREE })
    const stdout = app.stdout as unknown as { columns: number; rows?: number; emit(e: string): void }
    Object.defineProperty(stdout, 'columns', { value: 80, configurable: true })
    Object.defineProperty(stdout, 'rows', { value: 24, configurable: true })
    stdout.emit('resize')
    const frame = await frameWith(app, 'screen one body')
    const lines = frame.split('\n')
    expect(lines.length).toBeLessThanOrEqual(24)
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80)
    Object.defineProperty(stdout, 'rows', { value: 12, configurable: true })
    stdout.emit('resize')
    await frameWhere(app, (f) => f.split('\n').length <= 12, 'frame of 12 lines')
  })

  it('at 80 columns the status line cuts the identity, never its keys (? help · q quit)', async () => {
    const identity = 'Owner (owner) · owner (lk_•••nxJJ) · default · http://127.0.0.1:18777'
    const app = renderTui({ screens: THREE, identity })
    resize(app, 80, 24)
    const lastLine = (f: string) => f.split('\n').at(-1) ?? ''
    const frame = await frameWhere(app, (f) => lastLine(f).length <= 80, 'status line within 80 columns')
    const status = lastLine(frame)
    expect(status).toMatch(/^Owner \(owner\) · owner \(lk_•••nxJJ\) · default · http.*… {2}\? help · q quit$/)
    // Wide enough, the identity is whole.
    resize(app, 140, 24)
    await frameWith(app, `${identity}  ? help · q quit`)
  })

  it('at 50 columns the tab bar is one line (numbers, the current title) and list rows are cut', async () => {
    const app = renderTui({ initialScreen: 'links' })
    resize(app, 50, 20)
    const frame = await frameWith(app, '30 links', '1 of 30')
    const lines = frame.split('\n')
    expect(lines[0]).toMatch(/^ 1 +2 Links +3 +4 +5 +6 +7 +8 +9 +10 *$/)
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(50)
    // Each link on one line, cut at the edge: none wraps onto a line of its own.
    const rows = lines.filter((l) => /^c\d+ /.test(l))
    expect(rows.length).toBeGreaterThanOrEqual(10)
    expect(lines.filter((l) => /Link number|example/.test(l))).toHaveLength(rows.length)
    resize(app, 120, 20)
    expect((await frameWith(app, ' 9 GDPR')).split('\n')[0]).toContain(' 1 Home  2 Links  3 Keys ')
  })
})

describe('refreshes on the app clock', () => {
  it('a refresh asks again for what is shown, once per poll; nothing while the clock stands still', async () => {
    const app = renderTui({ initialScreen: 'links', refreshSeconds: 5 })
    await frameWith(app, '30 links')
    const lists = () => app.client.calls.filter((c) => c.startsWith('links.list')).length
    expect(lists()).toBe(1)
    await press(app, 'j', 'j')
    app.clock.advance(4_999)
    expect(lists()).toBe(1)
    app.clock.advance(1)
    expect(lists()).toBe(2)
    // Once that answer is in (a page still loading is not asked for twice).
    await new Promise((r) => setImmediate(r))
    app.clock.advance(5_000)
    expect(lists()).toBe(3)
    // Another screen: the links are no longer asked for; Keys is, on the same interval.
    await press(app, '3')
    await frameWith(app, '2 keys')
    const keys = () => app.client.calls.filter((c) => c.startsWith('keys.list')).length
    expect(keys()).toBe(1)
    await new Promise((r) => setImmediate(r))
    app.clock.advance(5_000)
    expect(lists()).toBe(3)
    expect(keys()).toBe(2)
  })
})

describe('errors in place', () => {
  it('an unreachable daemon shows a status line, then the data once it answers', async () => {
    const client = new FakeClient()
    client.failures.push(unreachable())
    const app = renderTui({ client })
    const frame = await frameWith(app, 'daemon unreachable (retrying in 1s)')
    expect(frame).toContain('cannot reach linkd')
    // Nothing again before the second is up.
    const asked = client.calls.length
    app.clock.advance(999)
    expect(client.calls.length).toBe(asked)
    app.clock.advance(1)
    await frameWith(app, 'linkd 9.8.7')
    expect(app.lastFrame()).not.toContain('daemon unreachable')
  })

  it('a 429 waits as long as Retry-After says; a 401 says the key was refused', async () => {
    const client = new FakeClient()
    client.failures.push(apiError(429, 'Too many requests', undefined, 2))
    const app = renderTui({ client })
    await frameWith(app, '429 (retrying in 2s): rate limited: Too many requests')
    const asked = client.calls.length
    app.clock.advance(1999)
    expect(client.calls.length).toBe(asked)
    app.clock.advance(1)
    await frameWith(app, 'linkd 9.8.7')
    cleanup()
    const refused = new FakeClient()
    refused.failures.push(apiError(401, 'API key revoked'))
    const again = renderTui({ client: refused })
    await frameWith(again, '✗ auth (not retried): key refused: API key revoked')
  })

  it('a refused key is said once, whole at 80 columns, and not asked again until the screen is shown again', async () => {
    const client = new FakeClient()
    client.failures.push(apiError(401, 'the API key has been revoked'))
    const app = renderTui({ client })
    resize(app, 80, 24)
    await frameWhere(
      app,
      (f) => /^✗ auth \(not retried\): key refused: the API key has been revoked$/m.test(f),
      'the refusal whole',
    )
    const asked = client.calls.length
    for (let i = 0; i < 5; i++) app.clock.advance(30_000)
    await new Promise((r) => setImmediate(r))
    expect(client.calls.length).toBe(asked)
    // The user acts (another screen, then Home again): asked again, and it answers.
    await press(app, '3')
    await frameWith(app, '2 keys')
    await press(app, '1')
    await frameWith(app, 'linkd 9.8.7')
    expect(app.lastFrame()).not.toContain('✗')
  })

  it('a list page refused for good is not fetched again until r; a 5xx one after its backoff', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'links' })
    await frameWith(app, '30 links')
    const lists = () => client.calls.filter((c) => c.startsWith('links.list')).length
    client.failures.push(apiError(404, 'Organization not found'))
    app.refresh()
    await frameWith(app, '✗ error (not retried): Organization not found (HTTP 404)')
    const asked = lists()
    for (let i = 0; i < 5; i++) {
      app.refresh()
      await press(app, 'j')
    }
    expect(lists()).toBe(asked)
    await press(app, 'r')
    await frameWhere(app, (f) => f.includes('30 links') && !f.includes('✗'), 'the list read again')
    expect(lists()).toBe(asked + 1)
    cleanup()

    // A 5xx on the first page: retried once its second is up, not at every render meanwhile.
    const flaky = new FakeClient()
    flaky.failures.push(apiError(500, 'database is busy'))
    const again = renderTui({ client: flaky, initialScreen: 'links' })
    await frameWith(again, '✗ error (retrying in 1s): database is busy (HTTP 500)')
    await press(again, 'j', 'j')
    const flakyLists = () => flaky.calls.filter((c) => c.startsWith('links.list')).length
    expect(flakyLists()).toBe(1)
    again.clock.advance(999)
    expect(flakyLists()).toBe(1)
    again.clock.advance(1)
    await frameWith(again, '30 links')
    expect(flakyLists()).toBe(2)
  })

  it('backs off 1 s, 2 s, 4 s … up to 30 s, and honours Retry-After', () => {
    const down = troubleOf(unreachable())
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => retryDelayMs(n, down))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ])
    expect(retryDelayMs(1, troubleOf(apiError(429, 'slow down', undefined, 7)))).toBe(7000)
    // A key's window ends later than 30 s: trying before it only meets another 429.
    expect(retryDelayMs(1, troubleOf(apiError(429, 'slow down', undefined, 600)))).toBe(600_000)
  })

  it('a 429 with a long Retry-After says that wait on the status line, and keeps it', async () => {
    const client = new FakeClient()
    const message = 'rate limit exceeded; retry after 600 s'
    client.failures.push(apiError(429, message, undefined, 600))
    const app = renderTui({ client })
    await frameWith(app, `429 (retrying in 10m 0s): rate limited: ${message}`)
    const asked = client.calls.length
    app.clock.advance(599_999)
    expect(client.calls.length).toBe(asked)
    app.clock.advance(1)
    await frameWith(app, 'linkd 9.8.7')
  })

  it("an error quoting another server's status says one status, that one", () => {
    const store = 'the export failed: NoSuchBucket: The specified bucket does not exist (HTTP 404)'
    expect(troubleOf(apiError(503, store)).message).toBe(store)
  })

  it('a refused write lists each field problem once, under the message', () => {
    const err = apiError(400, 'rules.0.conditions is required (and 2 more)', [
      { field: 'rules.0.conditions', message: 'is required' },
      { field: 'rules.0.destinationUrl', message: 'is required' },
      { field: 'rules.0.to', message: 'is not a known field' },
    ])
    expect(validationLines(err)).toEqual([
      'rules.0.conditions is required (and 2 more) (HTTP 400)',
      'rules.0.destinationUrl: is required',
      'rules.0.to: is not a known field',
    ])
  })
})

describe("the key's scopes, read again when they matter", () => {
  const URL = 'http://127.0.0.1:8080'
  /** What GET /api/team/me answers for Bo, with the role and the scopes within it. */
  const bo = (role: 'viewer' | 'member', effective: string[]) => ({
    member: makeMember('mem_bo', 'Bo', role),
    key: { id: 'key_aaaa', name: 'fake', preview: 'lk_•••aaaa' },
    organization: { id: 'org_1', name: 'Org', plan: 'pro' },
    permissions: ['links:read', 'links:write', 'keys:read', 'keys:write'],
    effectivePermissions: effective,
  })
  /** The TUI as linkctl tui starts it: the scopes learnt once, and the way to learn them again. */
  async function started(client: FakeClient, opts: Parameters<typeof renderTui>[0] = {}) {
    const who = await whoAmI(client, URL, 'lk_live_abcdefgh')
    return renderTui({
      client,
      scopes: who.scopes,
      identity: who.identity,
      relearn: () => whoAmI(client, URL, 'lk_live_abcdefgh'),
      ...opts,
    })
  }

  it('a screen that needed a scope shows once a refresh finds the member promoted; the status line names the new role', async () => {
    const client = new FakeClient()
    client.teamData.whoami = bo('viewer', ['links:read'])
    const app = await started(client, { screens: THREE })
    await press(app, '3')
    await frameWith(app, 'THREE needs the scope keys:write', 'Bo (viewer)')
    client.teamData.whoami = bo('member', ['links:read', 'keys:write'])
    app.refresh()
    const frame = await frameWith(app, 'screen three body', "this key's scopes changed: now with keys:write")
    expect(frame).not.toContain('needs the scope')
    await press(app, '1')
    await frameWith(app, 'Bo (member) · fake (lk_•••aaaa) · Org')
  })

  it('at 80 columns the rate-limit note stays on the status line, beside the identity and beside a message', async () => {
    const client = new FakeClient()
    client.teamData.whoami = bo('viewer', ['links:read'])
    const app = await started(client, { screens: THREE, refreshNote: "refresh 7s (key's rate limit)" })
    resize(app, 80, 24)
    const lastLine = (f: string) => f.split('\n').at(-1) ?? ''
    await press(app, '3')
    const before = await frameWith(app, 'THREE needs the scope keys:write')
    expect(lastLine(before)).toMatch(
      /^Bo \(viewer\) .*… · refresh 7s \(key's rate limit\) {2}\? help · q quit$/,
    )
    client.teamData.whoami = bo('member', ['links:read', 'keys:write'])
    app.refresh()
    const after = await frameWith(app, 'screen three body')
    expect(lastLine(after)).toBe(
      "this key's scopes changed: now with keys:write · refresh 7s (key's rate limit)",
    )
  })

  it('an action refused for a scope reads the scopes again: pressed again after a promotion, it works', async () => {
    const client = new FakeClient()
    client.teamData.whoami = bo('viewer', ['links:read'])
    const app = await started(client, { initialScreen: 'links' })
    await frameWith(app, '30 links')
    // Promoted while the TUI runs: the first press meets the scopes learnt at the start.
    client.teamData.whoami = bo('member', ['links:read', 'links:write'])
    await press(app, 'n')
    // Refused (that message is replaced as soon as the scopes are read again).
    await frameWith(app, "this key's scopes changed: now with links:write")
    await press(app, 'n')
    await frameWith(app, 'New link')
  })

  it('a screen refused by the daemon (403) reads the scopes again and says which one the key lost', async () => {
    const client = new FakeClient()
    client.teamData.whoami = bo('member', ['links:read', 'keys:read'])
    const app = await started(client, { initialScreen: 'keys' })
    await frameWith(app, '2 keys')
    client.teamData.whoami = bo('viewer', ['links:read'])
    client.failures.push(apiError(403, 'this key lacks the scope keys:read'))
    app.refresh()
    await frameWith(app, 'Keys needs the scope keys:read', "this key's scopes changed: without keys:read")
  })

  it('scopes that cannot be read again (no answer) leave what was learnt', async () => {
    const client = new FakeClient()
    client.teamData.whoami = bo('viewer', ['links:read'])
    const app = await started(client, { screens: THREE })
    await press(app, '3')
    await frameWith(app, 'THREE needs the scope keys:write')
    const asked = client.calls.filter((c) => c === 'keys.test').length
    client.failures.push(unreachable())
    app.refresh()
    await frameWhere(app, () => client.calls.filter((c) => c === 'keys.test').length > asked, 'a key test')
    await new Promise((r) => setImmediate(r))
    expect(app.lastFrame()).toContain('THREE needs the scope keys:write')
  })
})
