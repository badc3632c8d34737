/** `links import --from <product>` against the real daemon: each product's export, dry runs, taken codes. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../../src/contract/common.js'
import type { Link } from '../../../src/contract/links.js'
import { exitCodeFor } from '../../../src/session/exit-codes.js'
import {
  runLinksImport,
  type ImportOpts,
  type ImportSummary,
} from '../../../src/cli/commands/links/import.js'
import { runLinksList } from '../../../src/cli/commands/links/list.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { testCtx } from '../../support/cli.js'

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/import/${name}`, import.meta.url))

let d: TestDaemon
beforeAll(async () => {
  d = await startTestDaemon()
})
afterAll(() => d.close())

const ctx = (json: boolean) =>
  testCtx({ flags: { url: d.url, apiKey: d.ownerKey }, json, isTTY: false, env: { NO_COLOR: '1' } })

async function importRun(opts: ImportOpts, json = false) {
  const t = ctx(json)
  let code = 0
  try {
    await runLinksImport(opts, t.ctx)
  } catch (err) {
    code = exitCodeFor(err)
    t.err.write(`error: ${(err as Error).message}\n`)
  }
  return { code, stdout: t.out.text, stderr: t.err.text }
}

async function codes(): Promise<Map<string, Link>> {
  const t = ctx(true)
  await runLinksList({ limit: 100 }, t.ctx)
  return new Map((JSON.parse(t.out.text) as PageOf<Link>).data.map((l) => [l.shortCode, l]))
}

describe('links import --from', () => {
  it('a dry run of each export creates nothing; the import then keeps codes, titles, tags and dates', async () => {
    const dry = await importRun({ from: 'bitly', file: fixture('bitly.csv'), dryRun: true })
    expect(dry).toMatchObject({ code: 0 })
    expect(dry.stdout).toBe('Dry run: would create 3 links; 0 would fail; nothing was written\n')
    expect((await codes()).size).toBe(0)
    for (const [from, file, created] of [
      ['bitly', 'bitly.csv', 3],
      ['shlink', 'shlink.csv', 3],
      ['yourls', 'yourls.csv', 3],
    ] as const) {
      const r = await importRun({ from, file: fixture(file) }, true)
      expect(r.code, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout) as ImportSummary).toMatchObject({ dryRun: false, created, failed: 0 })
    }
    const got = await codes()
    expect(got.get('launch')).toMatchObject({ title: 'Launch day', createdAt: '2024-04-12T08:00:00.000Z' })
    expect(got.get('blog-2024')?.tags).toEqual(['blog', 'plans'])
    expect(got.get('ozh')?.createdAt).toBe('2015-04-10T12:34:56.000Z')
  })

  it("Kutt's JSON: the protected link fails by its position, the run exits 1; a taken code is its row's error", async () => {
    const r = await importRun({ from: 'kutt', file: fixture('kutt.json') })
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('Created 2 links; 1 failed\n')
    expect(r.stderr).toMatch(/line 3: password: the link is password-protected in Kutt/)
    // Another file asking for a code the first one took.
    const other = join(mkdtempSync(join(tmpdir(), 'linkctl-kutt-')), 'kutt.json')
    writeFileSync(other, JSON.stringify([{ address: 'kutt-home', target: 'https://example.com/other' }]))
    const again = await importRun({ from: 'kutt', file: other })
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/line 1: short code "kutt-home" is already in use on this domain/)
  })

  it("linkd's own export: the dry run says what the import does, and the import keeps creation dates", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'linkctl-linkd-')), 'links.csv')
    writeFileSync(
      file,
      [
        'customSlug,destinationUrl,title,shortUrl,createdAt',
        'kept-date,https://example.com/a,Old one,https://elsewhere.example/kept-date,2019-06-01T10:00:00.000Z',
        'future,https://example.com/b,Not yet,https://elsewhere.example/future,2999-01-01T00:00:00.000Z',
      ].join('\n') + '\n',
    )
    const dry = await importRun({ file, dryRun: true })
    expect(dry.code).toBe(1)
    expect(dry.stdout).toBe('Dry run: would create 1 link; 1 would fail; nothing was written\n')
    expect(dry.stderr).toMatch(/line 3: .*2999-01-01T00:00:00.000Z is in the future/)
    const real = await importRun({ file })
    expect(real.code).toBe(1)
    expect(real.stdout).toBe('Created 1 link; 1 failed\n')
    expect(real.stderr).toMatch(/line 3: .*2999-01-01T00:00:00.000Z is in the future/)
    const got = await codes()
    expect(got.get('kept-date')?.createdAt).toBe('2019-06-01T10:00:00.000Z')
    expect(got.has('future')).toBe(false)
  })

  it("--failed-out of another product's export: the rerun it suggests reads that file as that product's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkctl-yourls-'))
    const file = join(dir, 'yourls.csv')
    const failedOut = join(dir, 'failed.csv')
    writeFileSync(
      file,
      'keyword,url,title,timestamp\nrerun-ok,https://example.com/ok,Fine,2020-01-01 00:00:00\nbad!,https://example.com/bad,Bad,2020-01-01 00:00:00\n',
    )
    const first = await importRun({ from: 'yourls', file, failedOut })
    expect(first.code).toBe(1)
    const hint = /fix them and run linkctl (links import .*)$/m.exec(first.stderr)?.[1]
    expect(hint).toBe(`links import --from yourls ${failedOut} --skip-existing`)
    // Fixed as the hint says, the rerun creates the row.
    writeFileSync(failedOut, readFileSync(failedOut, 'utf8').replace('bad!,', 'rerun-fixed,'))
    const again = await importRun({ from: 'yourls', file: failedOut, skipExisting: true })
    expect(again.code, again.stderr).toBe(0)
    expect((await codes()).has('rerun-fixed')).toBe(true)
  })

  it("Kutt's failed rows (JSON lines) import again with --from kutt once fixed", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkctl-kutt-'))
    const file = join(dir, 'kutt.json')
    const failedOut = join(dir, 'failed.jsonl')
    writeFileSync(
      file,
      JSON.stringify({
        data: [
          { address: 'kutt-rerun-a', target: 'https://example.com/a' },
          { address: 'kutt-rerun-b', target: 'https://example.com/b', password: true },
        ],
      }),
    )
    const first = await importRun({ from: 'kutt', file, failedOut })
    expect(first.code).toBe(1)
    expect(first.stderr).toContain(`run linkctl links import --from kutt ${failedOut} --skip-existing`)
    writeFileSync(failedOut, readFileSync(failedOut, 'utf8').replace('"password":true', '"password":false'))
    const again = await importRun({ from: 'kutt', file: failedOut, skipExisting: true })
    expect(again.code, again.stderr).toBe(0)
    expect((await codes()).has('kutt-rerun-b')).toBe(true)
  })

  it("a failed row names the file's own columns, not linkd's fields (custom_bitlinks, not customSlug)", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'linkctl-bitly-')), 'bitly.csv')
    writeFileSync(
      file,
      'id,link,long_url,title,created_at,tags,custom_bitlinks\n' +
        'bit.ly/one,https://bit.ly/one,https://example.com/1,One,2024-01-01T00:00:00+0000,,https://bit.ly/no!way\n' +
        'bit.ly/tw!o,https://bit.ly/tw!o,https://example.com/2,Two,2024-01-01T00:00:00+0000,,\n' +
        'bit.ly/three,https://bit.ly/three,example.com/3,Three,2024-01-01T00:00:00+0000,,\n' +
        'bit.ly/four,https://bit.ly/four,https://example.com/4,Four,yesterday,,\n' +
        'bit.ly/five,https://bit.ly/five,,Five,2024-01-01T00:00:00+0000,,\n',
    )
    const r = await importRun({ from: 'bitly', file, dryRun: true })
    expect(r.stderr.split('\n').filter((l) => l.startsWith('line '))).toEqual([
      'line 2: custom_bitlinks may only contain letters, digits, hyphens and underscores',
      'line 3: link may only contain letters, digits, hyphens and underscores',
      'line 4: long_url must start with http:// or https://; did you mean https://example.com/3?',
      'line 5: created_at: "yesterday" is not a date (expected ISO 8601 or YYYY-MM-DD HH:MM:SS)',
      'line 6: long_url: is empty',
    ])
    const kutt = join(mkdtempSync(join(tmpdir(), 'linkctl-kutt-')), 'kutt.json')
    writeFileSync(kutt, JSON.stringify([{ address: 'b!', target: 'https://example.com/k' }]))
    const k = await importRun({ from: 'kutt', file: kutt, dryRun: true })
    expect(k.stderr).toContain('line 1: address may only contain letters, digits, hyphens and underscores\n')
  })

  it("a file that is not the product's export stops with why; --format is linkd's only", async () => {
    const r = await importRun({ from: 'shlink', file: fixture('kutt.json') })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/this is not Shlink's export: the header has no destination column/)
    const f = await importRun({ from: 'yourls', file: fixture('yourls.csv'), format: 'csv' })
    expect(f.code).toBe(2)
  })
})
