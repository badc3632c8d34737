/** `links share` against the real daemon: the short URL to copy, the QR on a terminal, the summary. */
import QRCode from 'qrcode'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Link } from '../../../src/contract/links.js'
import { shareSummary } from '../../../src/cli/commands/links/share.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { cli } from '../../support/cli.js'

let d: TestDaemon
let env: NodeJS.ProcessEnv
let link: Link
beforeAll(async () => {
  d = await startTestDaemon()
  env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey, NO_COLOR: '1' }
  const r = await cli(
    [
      'links',
      'create',
      'https://example.com/launch',
      '--title',
      'Launch',
      '--slug',
      'launch',
      '--tag',
      'news',
      '--json',
    ],
    { env },
  )
  expect(r.code, r.stderr).toBe(0)
  link = JSON.parse(r.stdout) as Link
})
afterAll(() => d.close())

describe('links share', () => {
  it('piped: only the short URL, on its own line (copy-ready)', async () => {
    for (const ref of ['launch', link.id, link.shortUrl]) {
      const r = await cli(['links', 'share', ref], { env })
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toBe(`${link.shortUrl}\n`)
    }
  })

  it('terminal: the short URL, the QR of the short URL marked as a scan, and a one-line summary', async () => {
    const r = await cli(['links', 'share', 'launch'], { env, isTTY: true })
    expect(r.code, r.stderr).toBe(0)
    const qr = await QRCode.toString(`${link.shortUrl}?qr=1`, { type: 'terminal', small: true })
    const lines = r.stdout.split('\n')
    expect(lines[0]).toBe(link.shortUrl)
    expect(r.stdout).toContain(qr)
    expect(lines.at(-2)).toMatch(
      /^Launch → https:\/\/example\.com\/launch · 0 clicks · active · created .+ · #news$/,
    )
    const plain = await cli(['links', 'share', 'launch', '--no-qr'], { env, isTTY: true })
    expect(plain.stdout.split('\n')).toHaveLength(3)
  })

  it('--json: the short URL, what the QR encodes and the link; unknown links exit 5', async () => {
    const r = await cli(['links', 'share', 'launch', '--json'], { env })
    expect(JSON.parse(r.stdout)).toEqual({ shortUrl: link.shortUrl, qrTarget: `${link.shortUrl}?qr=1`, link })
    expect((await cli(['links', 'share', 'nope-nope'], { env })).code).toBe(5)
  })

  it('the summary: relative times, expiry in the future or the past, plural clicks', () => {
    const now = Date.parse('2026-11-21T12:00:00.000Z')
    const base = { ...link, createdAt: '2026-11-21T09:00:00.000Z', clicks: 1, tags: [], title: null }
    expect(shareSummary({ ...base, expiresAt: '2026-11-24T12:00:00.000Z' }, now)).toBe(
      '→ https://example.com/launch · 1 click · active · created 3 hours ago · expires in 3 days',
    )
    expect(
      shareSummary({ ...base, clicks: 2, expiresAt: '2026-11-21T11:00:00.000Z', status: 'expired' }, now),
    ).toBe('→ https://example.com/launch · 2 clicks · expired · created 3 hours ago · expired 1 hour ago')
  })
})
