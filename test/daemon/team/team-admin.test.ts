/**
 * The offline side of teams: `linkd init` / `linkd org create` make the organization's Owner
 * member and give it the owner key; `linkd keys create --org` gives the recovery key to the first
 * owner; `linkd members list --org [--json]` lists the members.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig, type Config } from '../../../daemon/config.js'
import { openDatabase } from '../../../daemon/db/open.js'
import {
  initCommand,
  keysCreateCommand,
  membersListCommand,
  orgCreateCommand,
} from '../../../daemon/admin/commands.js'
import { adminContext } from '../../../daemon/admin/context.js'
import { createTestDatabase, onPostgres } from '../../support/postgres.js'
import type { Member } from '../../../src/contract/team.js'

let dir = ''
let config: Config
let drop: (() => Promise<void>) | undefined
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'linkd-team-admin-'))
  const pg = onPostgres ? await createTestDatabase() : undefined
  drop = pg?.drop
  config = loadConfig({
    env: {},
    flags: { dataDir: dir, logLevel: 'silent', ...(pg ? { databaseUrl: pg.url } : {}) },
  })
})
afterEach(async () => {
  await drop?.()
  rmSync(dir, { recursive: true, force: true })
})

async function run(fn: (out: (s: string) => void) => Promise<void>): Promise<string> {
  let text = ''
  await fn((s) => (text += s))
  return text
}
/** Each key of the organization with its member. */
async function keysOf(org: string) {
  const db = openDatabase(config.databaseUrl)
  try {
    const { orgs, keys } = adminContext(config, db)
    const o = await orgs.resolve(org)
    return (await keys.list(o.id, { limit: 100 })).data.map((k) => ({ name: k.name, memberId: k.memberId }))
  } finally {
    await db.close()
  }
}

describe('linkd members list', () => {
  it('init and org create make the Owner member owning the owner key; keys create gives it the recovery key', async () => {
    await run((out) => initCommand(config, out))
    await run((out) => orgCreateCommand(config, 'acme', undefined, out))
    const json = await run((out) => membersListCommand(config, { org: 'acme', json: true }, out))
    const members = JSON.parse(json) as Member[]
    expect(members).toEqual([expect.objectContaining({ name: 'Owner', role: 'owner', email: null })])
    const printed = await run((out) => keysCreateCommand(config, { org: 'acme' }, out))
    expect(printed).toContain('Created API key "recovery"')
    expect(await keysOf('acme')).toEqual(
      expect.arrayContaining([
        { name: 'owner', memberId: members[0]!.id },
        { name: 'recovery', memberId: members[0]!.id },
      ]),
    )
    // The default organization has its own Owner.
    const table = await run((out) => membersListCommand(config, { org: 'default' }, out))
    const cols = table.trim().split('\t')
    expect(cols.slice(1, 4)).toEqual(['owner', 'Owner', '-'])
    expect(cols[0]).toMatch(/^mem_/)
    expect(cols[0]).not.toBe(members[0]!.id)
  })

  it('an unknown organization is an error naming it', async () => {
    await run((out) => initCommand(config, out))
    await expect(run((out) => membersListCommand(config, { org: 'nope' }, out))).rejects.toThrow(/nope/)
  })
})
