/**
 * `--expires-at never` (keys and links, create and update) through the real linkctl against a
 * real daemon: commander turns a parser's null into '', which was sent as `"expiresAt": ""`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { cli } from '../support/cli.js'

let d: TestDaemon
beforeAll(async () => {
  d = await startTestDaemon()
})
afterAll(() => d.close())

const run = async (...argv: string[]) => {
  const r = await cli([...argv, '--json'], { env: { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey } })
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as { id: string; expiresAt: string | null }
}

describe('--expires-at never', () => {
  it('keys: create without an expiry, and update removes one', async () => {
    expect(
      (await run('keys', 'create', '--name', 'n', '--preset', 'full', '--expires-at', 'never')).expiresAt,
    ).toBe(null)
    const k = await run('keys', 'create', '--name', 'm', '--preset', 'full', '--expires-at', '30d')
    expect(k.expiresAt).not.toBe(null)
    expect((await run('keys', 'update', k.id, '--expires-at', 'never')).expiresAt).toBe(null)
  })

  it('links: create without an expiry, and update removes one', async () => {
    expect((await run('links', 'create', 'https://example.com/a', '--expires-at', 'never')).expiresAt).toBe(
      null,
    )
    const l = await run('links', 'create', 'https://example.com/b', '--expires-at', '30d')
    expect(l.expiresAt).not.toBe(null)
    expect((await run('links', 'update', l.id, '--expires-at', 'never')).expiresAt).toBe(null)
  })
})
