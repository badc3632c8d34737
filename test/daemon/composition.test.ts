import { readdirSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { compose } from '../../daemon/composition.js'
import { createTestApp, type TestApp } from '../support/app.js'

const MODULES_DIR = join(import.meta.dirname, '../../daemon/modules')

describe('composition root', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('plugs in every module that exports an index.ts, once each', async () => {
    t = await createTestApp()
    const c = await compose({
      config: t.config,
      db: t.db,
      masterKey: Buffer.alloc(32, 1),
      clock: t.clock,
      log: t.app.log,
      limiter: t.app.linkd.limiter,
    })
    const withIndex = readdirSync(MODULES_DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(MODULES_DIR, d.name, 'index.ts')))
      .map((d) => d.name)
      .sort()
    expect(c.modules.map((m) => m.name).sort()).toEqual(withIndex)
    expect(c.modules.map((m) => m.name)[0]).toBe('health')
    expect(c.modules.map((m) => m.name).at(-1)).toBe('redirect')
  })

  it("registers every module's jobs (and the idempotency prune) with the scheduler", async () => {
    t = await createTestApp()
    expect([...t.app.linkd.scheduler.names()].sort()).toEqual([
      'expire-keys',
      'expire-links',
      'gaming-compaction',
      'gaming-raw-retention',
      'gdpr-deletions',
      'gdpr-records-purge',
      'prune-idempotency',
      'prune-key-activity',
      'prune-webhook-deliveries',
      'purge-deleted-link-clicks',
      'recheck-domains',
      'renew-certificates',
    ])
  })
})
