/** The pieces of `links import/export/open/stats` that need no daemon: CSV, rows, chunk keys, progress, flags. */
import { describe, expect, it } from 'vitest'
import { parseCsv, CsvParser, type CsvRecord } from '../../../src/contract/csv.js'
import { csvCell as csvField, csvRow } from '../../../src/contract/csv.js'
import { chunkKey, reason } from '../../../src/cli/commands/links/import.js'
import { createProgress, progressLine, renderBar } from '../../../src/cli/progress.js'
import { browserCommand } from '../../../src/cli/commands/links/open.js'
import { createBody, metaArg, updateBody } from '../../../src/cli/commands/links/shared.js'
import { collectTag, parseInstant } from '../../../src/cli/parse.js'
import { UsageError } from '../../../src/session/exit-codes.js'
import { csvRows, ImportFileError, jsonlRows, type Row } from '../../../src/import/index.js'
import { runLinksImport } from '../../../src/cli/commands/links/import.js'
import { exitCodeFor } from '../../../src/session/exit-codes.js'
import { capture, errorReply, stubServer, testCtx, type Recorded } from '../../support/cli.js'

async function* chunks(...parts: string[]): AsyncGenerator<string> {
  for (const p of parts) yield p
}
/** The rows of a reader, without the record each was read from (tested with --failed-out). */
async function all(gen: AsyncGenerator<Row>): Promise<Row[]> {
  const out: Row[] = []
  for await (const { source: _source, ...r } of gen) out.push(r)
  return out
}
/** Feeds `text` one character at a time: every chunk boundary is exercised. */
function parseByChar(text: string): CsvRecord[] {
  const p = new CsvParser()
  const out: CsvRecord[] = []
  for (const c of text) out.push(...p.push(c))
  return [...out, ...p.end()]
}

describe('CSV parser (RFC 4180)', () => {
  it('plain records with their line numbers; blank lines skipped; no final newline needed', () => {
    expect(parseCsv('a,b,c\n1,2,3\n\n4,,6')).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', '2', '3'] },
      { line: 4, fields: ['4', '', '6'] },
    ])
  })

  it('quoted fields hold commas, doubled quotes and line breaks; the next record keeps its own line', () => {
    const text = 'x,y\n"a, b","say ""hi"""\n"multi\nline\nvalue",z\nlast,"" \n'
    const expected = [
      { line: 1, fields: ['x', 'y'] },
      { line: 2, fields: ['a, b', 'say "hi"'] },
      { line: 3, fields: ['multi\nline\nvalue', 'z'] },
      { line: 6, fields: ['last', ''] },
    ]
    // `"" ` (a character after the closing quote) is malformed: reported on line 6.
    expect(parseCsv(text)).toEqual([
      ...expected.slice(0, 3),
      { line: 6, error: expect.stringMatching(/after a closing quote/), text: 'last,"" ' },
    ])
    expect(parseCsv('x,y\n"a, b","say ""hi"""\n"multi\nline\nvalue",z\nlast,""\n')).toEqual(expected)
  })

  it('CRLF and lone CR line ends, a BOM, and chunk boundaries anywhere', () => {
    const text =
      '\ufeffdestinationUrl,title\r\nhttps://a.example,"two\r\nlines"\r\n\r\nhttps://b.example,B\rhttps://c.example,C'
    const expected = [
      { line: 1, fields: ['destinationUrl', 'title'] },
      { line: 2, fields: ['https://a.example', 'two\r\nlines'] },
      { line: 5, fields: ['https://b.example', 'B'] },
      { line: 6, fields: ['https://c.example', 'C'] },
    ]
    expect(parseCsv(text)).toEqual(expected)
    expect(parseByChar(text)).toEqual(expected)
  })

  it('malformed records are errors with their line, and parsing goes on at the next line', () => {
    expect(parseCsv('a,b\nab"c,d\nok,1\n"open\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, error: expect.stringMatching(/unexpected quote/), text: 'ab"c,d' },
      { line: 3, fields: ['ok', '1'] },
      { line: 4, error: 'unterminated quoted field', text: '"open\n' },
    ])
  })

  it('empty fields: a lone comma is two empty fields, a lone "" one empty field', () => {
    expect(parseCsv(',\n""\n')).toEqual([
      { line: 1, fields: ['', ''] },
      { line: 2, fields: [''] },
    ])
  })

  it('writer: quotes only what needs quoting, and the parser reads it back', () => {
    expect(csvField('plain')).toBe('plain')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField(' edge')).toBe('" edge"')
    expect(csvField(null)).toBe('')
    const values = ['a,b', 'say "hi"', 'two\nlines', '', 'x']
    expect(parseCsv(csvRow(values) + csvRow(['1', '2', '3', '4', '5']))).toEqual([
      { line: 1, fields: values },
      { line: 3, fields: ['1', '2', '3', '4', '5'] },
    ])
  })
})

