/** `links import` and `links export` against the real daemon: line numbers, idempotent re-runs, round trips. */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../../src/contract/common.js'
import type { Link } from '../../../src/contract/links.js'
import { exitCodeFor } from '../../../src/session/exit-codes.js'
import {
  runLinksImport,
  type ImportOpts,
  type ImportSummary,
} from '../../../src/cli/commands/links/import.js'
import { runLinksExport } from '../../../src/cli/commands/links/export.js'
import { CSV_COLUMNS } from '../../../src/import/index.js'
import { runLinksList } from '../../../src/cli/commands/links/list.js'
import { parseCsv } from '../../../src/contract/csv.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { cli, tempDir, testCtx } from '../../support/cli.js'

let d: TestDaemon
const tmp = tempDir('linkctl-import-')
beforeAll(async () => {
  d = await startTestDaemon()
})
afterAll(async () => {
  await d.close()
  tmp.remove()
})

function as(
  opts: { key?: string; json?: boolean; isTTY?: boolean; stdin?: string; daemon?: TestDaemon } = {},
) {
  const daemon = opts.daemon ?? d
  return testCtx({
    flags: { url: daemon.url, apiKey: opts.key ?? daemon.ownerKey },
    json: opts.json ?? false,
    isTTY: opts.isTTY ?? false,
    env: { NO_COLOR: '1' },
    ...(opts.stdin !== undefined ? { stdin: opts.stdin } : {}),
  })
}

/** Runs an import; returns its exit code and output. */
async function importRun(opts: ImportOpts, ctxOpts: Parameters<typeof as>[0] = {}) {
  const t = as(ctxOpts)
  let code = 0
  try {
    await runLinksImport(opts, t.ctx)
  } catch (err) {
    code = exitCodeFor(err)
    t.err.write(`error: ${(err as Error).message}\n`)
  }
  return { code, stdout: t.out.text, stderr: t.err.text }
}

async function linksTagged(tag: string, daemon: TestDaemon = d, key?: string): Promise<Link[]> {
  const t = as({ json: true, daemon, ...(key ? { key } : {}) })
  await runLinksList({ tag, limit: 100 }, t.ctx)
  return (JSON.parse(t.out.text) as PageOf<Link>).data
}

function file(name: string, text: string): string {
  const path = join(tmp.dir, name)
  writeFileSync(path, text)
  return path
}

