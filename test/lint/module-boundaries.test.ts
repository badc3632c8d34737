/**
 * The module boundaries `npm run lint` checks (.dependency-cruiser.cjs), shown on a fixture tree
 * (test/fixtures/boundaries) that breaks each rule once beside imports that are allowed.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { packageRoot } from '../../src/version.js'

const root = packageRoot()
const cli = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs')

interface Violation {
  rule: { name: string }
  from: string
  to: string
}

/** Runs depcruise as `npm run lint` does (its exit code), then for the violations as JSON. */
async function cruise(cwd: string, dirs: string[]): Promise<{ code: number; violations: string[] }> {
  const run = (...extra: string[]) =>
    promisify(execFile)(
      process.execPath,
      [cli, ...dirs, '--config', join(root, '.dependency-cruiser.cjs'), ...extra],
      { cwd, maxBuffer: 64 << 20 },
    ).then(
      (r) => ({ stdout: r.stdout, code: 0 }),
      (err: { stdout: string; code: number }) => ({ stdout: err.stdout, code: err.code }),
    )
  const { code } = await run()
  const { stdout } = await run('--output-type', 'json')
  const violations = (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations
  return { code, violations: violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort() }
}

describe('module boundaries', () => {
  it('a deep import across modules, past a gaming part’s index (from index.ts or off.ts), from the composition root, a call the architecture does not list, and any cycle (type-only too) fail; index imports pass', async () => {
    const { code, violations } = await cruise(join(root, 'test/fixtures/boundaries'), ['daemon'])
    expect(violations).toEqual([
      'gaming-part-internals: daemon/modules/gaming/index.ts → daemon/modules/gaming/fraud/x.ts',
      'gaming-part-internals: daemon/modules/gaming/off.ts → daemon/modules/gaming/fraud/service.ts',
      'module-calls: daemon/modules/orgs/planted.ts → daemon/modules/links/index.ts',
      'module-internals-from-outside: daemon/composition.ts → daemon/modules/links/service.ts',
      'module-internals: daemon/modules/clicks/deep.ts → daemon/modules/links/service.ts',
      'no-cycle: daemon/modules/cyc/one.ts → daemon/modules/cyc/two.ts',
      'no-cycle: daemon/modules/cyc/type-a.ts → daemon/modules/cyc/type-b.ts',
    ])
    expect(code).not.toBe(0)
  })

  // dependency-cruiser over the whole tree: 13 s on a quiet 2-core machine, more beside other files.
  // No violation means no cycle either: the count of cycles in daemon/ and src/, type imports included, is 0.
  it('the real tree keeps them', { timeout: 120_000 }, async () => {
    expect(await cruise(root, ['daemon', 'src', 'bin'])).toEqual({ code: 0, violations: [] })
  })
})
