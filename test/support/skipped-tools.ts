/**
 * The vitest globalSetup that makes `npm test` say which tests it did not run: missingBinaries()
 * (test/support/binaries.ts) appends each skip to the file named by LINKD_TEST_SKIPS, and the
 * teardown prints them after the run with the command that installs the missing tools.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The Debian package of each tool the tests use. */
export const TOOL_PACKAGES: Readonly<Record<string, string>> = {
  dnsmasq: 'dnsmasq-base',
  pebble: 'pebble',
  openssl: 'openssl',
  nginx: 'nginx-light',
  ngx_stream_module: 'libnginx-mod-stream',
  caddy: 'caddy',
  tmux: 'tmux',
  chromium: 'chromium',
  postgres: 'postgresql',
  'systemd-analyze': 'systemd',
  promtool: 'prometheus',
  strace: 'strace',
}

export interface SkipRecord {
  file: string
  missing: string[]
}

/** The summary printed after a run with skips (empty when nothing was skipped). */
export function skipSummary(records: readonly SkipRecord[]): string {
  if (records.length === 0) return ''
  const byFile = new Map<string, Set<string>>()
  for (const r of records) {
    const set = byFile.get(r.file) ?? new Set<string>()
    for (const m of r.missing) set.add(m)
    byFile.set(r.file, set)
  }
  const tools = [...new Set(records.flatMap((r) => r.missing))].sort()
  const packages = [...new Set(tools.map((t) => TOOL_PACKAGES[t] ?? t))]
  const lines = [...byFile]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, missing]) => `  ${file} (missing ${[...missing].sort().join(', ')})`)
  return (
    `\nNot every test ran: ${byFile.size} test file(s) skipped for missing tools:\n${lines.join('\n')}\n` +
    `Install them with: sudo apt-get install ${packages.join(' ')}\n`
  )
}

export function readSkips(file: string): SkipRecord[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return [] // nothing was skipped
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as SkipRecord)
}

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'linkd-test-skips-'))
  const file = join(dir, 'skips.jsonl')
  // Workers are started after this and inherit the variable.
  process.env.LINKD_TEST_SKIPS = file
  return () => {
    process.stdout.write(skipSummary(readSkips(file)))
    rmSync(dir, { recursive: true, force: true })
  }
}