describe('links import', () => {
  // line 1 header; 2 ok; 3-4 one record over two lines (the daemon refuses a line break in a
  // title: reported at the record's first line); 5 bad URL (daemon); 6 malformed CSV;
  // 7 blank; 8 duplicate slug (daemon, taken below); 9 bad date (local); 10 ok; 11 wrong field count.
  const csv =
    '\ufeffdestinationUrl,title,customSlug,tags,expiresAt\r\n' +
    'https://example.com/1,"One, first",imp-one,imp;a,2030-01-01\r\n' +
    'https://example.com/2,"Two\r\nlines",,imp|b,\r\n' +
    'ftp://example.com/3,Three,,imp,\r\n' +
    'https://example.com/4,Fo"ur,,imp,\r\n' +
    '\r\n' +
    'https://example.com/5,Five,imp-taken,imp,\r\n' +
    'https://example.com/6,Six,,imp,someday\r\n' +
    'https://example.com/7,"Seven ""7""",,imp,never\r\n' +
    'https://example.com/8,Eight\r\n'

  it('reports each failed row by input line, creates the valid rows, exits 1', async () => {
    await d.testApp.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/taken', customSlug: 'imp-taken' },
    })
    const path = file('links.csv', csv)
    const r = await importRun({ file: path })
    expect(r.code).toBe(1)
    const lines = r.stderr.trimEnd().split('\n')
    expect(lines.slice(0, 6).map((l) => l.replace(/:.*/, ''))).toEqual([
      'line 3',
      'line 5',
      'line 6',
      'line 8',
      'line 9',
      'line 11',
    ])
    expect(lines[0]).toMatch(/^line 3: .*title/)
    expect(lines[1]).toMatch(/^line 5: .*destinationUrl/)
    expect(lines[2]).toMatch(/^line 6: unexpected quote/)
    expect(lines[3]).toMatch(/^line 8: .*(taken|in use|exists)/i)
    expect(lines[4]).toMatch(/^line 9: expiresAt: expected an ISO date/)
    expect(lines[5]).toBe('line 11: expected 5 fields like the header, found 2')
    expect(lines[6]).toBe('error: 6 of 8 rows failed (see the lines above)')
    expect(r.stdout).toBe('Created 2 links; 6 failed\n')

    const created = await linksTagged('imp')
    expect(created.map((l) => l.title).sort()).toEqual(['One, first', 'Seven "7"'])
    expect(created.find((l) => l.shortCode === 'imp-one')).toMatchObject({
      tags: ['imp', 'a'],
      expiresAt: '2030-01-01T00:00:00.000Z',
    })
  })

  it('re-running the same import replays its chunks: nothing is created twice', async () => {
    // Same rows, other tag and slugs (again-taken is free: line 8 is created this time).
    const path = file('again.csv', csv.replace(/imp/g, 'again'))
    const first = await importRun({ file: path, chunkSize: 2 })
    expect(first.stdout).toBe('Created 3 links; 5 failed\n')
    const before = (await linksTagged('again')).map((l) => l.id).sort()
    expect(before).toHaveLength(3)

    const second = await importRun({ file: path, chunkSize: 2, json: true }, { json: true })
    expect(second.code).toBe(1)
    const summary = JSON.parse(second.stdout) as ImportSummary
    expect(summary).toMatchObject({ created: 3, replayed: 3, failed: 5 })
    expect(summary.errors.map((e) => e.line)).toEqual([3, 5, 6, 9, 11])
    expect(summary.errors[3]).toEqual({
      line: 9,
      error: 'ValidationError',
      message: expect.stringMatching(/^expiresAt: /),
    })
    expect((await linksTagged('again')).map((l) => l.id).sort()).toEqual(before)

    const third = await importRun({ file: path, chunkSize: 2 })
    expect(third.stdout).toBe('Created 3 links (3 of them by an earlier run of this import); 5 failed\n')
  })

  it('JSON lines from stdin (detected), link objects accepted, bad lines reported', async () => {
    const stdin =
      '{"destinationUrl":"https://example.com/j1","tags":["jsonl"],"metadata":{"k":"v"},"redirectType":307,"maxClicks":3,"forwardQuery":false,"expiredUrl":null,"startsAt":null,"rules":[{"conditions":[{"type":"language","value":"de"}],"destinationUrl":"https://example.com/de"}]}\n' +
      '\n' +
      '{"destinationUrl":"https://example.com/j2","tags":["jsonl"],"bogus":1}\n' +
      'not json\n' +
      '{"id":"lnk_x","shortUrl":"http://x/jsonl-code","shortCode":"jsonl-code","destinationUrl":"https://example.com/j3","tags":["jsonl"],"clicks":9,"status":"active"}\n'
    const r = await importRun({ file: '-' }, { stdin })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^line 3: .*bogus/m)
    expect(r.stderr).toMatch(/^line 4: invalid JSON/m)
    const created = await linksTagged('jsonl')
    expect(created).toHaveLength(2)
    expect(created.find((l) => l.destinationUrl === 'https://example.com/j1')).toMatchObject({
      metadata: { k: 'v' },
      redirectType: 307,
      maxClicks: 3,
      forwardQuery: false,
      rules: [{ conditions: [{ type: 'language', value: 'de' }], destinationUrl: 'https://example.com/de' }],
    })
    expect(created.find((l) => l.destinationUrl === 'https://example.com/j3')?.shortCode).toBe('jsonl-code')
  })

  it('all rows valid: exit 0; a progress bar on stderr only when it is a terminal', async () => {
    const rows = Array.from({ length: 7 }, (_, i) => `https://example.com/p${i},P${i},,progress,`)
    const path = file('progress.csv', `destinationUrl,title,customSlug,tags,expiresAt\n${rows.join('\n')}\n`)
    const tty = await importRun({ file: path, chunkSize: 3 }, { isTTY: true })
    expect(tty.code).toBe(0)
    expect(tty.stdout).toBe('Created 7 links; 0 failed\n')
    expect(tty.stderr).toContain('\r\x1b[KImporting [')
    expect(tty.stderr.endsWith('\r\x1b[K')).toBe(true)
    const other = file('progress2.csv', readFileSync(path, 'utf8').replace(/progress/g, 'prog2'))
    const quiet = await importRun({ file: other })
    expect(quiet).toEqual({ code: 0, stdout: 'Created 7 links; 0 failed\n', stderr: '' })
    const missing = await importRun({ file: join(tmp.dir, 'missing.csv') })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/^error: cannot read .*missing\.csv: no such file\n$/)
  })

  it('a key without links:write stops the import with exit 4', async () => {
    const reader = await d.testApp.createKey({ permissions: ['links:read'] })
    const path = file('denied.csv', 'destinationUrl\nhttps://example.com/denied\n')
    const r = await importRun({ file: path }, { key: reader.key })
    expect(r.code).toBe(4)
  })

  it('the whole CLI: import - reads stdin; usage errors exit 2', async () => {
    const env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey }
    const r = await cli(['links', 'import', '-', '--json'], {
      env,
      stdin: 'destinationUrl,tags\nhttps://example.com/cli,cli-import\n',
    })
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({
      dryRun: false,
      created: 1,
      replayed: 0,
      skipped: 0,
      failed: 0,
      errors: [],
      skippedRows: [],
    })
    expect((await cli(['links', 'import', '--chunk-size', '1001'], { env })).code).toBe(2)
    expect((await cli(['links', 'import', '--format', 'xml'], { env })).code).toBe(2)
  })

  it('--help names every CSV column the importer reads', async () => {
    const help = await cli(['links', 'import', '--help'])
    expect(help.code).toBe(0)
    const text = help.stdout.replace(/\s+/g, ' ')
    for (const column of CSV_COLUMNS) expect(text).toMatch(new RegExp(`\\b${column}\\b`))
  })
})

