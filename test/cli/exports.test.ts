/** linkctl export events|clicks and exports destinations against the real daemon (and s3rver). */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExportDestination } from '../../src/contract/raw-export.js'
import { exitCodeFor } from '../../src/session/exit-codes.js'
import { runRawExport } from '../../src/cli/commands/export/index.js'
import {
  runExportsAdd,
  runExportsList,
  runExportsRemove,
  runExportsRun,
} from '../../src/cli/commands/exports/index.js'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { cli, tempDir, testCtx } from '../support/cli.js'
import { duckPath, duckRows } from '../support/duckdb.js'
import { flush, makeLink, visit } from '../support/redirect.js'
import { S3RVER_KEY, startS3, type TestS3 } from '../support/s3.js'

let d: TestDaemon
let s3: TestS3
let dir: ReturnType<typeof tempDir>
beforeAll(async () => {
  d = await startTestDaemon()
  s3 = await startS3(['cli-lake'])
  dir = tempDir()
  const t = d.testApp
  await makeLink(t, { customSlug: 'cli' })
  for (let i = 0; i < 25; i++) {
    t.clock.advance(1000)
    expect((await visit(t, 'cli', { ip: `192.0.2.${i}` })).statusCode).toBe(302)
  }
  await flush(t)
}, 60_000)
afterAll(async () => {
  dir.remove()
  await s3.close()
  await d.close()
})

const as = (opts: { json?: boolean; isTTY?: boolean; env?: NodeJS.ProcessEnv } = {}) =>
  testCtx({
    flags: { url: d.url, apiKey: d.ownerKey },
    json: opts.json ?? false,
    isTTY: opts.isTTY ?? false,
    env: { NO_COLOR: '1', ...opts.env },
  })

