/**
 * `npm test` says which tests it did not run: vitest on fixtures, one with a test that needs a
 * tool this machine lacks and one that runs only on PostgreSQL, prints after the run the files
 * skipped, the install command, and the file left for `npm run test:pg`.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { skipSummary } from '../support/skipped-tools.js'
import { cleanEnv, root } from '../support/processes.js'

describe('the summary of tests skipped for missing tools', () => {
  it('vitest on fixtures ends with the file skipped for a tool, the install command, the PostgreSQL-only file', async () => {
    const env = cleanEnv()
    delete env.CI // in CI a missing tool fails the run instead
    delete env.LINKD_TEST_SKIPS
    delete env.LINKD_TEST_ENGINE // the fixtures run on SQLite, as `npm test` does
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
    expect(out).toMatch(/Tests +1 passed \| 2 skipped \(3\)/)
    const summary = out.slice(out.lastIndexOf('Not every test ran'))
    expect(summary).toBe(
      'Not every test ran:\n' +
        '1 test file skipped for missing tools:\n' +
        '  test/fixtures/skips/needs-tool.fixture.ts (missing linkd-absent-tool)\n' +
        'Install them with: sudo apt-get install linkd-absent-tool\n' +
        '1 test file run only on PostgreSQL (npm run test:pg):\n' +
        '  test/fixtures/skips/postgres-only.fixture.ts\n',
    )
  })

  it('names the Debian packages of the tools, each once; nothing when nothing was skipped', () => {
    expect(
      skipSummary([
        { file: 'test/e2e/domains.e2e.test.ts', missing: ['dnsmasq', 'pebble'] },
        { file: 'test/daemon/domains/domains-dns.test.ts', missing: ['dnsmasq'] },
      ]),
    ).toBe(
      '\nNot every test ran:\n' +
        '2 test files skipped for missing tools:\n' +
        '  test/daemon/domains/domains-dns.test.ts (missing dnsmasq)\n' +
        '  test/e2e/domains.e2e.test.ts (missing dnsmasq, pebble)\n' +
        'Install them with: sudo apt-get install dnsmasq-base pebble\n',
    )
    expect(skipSummary([])).toBe('')
  })

  it('counts and names the files that run only on PostgreSQL, beside those skipped for tools', () => {
    const postgresOnly = (file: string) => ({ file, missing: [], postgresOnly: true })
    const records = [
      postgresOnly('test/daemon/multi/limits.test.ts'),
      { file: 'test/e2e/tui.e2e.test.ts', missing: ['tmux'] },
      postgresOnly('test/daemon/db/collation.test.ts'),
      postgresOnly('test/daemon/db/collation.test.ts'),
    ]
    expect(skipSummary(records)).toBe(
      '\nNot every test ran:\n' +
        '1 test file skipped for missing tools:\n' +
        '  test/e2e/tui.e2e.test.ts (missing tmux)\n' +
        'Install them with: sudo apt-get install tmux\n' +
        '2 test files run only on PostgreSQL (npm run test:pg):\n' +
        '  test/daemon/db/collation.test.ts\n' +
        '  test/daemon/multi/limits.test.ts\n',
    )
    // Every tool there (a run on SQLite): only the PostgreSQL files are named.
    expect(skipSummary(records.filter((r) => r.missing.length === 0))).toBe(
      '\nNot every test ran:\n' +
        '2 test files run only on PostgreSQL (npm run test:pg):\n' +
        '  test/daemon/db/collation.test.ts\n' +
        '  test/daemon/multi/limits.test.ts\n',
    )
  })
})