describe('import rows', () => {
  it('CSV: header columns in any order, extra columns ignored, tags split on ; and |, line numbers kept', async () => {
    const text =
      'title,destinationUrl,tags,customSlug,expiresAt,clicks\n' +
      'First,https://a.example, x ; y|x ,first-one,2030-01-01,5\n' +
      '"Multi\nline",https://b.example,,,,\n' +
      ',,,,,\n' +
      'Short,https://c.example\n' +
      'Bad date,https://d.example,,,next week,\n'
    const rows = await all(csvRows(chunks(text.slice(0, 37), text.slice(37))))
    expect(rows).toEqual([
      {
        line: 2,
        body: {
          destinationUrl: 'https://a.example',
          title: 'First',
          customSlug: 'first-one',
          tags: ['x', 'y'],
          expiresAt: '2030-01-01T00:00:00.000Z',
        },
      },
      { line: 3, body: { destinationUrl: 'https://b.example', title: 'Multi\nline' } },
      { line: 5, error: 'ValidationError', message: 'destinationUrl: is empty' },
      { line: 6, error: 'ParseError', message: 'expected 6 fields like the header, found 2' },
      {
        line: 7,
        error: 'ValidationError',
        message: expect.stringMatching(/^expiresAt: expected an ISO date/),
      },
    ])
  })

  it('CSV: --generate-codes drops customSlug; a header without destinationUrl stops the import', async () => {
    const rows = await all(
      csvRows(chunks('destinationUrl,customSlug\nhttps://a.example,abc\n'), { generateCodes: true }),
    )
    expect(rows).toEqual([{ line: 2, body: { destinationUrl: 'https://a.example' } }])
    await expect(all(csvRows(chunks('url,title\nx,y\n')))).rejects.toThrow(
      /line 1: .*destinationUrl is missing/,
    )
    await expect(all(csvRows(chunks('url,title\nx,y\n')))).rejects.toBeInstanceOf(ImportFileError)
  })

  it('JSON lines: objects per line, link objects mapped to create bodies, bad lines reported', async () => {
    const link = {
      id: 'lnk_1',
      shortUrl: 'http://s/abc1234',
      shortCode: 'abc1234',
      destinationUrl: 'https://a.example',
      title: null,
      status: 'active',
      clicks: 3,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      tags: ['t'],
      metadata: {},
      expiresAt: null,
      customDomainId: null,
      redirectType: 302,
    }
    const text = `\ufeff{"destinationUrl":"https://x.example","tags":["a"]}\r\n\n${JSON.stringify(link)}\n{oops\n[1]\n{"destinationUrl":"https://y.example"}`
    const rows = await all(jsonlRows(chunks(text.slice(0, 20), text.slice(20))))
    expect(rows).toEqual([
      { line: 1, body: { destinationUrl: 'https://x.example', tags: ['a'] } },
      {
        line: 3,
        body: {
          destinationUrl: 'https://a.example',
          title: null,
          customSlug: 'abc1234',
          tags: ['t'],
          metadata: {},
          expiresAt: null,
          redirectType: 302,
        },
        // Where the link was and when it was made: POST /api/use/links/import keeps them.
        host: 's',
        createdAt: '2026-01-01T00:00:00.000Z',
      },
      { line: 4, error: 'ParseError', message: expect.stringMatching(/^invalid JSON/) },
      { line: 5, error: 'ParseError', message: 'expected a JSON object' },
      { line: 6, body: { destinationUrl: 'https://y.example' } },
    ])
  })

  it('chunk keys depend on the chunk position and content only', () => {
    const a = chunkKey(2, [{ destinationUrl: 'https://a.example' }])
    expect(a).toMatch(/^linkctl-import-[0-9a-f]{40}$/)
    expect(chunkKey(2, [{ destinationUrl: 'https://a.example' }])).toBe(a)
    expect(chunkKey(502, [{ destinationUrl: 'https://a.example' }])).not.toBe(a)
    expect(chunkKey(2, [{ destinationUrl: 'https://b.example' }])).not.toBe(a)
  })

  it('reasons name the fields of validation details', () => {
    expect(reason({ error: 'Conflict', message: 'short code taken' })).toBe('short code taken')
    expect(
      reason({
        error: 'ValidationError',
        message: 'invalid',
        details: [{ field: 'destinationUrl', message: 'must be http(s)' }],
      }),
    ).toBe('invalid (destinationUrl: must be http(s))')
    expect(
      reason({
        error: 'ValidationError',
        message: 'expiresAt must be in the future',
        details: [{ field: 'expiresAt', message: 'must be in the future' }],
      }),
    ).toBe('expiresAt must be in the future')
    // "is required" of one field does not hide the same words about another.
    expect(
      reason({
        error: 'ValidationError',
        message: 'rules.0.conditions is required (and 1 more)',
        details: [
          { field: 'rules.0.conditions', message: 'is required' },
          { field: 'rules.0.destinationUrl', message: 'is required' },
        ],
      }),
    ).toBe('rules.0.conditions is required (and 1 more) (rules.0.destinationUrl: is required)')
  })
})

