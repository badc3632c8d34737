import { execFileSync } from 'node:child_process'
import { appendFileSync } from 'node:fs'
import { relative } from 'node:path'

/**
 * Test dependencies that are system binaries (Debian packages dnsmasq-base, pebble, openssl).
 * `.ci/run` installs them, so in CI (CI set) a missing binary fails the test run; on a developer
 * machine without them the tests that need them are skipped with the reason.
 */
export function findBinary(name: string): string | undefined {
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin']) {
    try {
      execFileSync('test', ['-x', `${dir}/${name}`])
      return `${dir}/${name}`
    } catch {
      // not there
    }
  }
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined
  } catch {
    return undefined
  }
}

/** The reason to skip when one of `names` is missing (undefined: all present). Throws in CI. */
export function missingBinaries(...names: string[]): string | undefined {
  const missing = names.filter((n) => !findBinary(n))
  if (!missing.length) return undefined
  const reason = `missing ${missing.join(', ')} (apt-get install dnsmasq-base pebble openssl; .ci/run does it)`
  if (process.env.CI) throw new Error(`CI must provide these test dependencies: ${reason}`)
  process.stderr.write(`skipping: ${reason}\n`)
  recordSkip(missing)
  return reason
}

/** For the summary at the end of the run (test/support/skipped-tools.ts): which file, which tools. */
function recordSkip(missing: string[]): void {
  const into = process.env.LINKD_TEST_SKIPS
  if (!into) return
  // The test file calling missingBinaries, from the stack (called at a test file's top level).
  const caller = new Error().stack?.split('\n').find((l) => /\.(test|fixture)\.ts/.test(l))
  const path = /(?:file:\/\/)?(\/[^:)]+\.(?:test|fixture)\.ts)/.exec(caller ?? '')?.[1] ?? 'unknown test file'
  appendFileSync(into, `${JSON.stringify({ file: relative(process.cwd(), path), missing })}\n`)
}