describe('linkctl export', () => {
  it('clicks -o FILE.parquet: the file DuckDB reads; a progress line on a terminal only', async () => {
    const file = join(dir.dir, 'clicks.parquet')
    const tty = as({ isTTY: true })
    await runRawExport('clicks', { output: file }, tty.ctx)
    const [row] = await duckRows(`SELECT count(*) AS n FROM read_parquet(${duckPath(file)})`)
    expect(row).toEqual({ n: 25n })
    expect(tty.err.text).toMatch(/Exporting \d+ bytes/)
    // The summary counts Parquet rows as it counts the text formats' (read from the file's footer).
    expect(tty.err.text).toMatch(/Exported 25 rows, \d+\.\d KB to /)
    const json = as({ json: true })
    await runRawExport('clicks', { output: join(dir.dir, 'c.parquet') }, json.ctx)
    expect(JSON.parse(json.out.text)).toMatchObject({ format: 'parquet', rows: 25 })
    // Piped: no progress line; --json: a summary, no progress even on a terminal.
    const piped = as()
    await runRawExport('clicks', { output: join(dir.dir, 'c.csv') }, piped.ctx)
    expect(piped.err.text).not.toContain('Exporting 1')
    // The summary gives a small file's size in KB, not as 0.0 MB.
    expect(piped.err.text).toMatch(/^Exported 25 rows, \d+\.\d KB to /m)
    const lines = readFileSync(join(dir.dir, 'c.csv'), 'utf8').trimEnd().split('\r\n')
    expect(lines[0]).toMatch(/^clickId,linkId,ts,/)
    expect(lines).toHaveLength(26)
    const ndjson = as({ json: true, isTTY: true })
    await runRawExport('clicks', { output: join(dir.dir, 'c.ndjson') }, ndjson.ctx)
    expect(JSON.parse(ndjson.out.text)).toMatchObject({ format: 'ndjson', rows: 25 })
    expect(ndjson.err.text).toBe('')
  })

  it('events needs its game, an argument as in analytics (exit 2); an unknown game is exit 5 and leaves no file', async () => {
    const flags = ['--url', d.url, '--api-key', d.ownerKey, '-o', join(dir.dir, 'x')]
    const res = await cli(['export', 'events', ...flags])
    expect(res.code).toBe(2)
    expect(res.stderr).toBe("error: missing required argument 'game'\n")
    // The option other commands take is refused with the way to give it.
    const option = await cli(['export', 'events', '--game', 'g', ...flags])
    expect(option.code).toBe(2)
    expect(option.stderr).toContain("the game is this command's first argument: linkctl export events")
    expect(() => readFileSync(join(dir.dir, 'x'))).toThrow()
    const c = as()
    const err = await runRawExport(
      'events',
      { game: 'nope', output: join(dir.dir, 'none.ndjson') },
      c.ctx,
    ).catch((e: unknown) => e)
    expect(exitCodeFor(err)).toBe(5)
    expect(() => readFileSync(join(dir.dir, 'none.ndjson'))).toThrow()
  })

  it('-o naming a directory, or a file in a missing one, is a usage error that says which (no temporary name)', async () => {
    const attempt = (output: string) =>
      cli(['export', 'clicks', '--url', d.url, '--api-key', d.ownerKey, '-o', output])
    for (const output of [dir.dir, `${dir.dir}/`]) {
      const res = await attempt(output)
      expect(res.code, res.stderr).toBe(2)
      expect(res.stderr).toBe(`error: cannot write ${output}: it is a directory; name a file in it\n`)
    }
    const missing = join(dir.dir, 'no-such-dir', 'clicks.csv')
    const res = await attempt(missing)
    expect(res.code, res.stderr).toBe(2)
    expect(res.stderr).toBe(
      `error: cannot write ${missing}: there is no directory ${join(dir.dir, 'no-such-dir')}\n`,
    )
    const empty = await attempt('')
    expect([empty.code, empty.stderr]).toEqual([
      2,
      'error: -o/--output needs a file name (or - for stdout)\n',
    ])
    expect(readdirSync(dir.dir).filter((f) => f.includes('.tmp-'))).toEqual([])
  })

  it('clicks --link takes a short code or short URL, like the links commands', async () => {
    const page = await d.testApp.call('GET', '/api/use/links?search=cli')
    const shortUrl = page.json<{ data: Array<{ shortUrl: string }> }>().data[0]!.shortUrl
    for (const ref of ['cli', shortUrl]) {
      const c = as({ json: true })
      await runRawExport('clicks', { link: ref, output: join(dir.dir, 'one.csv') }, c.ctx)
      expect(JSON.parse(c.out.text)).toMatchObject({ format: 'csv', rows: 25 })
    }
    // A smart link's code too (its clicks are exported under its sml_ id).
    const smart = await d.testApp.call('POST', '/api/use/smart-links', {
      body: { fallbackUrl: 'https://example.com/fallback', shortCode: 'cli-smart' },
    })
    expect(smart.statusCode, smart.body).toBe(201)
    const s = as({ json: true })
    await runRawExport('clicks', { link: 'cli-smart', output: join(dir.dir, 'smart.csv') }, s.ctx)
    expect(JSON.parse(s.out.text)).toMatchObject({ format: 'csv', rows: 0 })
    const err = await runRawExport('clicks', { link: 'no-such-code' }, as().ctx).catch((e: unknown) => e)
    expect(exitCodeFor(err)).toBe(5)
    expect((err as Error).message).toBe('no link or smart link with the id or short code "no-such-code"')
  })
})

describe('linkctl export date flags', () => {
  it('--start-date/--end-date as the analytics verbs take them; --from/--to still work, hidden', async () => {
    const day = new Date(d.testApp.clock.now()).toISOString().slice(0, 10)
    const before = new Date(d.testApp.clock.now() - 86_400_000).toISOString().slice(0, 10)
    const rows = async (...flags: string[]) => {
      const file = join(dir.dir, 'range.csv')
      const res = await cli([
        'export',
        'clicks',
        '--url',
        d.url,
        '--api-key',
        d.ownerKey,
        '--json',
        '-o',
        file,
        ...flags,
      ])
      expect(res.code, res.stderr).toBe(0)
      return (JSON.parse(res.stdout) as { rows: number }).rows
    }
    expect(await rows('--start-date', day, '--end-date', day)).toBe(25)
    expect(await rows('--start-date', before, '--end-date', before)).toBe(0)
    expect(await rows('--from', day, '--to', day)).toBe(25)
    expect(await rows('--from', before, '--to', before)).toBe(0)
    const both = await cli(['export', 'clicks', '--from', before, '--start-date', day])
    expect(both.code).toBe(2)
    expect(both.stderr).toMatch(/--from.*cannot be used with.*--start-date/)
    const bad = await cli(['export', 'events', 'g', '--start-date', '2026-02-30'])
    expect(bad.code).toBe(2)
    for (const dataset of ['events', 'clicks']) {
      const help = (await cli(['export', dataset, '--help'])).stdout
      expect(help).toContain('--start-date <date>')
      expect(help).toContain('--end-date <date>')
      expect(help).not.toMatch(/--from|--to\b/)
    }
  })
})