describe('links export', () => {
  it('CSV export → import into another organization recreates the links', async () => {
    const src = await d.testApp.createOrg('export-src')
    const seed = [
      {
        destinationUrl: 'https://example.com/e1',
        title: 'Comma, "quoted"',
        tags: ['exp', 'x'],
        customSlug: 'exp-one',
        expiredUrl: 'https://example.com/over',
        maxClicks: 5,
        startsAt: '2026-01-01T00:00:00.000Z',
        forwardQuery: false,
        rules: [
          {
            conditions: [
              { type: 'os', value: 'ios' },
              { type: 'query', value: 'ref=a,b' },
            ],
            destinationUrl: 'https://example.com/ios?x="1"',
          },
        ],
      },
      {
        destinationUrl: 'https://example.com/e2',
        title: 'Two; "lines", 2',
        tags: ['exp'],
        expiresAt: '2031-05-01T00:00:00.000Z',
      },
      {
        destinationUrl: 'https://example.com/e3?a=1&b=2',
        tags: ['exp'],
        variants: [
          { destinationUrl: 'https://example.com/a?x="1",y', weight: 70 },
          { destinationUrl: 'https://example.com/b', weight: 30 },
        ],
      },
    ]
    for (const body of seed) await d.testApp.call('POST', '/api/use/links', { body, key: src.ownerKey })

    const out = join(tmp.dir, 'export.csv')
    const t = as({ key: src.ownerKey })
    await runLinksExport({ output: out }, t.ctx)
    expect(t.err.text).toBe(`Exported 3 links to ${out}\n`)
    const records = parseCsv(readFileSync(out, 'utf8'))
    expect(records[0]).toEqual({
      line: 1,
      fields: [
        'destinationUrl',
        'title',
        'customSlug',
        'tags',
        'expiresAt',
        'id',
        'shortUrl',
        'clicks',
        'status',
        'createdAt',
        'expiredUrl',
        'maxClicks',
        'startsAt',
        'forwardQuery',
        'rules',
        'passwordProtected',
        'og',
        'variants',
      ],
    })
    expect(records).toHaveLength(4)

    const shape = (ls: Link[]) =>
      ls
        .map((l) => ({
          destinationUrl: l.destinationUrl,
          title: l.title,
          tags: l.tags,
          expiresAt: l.expiresAt,
          expiredUrl: l.expiredUrl,
          maxClicks: l.maxClicks,
          startsAt: l.startsAt,
          forwardQuery: l.forwardQuery,
          rules: l.rules,
          variants: l.variants,
        }))
        .sort((a, b) => a.destinationUrl.localeCompare(b.destinationUrl))
    const original = await linksTagged('exp', d, src.ownerKey)

    // Another daemon: the short codes come along.
    const other = await startTestDaemon()
    try {
      const r = await importRun({ file: out }, { daemon: other })
      expect(r).toMatchObject({ code: 0, stdout: 'Created 3 links; 0 failed\n' })
      const copied = await linksTagged('exp', other)
      expect(shape(copied)).toEqual(shape(original))
      expect(copied.map((l) => l.shortCode).sort()).toEqual(original.map((l) => l.shortCode).sort())
    } finally {
      await other.close()
    }

    // Another organization on the same daemon: the codes are taken, so new ones are generated.
    const dst = await d.testApp.createOrg('export-dst')
    const taken = await importRun({ file: out }, { key: dst.ownerKey })
    expect(taken.code).toBe(1)
    const fresh = await importRun({ file: out, generateCodes: true }, { key: dst.ownerKey })
    expect(fresh.code).toBe(0)
    const copied = await linksTagged('exp', d, dst.ownerKey)
    expect(shape(copied)).toEqual(shape(original))
    expect(copied.map((l) => l.shortCode)).not.toContain('exp-one')
  })

  it('passwords: exported as passwordProtected only; such a row needs a password column to import; og comes along', async () => {
    const org = await d.testApp.createOrg('export-passwords')
    const og = { title: 'Preview', description: null, imageUrl: 'https://example.com/og.png' }
    const secret = 'export-secret-1'
    await d.testApp.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/p1', tags: ['pw'], password: secret, og },
      key: org.ownerKey,
    })
    const out = join(tmp.dir, 'passwords.csv')
    await runLinksExport({ output: out }, as({ key: org.ownerKey }).ctx)
    const text = readFileSync(out, 'utf8')
    expect(text).not.toContain(secret)
    expect(text).not.toContain('scrypt')
    const [header, row] = parseCsv(text)
    const names = header && 'fields' in header ? header.fields : []
    const fields = row && 'fields' in row ? row.fields : []
    expect(fields[names.indexOf('passwordProtected')]).toBe('true')
    expect(JSON.parse(fields[names.indexOf('og')] ?? '')).toEqual(og)

    const dst = await d.testApp.createOrg('import-passwords')
    const refused = await importRun({ file: out, generateCodes: true }, { key: dst.ownerKey })
    expect(refused.code).toBe(1)
    expect(refused.stdout + refused.stderr).toContain('exports never carry the password')
    expect(await linksTagged('pw', d, dst.ownerKey)).toEqual([])

    const withPassword = join(tmp.dir, 'with-password.csv')
    writeFileSync(
      withPassword,
      `destinationUrl,tags,password,og\nhttps://example.com/p2,pw,new secret 2,"${JSON.stringify(og).replace(/"/g, '""')}"\n`,
    )
    const imported = await importRun({ file: withPassword }, { key: dst.ownerKey })
    expect(imported.code, imported.stderr).toBe(0)
    const [copy] = await linksTagged('pw', d, dst.ownerKey)
    expect(copy?.passwordProtected).toBe(true)
    expect(copy?.og).toEqual(og)
  })

  it('CSV: text a spreadsheet would run as a formula is written with a leading apostrophe, and import takes it off', async () => {
    const org = await d.testApp.createOrg('export-formulas')
    const title = '=HYPERLINK("https://evil.example","open")'
    const tags = ['@cmd', '+1', '-2', "'=quoted"]
    await d.testApp.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/f1', title, tags },
      key: org.ownerKey,
    })
    const out = join(tmp.dir, 'formulas.csv')
    await runLinksExport({ output: out }, as({ key: org.ownerKey }).ctx)
    const text = readFileSync(out, 'utf8')
    const [, row] = parseCsv(text)
    // The same cells as the analytics export's writer: nothing starts with = + - @ in a cell.
    const fields = row && 'fields' in row ? row.fields : []
    expect([fields[1], fields[3]]).toEqual([`'${title}`, `'@cmd;+1;-2;'=quoted`])
    expect(text).toContain('\r\n')

    const again = await d.testApp.createOrg('export-formulas-again')
    const imported = await importRun({ file: out, generateCodes: true }, { key: again.ownerKey })
    expect(imported.code, imported.stderr).toBe(0)
    const [copy] = await linksTagged('@cmd', d, again.ownerKey)
    expect(copy?.title).toBe(title)
    expect(copy?.tags).toEqual(tags)
  })

  it('JSON: an array of link objects on stdout ([] when there are none)', async () => {
    const empty = await d.testApp.createOrg('export-empty')
    const none = as({ key: empty.ownerKey })
    await runLinksExport({ format: 'json' }, none.ctx)
    expect(JSON.parse(none.out.text)).toEqual([])

    const org = await d.testApp.createOrg('export-json')
    for (let i = 0; i < 105; i++) {
      d.clock.advance(1)
      await d.testApp.call('POST', '/api/use/links', {
        body: { destinationUrl: `https://example.com/j${i}` },
        key: org.ownerKey,
      })
    }
    const t = as({ key: org.ownerKey })
    await runLinksExport({ format: 'json' }, t.ctx)
    expect(t.err.text).toBe('') // no progress bar when stderr is not a terminal
    const tty = as({ key: org.ownerKey, isTTY: true })
    const out = join(tmp.dir, 'all.json')
    await runLinksExport({ output: out }, tty.ctx)
    expect(tty.err.text).toMatch(/Exporting \[#+\] 100% 105\/105 links/)
    expect(tty.err.text.endsWith(`\r\x1b[KExported 105 links to ${out}\n`)).toBe(true)
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveLength(105)
    const all = JSON.parse(t.out.text) as Link[]
    expect(all).toHaveLength(105)
    expect(new Set(all.map((l) => l.id)).size).toBe(105)
    expect(all[0]?.destinationUrl).toBe('https://example.com/j0')
  })

  it('JSON export → import: the array `--format json` writes is read back, rows by position', async () => {
    const src = await d.testApp.createOrg('export-json-src')
    for (const body of [
      { destinationUrl: 'https://example.com/ja1', customSlug: 'json-arr-1', tags: ['jarr'] },
      {
        destinationUrl: 'https://example.com/ja2',
        tags: ['jarr'],
        variants: [
          { destinationUrl: 'https://example.com/ja2a', weight: 60 },
          { destinationUrl: 'https://example.com/ja2b', weight: 40 },
        ],
      },
    ])
      await d.testApp.call('POST', '/api/use/links', { body, key: src.ownerKey })
    const disabled = (await linksTagged('jarr', d, src.ownerKey)).find((l) => l.shortCode === 'json-arr-1')!
    await d.testApp.call('PATCH', `/api/use/links/${disabled.id}`, {
      body: { status: 'inactive' },
      key: src.ownerKey,
    })
    const out = join(tmp.dir, 'round.json')
    await runLinksExport({ output: out }, as({ key: src.ownerKey }).ctx)
    const original = await linksTagged('jarr', d, src.ownerKey)

    const dst = await d.testApp.createOrg('export-json-dst')
    const r = await importRun({ file: out, generateCodes: true }, { key: dst.ownerKey })
    expect(r).toMatchObject({ code: 0, stdout: 'Created 2 links; 0 failed\n' })
    const copied = await linksTagged('jarr', d, dst.ownerKey)
    const shape = (ls: Link[]) => ls.map((l) => [l.destinationUrl, l.status, l.variants]).sort()
    expect(shape(copied)).toEqual(shape(original))

    // The codes are taken in this organization: each row fails by its position in the array.
    const again = await importRun({ file: out }, { key: src.ownerKey })
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/^line 1: short code "[^"]+" is already in use/m)
    expect(again.stderr).toMatch(/^line 2: short code "[^"]+" is already in use/m)
  })
})
