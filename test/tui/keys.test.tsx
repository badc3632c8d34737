/**
 * The Keys screen: the list, its scopes and a key's activity against the fake client; the scope
 * picker, the key shown once, the daemon's refusal, revoke and activate against a real linkd.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { LinkdClient } from '../../src/client/index.js'
import { frameWith, KEY, press, renderTui } from './harness.js'
import { newOrg, renderOnDaemon, useDaemon } from './tui-daemon.js'

afterEach(() => cleanup())

describe('keys screen, rendering', () => {
  it('lists the keys with their usage and status', async () => {
    const app = renderTui({ initialScreen: 'keys' })
    const frame = await frameWith(app, '2 keys', 'key key_aaaa', 'ci bot')
    expect(frame).toMatch(/key key_aaaa\s+lk_•••aaaa\s+active\s+56\s+1234\s+never\s+links:read/)
    expect(frame).toMatch(/ci bot\s+lk_•••bbbb\s+inactive/)
  })

  it('a read-only key cannot revoke or create', async () => {
    const readOnly = renderTui({ initialScreen: 'keys', scopes: new Set(['keys:read']) })
    await frameWith(readOnly, '2 keys')
    await press(readOnly, 'r', 'n')
    const refused = await frameWith(readOnly, 'n (new key) needs the scope keys:write')
    expect(refused).not.toMatch(/Revoke|New API key/)
  })

  it('keys of one write act in order: a move then an action acts on the row moved to', async () => {
    const app = renderTui({ initialScreen: 'keys' })
    await frameWith(app, '2 keys')
    await press(app, 'jx')
    await frameWith(app, 'Activate ci bot (lk_•••bbbb)?')
    await press(app, 'n', 'kx')
    await frameWith(app, 'Deactivate key key_aaaa (lk_•••aaaa)?')
  })

  it('a shows the key’s latest requests', async () => {
    const app = renderTui({ initialScreen: 'keys' })
    await frameWith(app, '2 keys')
    await press(app, 'a')
    const frame = await frameWith(app, 'Activity of key key_aaaa (lk_•••aaaa) · 2 requests kept')
    expect(frame).toMatch(/GET\s+200\s+3\.5 ms\s+203\.0\.113\.9\s+FR\s+\/api\/use\/links/)
    expect(frame).toMatch(/POST\s+403\s+1\.2 ms\s+203\.0\.113\.9\s+Unknown\s+\/api\/keys \(Forbidden\)/)
    await press(app, KEY.escape)
    await frameWith(app, '2 keys · a activity')
  })
})

describe('keys screen against linkd', () => {
  const daemon = useDaemon()

  it('creates a key: a preset, one more scope ticked, the value shown once with a copy hint', async () => {
    const org = await newOrg(daemon())
    const app = renderOnDaemon(daemon(), org.ownerKey, { initialScreen: 'keys' })
    await frameWith(app, '1 key')
    await press(app, 'n')
    await frameWith(app, 'New API key')
    await press(app, 'deploy bot', KEY.enter)
    await frameWith(app, 'preset read-only', '[x] links:read', '[ ] links:write')
    // The third row is the analytics-only preset; then links:read, links:write.
    await press(app, 'j', 'j', ' ')
    await frameWith(app, '[ ] links:read', 'create with 1 scope')
    await press(app, 'j', 'j', ' ', KEY.enter)
    const shown = await frameWith(app, 'shown only this once')
    expect(shown).toContain('Key "deploy bot" created with 2 scopes')
    const secret = /lk_live_\w+/.exec(shown)?.[0]
    const made = (await org.api.keys.list()).data.find((k) => k.name === 'deploy bot')
    expect(made?.permissions.slice().sort()).toEqual(['analytics:read', 'links:write'])
    // The value shown is the key: the daemon takes it.
    expect((await new LinkdClient({ baseUrl: daemon().url, apiKey: secret }).keys.test(secret!)).valid).toBe(
      true,
    )
    await press(app, 'z')
    const list = await frameWith(app, '2 keys', 'deploy bot')
    expect(list).not.toContain(secret)
  })

  it('shows the API validation message of a refused create', async () => {
    const org = await newOrg(daemon())
    const app = renderOnDaemon(daemon(), org.ownerKey, { initialScreen: 'keys' })
    await frameWith(app, '1 key')
    // No name.
    await press(app, 'n', KEY.enter)
    await frameWith(app, 'preset read-only')
    await press(app, KEY.enter)
    const refused = await frameWith(app, 'name must be at least 1 character (and 1 more) (HTTP 400)')
    expect(refused).toContain('name: must have a visible character')
    expect(app.sent('keys.create')).toHaveLength(1)
    expect((await org.api.keys.list()).total).toBe(1)
  })

  it('revokes after y, activates an inactive key', async () => {
    const d = daemon()
    const org = await newOrg(d)
    // Newest first: web app, then ci bot, then the owner key (each a second apart: a tie in
    // creation time would order by id).
    d.clock.advance(1000)
    const ci = (await org.api.keys.create({ name: 'ci bot', preset: 'read-only' })).id
    await org.api.keys.deactivate(ci)
    d.clock.advance(1000)
    const web = (await org.api.keys.create({ name: 'web app', preset: 'read-only' })).id
    const app = renderOnDaemon(d, org.ownerKey, { initialScreen: 'keys' })
    await frameWith(app, '3 keys')
    await press(app, 'r')
    await frameWith(app, 'Revoke web app', '[y/N]')
    await press(app, 'y')
    await frameWith(app, 'revoked web app')
    await press(app, 'j', 'x')
    await frameWith(app, 'Activate ci bot')
    await press(app, 'y')
    await frameWith(app, 'activated ci bot')
    const status = async (id: string) => (await org.api.keys.list()).data.find((k) => k.id === id)?.status
    expect(await status(web)).toBe('revoked')
    expect(await status(ci)).toBe('active')
  })
})