describe('linkctl exports destinations', () => {
  it('add (secret from the environment), list, run, remove', async () => {
    const add = as({ json: true, env: { AWS_SECRET_ACCESS_KEY: S3RVER_KEY.secretAccessKey } })
    await runExportsAdd(
      {
        endpoint: s3.endpoint,
        bucket: 'cli-lake',
        prefix: 'x',
        accessKeyId: S3RVER_KEY.accessKeyId,
        datasets: ['clicks'],
        format: 'ndjson',
      },
      add.ctx,
    )
    const created = JSON.parse(add.out.text) as ExportDestination
    expect(created.id).toMatch(/^exd_/)
    expect(add.out.text).not.toContain('secretAccessKey')
    const today = new Date(d.clock.now()).toISOString().slice(0, 10)
    const run = as()
    await runExportsRun({ id: created.id, date: today }, run.ctx)
    expect(run.out.text).toContain(`x/clicks/date=${today}/part-0.ndjson`)
    expect(await s3.keys('cli-lake')).toEqual([`x/clicks/date=${today}/part-0.ndjson`])
    const list = as()
    await runExportsList({}, list.ctx)
    expect(list.out.text).toContain(created.id)
    expect(list.out.text).toContain(today)
    const rm = as()
    await runExportsRemove({ id: created.id, yes: true }, rm.ctx)
    expect(rm.err.text).toContain('Removed')
    const again = await runExportsRemove({ id: created.id, yes: true }, as().ctx).catch((e: unknown) => e)
    expect(exitCodeFor(again)).toBe(5)
  })

  it('list takes the list flags of every list verb (--limit, --all) and says what it left out', async () => {
    for (const bucket of ['cli-lake', 'cli-lake']) {
      const add = as({ json: true })
      await runExportsAdd({ bucket, ...S3RVER_KEY, datasets: ['clicks'] }, add.ctx)
    }
    const env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey }
    const one = await cli(['exports', 'destinations', 'list', '--limit', '1'], { env })
    expect(one.code, one.stderr).toBe(0)
    expect(one.stdout.trimEnd().split('\n')).toHaveLength(2)
    expect(one.stderr).toMatch(/showing 1 of 2/)
    const all = await cli(['exports', 'destinations', 'list', '--all', '--json'], { env })
    expect(JSON.parse(all.stdout)).toMatchObject({ total: 2, hasMore: false })
  })

  it("a store's refusal is printed with one HTTP status: the store's, which the message names", async () => {
    const add = as({ json: true })
    await runExportsAdd(
      { endpoint: s3.endpoint, bucket: 'no-such-bucket', ...S3RVER_KEY, datasets: ['clicks'] },
      add.ctx,
    )
    const { id } = JSON.parse(add.out.text) as ExportDestination
    const env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey }
    const res = await cli(['exports', 'destinations', 'run', id], { env })
    expect(res.code).toBe(1) // linkd's 503
    expect(res.stderr).toMatch(
      /^error: the export of \d{4}-\d\d-\d\d to bucket no-such-bucket failed: NoSuchBucket: .* \(HTTP 404\)\n$/,
    )
    await runExportsRemove({ id, yes: true }, as().ctx)
  })

  it('add refused for a field it sets by a flag names the flag: raw_events without --game', async () => {
    const env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey }
    const res = await cli(
      ['exports', 'destinations', 'add', '--bucket', 'cli-lake', '--datasets', 'raw_events'],
      { env: { ...env, AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' } },
    )
    expect(res.code).toBe(1)
    expect(res.stderr).toBe('error: --game is required to export raw_events (HTTP 400)\n')
  })

  it('add without a secret is a usage error (exit 2)', async () => {
    const err = await runExportsAdd(
      { bucket: 'cli-lake', accessKeyId: 'a', datasets: ['clicks'] },
      as().ctx,
    ).catch((e: unknown) => e)
    expect(exitCodeFor(err)).toBe(2)
  })
})
