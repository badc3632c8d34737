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
    // health first: its hook lists the /api routes the modules after it register (discovery)
    expect(c.modules.map((m) => m.name)[0]).toBe('health')
    expect(c.modules.map((m) => m.name).at(-1)).toBe('redirect')
    await c.stop() // on PostgreSQL it listens for other processes' changes on a connection of its own
  })
})
