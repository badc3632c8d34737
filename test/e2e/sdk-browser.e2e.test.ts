/**
 * End to end in a real browser: Debian's headless Chromium, driven by playwright-core, runs the
 * built web SDK (dist/sdk/web) on a page served by a test server (one origin) that sends to the
 * built linkd through a proxy (another origin, so every batch goes through CORS). The proxy can
 * answer 503 or cut the connection after linkd has answered, to check that retries are never
 * stored twice; events are counted in linkd's database. Needs chromium and `npm run build`.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { gunzipSync } from 'node:zlib'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { openDatabase, type Db } from '../../daemon/db/open.js'
import type { GameWithSecrets } from '../../src/contract/games.js'
import type { Client } from '../../sdk/web/src/index.js'
import { findBinary, missingBinaries } from '../support/binaries.js'
import { createTestDatabase, onPostgres } from '../support/postgres.js'
import { root, startLinkd, type RunningLinkd } from '../support/processes.js'

const noChromium = missingBinaries('chromium')

/** The page's globals, as the functions run inside it by `evaluate` see them. */
interface GameWindow {
  sdk: Client
  errors: unknown[]
  localStorage: Record<string, unknown> & { getItem(key: string): string | null }
}

/** What the proxy does to the next ingestion POSTs: answer 503 itself, or cut the connection. */
type Fault = '503' | 'drop-after-commit' | 'refuse'

interface Seen {
  batchId: string
  status: number | 'dropped' | 'refused'
  gzip: boolean
  answer?: string
}

