/**
 * `links import` re-run after fixing rows, against the real daemon: --failed-out writes the
 * failed rows in the input's format with the reason, --skip-existing leaves out rows whose link
 * exists, and after fixing the failed file every row exists exactly once.
 */
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
import { parseCsv } from '../../../src/contract/csv.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { cli, tempDir, testCtx } from '../../support/cli.js'

let d: TestDaemon
const tmp = tempDir('linkctl-rerun-')
beforeAll(async () => {
  d = await startTestDaemon()
})
afterAll(async () => {
  await d.close()
  tmp.remove()
})

async function importRun(opts: ImportOpts, isTTY = false) {
  const t = testCtx({
    flags: { url: d.url, apiKey: d.ownerKey },
    json: !isTTY,
    isTTY,
    env: { NO_COLOR: '1' },
  })
  let code = 0
  try {
    await runLinksImport(opts, t.ctx)
  } catch (err) {
    code = exitCodeFor(err)
    t.err.write(`error: ${(err as Error).message}\n`)
  }
  return { code, stdout: t.out.text, stderr: t.err.text }
}

async function linksTagged(tag: string): Promise<Link[]> {
  const r = await cli(['links', 'list', '--json', '--tag', tag, '--all'], {
    env: { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey },
  })
  expect(r.code, r.stderr).toBe(0)
  return (JSON.parse(r.stdout) as PageOf<Link>).data
}

function file(name: string, text: string): string {
  const path = join(tmp.dir, name)
  writeFileSync(path, text)
  return path
}