describe('progress bar', () => {
  it('renders a bar that fits the terminal', () => {
    expect(renderBar(0, 10, 10)).toBe('[----------]')
    expect(renderBar(5, 10, 10)).toBe('[#####-----]')
    expect(renderBar(12, 10, 4)).toBe('[####]')
    expect(progressLine('Importing', 50, 200, 'rows', 80)).toMatch(/^Importing \[#+-+\] {2}25% 50\/200 rows$/)
    expect(progressLine('Importing', 50, 200, 'rows', 80).length).toBeLessThan(80)
    expect(progressLine('Importing', 7, undefined, 'rows', 80)).toBe('Importing 7 rows')
  })

  it('on a terminal: redraws in place, logs above the bar, erases itself; otherwise plain lines only', () => {
    let t = 0
    const tty = { ...capture(true), columns: 60 }
    const p = createProgress(tty, { label: 'Working', enabled: true, now: () => t })
    p.update(1, 4)
    p.update(2, 4) // throttled: same instant
    t = 1000
    p.log('line 3: bad')
    p.update(4, 4)
    p.finish()
    const frames = tty.text.split('\r\x1b[K')
    expect(frames).toEqual([
      '',
      'Working [########----------------------]  25% 1/4',
      'line 3: bad\n', // the throttled 2/4 is drawn again under the logged line
      'Working [###############---------------]  50% 2/4',
      'Working [##############################] 100% 4/4',
      '',
    ])
    const piped = capture(false)
    const q = createProgress(piped, { label: 'Working', enabled: false })
    q.update(1, 2)
    q.log('line 2: bad')
    q.finish()
    expect(piped.text).toBe('line 2: bad\n')
  })
})

describe('links flags', () => {
  it('create: destination from the argument or --destination (not both different); flags mapped', () => {
    expect(
      createBody('https://a.example', {
        title: 'A',
        slug: 'my-slug',
        expiresAt: '2030-01-01T00:00:00.000Z',
        // As commander collects `--tag x --tag ' y ' --tag x`: trimmed, once each.
        tag: collectTag('x', collectTag(' y ', collectTag('x', undefined))),
        meta: metaArg('b=2', metaArg('a=1=1', undefined)),
        redirectType: '301',
      }),
    ).toEqual({
      destinationUrl: 'https://a.example',
      title: 'A',
      customSlug: 'my-slug',
      expiresAt: '2030-01-01T00:00:00.000Z',
      tags: ['x', 'y'],
      metadata: { a: '1=1', b: '2' },
      redirectType: 301,
    })
    expect(createBody(undefined, { destination: 'https://b.example' })).toEqual({
      destinationUrl: 'https://b.example',
    })
    // --domain takes the domain's name or its id.
    expect(createBody('https://c.example', { domain: 'go.example.com' })).toEqual({
      destinationUrl: 'https://c.example',
      domain: 'go.example.com',
    })
    expect(createBody('https://c.example', { domain: 'dom_abc123' })).toEqual({
      destinationUrl: 'https://c.example',
      customDomainId: 'dom_abc123',
    })
    expect(() => createBody(undefined, {})).toThrow(UsageError)
    expect(() => createBody('https://a.example', { destination: 'https://b.example' })).toThrow(UsageError)
    expect(() => metaArg('novalue', undefined)).toThrow(/key=value/)
    expect(() => metaArg('=v', undefined)).toThrow(/key=value/)
  })

  it('update: "" clears the title, --no-expiry and --clear-* empty fields, nothing is a usage error', () => {
    expect(
      updateBody({ title: '', expiry: false, clearTags: true, clearMeta: true, status: 'inactive' }),
    ).toEqual({
      title: null,
      expiresAt: null,
      tags: [],
      metadata: {},
      status: 'inactive',
    })
    expect(updateBody({ expiry: true, destination: 'https://c.example' })).toEqual({
      destinationUrl: 'https://c.example',
    })
    expect(() => updateBody({ expiry: true })).toThrow(/nothing to update/)
    expect(() => updateBody({ tag: ['a'], clearTags: true })).toThrow(UsageError)
    expect(() => updateBody({ expiry: false, expiresAt: '2030-01-01T00:00:00.000Z' })).toThrow(UsageError)
  })

  it('stats ranges: dates, date-times, now and durations ago; a date as the end means its end', () => {
    const now = Date.parse('2026-11-21T10:00:00.000Z')
    expect(parseInstant('2026-11-01', 'start', now)).toBe('2026-11-01T00:00:00.000Z')
    expect(parseInstant('2026-11-01', 'end', now)).toBe('2026-11-01T23:59:59.999Z')
    expect(parseInstant('2026-11-01T12:00:00+01:00', 'end', now)).toBe('2026-11-01T11:00:00.000Z')
    expect(parseInstant('7d', 'start', now)).toBe('2026-11-14T10:00:00.000Z')
    expect(parseInstant('now', 'end', now)).toBe('2026-11-21T10:00:00.000Z')
    expect(() => parseInstant('yesterday', 'start', now)).toThrow(/expected an ISO date/)
  })

  it('open: $BROWSER (first entry, %s or appended) wins over the platform opener', () => {
    const url = 'http://127.0.0.1:8080/abc1234'
    expect(browserCommand(url, { BROWSER: '/tmp/rec.sh' }, 'linux')).toEqual({
      command: '/tmp/rec.sh',
      args: [url],
      inheritStdio: true,
    })
    expect(browserCommand(url, { BROWSER: 'firefox --new-tab %s:lynx' }, 'linux').args).toEqual([
      '--new-tab',
      url,
    ])
    expect(browserCommand(url, {}, 'linux')).toMatchObject({ command: 'xdg-open', args: [url] })
    expect(browserCommand(url, {}, 'darwin')).toMatchObject({ command: 'open', args: [url] })
    expect(browserCommand(url, {}, 'win32')).toMatchObject({ command: 'cmd' })
  })
})

describe('import chunks (stub daemon)', () => {
  it('chunks end before 900 KB; a refused chunk fails its rows and the import goes on; 429 is retried', async () => {
    let calls = 0
    const importChunk = (req: Recorded) => {
      calls++
      const lines = (req.body as { file: string }).file.split('\n')
      if (calls === 1)
        return { ...errorReply(429, 'RateLimitExceeded', 'slow down'), headers: { 'retry-after': '1' } }
      if (JSON.stringify(req.body).length > 1_048_576)
        return errorReply(413, 'PayloadTooLarge', 'body too large')
      return {
        status: 200,
        body: {
          source: 'linkd',
          dryRun: false,
          created: lines.length,
          wouldCreate: 0,
          failed: 0,
          results: lines.map((_, i) => ({ line: i + 1, status: 'created', shortCode: null })),
        },
      }
    }
    const stub = await stubServer({ 'POST /api/use/links/import': importChunk })
    const big = (n: number, kb: number) =>
      JSON.stringify({ destinationUrl: `https://example.com/${n}`, metadata: { pad: 'x'.repeat(kb * 1000) } })
    const stdin = [big(1, 400), big(2, 400), big(3, 400), big(4, 1100), big(5, 1)].join('\n') + '\n'
    const t = testCtx({ flags: { url: stub.url, apiKey: 'lk_live_stub' }, json: true, stdin })
    let code = 0
    try {
      await runLinksImport({ file: '-' }, t.ctx)
    } catch (err) {
      code = exitCodeFor(err)
    }
    await stub.close()
    const sent = stub.requests.map((r) => (r.body as { file: string }).file.split('\n').length)
    expect(sent).toEqual([2, 2, 1, 1, 1]) // 429 then its retry, then [3], [4] (refused), [5]
    expect(stub.requests[0]?.headers['x-idempotency-key']).toBe(
      stub.requests[1]?.headers['x-idempotency-key'],
    )
    expect(code).toBe(1)
    expect(JSON.parse(t.out.text)).toEqual({
      dryRun: false,
      created: 4,
      replayed: 0,
      skipped: 0,
      failed: 1,
      errors: [{ line: 4, error: 'PayloadTooLarge', message: 'body too large' }],
      skippedRows: [],
    })
  })
})