describe.skipIf(noChromium)('the web SDK in headless Chromium against linkd', () => {
  let daemon: RunningLinkd
  let work = ''
  let database: { url: string; env: Record<string, string>; drop(): Promise<void> }
  let db: Db
  let proxy: Server
  let site: Server
  let browser: Browser
  let proxyUrl = ''
  let siteUrl = ''
  let plain: GameWithSecrets
  let signed: GameWithSecrets
  const faults: Fault[] = []
  let offline = false
  const seen: Seen[] = []

  const createGame = async (body: Record<string, unknown>): Promise<GameWithSecrets> => {
    const res = await fetch(`${daemon.url}/api/v1/admin/games`, {
      method: 'POST',
      headers: { authorization: `Bearer ${daemon.ownerKey()}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(res.status, await res.clone().text()).toBe(201)
    return (await res.json()) as GameWithSecrets
  }

  /** Forwards to linkd; applies the next fault to an ingestion POST and records what it did. */
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const wire = Buffer.concat(chunks)
      const post = req.method === 'POST'
      const fault = post ? (offline ? 'refuse' : faults.shift()) : undefined
      const record = (status: Seen['status'], answer?: string) => {
        if (!post) return
        const json = req.headers['content-encoding'] === 'gzip' ? gunzipSync(wire) : wire
        const batchId = (JSON.parse(json.toString()) as { batch_id: string }).batch_id
        seen.push({ batchId, status, gzip: req.headers['content-encoding'] === 'gzip', answer })
      }
      if (fault === 'refuse') {
        record('refused')
        return req.socket.destroy()
      }
      if (fault === '503') {
        record(503)
        res.writeHead(503, {
          'content-type': 'application/json',
          'retry-after': '0',
          'access-control-allow-origin': '*',
          'access-control-expose-headers': 'Retry-After',
        })
        return res.end('{"error":"Unavailable","message":"try again"}')
      }
      const upstream = request(
        `${daemon.url}${req.url}`,
        { method: req.method, headers: { ...req.headers, host: new URL(daemon.url).host } },
        (answer) => {
          const body: Buffer[] = []
          answer.on('data', (c: Buffer) => body.push(c))
          answer.on('end', () => {
            const text = Buffer.concat(body).toString()
            if (fault === 'drop-after-commit') {
              record('dropped', text)
              return req.socket.destroy()
            }
            record(answer.statusCode ?? 0, text)
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            res.end(text)
          })
        },
      )
      upstream.end(wire)
    })
  }

  /** The game's page; `clockAheadMs` sets the device's clock that far off the real time. */
  const page = async (query: Record<string, unknown>, search = '', clockAheadMs = 0): Promise<Page> => {
    const p = await browser.newPage()
    if (clockAheadMs)
      await p.addInitScript((ms) => {
        const real = Date.now
        Date.now = () => real() + ms
      }, clockAheadMs)
    p.on('pageerror', (err) => console.error('page error:', err.message))
    const cfg = encodeURIComponent(JSON.stringify(query))
    await p.goto(`${siteUrl}/game.html?${search}#${cfg}`)
    await p.waitForFunction(() => 'sdk' in globalThis)
    return p
  }

  const config = (game: GameWithSecrets, over: Record<string, unknown> = {}) => ({
    endpoint: proxyUrl,
    gameId: game.id,
    organizationId: game.organizationId,
    sdkKey: game.sdkKey,
    retryBaseMs: 100,
    ...over,
  })

  const stored = (playerId: string) =>
    db.kysely
      .selectFrom('game_events')
      .select(['event_id', 'event_type', 'batch_id', 'data', 'ts'])
      .where('player_id', '=', playerId)
      .orderBy('ts')
      .execute()

  /** The SDK's queue as the page keeps it in localStorage. */
  const queued = (p: Page) =>
    p.evaluate(() => {
      const { localStorage } = globalThis as unknown as GameWindow
      const key = Object.keys(localStorage).find((k) => k.startsWith('linkd:'))
      const state = JSON.parse((key && localStorage.getItem(key)) || '{"q":[],"buf":[]}')
      return {
        batches: state.q.map((b: { id: string }) => b.id) as string[],
        buffered: state.buf.length as number,
      }
    })

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'linkd-sdk-browser-'))
    const pg = onPostgres ? await createTestDatabase() : undefined
    database = pg
      ? { url: pg.url, env: { LINKD_DATABASE_URL: pg.url }, drop: () => pg.drop() }
      : { url: `sqlite:${join(work, 'data', 'linkd.db')}`, env: {}, drop: async () => {} }
    daemon = await startLinkd(join(work, 'data'), database.env)
    db = openDatabase(database.url)
    plain = await createGame({ name: 'Web Arena', platform: 'web' })
    signed = await createGame({ name: 'Signed Arena', platform: 'web', hmacRequired: true })

    proxy = createServer(forward)
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
    // The game's page: another origin than the proxy's (localhost, not 127.0.0.1).
    const sdk = readFileSync(join(root, 'dist/sdk/web/linkd-sdk.js'))
    site = createServer((req, res) => {
      if (req.url === '/linkd-sdk.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' })
        return res.end(sdk)
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(`<!doctype html><title>Game</title><script type="module">
        import { createClient } from '/linkd-sdk.js'
        window.errors = []
        const cfg = JSON.parse(decodeURIComponent(location.hash.slice(1)))
        window.sdk = createClient({ ...cfg, onError: (e) => window.errors.push(e) })
      </script>`)
    })
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
    siteUrl = `http://localhost:${(site.address() as AddressInfo).port}`

    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({
      executablePath: findBinary('chromium'),
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
  }, 90_000)

  afterAll(async () => {
    await browser?.close()
    site?.close()
    proxy?.closeAllConnections()
    proxy?.close()
    await db?.close()
    if (daemon) await daemon.stop('SIGKILL')
    await database?.drop()
    if (work) rmSync(work, { recursive: true, force: true })
  })

  it('sends events cross-origin, and the landing click id lands in the first app_install', async () => {
    const p = await page(config(plain), 'utm_source=ads&linkd_click=clk_Landing42')
    await p.evaluate(async () => {
      const w = globalThis as unknown as GameWindow
      // A few ms apart: the rows are read back ordered by their time, and ties have no order.
      const tick = () => new Promise((r) => setTimeout(r, 5))
      w.sdk.identify('web-first')
      w.sdk.track('app_install')
      await tick()
      w.sdk.track('level_start', { level: 1 })
      await tick()
      w.sdk.track('app_install')
      await w.sdk.flush()
    })
    const rows = await stored('web-first')
    expect(rows.map((r) => r.event_type)).toEqual(['app_install', 'level_start', 'app_install'])
    expect(JSON.parse(rows[0]!.data ?? '{}')).toEqual({ click_id: 'clk_Landing42' })
    expect(JSON.parse(rows[2]!.data ?? '{}')).toEqual({})
    expect(seen.at(-1)).toMatchObject({ status: 202 })
    await p.close()
  })

  it('retries a 503 and a connection cut after the commit with the same batch_id: stored once', async () => {
    const from = seen.length
    faults.push('503', 'drop-after-commit')
    const p = await page(config(plain))
    await p.evaluate(async () => {
      const w = globalThis as unknown as GameWindow
      w.sdk.identify('web-retry')
      for (let i = 0; i < 5; i++) w.sdk.track('level_complete', { level: i })
      await w.sdk.flush()
    })
    await vi.waitFor(async () => expect((await queued(p)).batches).toEqual([]), { timeout: 20_000 })
    const attempts = seen.slice(from)
    expect(attempts.map((a) => a.status)).toEqual([503, 'dropped', 202])
    expect(new Set(attempts.map((a) => a.batchId)).size).toBe(1)
    // linkd committed the batch behind the cut connection; the retry got that same answer back.
    expect(JSON.parse(attempts[1]!.answer!)).toMatchObject({ accepted: 5, duplicates: 0 })
    expect(attempts[2]!.answer).toBe(attempts[1]!.answer)
    const rows = await stored('web-retry')
    expect(rows.length).toBe(5)
    expect(new Set(rows.map((r) => r.batch_id))).toEqual(new Set([attempts[0]!.batchId]))
    await p.close()
  })

  it('sends what was tracked when the player leaves the page (pagehide, keepalive)', async () => {
    const from = seen.length
    const p = await page(config(plain, { flushIntervalMs: 600_000 }))
    await p.evaluate(() => {
      const w = globalThis as unknown as GameWindow
      w.sdk.identify('web-leaving')
      w.sdk.track('level_start', { level: 9 })
      w.sdk.track('app_close')
    })
    await p.goto('about:blank')
    await vi.waitFor(async () => expect((await stored('web-leaving')).length).toBe(2), { timeout: 20_000 })
    // Its rows are readable at the COMMIT, its 202 comes after the sync: wait for that too, so
    // that it is not counted among the next test's attempts.
    await vi.waitFor(() => expect(seen.slice(from).map((a) => a.status)).toEqual([202]), { timeout: 20_000 })
    // Tracked in the same millisecond maybe: rows of equal time come back in any order.
    expect((await stored('web-leaving')).map((r) => r.event_type).sort()).toEqual([
      'app_close',
      'level_start',
    ])
    await p.close()
  })

  it('keeps the queue offline in localStorage and sends it after a reload, same batch_id', async () => {
    onTestFinished(() => void (offline = false))
    offline = true
    const from = seen.length
    // Retries far apart: only the reload can send the batch in this test.
    const p = await page(config(plain, { retryBaseMs: 600_000 }))
    await p.evaluate(async () => {
      const w = globalThis as unknown as GameWindow
      w.sdk.identify('web-reload')
      w.sdk.track('tutorial_complete')
      w.sdk.track('currency_earned', { amount: 5 })
      await w.sdk.flush()
    })
    // (Chromium itself may send a POST again when a reused connection is cut.)
    const refused = seen.slice(from)
    expect(new Set(refused.map((a) => a.status))).toEqual(new Set(['refused']))
    const before = await queued(p)
    expect(before.batches).toEqual([...new Set(refused.map((a) => a.batchId))])
    expect(await stored('web-reload')).toEqual([])

    offline = false
    await p.reload()
    await vi.waitFor(async () => expect((await queued(p)).batches).toEqual([]), { timeout: 20_000 })
    const rows = await stored('web-reload')
    expect(rows.map((r) => [r.event_type, r.batch_id]).sort()).toEqual([
      ['currency_earned', before.batches[0]],
      ['tutorial_complete', before.batches[0]],
    ])
    await p.close()
  })

  it('signs batches (plain and gzip) that a game requiring HMAC accepts; a wrong secret is refused', async () => {
    const from = seen.length
    const p = await page(config(signed, { signingSecret: signed.signingSecret }))
    await p.evaluate(async () => {
      const w = globalThis as unknown as GameWindow
      w.sdk.identify('web-signed')
      w.sdk.track('app_open')
      await w.sdk.flush()
      w.sdk.track('level_start', { note: 'a long level description '.repeat(100) })
      await w.sdk.flush()
    })
    expect(seen.slice(from).map((a) => [a.status, a.gzip])).toEqual([
      [202, false],
      [202, true],
    ])
    expect((await stored('web-signed')).map((r) => r.event_type)).toEqual(['app_open', 'level_start'])
    await p.close()

    const wrong = await page(config(signed, { signingSecret: 'sig_not-the-secret' }))
    const errors = await wrong.evaluate(async () => {
      const w = globalThis as unknown as GameWindow
      w.sdk.identify('web-forged')
      w.sdk.track('app_open')
      await w.sdk.flush()
      return w.errors
    })
    expect(errors).toEqual([expect.objectContaining({ kind: 'dropped', status: 401, events: 1 })])
    expect(await stored('web-forged')).toEqual([])
    expect((await queued(wrong)).batches).toEqual([])
    await wrong.close()
  })

  it('a device clock 10 minutes ahead: the refused batch is sent again on the server clock (signed), stored once', async () => {
    const from = seen.length
    const p = await page(config(signed, { signingSecret: signed.signingSecret }), '', 600_000)
    await p.evaluate(async () => {
      const w = globalThis as unknown as GameWindow
      w.sdk.identify('web-skewed')
      w.sdk.track('app_open')
      w.sdk.track('level_start')
      await w.sdk.flush()
      w.sdk.track('level_complete')
      await w.sdk.flush()
    })
    const attempts = seen.slice(from)
    // The first answer (400, outside the replay window) tells the server's time through Date.
    expect(attempts.map((a) => a.status)).toEqual([400, 202, 202])
    expect(JSON.parse(attempts[0]!.answer!)).toMatchObject({ error: 'StaleBatch' })
    expect(attempts[1]!.batchId).toBe(attempts[0]!.batchId)
    const rows = await stored('web-skewed')
    // Tracked in the same millisecond, so sorted: rows read back by time have no order in a tie.
    expect(rows.map((r) => r.event_type).sort()).toEqual(['app_open', 'level_complete', 'level_start'])
    for (const r of rows) expect(Math.abs(Number(r.ts) - Date.now())).toBeLessThan(60_000)
    expect(await p.evaluate(() => (globalThis as unknown as GameWindow).errors)).toEqual([])
    await p.close()
  })
})
