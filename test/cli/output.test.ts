import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clip, money, percent, printRecord, printRows, round, when } from '../../src/cli/output.js'
import { pageFooter, pageQuery } from '../../src/cli/paging.js'
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

  it('TTY: a drawn table with the headers and a dash for empty cells', async () => {
    const { ctx, out } = testCtx({ isTTY: true, env: { NO_COLOR: '1' } })
    await printRows(ctx, rows, columns)
    expect(out.text).toMatch(/┌.*┐/)
    expect(out.text).toMatch(/│ ID\s*│ NOTE\s*│/)
    expect(out.text).toMatch(/│ a\s*│ tab here\s*│/)
    expect(out.text).toMatch(/│ b\s*│ -\s*│/)
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
    const tty = testCtx({ isTTY: true, env: { NO_COLOR: '1' } })
    await printRecord(tty.ctx, [['ID', 'key_1']])
    expect(tty.out.text).toMatch(/│ ID\s*│ key_1\s*│/)
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
    expect(r.stderr).toBe('')
  })

  it('TTY: a table on stdout and the paging hint on stderr', async () => {
    const r = await cli(['keys', 'list'], { env: env(), isTTY: true })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/│ ID\s+│ NAME\s+│ STATUS/)
    expect(r.stdout).toMatch(/│ key_def456\s+│ reporting\s+│ revoked/)
    expect(r.stdout).not.toMatch(ANSI)
    expect(r.stderr).toBe('Showing 1-2 of 45; next: --page 2\n')
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
  it('timestamps: UTC to the minute (or second) on a terminal, the full ISO value when piped', () => {
    const iso = '2026-03-04T05:06:07.890Z'
    expect(when(iso, true)).toBe('2026-03-04 05:06')
    expect(when(iso, true, 'second')).toBe('2026-03-04 05:06:07')
    expect(when(iso, false)).toBe(iso)
    expect(when(null, true)).toBe('')
    expect(when(undefined, false)).toBe('')
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
  })
})

describe('list paging', () => {
  it('only the flags given go into the query, the page size as a number', () => {
    expect(pageQuery({})).toEqual({})
    expect(pageQuery({ page: 2, limit: '50' })).toEqual({ page: 2, limit: 50 })
  })

  it('the footer says which rows of how many, and the next page, on a terminal only', () => {
    const p = { page: 2, perPage: 10, total: 25, hasMore: true }
    const tty = testCtx({ isTTY: true })
    pageFooter(tty.ctx, p, 10)
    expect(tty.err.text).toBe('Showing 11-20 of 25; next: --page 3\n')
    const last = testCtx({ isTTY: true })
    pageFooter(last.ctx, { ...p, page: 3, hasMore: false }, 5)
    expect(last.err.text).toBe('Showing 21-25 of 25\n')
    const empty = testCtx({ isTTY: true })
    pageFooter(empty.ctx, { page: 1, perPage: 10, total: 0, hasMore: false }, 0)
    expect(empty.err.text).toBe('Showing 0-0 of 0\n')
    const piped = testCtx({ isTTY: false })
    pageFooter(piped.ctx, p, 10)
    expect(piped.err.text).toBe('')
  })
})
