/**
 * The master-key check of an upgraded installation (no fingerprint recorded yet): a key is
 * recorded only once it opens one of the installation's sealed secrets, whichever kind it holds.
 * Runs on SQLite, and on PostgreSQL under LINKD_TEST_ENGINE=postgres.
 */
import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { createSecretBox, masterKeyFingerprint } from '../../../daemon/crypto.js'
import { matchesInstallationKey } from '../../../daemon/db/master-key.js'
import { count, createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import { createGame } from '../../support/gaming.js'

const masterKey = randomBytes(32)
const box = createSecretBox(masterKey)
let t: TestApp | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

/** Only this kind of sealed secret in the installation, as an upgrade from before 0040 finds it. */
const holdingOnly: Record<string, (t: TestApp) => Promise<void>> = {
  "a game's signing secret": async (t) => {
    await createGame(t)
  },
  'the ACME account key': async (t) => {
    await sqlRows(
      t,
      'INSERT INTO acme_accounts (directory_url, account_key_enc, account_url, created_at) VALUES (?, ?, ?, ?)',
      'https://acme.example/directory',
      box.encrypt('-----BEGIN PRIVATE KEY-----'),
      null,
      0,
    )
  },
  "a custom domain's TLS private key": async (t) => {
    const res = await t.call('POST', '/api/domains', { body: { domain: 'go.example.com' } })
    expect(res.statusCode, res.body).toBe(201)
    await sqlRows(t, 'UPDATE custom_domains SET cert_key_enc = ?', box.encrypt('-----BEGIN PRIVATE KEY-----'))
  },
  'a stored idempotent response': async (t) => {
    const res = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/once' },
      headers: { 'x-idempotency-key': 'once' },
    })
    expect(res.statusCode, res.body).toBe(201)
  },
}

describe('master key check on an installation upgraded to the fingerprint', () => {
  for (const [kind, seed] of Object.entries(holdingOnly))
    it(`holding only ${kind}: another key is refused and not recorded, the right one is`, async () => {
      t = await createTestApp({}, { masterKey })
      await seed(t)
      await sqlRows(t, 'DELETE FROM master_key_fingerprint')
      const other = randomBytes(32)
      const check = (key: Buffer) =>
        matchesInstallationKey(t!.db.kysely, masterKeyFingerprint(key), createSecretBox(key), t!.clock.now())
      expect(await check(other)).toBe(false)
      expect(await count(t, 'master_key_fingerprint')).toBe(0)
      expect(await check(masterKey)).toBe(true)
      expect(await check(other)).toBe(false)
      expect(await sqlRows(t, 'SELECT fingerprint FROM master_key_fingerprint')).toEqual([
        { fingerprint: masterKeyFingerprint(masterKey) },
      ])
    })

  it('holding no sealed secret, the first key given is recorded', async () => {
    t = await createTestApp({}, { masterKey })
    await sqlRows(t, 'DELETE FROM master_key_fingerprint')
    await sqlRows(t, 'DELETE FROM idempotency_records')
    const other = randomBytes(32)
    expect(
      await matchesInstallationKey(t.db.kysely, masterKeyFingerprint(other), createSecretBox(other), 0),
    ).toBe(true)
  })
})
