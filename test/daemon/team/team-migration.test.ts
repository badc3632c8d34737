/**
 * The teams migration on a database at version 19 holding two organizations and their keys: each
 * organization gets one `Owner` member (role owner) owning all of its keys, and the app then
 * answers for those keys as that member.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../../daemon/db/open.js'
import { loadMigrations, migrate } from '../../../daemon/db/migrate.js'
import { admin, onPostgres } from '../../support/postgres.js'
import { sqlRows } from '../../support/app.js'

let db: Db | undefined
let drop: (() => Promise<void>) | undefined
afterEach(async () => {
  await db?.close()
  await drop?.()
  db = undefined
  drop = undefined
})

/** An empty database of the engine under test. */
async function emptyDatabase(): Promise<Db> {
  if (!onPostgres) return openDatabase('sqlite::memory:')
  const server = process.env.LINKD_TEST_POSTGRES!
  const name = `t_mig_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
  await admin(server, `CREATE DATABASE ${name}`)
  drop = () => admin(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  return openDatabase(`${server}${name}`)
}

const key = (id: string, org: string) =>
  sqlRows(
    { db: db! },
    `INSERT INTO api_keys (id, organization_id, name, description, prefix, environment, key_hash, last_four,
       permissions, request_limit, time_period, allowed_ips, allowed_origins, expires_at, status, revoked_at,
       created_at, updated_at)
     VALUES (?, ?, ?, NULL, 'lk_', 'live', ?, 'abcd', '[]', 1000, 'hour', '[]', '[]', NULL, 'active', NULL, 1, 1)`,
    id,
    org,
    id,
    `hash_${id}`,
  )

describe('migration 0020 (teams)', () => {
  it('gives each existing organization one Owner member owning all of its keys', async () => {
    db = await emptyDatabase()
    const all = loadMigrations(db.dialect)
    await migrate(
      db,
      0,
      all.filter((m) => m.version <= 19),
    )
    for (const [id, name] of [
      ['org_a', 'alpha'],
      ['org_b', 'beta'],
    ])
      await sqlRows(
        { db },
        `INSERT INTO organizations (id, name, plan, created_at, updated_at) VALUES (?, ?, 'free', 5, 5)`,
        id,
        name,
      )
    await key('key_a1', 'org_a')
    await key('key_a2', 'org_a')
    await key('key_b1', 'org_b')
    expect(await migrate(db, 0, all)).toContain('0020_teams')

    const members = await sqlRows<{ id: string; organization_id: string; name: string; role: string }>(
      { db },
      'SELECT id, organization_id, name, role, removed_at FROM members ORDER BY organization_id',
    )
    expect(members.map((m) => [m.organization_id, m.name, m.role])).toEqual([
      ['org_a', 'Owner', 'owner'],
      ['org_b', 'Owner', 'owner'],
    ])
    expect(members.every((m) => m.id.startsWith('mem_'))).toBe(true)
    const keys = await sqlRows<{ id: string; member_id: string }>(
      { db },
      'SELECT id, member_id FROM api_keys ORDER BY id',
    )
    const memberOf = (org: string) => members.find((m) => m.organization_id === org)!.id
    expect(keys).toEqual([
      { id: 'key_a1', member_id: memberOf('org_a') },
      { id: 'key_a2', member_id: memberOf('org_a') },
      { id: 'key_b1', member_id: memberOf('org_b') },
    ])
  })
})

describe('migration 0029 (invitations of removed members)', () => {
  it('revokes the pending invitations sent by members removed before it, saying why; others stay', async () => {
    db = await emptyDatabase()
    const all = loadMigrations(db.dialect)
    await migrate(
      db,
      0,
      all.filter((m) => m.version <= 28),
    )
    await sqlRows(
      { db },
      `INSERT INTO organizations (id, name, plan, created_at, updated_at) VALUES ('org_a', 'alpha', 'free', 5, 5)`,
    )
    const member = (id: string, removedAt: number | null) =>
      sqlRows(
        { db: db! },
        `INSERT INTO members (id, organization_id, name, email, role, invited_by, joined_at, removed_at)
         VALUES (?, 'org_a', ?, NULL, 'admin', NULL, 1, ?)`,
        id,
        id,
        removedAt,
      )
    await member('mem_gone', 10)
    await member('mem_here', null)
    const invitation = (id: string, by: string, status: string) =>
      sqlRows(
        { db: db! },
        `INSERT INTO team_invitations (id, organization_id, email, role, token_hash, status, invited_by,
           expires_at, created_at, accepted_at, member_id)
         VALUES (?, 'org_a', ?, 'admin', ?, ?, ?, 999999999999999, 1, NULL, NULL)`,
        id,
        `${id}@example.com`,
        `hash_${id}`,
        status,
        by,
      )
    await invitation('inv_gone_pending', 'mem_gone', 'pending')
    await invitation('inv_gone_accepted', 'mem_gone', 'accepted')
    await invitation('inv_here_pending', 'mem_here', 'pending')
    expect(await migrate(db, 0, all)).toContain('0029_invitation_revoked_reason')
    const rows = await sqlRows<{ id: string; status: string; revoked_reason: string | null }>(
      { db },
      'SELECT id, status, revoked_reason FROM team_invitations ORDER BY id',
    )
    expect(rows).toEqual([
      { id: 'inv_gone_accepted', status: 'accepted', revoked_reason: null },
      { id: 'inv_gone_pending', status: 'revoked', revoked_reason: 'inviter_removed' },
      { id: 'inv_here_pending', status: 'pending', revoked_reason: null },
    ])
  })
})
