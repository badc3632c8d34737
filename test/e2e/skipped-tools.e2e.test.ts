/**
 * `npm test` says which tests it did not run: vitest on a fixture whose test
 * needs a tool this machine lacks prints, after the run, the file skipped and the install command.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { skipSummary } from '../support/skipped-tools.js'
import { cleanEnv, root } from '../support/processes.js'

describe('the summary of tests skipped for missing tools', () => {
  it('vitest on a fixture needing an absent tool ends with the skipped file and the install command', async () => {
    const env = cleanEnv()
    delete env.CI // in CI a missing tool fails the run instead
    delete env.LINKD_TEST_SKIPS
    delete env.FORCE_COLOR
    env.NO_COLOR = '1'
    const out = await new Promise<string>((resolve) =>
      execFile(
        process.execPath,
        [
          join(root, 'node_modules/vitest/vitest.mjs'),
          'run',
          '--config',
          'test/fixtures/skips/vitest.config.ts',
        ],
        { cwd: root, env, timeout: 60_000 },
        (_err, stdout) => resolve(stdout),
      ),
    )
    expect(out).toMatch(/1 passed \| 1 skipped/)
    const summary = out.slice(out.lastIndexOf('Not every test ran'))
    expect(summary).toBe(
      'Not every test ran: 1 test file(s) skipped for missing tools:\n' +
        '  test/fixtures/skips/needs-tool.fixture.ts (missing linkd-absent-tool)\n' +
        'Install them with: sudo apt-get install linkd-absent-tool\n',
    )
  })

  it('names the Debian packages of the tools, each once; nothing when nothing was skipped', () => {
    expect(
      skipSummary([
        { file: 'test/e2e/domains.e2e.test.ts', missing: ['dnsmasq', 'pebble'] },
        { file: 'test/daemon/domains/domains-dns.test.ts', missing: ['dnsmasq'] },
      ]),
    ).toBe(
      '\nNot every test ran: 2 test file(s) skipped for missing tools:\n' +
        '  test/daemon/domains/domains-dns.test.ts (missing dnsmasq)\n' +
        '  test/e2e/domains.e2e.test.ts (missing dnsmasq, pebble)\n' +
        'Install them with: sudo apt-get install dnsmasq-base pebble\n',
    )
    expect(skipSummary([])).toBe('')
  })
})
