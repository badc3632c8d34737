/**
 * End to end: `linkctl audit` with the built binaries against a real linkd. Writes made with
 * linkctl show in the audit log (tab-separated when piped, --json with the API's envelope), the
 * filters narrow it, and a bad --since is a usage error (exit 2). Needs `npm run build` first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../src/contract/common.js'
import type { AuditEntry } from '../../src/contract/team.js'
import { startLinkdForCli, type LinkdForCli } from '../support/processes.js'

let cli: LinkdForCli
let linkId = ''
let keyId = ''
const linkctl = (args: string[]) => cli.linkctl(args)
const json = async (args: string[]) => {
  const r = await linkctl([...args, '--json'])
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as PageOf<AuditEntry>
}

beforeAll(async () => {
  cli = await startLinkdForCli('linkctl-audit-e2e-')
  const link = await linkctl(['links', 'create', 'https://example.com/audited', '--json'])
  expect(link.code, link.stderr).toBe(0)
  linkId = (JSON.parse(link.stdout) as { id: string }).id
  const key = await linkctl(['keys', 'create', '--name', 'audited', '--preset', 'read-only', '--json'])
  expect(key.code, key.stderr).toBe(0)
  keyId = (JSON.parse(key.stdout) as { id: string }).id
  expect((await linkctl(['keys', 'revoke', keyId, '--yes'])).code).toBe(0)
}, 60_000)
afterAll(() => cli?.close())

describe('linkctl audit', () => {
  it('lists the writes newest first, tab-separated when piped', async () => {
    const r = await linkctl(['audit'])
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines[0]!.split('\t')).toEqual([
      'ID',
      'AT',
      'ACTION',
      'TYPE',
      'RESOURCE',
      'MEMBER',
      'KEY',
      'IP',
      'STATUS',
    ])
    const rows = lines.slice(1).map((l) => l.split('\t'))
    expect(rows.map((c) => [c[2], c[3], c[4]])).toEqual([
      ['key.revoke', 'key', keyId],
      ['key.create', 'key', keyId],
      ['link.create', 'link', linkId],
    ])
    expect(rows[0]![0]).toMatch(/^aud_/)
    expect(rows[0]![1]).toMatch(/^\d{4}-\d{2}-\d{2}T/)
    expect(rows[0]![7]).toBe('127.0.0.1')
    expect(rows.map((c) => c[8])).toEqual(['200', '201', '201'])
  })

  it('--json prints the envelope; the filters narrow it', async () => {
    const all = await json(['audit'])
    expect(all).toMatchObject({ total: 3, page: 1, hasMore: false })
    expect((await json(['audit', '--action', 'link.create'])).data.map((e) => e.resourceId)).toEqual([linkId])
    expect((await json(['audit', '--resource-type', 'key'])).total).toBe(2)
    expect((await json(['audit', '--member', 'mem_nobody'])).total).toBe(0)
    expect((await json(['audit', '--since', '1d'])).total).toBe(3)
    expect((await json(['audit', '--until', '2000-01-01'])).total).toBe(0)
    expect(
      (await json(['audit', '--since', '2000-01-01', '--until', 'now', '--limit', '2'])).data,
    ).toHaveLength(2)
  })

  it('a bad --since is a usage error (exit 2) that says what is expected', async () => {
    const r = await linkctl(['audit', '--since', 'yesterday'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      /--since.*yesterday.*expected an ISO date or date-time, now, or 7d\/12h\/90m\/2w ago/,
    )
    expect(r.stdout).toBe('')
    const reversed = await linkctl(['audit', '--since', '2026-11-02', '--until', '2026-11-01'])
    expect(reversed.code).toBe(2)
    expect(reversed.stderr).toMatch(/--since must not be after --until/)
  })
})