describe('links import --failed-out and --skip-existing', () => {
  it('CSV: import, fix the failed file, import it with --skip-existing: every row exists once', async () => {
    // An extra column (note) is kept in the failed file; rows 3, 5 and 6 fail (bad URL, bad
    // date, wrong field count), row 4 fails on a custom code already taken by row 2.
    const input = file(
      'links.csv',
      'destinationUrl,title,customSlug,tags,expiresAt,note\n' +
        'https://example.com/r1,One,rerun-one,rerun,,keep me\n' +
        'ftp://example.com/r2,Two,,rerun,,x\n' +
        'https://example.com/r3,Three,rerun-one,rerun,,y\n' +
        'https://example.com/r4,Four,,rerun,someday,z\n' +
        'https://example.com/r5,Five\n' +
        'https://example.com/r6,"Six, with a comma",,rerun,,w\n',
    )
    const failedPath = join(tmp.dir, 'failed.csv')
    const first = await importRun({ file: input, failedOut: failedPath })
    expect(first.code).toBe(1)
    expect(JSON.parse(first.stdout)).toMatchObject({ created: 2, failed: 4, skipped: 0 })
    expect(first.stderr).toContain(`they are in ${failedPath}: fix them and run`)

    const failed = parseCsv(readFileSync(failedPath, 'utf8'))
    const fields = failed.map((r) => ('fields' in r ? r.fields : []))
    expect(fields[0]).toEqual(['destinationUrl', 'title', 'customSlug', 'tags', 'expiresAt', 'note', 'error'])
    expect(fields.slice(1).map((f) => f.slice(0, 6))).toEqual([
      ['ftp://example.com/r2', 'Two', '', 'rerun', '', 'x'],
      ['https://example.com/r3', 'Three', 'rerun-one', 'rerun', '', 'y'],
      ['https://example.com/r4', 'Four', '', 'rerun', 'someday', 'z'],
      ['https://example.com/r5', 'Five', '', '', '', ''],
    ])
    expect(fields[1]?.[6]).toMatch(/^line 3: .*destinationUrl/)
    expect(fields[2]?.[6]).toMatch(/^line 4: /)
    expect(fields[3]?.[6]).toMatch(/^line 5: expiresAt/)
    expect(fields[4]?.[6]).toMatch(/^line 6: expected 6 fields/)

    // Fixed by hand: the URL, the date and the missing fields; row 4's code is left as it was,
    // so --skip-existing leaves that row out (its code has a link) instead of failing it.
    const fixed = readFileSync(failedPath, 'utf8')
      .replace('ftp://example.com/r2', 'https://example.com/r2')
      .replace('someday', '30d')
      .replace(/https:\/\/example\.com\/r5,Five,*/, 'https://example.com/r5,Five,,rerun,,v,')
    writeFileSync(failedPath, fixed)
    const again = await importRun({
      file: failedPath,
      skipExisting: true,
      failedOut: join(tmp.dir, 'f2.csv'),
    })
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 3, skipped: 1, failed: 0 })
    expect(readFileSync(join(tmp.dir, 'f2.csv'), 'utf8')).toBe('')

    // The unfixed original again: the rows whose links exist are skipped, the broken ones fail.
    const third = await importRun({ file: input, skipExisting: true })
    expect(JSON.parse(third.stdout)).toMatchObject({ created: 0, skipped: 3, failed: 3 })

    const links = await linksTagged('rerun')
    const destinations = links.map((l) => l.destinationUrl).sort()
    expect(destinations).toEqual([1, 2, 4, 5, 6].map((n) => `https://example.com/r${n}`))
  })

  it('CSV: a record that does not parse is written back as it was, to fix and re-import', async () => {
    const input = file(
      'malformed.csv',
      'destinationUrl,title,tags\n' +
        'https://example.com/m1,Fo"ur,malformed\n' +
        'https://example.com/m2,"Two, ok",malformed\r\n',
    )
    const failedPath = join(tmp.dir, 'malformed-failed.csv')
    const first = await importRun({ file: input, failedOut: failedPath })
    expect(JSON.parse(first.stdout)).toMatchObject({ created: 1, failed: 1 })
    const lines = readFileSync(failedPath, 'utf8').split('\r\n')
    expect(lines[0]).toBe('destinationUrl,title,tags,error')
    expect(lines[1]).toMatch(/^https:\/\/example\.com\/m1,Fo"ur,malformed,"?line 2: unexpected quote/)

    writeFileSync(failedPath, readFileSync(failedPath, 'utf8').replace('Fo"ur', '"Fo""ur"'))
    const again = await importRun({ file: failedPath })
    expect(again.code, again.stderr).toBe(0)
    expect((await linksTagged('malformed')).map((l) => l.title).sort()).toEqual(['Fo"ur', 'Two, ok'])
  })

  it('JSON lines: the failed file holds each object with an error field, and re-imports', async () => {
    const input = file(
      'links.jsonl',
      [
        JSON.stringify({ destinationUrl: 'https://example.com/j1', tags: ['rerun-j'] }),
        JSON.stringify({ destinationUrl: 'javascript:alert(1)', tags: ['rerun-j'], title: 'bad' }),
        '{not json',
        JSON.stringify({ destinationUrl: 'https://example.com/j1', tags: ['rerun-j'] }),
      ].join('\n'),
    )
    const failedPath = join(tmp.dir, 'failed.jsonl')
    const first = await importRun({ file: input, failedOut: failedPath, skipExisting: true })
    expect(first.code).toBe(1)
    // The repeated row 4 is skipped: its destination was created by row 1 of this run.
    expect(JSON.parse(first.stdout) as ImportSummary).toMatchObject({ created: 1, skipped: 1, failed: 2 })
    const lines = readFileSync(failedPath, 'utf8').trimEnd().split('\n')
    const objects = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(objects[0]).toMatchObject({
      destinationUrl: 'javascript:alert(1)',
      title: 'bad',
      tags: ['rerun-j'],
    })
    expect(objects[0]?.error).toMatch(/^line 2: /)
    expect(objects[1]).toEqual({ input: '{not json', error: expect.stringMatching(/^line 3: invalid JSON/) })

    writeFileSync(
      failedPath,
      `${JSON.stringify({ ...objects[0], destinationUrl: 'https://example.com/j2' })}\n` +
        `${JSON.stringify({ destinationUrl: 'https://example.com/j3', tags: ['rerun-j'], error: 'fixed' })}\n`,
    )
    const again = await importRun({ file: failedPath, skipExisting: true })
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 2, skipped: 0, failed: 0 })
    const destinations = (await linksTagged('rerun-j')).map((l) => l.destinationUrl).sort()
    expect(destinations).toEqual([
      'https://example.com/j1',
      'https://example.com/j2',
      'https://example.com/j3',
    ])
  })

  it('--skip-existing skips by short code, by destination only a row without one, and names every skipped row', async () => {
    // An expired link to the destination the rows share, with the code one row asks for again.
    const made = await cli(
      [
        'links',
        'create',
        'https://example.com/dup',
        '--short-code',
        'dup-old',
        '--expires-at',
        '1h',
        '--json',
      ],
      { env: { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey } },
    )
    expect(made.code, made.stderr).toBe(0)
    const expired = JSON.parse(made.stdout) as Link
    d.testApp.clock.advance(2 * 3_600_000)
    const input = file(
      'skips.csv',
      'destinationUrl,title,customSlug,tags,expiresAt\n' +
        'https://example.com/dup,New code,dup-new,skipx,\n' +
        'https://example.com/dup,Old code,dup-old,skipx,\n' +
        'https://example.com/dup,,,skipx,\n' +
        'https://example.com/fresh,,,skipx,\n' +
        'https://example.com/fresh,,,skipx,\n' +
        'https://example.com/other,,dup-new,skipx,\n',
    )
    const skippedRows = [
      { line: 3, shortCode: 'dup-old', reason: `short code "dup-old" is already in use (${expired.id})` },
      {
        line: 4,
        shortCode: null,
        reason: `no short code, and ${expired.id} already goes to https://example.com/dup`,
      },
      {
        line: 6,
        shortCode: null,
        reason: 'no short code, and line 5 already goes to https://example.com/fresh',
      },
      { line: 7, shortCode: 'dup-new', reason: 'short code "dup-new" is already in use (line 2)' },
    ]
    const r = await importRun({ file: input, skipExisting: true })
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({
      dryRun: false,
      created: 2,
      replayed: 0,
      skipped: 4,
      failed: 0,
      errors: [],
      skippedRows,
    })
    // The row with a new code was created, though an (expired) link goes to the same destination.
    const created = await linksTagged('skipx')
    const byDestination = created.map((l) => [l.destinationUrl, l.shortCode]).sort()
    expect(byDestination).toEqual([
      ['https://example.com/dup', 'dup-new'],
      ['https://example.com/fresh', expect.stringMatching(/^\w{7}$/)],
    ])

    // Without --json: the summary line, then each skipped row with its line and why.
    const again = await importRun({ file: input, skipExisting: true }, true)
    const lines = again.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe('Created 0 links; 6 skipped (already there); 0 failed')
    const dupNew = created.find((l) => l.shortCode === 'dup-new')?.id
    expect(lines.slice(1, 3)).toEqual([
      `skipped line 2: short code "dup-new" is already in use (${dupNew})`,
      `skipped line 3: short code "dup-old" is already in use (${expired.id})`,
    ])
    expect(lines.slice(3).map((l) => l.replace(/ \(.*|, and .*/, ''))).toEqual([
      'skipped line 4: no short code',
      'skipped line 5: no short code',
      'skipped line 6: no short code',
      'skipped line 7: short code "dup-new" is already in use',
    ])
  })

  it('--skip-existing knows a destination linkd stored percent-encoded (typed with < > or non-ASCII)', async () => {
    const input = file(
      'encoded.csv',
      'destinationUrl,tags\nhttps://example.com/größe?q=<1>,encx\nhttps://example.com/plain,encx\n',
    )
    expect((await importRun({ file: input })).code).toBe(0)
    const created = await linksTagged('encx')
    expect(created.map((l) => l.destinationUrl).sort()).toEqual([
      'https://example.com/gr%C3%B6%C3%9Fe?q=%3C1%3E',
      'https://example.com/plain',
    ])
    const again = await importRun({ file: input, skipExisting: true })
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, skipped: 2 })
    expect(await linksTagged('encx')).toHaveLength(2)
  })

  it('the progress bar counts rows of the file, not bytes', async () => {
    const rows = Array.from({ length: 7 }, (_, i) => `https://example.com/p${i},P${i},,rerun-p,`)
    const input = file('progress.csv', `destinationUrl,title,customSlug,tags,expiresAt\n${rows.join('\n')}\n`)
    const r = await importRun({ file: input, chunkSize: 3 }, true)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('7/7 rows: 7 created, 0 failed')
    expect(r.stderr).not.toContain('bytes')
    expect(r.stdout).toBe('Created 7 links; 0 failed\n')
  })
})
