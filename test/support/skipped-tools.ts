/**
 * The vitest globalSetup that makes `npm test` say which tests it did not run: missingBinaries()
 * (test/support/binaries.ts) and postgresOnly() (test/support/postgres.ts) append each skip to the
 * file named by LINKD_TEST_SKIPS, and the teardown prints them after the run: the files skipped
 * for missing tools with the command that installs them, and the files that run only on
 * PostgreSQL (vitest counts both among its skipped files).
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { plural } from '../../src/contract/numbers.js'

/** The Debian package of each tool the tests use. */
export const TOOL_PACKAGES: Readonly<Record<string, string>> = {
  dnsmasq: 'dnsmasq-base',
  pebble: 'pebble',
  openssl: 'openssl',
  nginx: 'nginx-light',
  ngx_stream_module: 'libnginx-mod-stream',
  caddy: 'caddy',
  tmux: 'tmux',
  zsh: 'zsh',
  fish: 'fish',
  chromium: 'chromium',
  postgres: 'postgresql',
  'systemd-analyze': 'systemd',
  promtool: 'prometheus',
  strace: 'strace',
}

/** A file skipped for tools this machine lacks, or (`postgresOnly`) because it runs only on PostgreSQL. */
export interface SkipRecord {
  file: string
  missing: string[]
  postgresOnly?: boolean
}

/** The summary printed after a run with skips (empty when nothing was skipped). */
export function skipSummary(records: readonly SkipRecord[]): string {
  if (records.length === 0) return ''
  const byFile = new Map<string, Set<string>>()
  const postgres = new Set<string>()
  for (const r of records) {
    if (r.postgresOnly) {
      postgres.add(r.file)
      continue
    }
    const set = byFile.get(r.file) ?? new Set<string>()
    for (const m of r.missing) set.add(m)
    byFile.set(r.file, set)
  }
  let text = '\nNot every test ran:\n'
  if (byFile.size > 0) {
    const tools = [...new Set([...byFile.values()].flatMap((m) => [...m]))].sort()
    const packages = [...new Set(tools.map((t) => TOOL_PACKAGES[t] ?? t))]
    const lines = [...byFile]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([file, missing]) => `  ${file} (missing ${[...missing].sort().join(', ')})`)
    text +=
      `${plural(byFile.size, 'test file')} skipped for missing tools:\n${lines.join('\n')}\n` +
      `Install them with: sudo apt-get install ${packages.join(' ')}\n`
  }
  if (postgres.size > 0) {
    const lines = [...postgres].sort().map((file) => `  ${file}`)
    text += `${plural(postgres.size, 'test file')} run only on PostgreSQL (npm run test:pg):\n${lines.join('\n')}\n`
  }
  return text
}

/**
 * Records a skip for the summary, naming the test file that asked (found on the stack: call it
 * from a test file's top level).
 */
export function recordSkip(record: Omit<SkipRecord, 'file'>): void {
  const into = process.env.LINKD_TEST_SKIPS
  if (!into) return
  const caller = new Error().stack?.split('\n').find((l) => /\.(test|fixture)\.tsx?/.test(l))
  const path =
    /(?:file:\/\/)?(\/[^:)]+\.(?:test|fixture)\.tsx?)/.exec(caller ?? '')?.[1] ?? 'unknown test file'
  appendFileSync(into, `${JSON.stringify({ file: relative(process.cwd(), path), ...record })}\n`)
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
