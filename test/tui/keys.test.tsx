/** The Keys screen against the fake client: usage, the scope picker, the key shown once, revoke. */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { apiError, FakeClient } from './fake-client.js'
import { frameWith, KEY, press, renderTui } from './harness.js'

afterEach(() => cleanup())

describe('keys screen', () => {
  it('lists the keys with their usage and status', async () => {
    const app = renderTui({ initialScreen: 'keys' })
    const frame = await frameWith(app, '2 keys', 'key key_aaaa', 'ci bot')
    expect(frame).toMatch(/key key_aaaa\s+lk_•••aaaa\s+active\s+56\s+1234\s+never\s+links:read/)
    expect(frame).toMatch(/ci bot\s+lk_•••bbbb\s+inactive/)
  })

  it('creates a key: a preset, one more scope ticked, the value shown once with a copy hint', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'keys' })
    await frameWith(app, '2 keys')
    await press(app, 'n')
    await frameWith(app, 'New API key')
    await press(app, 'deploy bot', KEY.enter)
    await frameWith(app, 'preset read-only', '[x] links:read', '[ ] links:write')
    // The third row is the analytics-only preset; then links:read, links:write.
    await press(app, 'j', 'j', ' ')
    await frameWith(app, '[ ] links:read', 'create with 1 scope')
    await press(app, 'j', 'j', ' ', KEY.enter)
    const shown = await frameWith(app, 'lk_live_SECRETVALUE1234', 'shown only this once')
    expect(shown).toContain('Key "deploy bot" created with 2 scopes')
    expect(client.state.keys.at(-1)?.permissions).toEqual(['links:write', 'analytics:read'])
    await press(app, 'z')
    const list = await frameWith(app, '3 keys', 'deploy bot')
    expect(list).not.toContain('SECRETVALUE')
  })

  it('shows the API validation message of a refused create', async () => {
    const client = new FakeClient()
    client.failures.length = 0
    const app = renderTui({ client, initialScreen: 'keys' })
    await frameWith(app, '2 keys')
    await press(app, 'n', KEY.enter)
    await frameWith(app, 'preset read-only')
    client.failures.push(
      apiError(400, 'body/name must NOT have fewer than 1 characters', [
        { field: 'name', message: 'must NOT have fewer than 1 characters' },
      ]),
    )
    await press(app, KEY.enter)
    const refused = await frameWith(app, 'body/name must NOT have fewer than 1 characters (HTTP 400)')
    expect(refused).not.toContain('name: must NOT')
  })

  it('revokes after y, deactivates and activates; read-only keys cannot', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'keys' })
    await frameWith(app, '2 keys')
    await press(app, 'r')
    await frameWith(app, 'Revoke key key_aaaa (lk_•••aaaa)?', '[y/N]')
    await press(app, 'y')
    await frameWith(app, 'revoked key key_aaaa')
    expect(client.state.keys[0]?.status).toBe('revoked')
    await press(app, 'j', 'x')
    await frameWith(app, 'Activate ci bot')
    await press(app, 'y')
    await frameWith(app, 'activated ci bot')
    expect(client.state.keys[1]?.status).toBe('active')
    cleanup()
    const readOnly = renderTui({ initialScreen: 'keys', scopes: new Set(['keys:read']) })
    await frameWith(readOnly, '2 keys')
    await press(readOnly, 'r', 'n')
    const refused = await frameWith(readOnly, 'n (new key) needs the scope keys:write')
    expect(refused).not.toMatch(/Revoke|New API key/)
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
