/**
 * Secrets at rest in stored idempotent responses: the first response of a
 * request sent with X-Idempotency-Key is kept 24 h for replay; its body (full API keys, webhook
 * secrets and header values, SDK keys, signing secrets) is sealed with the master key, and a
 * replay still returns exactly the same answer.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { LightMyRequestResponse } from 'fastify'
import { createTestApp, type TestApp } from '../../support/app.js'
import { expectError } from '../../support/responses.js'
import { openDatabase } from '../../../daemon/db/open.js'
import { loadMigrations, migrate } from '../../../daemon/db/migrate.js'

let t: TestApp
beforeEach(async () => {
  t = await createTestApp()
})
afterEach(() => t.close())

/** Every stored idempotency row, every column as text. */
const storedRows = async () =>
  (await t.db.kysely.selectFrom('idempotency_records').selectAll().execute()).map((r) =>
    Object.values(r).map(String).join('\u0000'),
  )

/** Sends the request twice with one idempotency key; checks the replay and returns the first answer. */
async function sentTwice(url: string, body: unknown): Promise<LightMyRequestResponse> {
  const headers = { 'x-idempotency-key': `secrets-${url}` }
  const first = await t.call('POST', url, { body, headers })
  expect(first.statusCode, first.body).toBe(201)
  expect(first.headers['idempotent-replayed']).toBeUndefined()
  const replay = await t.call('POST', url, { body, headers })
  expect(replay.statusCode).toBe(201)
  expect(replay.headers['idempotent-replayed']).toBe('true')
  expect(replay.headers['content-type']).toBe(first.headers['content-type'])
  expect(replay.body).toBe(first.body)
  return first
}

/** Asserts that none of `secrets` (nor a long piece of one) is readable in the stored rows. */
async function expectSealed(secrets: string[]): Promise<void> {
  const rows = await storedRows()
  expect(rows.length).toBeGreaterThan(0)
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThanOrEqual(16)
    for (const row of rows) {
      expect(row).not.toContain(secret)
      expect(row).not.toContain(secret.slice(-16))
    }
  }
}

describe('stored idempotent responses hold no readable secret', () => {
  it('POST /api/keys: the full key is not in the stored row; the replay returns it', async () => {
    const res = await sentTwice('/api/keys', { name: 'ci', preset: 'read-only' })
    const { key, id } = res.json<{ key: string; id: string }>()
    await expectSealed([key])
    // The row is still found by what it created (the GDPR purge and the like forget by it).
    expect(await t.db.kysely.selectFrom('idempotency_records').select('resource_id').execute()).toEqual([
      { resource_id: id },
    ])
  })

  it('POST /api/webhooks: neither the signing secret nor a custom header value is readable', async () => {
    const headerValue = 'Bearer hdr-9f2c41d7e0b35a68c1'
    const res = await sentTwice('/api/webhooks', {
      name: 'Orders',
      url: 'https://hooks.example.com/linkd',
      events: ['link.created'],
      headers: { 'X-Receiver-Token': headerValue },
    })
    const hook = res.json<{ secret: string; headers: Record<string, string> }>()
    expect(hook.headers['X-Receiver-Token'] ?? hook.headers['x-receiver-token']).toBe(headerValue)
    await expectSealed([hook.secret, headerValue])
  })

  it('POST /api/v1/admin/games: neither the SDK key nor the signing secret is readable', async () => {
    const res = await sentTwice('/api/v1/admin/games', { name: 'Space Cats', platform: 'ios' })
    const game = res.json<{ sdkKey: string; signingSecret: string }>()
    await expectSealed([game.sdkKey, game.signingSecret])
  })

  it('an empty 204 answer is replayed empty', async () => {
    const k = await t.createKey({ name: 'doomed' })
    const headers = { 'x-idempotency-key': 'delete-once' }
    expect((await t.call('DELETE', `/api/keys/${k.id}`, { headers })).statusCode).toBe(204)
    const replay = await t.call('DELETE', `/api/keys/${k.id}`, { headers })
    expect(replay.statusCode).toBe(204)
    expect(replay.body).toBe('')
    expect(replay.headers['idempotent-replayed']).toBe('true')
  })

  it('a stored body that does not open with the master key is refused, never run twice', async () => {
    const headers = { 'x-idempotency-key': 'tampered' }
    const first = await t.call('POST', '/api/keys', { body: { name: 'x' }, headers })
    expect(first.statusCode).toBe(201)
    // As after a change of master key: the sealed body no longer opens.
    await t.db.kysely.updateTable('idempotency_records').set({ body: 'v1.AAAA.BBBB.CCCC' }).execute()
    const again = await t.call('POST', '/api/keys', { body: { name: 'x' }, headers })
    const err = expectError(again, 409, 'Conflict')
    expect(err.message).toMatch(/X-Idempotency-Key/)
    expect((await t.call('GET', '/api/keys?search=x')).json().total).toBe(1)
  })
})

describe('migration 0007', () => {
  it('drops the plain-text responses stored before it and adds the resource_id column', async () => {
    const db = openDatabase('sqlite::memory:')
    try {
      await migrate(
        db,
        0,
        loadMigrations().filter((m) => m.version < 7),
      )
      db.sqlite
        .prepare(
          'INSERT INTO idempotency_records (owner, idem_key, request_hash, status_code, content_type, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run('key_1', 'k', 'h', 201, 'application/json', '{"id":"key_2","key":"lk_live_plain"}', 1)
      expect(await migrate(db, 0)).toContain('0007_idempotency_sealed')
      expect(db.sqlite.prepare('SELECT * FROM idempotency_records').all()).toEqual([])
      const cols = (
        db.sqlite.prepare('PRAGMA table_info(idempotency_records)').all() as { name: string }[]
      ).map((c) => c.name)
      expect(cols).toContain('resource_id')
    } finally {
      void db.close()
    }
  })
})
