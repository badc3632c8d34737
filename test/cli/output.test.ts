import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  clip,
  fitColumns,
  money,
  percent,
  printRecord,
  printRows,
  relativeTime,
  round,
  truncate,
  when,
} from '../../src/cli/output.js'
import { cutNote, pageQuery } from '../../src/cli/paging.js'
import { cli, OWNER_KEY, page, sampleKey, stubServer, testCtx } from '../support/cli.js'

// eslint-disable-next-line no-control-regex -- looking for ANSI escapes on purpose
const ANSI = /\x1b\[/
const rows = [
  { id: 'a', note: 'tab\there' },
  { id: 'b', note: null },
]
const columns = [
  { header: 'ID', value: (r: (typeof rows)[number]) => r.id },
  { header: 'NOTE', value: (r: (typeof rows)[number]) => r.note },
]

describe('output helpers', () => {
  it('piped: tab-separated lines, header row first, tabs in values flattened', async () => {
    const { ctx, out } = testCtx({ isTTY: false })
    await printRows(ctx, rows, columns)
    expect(out.text).toBe('ID\tNOTE\na\ttab here\nb\t\n')
  })

  it('TTY: a borderless table, headers flush left, a dash for empty cells', async () => {
    const { ctx, out } = testCtx({ isTTY: true, env: { NO_COLOR: '1', COLUMNS: '80' } })
    await printRows(ctx, rows, columns)
    expect(out.text).toBe('ID  NOTE\na   tab here\nb   -\n')
  })

  it('TTY: a table wider than the terminal cuts its widest columns with an ellipsis', async () => {
    const wide = [
      { id: 'lnk_1', url: `https://example.com/${'a'.repeat(80)}`, status: 'active' },
      { id: 'lnk_2', url: 'https://example.com/b', status: 'inactive' },
    ]
    const cols = [
      { header: 'ID', value: (r: (typeof wide)[number]) => r.id },
      { header: 'DESTINATION', value: (r: (typeof wide)[number]) => r.url },
      { header: 'STATUS', value: (r: (typeof wide)[number]) => r.status },
    ]
    for (const width of [40, 60, 100]) {
      const { ctx, out } = testCtx({ isTTY: true, env: { NO_COLOR: '1', COLUMNS: String(width) } })
      await printRows(ctx, wide, cols)
      const lines = out.text.trimEnd().split('\n')
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(width)
      expect(lines[0]).toMatch(/^ID {5}DESTINATION +STATUS$/)
      expect(lines[1]).toMatch(/^lnk_1 {2}https:\/\/example\.com\/a+… {2}active$/)
      expect(lines[2]).toMatch(/^lnk_2 {2}https:\/\/example\.com\/b +inactive$/)
      expect(Math.max(...lines.map((l) => [...l].length))).toBe(width)
    }
    const roomy = testCtx({ isTTY: true, env: { NO_COLOR: '1', COLUMNS: '200' } })
    await printRows(roomy.ctx, wide, cols)
    expect(roomy.out.text).toContain(wide[0]?.url)
    expect(roomy.out.text).not.toContain('…')
  })

  it('widths: without priorities, the widest column gives way first, none below six characters', () => {
    const fit = (natural: number[], total: number) =>
      fitColumns(
        natural.map((n) => ({ natural: n, header: 2 })),
        total,
      ).widths
    expect(fit([5, 50, 8], 40)).toEqual([5, 23, 8])
    expect(fit([30, 30], 40)).toEqual([19, 19])
    expect(fit([10, 10], 8)).toEqual([6, 6])
    expect(truncate('abcdef', 4)).toBe('abc…')
    expect(truncate('abc', 4)).toBe('abc')
  })

  it('TTY colour unless NO_COLOR is set', async () => {
    const coloured = testCtx({ isTTY: true })
    await printRows(coloured.ctx, rows, columns)
    expect(coloured.out.text).toMatch(ANSI)
    const plain = testCtx({ isTTY: true, env: { NO_COLOR: '1' } })
    await printRows(plain.ctx, rows, columns)
    expect(plain.out.text).not.toMatch(ANSI)
  })

  it('records: two-column table on a TTY, header and value rows when piped', async () => {
    const piped = testCtx({ isTTY: false })
    await printRecord(piped.ctx, [
      ['ID', 'key_1'],
      ['NAME', 'x'],
    ])
    expect(piped.out.text).toBe('ID\tNAME\nkey_1\tx\n')
    const nested = testCtx({ isTTY: false })
    await printRecord(nested.ctx, [
      ['REVENUE', 3],
      ['  IAP', 2],
    ])
    expect(nested.out.text).toBe('REVENUE\tIAP\n3\t2\n')
    const tty = testCtx({ isTTY: true, env: { NO_COLOR: '1', COLUMNS: '30' } })
    await printRecord(tty.ctx, [
      ['ID', 'key_1'],
      ['DESTINATION', `https://example.com/${'x'.repeat(20)}`],
      ['TITLE', null],
    ])
    // Labels flush left, values in one column; a long value wraps under itself, nothing is cut.
    expect(tty.out.text).toBe(
      'ID           key_1\n' +
        'DESTINATION  https://example.c\n' +
        `             om/${'x'.repeat(14)}\n` +
        '             xxxxxx\n' +
        'TITLE        -\n',
    )
  })
})

describe('keys list output formats', () => {
  let stub: Awaited<ReturnType<typeof stubServer>>
  const keys = [sampleKey(), sampleKey({ id: 'key_def456', name: 'reporting', status: 'revoked' })]
  beforeAll(async () => {
    stub = await stubServer({ 'GET /api/keys': () => ({ status: 200, body: page(keys, { total: 45 }) }) })
  })
  afterAll(() => stub.close())
  const env = () => ({ LINKCTL_URL: stub.url, LINKCTL_API_KEY: OWNER_KEY, NO_COLOR: '1' })

  it('piped: TSV with a header row and full values', async () => {
    const r = await cli(['keys', 'list'], { env: env() })
    expect(r.code).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe('ID\tNAME\tSTATUS\tENV\tPREVIEW\tSCOPES\tRATE LIMIT\tLAST USED\tEXPIRES')
    expect(lines[1]).toBe(
      'key_abc123\tci deploy\tactive\tlive\tlk_•••WxYz\tlinks:read,links:write\t1000/hour\t2026-11-21T11:30:00.000Z\t',
    )
    expect(lines).toHaveLength(3)
    expect(r.stderr).toBe('showing 2 of 45; more with --limit <n> or --all\n')
  })

  it('TTY: a table on stdout and the paging hint on stderr', async () => {
    const r = await cli(['keys', 'list'], { env: env(), isTTY: true })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^ID {10}NAME +STATUS/)
    // 80 columns (no COLUMNS, no terminal width): ids and names whole, low-priority columns left out.
    expect(r.stdout).toMatch(/\nkey_def456 {2}reporting {2}revoked {2}/)
    expect(r.stdout).not.toContain('EXPIRES')
    for (const line of r.stdout.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(80)
    const wide = await cli(['keys', 'list'], { env: { ...env(), COLUMNS: '160' }, isTTY: true })
    expect(wide.stdout).toMatch(
      /\nkey_def456 {2}reporting {2}revoked {2}live {2}lk_•••WxYz {2}links:read, links:write {2}1000\/hour/,
    )
    expect(r.stdout).not.toMatch(ANSI)
    expect(r.stderr).toBe('showing 2 of 45; more with --limit <n> or --all\n')
  })

  it('--json: the API envelope, unchanged', async () => {
    const r = await cli(['keys', 'list', '--json', '--status', 'active', '--limit', '50', '--page', '2'], {
      env: env(),
    })
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual(page(keys, { total: 45 }))
    expect(stub.requests.at(-1)?.url).toBe('/api/keys?page=2&limit=50&status=active')
  })
})

describe('secrets in output', () => {
  let stub: Awaited<ReturnType<typeof stubServer>>
  const full = `lk_live_${'Z'.repeat(28)}WxYz`
  beforeAll(async () => {
    stub = await stubServer({
      'POST /api/keys': () => ({ status: 201, body: { ...sampleKey(), key: full } }),
      'GET /api/keys/key_abc123': () => ({ status: 200, body: sampleKey() }),
    })
  })
  afterAll(() => stub.close())

  it('create prints the full key once, first and alone on its line, with a warning on stderr', async () => {
    const env = { LINKCTL_URL: stub.url, LINKCTL_API_KEY: OWNER_KEY }
    const r = await cli(['keys', 'create', '--name', 'ci deploy', '--preset', 'full'], { env })
    expect(r.code).toBe(0)
    const [value, header, values] = r.stdout.trimEnd().split('\n')
    expect(value).toBe(full)
    expect(header?.split('\t').slice(0, 2)).toEqual(['ID', 'NAME'])
    expect(values?.split('\t')[0]).toBe('key_abc123')
    expect(r.stdout.split(full)).toHaveLength(2)
    expect(r.stderr).toMatch(/^warning: .*only time the full key is shown/)
    expect(stub.requests.at(-1)?.body).toEqual({ name: 'ci deploy', preset: 'full' })
  })

  it('get never shows more than the preview', async () => {
    const env = { LINKCTL_URL: stub.url, LINKCTL_API_KEY: OWNER_KEY }
    for (const isTTY of [true, false]) {
      const r = await cli(['keys', 'get', 'key_abc123'], { env, isTTY })
      expect(r.stdout).toContain('lk_•••WxYz')
      expect(r.stdout).not.toContain(full)
      expect(r.stdout).not.toContain(OWNER_KEY)
    }
  })
})

describe('cell values, shared by every command', () => {
  it('timestamps: relative on a terminal, the full ISO value when piped', () => {
    const iso = '2026-03-04T05:06:07.890Z'
    const at = Date.parse(iso)
    expect(when(iso, true, 'minute', at + 3 * 60_000 + 5_000)).toBe('3 minutes ago')
    expect(when(iso, true, 'minute', at + 20_000)).toBe('just now')
    expect(when(iso, true, 'second', at - 2 * 86_400_000)).toBe('in 2 days')
    expect(when(iso, false)).toBe(iso)
    expect(when(null, true)).toBe('')
    expect(when(undefined, false)).toBe('')
    expect(relativeTime(at, at + 3_600_000)).toBe('1 hour ago')
    expect(relativeTime(at, at + 40 * 86_400_000)).toBe('1 month ago')
    expect(relativeTime(at, at + 800 * 86_400_000)).toBe('2 years ago')
  })

  it('long text is cut with an ellipsis on a terminal only', () => {
    expect(clip('abcdefghij', 5, true)).toBe('abcd…')
    expect(clip('abcdefghij', 5, false)).toBe('abcdefghij')
    expect(clip('abcde', 5, true)).toBe('abcde')
    expect(clip(null, 5, true)).toBe('')
  })

  it('numbers: rounding, percentages and money', () => {
    expect(round(12.345, 1)).toBe(12.3)
    expect(round(0.125, 2)).toBe(0.13)
    expect(percent(33.333, 1)).toBe('33.3%')
    expect(percent(12.5)).toBe('12.5%')
    expect(money(3)).toBe('3.00')
    expect(money(0.123456, 4)).toBe('0.1235')
    expect(money(12.3, 2, 'USD')).toBe('12.30 USD')
  })
})

describe('list paging', () => {
  it('only the flags given go into the query; a limit the API does not serve is left to the walk', () => {
    expect(pageQuery({})).toEqual({})
    expect(pageQuery({ page: 2, limit: '50' })).toEqual({ page: 2, limit: 50 })
    expect(pageQuery({ limit: 7 })).toEqual({})
  })

  it('the cut note: on stderr, piped too, never with --json, nothing when all was shown', () => {
    const p = { page: 1, perPage: 20, total: 3029 }
    const piped = testCtx({ isTTY: false })
    cutNote(piped.ctx, p, 20)
    expect(piped.err.text).toBe('showing 20 of 3,029; more with --limit <n> or --all\n')
    const later = testCtx({ isTTY: true })
    cutNote(later.ctx, { page: 2, perPage: 10, total: 25 }, 10)
    expect(later.err.text).toBe('showing rows 11-20 of 25; next: --page 3\n')
    const json = testCtx({ json: true })
    cutNote(json.ctx, p, 20)
    expect(json.err.text).toBe('')
    const whole = testCtx({ isTTY: true })
    cutNote(whole.ctx, { page: 1, perPage: 20, total: 5 }, 5)
    expect(whole.err.text).toBe('')
  })
})
