/**
 * Human output of linkctl, the way a user sees it: tables fitted to 80 and 120 columns (ids and
 * codes whole, low-priority columns left out before long text is cut), `--columns`, colours that
 * do not count in widths, plurals, money, wrapped scopes, and control characters in data shown
 * escaped in every human output (never in --json). A stub daemon answers on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fitColumns, printRecord, visible, wrapWords } from '../../src/cli/output.js'
import { cli, OWNER_KEY, page, sampleKey, stubServer, testCtx } from '../support/cli.js'

// eslint-disable-next-line no-control-regex -- looking for escape sequences on purpose
const ESC = /\x1b/
// eslint-disable-next-line no-control-regex -- stripping SGR colours to measure columns
const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '')

const link = (n: number, over: Record<string, unknown> = {}) => ({
  id: `lnk_${String(n).padStart(20, '0')}`,
  shortCode: `code${n}`,
  shortUrl: `http://127.0.0.1:8080/code${n}`,
  destinationUrl: `https://example.com/a/rather/long/path/to/a/landing/page/number/${n}?utm_source=newsletter`,
  title: `Spring campaign landing page ${n}`,
  status: 'active',
  clicks: n,
  tags: ['spring', 'newsletter'],
  metadata: {},
  redirectType: 302,
  customDomainId: null,
  expiresAt: null,
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
  ...over,
})

// A player id and reasons as anyone holding the SDK key could send them.
const TITLE = '\x1b]0;pwned\x07'
const CLEAR = '\x1b[2J'
const HYPERLINK = '\x1b]8;;https://evil.example\x1b\\click me\x1b]8;;\x1b\\'
const hostile = `p1${TITLE}${CLEAR}${HYPERLINK}\x9b31m`

const fraudEvent = {
  id: 'fev_1',
  eventId: 'evt_1',
  playerId: hostile,
  eventType: 'purchase',
  threatType: 'emulator',
  riskScore: 0.9,
  status: 'blocked',
  triggeredRules: ['Block Emulators'],
  ip: '203.0.113.9',
  review: 'pending',
  receivedAt: '2026-11-21T10:00:00.000Z',
  reviewedAt: null,
}
const cohort = (c: string, size: number, pcts: (number | null)[]) => ({
  cohort: c,
  size,
  days: Object.fromEntries(
    [0, 1, 3, 7, 14, 30].map((n, i) => {
      const p = pcts[i]
      return [
        `d${n}`,
        p === null || p === undefined ? null : { percentage: p, band: p > 40 ? 'green' : 'red' },
      ]
    }),
  ),
})

let stub: Awaited<ReturnType<typeof stubServer>>
beforeAll(async () => {
  stub = await stubServer({
    'GET /api/use/links': () => ({ status: 200, body: page([link(1), link(22)]) }),
    'GET /api/keys': () => ({
      status: 200,
      body: page([sampleKey({ permissions: ['analytics:read', 'webhooks:write', 'links:write'] })]),
    }),
    'GET /api/v1/admin/fraud/games/g1/events': () => ({ status: 200, body: page([fraudEvent]) }),
    'GET /api/v1/admin/fraud/games/g1/blocklist': () => ({
      status: 200,
      body: page([
        {
          id: 'blk_1',
          type: 'device',
          value: hostile,
          reason: `chargeback ${TITLE}`,
          createdAt: '2026-11-21T10:00:00.000Z',
          expiresAt: null,
        },
      ]),
    }),
    'GET /api/v1/gaming/gdpr/deletions/gdpr_1': () => ({
      status: 200,
      body: {
        id: 'gdpr_1',
        gameId: 'g1',
        playerId: hostile,
        reason: `asked ${CLEAR}`,
        status: 'queued',
        createdAt: '2026-11-21T10:00:00.000Z',
        completedAt: null,
        expiresAt: null,
      },
    }),
    'GET /api/v1/analytics/games/g1/retention': () => ({
      status: 200,
      body: {
        data: [cohort('2026-11-01', 1200, [100, 41.5, 9.25, 5]), cohort('2026-11-02', 7, [100, 0])],
        range: { startDate: '2026-11-01', endDate: '2026-11-02' },
      },
    }),
    'GET /api/v1/analytics/games/g1/segments': () => ({
      status: 200,
      body: {
        currency: 'USD',
        thresholds: { whale: 100, dolphin: 10 },
        data: [
          { segment: 'whale', players: 1, share: 50, revenue: 4.99, revenueShare: 100, avgRevenue: 4.987654 },
        ],
      },
    }),
    'GET /api/v1/analytics/games/g1/leaderboard': () => ({
      status: 200,
      body: {
        data: [{ rank: 1, playerId: 'p1', revenue: 12.3456 }],
        range: { startDate: 'a', endDate: 'b' },
      },
    }),
    'GET /api/v1/admin/games/g1': () => ({ status: 200, body: { id: 'g1', reportingCurrency: 'EUR' } }),
    'GET /api/v1/analytics/games/g1/revenue': () => {
      const row = (group: string, f: number) => ({
        group,
        total: 2600.47 * f,
        iap: 2399.67 * f,
        ad: 1 * f,
        subscription: 199.8 * f,
        transactions: 60 * f,
        payingUsers: 20 * f,
        arppu: 130.02,
      })
      return {
        status: 200,
        body: {
          currency: 'USD',
          data: [row('ios', 1), row('android', 1)],
          totals: row('TOTAL', 2),
          range: { startDate: '2026-11-01', endDate: '2026-11-30' },
        },
      }
    },
  })
})
afterAll(() => stub.close())

const env = (over: Record<string, string> = {}) => ({
  LINKCTL_URL: stub.url,
  LINKCTL_API_KEY: OWNER_KEY,
  NO_COLOR: '1',
  ...over,
})
const tty = (args: string[], columns: number, over: Record<string, string> = {}) =>
  cli(args, { env: env({ COLUMNS: String(columns), ...over }), isTTY: true })

describe('tables fitted to the terminal', () => {
  it('80 columns: ids and codes whole, low-priority columns left out, the destination gets the room', async () => {
    const r = await tty(['links', 'list'], 80)
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80)
    expect(lines).toEqual([
      'ID                        CODE    DESTINATION                     STATUS  CLICKS',
      'lnk_00000000000000000001  code1   https://example.com/a/rather/…  active  1',
      'lnk_00000000000000000022  code22  https://example.com/a/rather/…  active  22',
    ])
  })

  it('120 columns: more room goes to the destination and title, then to the columns left out at 80', async () => {
    const narrow = await tty(['links', 'list'], 80)
    const wide = await tty(['links', 'list'], 120)
    const dest = (s: string) => s.split('\n')[1]?.match(/https:\S+/)?.[0].length ?? 0
    expect(dest(wide.stdout)).toBeGreaterThan(dest(narrow.stdout))
    expect(wide.stdout.split('\n').slice(0, 2)).toEqual([
      'ID                        CODE    DESTINATION                            TITLE                            STATUS  CLICKS',
      'lnk_00000000000000000001  code1   https://example.com/a/rather/long/pa…  Spring campaign landing page 1   active  1',
    ])
    const roomy = await tty(['links', 'list'], 250)
    expect(roomy.stdout).toContain(link(1).destinationUrl)
    expect(roomy.stdout).toMatch(/^ID +CODE +DESTINATION +TITLE +STATUS +CLICKS +TAGS +CREATED +EXPIRES$/m)
  })

  it('--columns chooses and orders the columns, on a terminal and piped; an unknown name is a usage error', async () => {
    const r = await tty(['links', 'list', '--columns', 'clicks,short-url,id'], 80)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout.split('\n').slice(0, 2)).toEqual([
      'CLICKS  SHORT URL                     ID',
      '1       http://127.0.0.1:8080/code1   lnk_00000000000000000001',
    ])
    const piped = await cli(['links', 'list', '--columns', 'code,destination'], { env: env() })
    expect(piped.stdout.split('\n')[0]).toBe('CODE\tDESTINATION')
    expect(piped.stdout.split('\n')[1]).toBe(`code1\t${link(1).destinationUrl}`)
    const bad = await cli(['links', 'list', '--columns', 'id,nope'], { env: env() })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain(
      'unknown column "nope"; valid columns: id, code, short-url, destination, title',
    )
    expect(stub.requests.filter((q) => q.url.includes('nope'))).toHaveLength(0)
    const json = await cli(['links', 'list', '--columns', 'id', '--json'], { env: env() })
    expect(json.code).toBe(2)
    const help = await cli(['keys', 'list', '--help'], { env: env() })
    expect(help.stdout).toMatch(/--columns <names> +table columns to show, in order/)
  })

  it('colour codes do not count in widths: the retention triangle lines up', async () => {
    const coloured = await tty(['analytics', 'retention', 'g1'], 100, { NO_COLOR: '' })
    expect(coloured.stdout).toContain('\x1b[32m41.5%')
    const lines = strip(coloured.stdout).trimEnd().split('\n')
    const plain = await tty(['analytics', 'retention', 'g1'], 100)
    expect(lines).toEqual(plain.stdout.trimEnd().split('\n'))
    // Every column starts where its header does.
    const at = (line: string, text: string) => line.indexOf(text)
    expect(at(lines[1] ?? '', '41.5%')).toBe(at(lines[0] ?? '', 'D1'))
    expect(at(lines[2] ?? '', ' 0.0%') + 1).toBe(at(lines[0] ?? '', 'D1'))
  })

  it('scopes wrap between words, never inside one', async () => {
    const r = await tty(['keys', 'list', '--columns', 'id,scopes,name'], 40)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines.slice(1)).toEqual([
      'key_abc123  analytics:read,    ci deploy',
      '            webhooks:write,',
      '            links:write',
    ])
    expect(wrapWords('links:read, links:write', 12)).toEqual(['links:read,', 'links:write'])
  })

  it('revenue at 80 columns: amounts whole, the counts left out; at 100 all of it', async () => {
    const r = await tty(['analytics', 'revenue', 'g1', '--group-by', 'platform'], 80)
    const lines = r.stdout.trimEnd().split('\n')
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80)
    expect(lines[0]).toMatch(/^PLATFORM +TOTAL +IAP +AD +SUBSCRIPTION +ARPPU$/)
    expect(lines[1]).toMatch(/^ios +2600\.47 USD +2399\.67 USD +1\.00 USD +199\.80 USD +130\.02 USD$/)
    expect(lines[3]).toMatch(/^TOTAL +5200\.94 USD +4799\.34 USD +2\.00 USD +399\.60 USD +130\.02 USD$/)
    const wide = await tty(['analytics', 'revenue', 'g1', '--group-by', 'platform'], 100)
    expect(wide.stdout).toMatch(
      /^ios +2600\.47 USD +2399\.67 USD +1\.00 USD +199\.80 USD +60 +20 +130\.02 USD$/m,
    )
  })

  it('fit: droppable columns go first (highest drop first), then flex columns are cut', () => {
    const cols = [
      { natural: 24, header: 2 },
      { natural: 80, header: 11, fit: 'flex' as const },
      { natural: 14, header: 7, drop: 2 },
      { natural: 8, header: 6, drop: 1 },
    ]
    // 90: everything fits with the flex column at 30 or more; 80: the column that drops first goes.
    expect(fitColumns(cols, 80)).toEqual({ shown: [0, 1, 3], widths: [24, 44, 8] })
    expect(fitColumns(cols, 90)).toEqual({ shown: [0, 1, 2, 3], widths: [24, 38, 14, 8] })
    expect(fitColumns(cols, 70)).toEqual({ shown: [0, 1, 3], widths: [24, 34, 8] })
    expect(fitColumns(cols, 60)).toEqual({ shown: [0, 1], widths: [24, 34] })
    // Nothing left to drop: the flex column goes below its floor, then the others.
    expect(fitColumns(cols, 40)).toEqual({ shown: [0, 1], widths: [24, 14] })
    expect(
      fitColumns(
        [
          { natural: 10, header: 2 },
          { natural: 10, header: 2 },
        ],
        8,
      ),
    ).toEqual({
      shown: [0, 1],
      widths: [6, 6],
    })
  })

  it('fit: a header wider than its values is cut before any value', () => {
    const cols = [
      { natural: 11, header: 5, cells: 11 },
      { natural: 12, header: 12, cells: 3 },
      { natural: 12, header: 12, cells: 10 },
    ]
    // 39 wide in all: 8 to give, by the headers (12 → 6 and 10) while the values stay whole.
    expect(fitColumns(cols, 31)).toEqual({ shown: [0, 1, 2], widths: [11, 6, 10] })
    // Then the values, down to their header's width, when nothing else is left.
    expect(fitColumns(cols, 26).widths).toEqual([6, 6, 10])
  })
})

describe('plurals, money and date ranges', () => {
  it('money: 2 decimals with the currency on a terminal, numbers under a currency header when piped', async () => {
    const t = await tty(['analytics', 'segments', 'g1'], 120)
    expect(t.stdout).toMatch(/^SEGMENT +PLAYERS +SHARE +REVENUE +REVENUE SHARE +AVG REVENUE$/m)
    expect(t.stdout).toMatch(/whale +1 +50% +4\.99 USD +100% +4\.99 USD$/m)
    const piped = await cli(['analytics', 'segments', 'g1'], { env: env() })
    expect(piped.stdout.split('\n').slice(0, 2)).toEqual([
      'SEGMENT\tPLAYERS\tSHARE\tREVENUE (USD)\tREVENUE SHARE\tAVG REVENUE',
      'whale\t1\t50\t4.99\t100\t4.99',
    ])
    // A report whose answer has no currency: the game's reporting currency.
    const board = await tty(['analytics', 'leaderboard', 'g1'], 80)
    expect(board.stdout).toMatch(/^1 +p1 +12\.35 EUR$/m)
  })

  it('plurals: "1 click", "2 clicks"', async () => {
    const { plural } = await import('../../src/cli/output.js')
    expect([plural(1, 'click'), plural(2, 'click'), plural(0, 'retry', 'retries')]).toEqual([
      '1 click',
      '2 clicks',
      '0 retries',
    ])
    const { shareSummary } = await import('../../src/cli/commands/links/share.js')
    expect(shareSummary(link(1) as never)).toContain('· 1 click ·')
  })
})

describe('control characters in data are shown, never run', () => {
  const escaped =
    'p1\\x1b]0;pwned\\x07\\x1b[2J\\x1b]8;;https://evil.example\\x1b\\click me\\x1b]8;;\\x1b\\\\x9b31m'

  it('visible(): C0 (but tab and line feed), DEL and C1 as \\xNN', () => {
    expect(visible(hostile)).toBe(escaped)
    expect(visible('a\tb\nc\rd\x7f\x00')).toBe('a\tb\nc\\x0dd\\x7f\\x00')
  })

  for (const [what, args] of [
    ['fraud events', ['fraud', 'events', 'g1']],
    ['fraud blocklist list', ['fraud', 'blocklist', 'list', 'g1']],
    ['gdpr status', ['gdpr', 'status', 'gdpr_1']],
  ] as const) {
    it(`${what}: escaped on a terminal and piped, untouched in --json`, async () => {
      for (const out of [await tty([...args], 300), await cli([...args], { env: env() })]) {
        expect(out.code, out.stderr).toBe(0)
        expect(out.stdout).not.toMatch(ESC)
        expect(out.stdout).not.toContain('\x07')
        expect(out.stdout).not.toContain('\x9b')
        expect(out.stdout).toContain(escaped)
      }
      const json = await cli([...args, '--json'], { env: env() })
      expect(json.stdout).toContain('\\u001b]0;pwned\\u0007')
    })
  }

  it('records, notes and errors too', async () => {
    const t = testCtx({ isTTY: true, env: { NO_COLOR: '1', COLUMNS: '200' } })
    await printRecord(t.ctx, [['REASON', `x${TITLE}`]])
    expect(t.out.text).toBe('REASON  x\\x1b]0;pwned\\x07\n')
    const missing = await cli(['gdpr', 'status', `gdpr_${CLEAR}`], { env: env() })
    expect(missing.code).toBe(5)
    expect(missing.stderr).not.toMatch(ESC)
    const unknown = await cli(['links', `list${CLEAR}`], { env: env() })
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).not.toMatch(ESC)
  })
})
