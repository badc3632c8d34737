/**
 * The last-key guard under concurrency: two keys holding every scope revoke each other at the
 * same moment. Exactly one revoke may pass; the other is the documented 409, so the organization
 * keeps one usable key. On PostgreSQL two apps (processes) on one database race; on SQLite one
 * app, whose single connection runs one transaction at a time (a single writer).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { onPostgres } from '../../support/postgres.js'
import { createSharedApps, type SharedApps } from '../../support/shared-database.js'
import { expectError } from '../../support/responses.js'
import type { TestApp } from '../../support/app.js'

const revoke = (t: TestApp, id: string, key: string) => t.call('POST', `/api/keys/${id}/revoke`, { key })
const ownerId = async (t: TestApp): Promise<string> =>
  (await t.call('GET', '/api/keys?search=owner')).json<{ data: { id: string }[] }>().data[0]!.id

let shared: SharedApps
afterEach(() => shared.close())

const ROUNDS = 15

describe('two full keys revoking each other at once', () => {
  it(`exactly one revoke passes, the other is 409, in each of ${ROUNDS} rounds`, async () => {
    shared = await createSharedApps(onPostgres ? 2 : 1)
    const a = shared.apps[0]!
    const b = shared.apps[1] ?? a
    let guarded = 0
    let current = { id: await ownerId(a), key: a.ownerKey }
    for (let round = 0; round < ROUNDS; round++) {
      const one = await a.createKey({ name: `one-${round}`, preset: 'full' }, current.key)
      const two = await a.createKey({ name: `two-${round}`, preset: 'full' }, current.key)
      // Now these two are the organization's only active keys.
      expect((await revoke(a, current.id, one.key)).statusCode).toBe(200)
      const [byOne, byTwo] = await Promise.all([revoke(a, two.id, one.key), revoke(b, one.id, two.key)])
      // The loser met the guard (409), or, when the winner committed before it was even
      // authenticated, its key was already revoked (401). Never both 200.
      const [won, lost] = byOne.statusCode === 200 ? [byOne, byTwo] : [byTwo, byOne]
      expect([won.statusCode, lost.statusCode], `round ${round}`).toSatisfy(
        ([w, l]: number[]) => w === 200 && (l === 409 || l === 401),
      )
      if (lost.statusCode === 409) {
        guarded++
        expect(expectError(lost, 409, 'Conflict').message).toContain('last active API key with keys:write')
      }
      // The survivor still works and is the organization's one active key.
      current = byOne.statusCode === 200 ? one : two
      const active = await a.call('GET', '/api/keys?status=active', { key: current.key })
      expect(active.statusCode).toBe(200)
      expect(active.json<{ data: { id: string }[] }>().data.map((k) => k.id)).toEqual([current.id])
    }
    // The two revokes met inside the guard in most rounds (both authenticated before either wrote).
    expect(guarded).toBeGreaterThan(0)
  })
})
