import { readdirSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { compose } from '../../daemon/composition.js'
import { createTestApp, type TestApp } from '../support/app.js'

const MODULES_DIR = join(import.meta.dirname, '../../daemon/modules')

describe('composition root', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('plugs in every module whose index.ts exports a plug-in (`<name>Module`), once each', async () => {
    t = await createTestApp()
    const c = await compose({
      config: t.config,
      db: t.db,
      masterKey: Buffer.alloc(32, 1),
      clock: t.clock,
      log: t.app.log,
      limiter: t.app.linkd.limiter,
    })
    // Gaming's parts are modules of their own under daemon/modules/gaming/, wired by its index.ts.
    const withPlugIn = async (dir: string, prefix = ''): Promise<string[]> => {
      const found: string[] = []
      for (const d of readdirSync(dir, { withFileTypes: true })) {
        const index = join(dir, d.name, 'index.ts')
        if (!d.isDirectory() || !existsSync(index)) continue
        if (d.name === 'gaming') found.push(...(await withPlugIn(join(dir, d.name), 'gaming/')))
        else if (Object.keys(await import(index)).some((n) => n.endsWith('Module')))
          found.push(prefix + d.name)
      }
      return found.sort()
    }
    expect(c.modules.map((m) => m.name).sort()).toEqual(await withPlugIn(MODULES_DIR))
    // health first: its hook lists the /api routes the modules after it register (discovery)
    expect(c.modules.map((m) => m.name)[0]).toBe('health')
    expect(c.modules.map((m) => m.name).at(-1)).toBe('redirect')
    await c.stop() // on PostgreSQL it listens for other processes' changes on a connection of its own
  })
})
