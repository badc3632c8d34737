/**
 * End to end, the built linkd (or the single executable with LINKD_TEST_BINARY): a hostile QR
 * logo already in the database (stored before the write-time bounds) is drawn by the render
 * worker, from the bundle's own worker file; /health answers all through the render, which gives
 * up with a 422; and SIGTERM during such a render still stops the daemon at once (the render
 * answers 503). Needs `npm run build`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../daemon/db/open.js'
import type { QrCode } from '../../src/contract/qr-codes.js'
import { createTestDatabase, onPostgres } from '../support/postgres.js'
import { dataUrl, HOSTILE_SVG_LOGO } from '../support/qr-images.js'
import { startLinkd, type RunningLinkd } from '../support/processes.js'

let work = ''
let daemon: RunningLinkd
let key = ''
/** The daemon's database: a file in its data directory, or (test:pg) a database of the run. */
let database: { url: string; env: Record<string, string>; drop(): Promise<void> }

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'linkd-qr-logo-e2e-'))
  const pg = onPostgres ? await createTestDatabase() : undefined
  database = pg
    ? { url: pg.url, env: { LINKD_DATABASE_URL: pg.url }, drop: () => pg.drop() }
    : { url: `sqlite:${join(work, 'data', 'linkd.db')}`, env: {}, drop: async () => {} }
  daemon = await startLinkd(join(work, 'data'), database.env)
  key = daemon.ownerKey() ?? ''
}, 60_000)

afterAll(async () => {
  if (daemon) await daemon.stop('SIGKILL')
  await database?.drop()
  if (work) rmSync(work, { recursive: true, force: true })
})

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${daemon.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  expect(res.status, `${method} ${path}`).toBeLessThan(300)
  return (await res.json()) as T
}

/** A QR code whose stored logo is the hostile SVG, written past every check (as an old row). */
async function hostileQr(): Promise<string> {
  const link = await api<{ id: string }>('POST', '/api/use/links', { destinationUrl: 'https://example.com/' })
  const qr = await api<QrCode>('POST', '/api/use/qr-codes', { linkId: link.id })
  const style = {
    foreground: '#000000',
    background: '#ffffff',
    errorCorrection: 'H',
    margin: 4,
    logo: dataUrl('image/svg+xml', HOSTILE_SVG_LOGO),
  }
  const db = openDatabase(database.url)
  try {
    await db.kysely
      .updateTable('qr_codes')
      .set({ style: JSON.stringify(style) })
      .where('id', '=', qr.id)
      .execute()
  } finally {
    await db.close()
  }
  return qr.id
}

const pngOf = (id: string) =>
  fetch(`${daemon.url}/api/use/qr-codes/${id}/image?format=png&size=2048`, {
    headers: { authorization: `Bearer ${key}` },
  })

/** Waits until `n` QR renders are running in the render workers (GET /metrics, from loopback). */
async function rendering(n: number): Promise<void> {
  const end = Date.now() + 20_000
  let text = ''
  while (Date.now() < end) {
    text = await (await fetch(`${daemon.url}/metrics`)).text()
    if (new RegExp(`^linkd_qr_renders\\{state="running"\\} ${n}$`, 'm').test(text)) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`no ${n} running QR renders in time; the metrics:\n${text}`)
}

describe('a hostile stored QR logo with the real daemon', () => {
  it('the render gives up with a 422 while /health is answered during it', async () => {
    const id = await hostileQr()
    let done = false
    const image = pngOf(id).finally(() => (done = true))
    // /health asked back to back all through the render (at least 2 s of its worker's processor
    // time). A render on the event loop would leave every /health unanswered until it ended.
    let answeredDuring = 0
    while (!done) {
      expect((await fetch(`${daemon.url}/health`)).status).toBe(200)
      if (!done) answeredDuring++
      await new Promise((r) => setTimeout(r, 50))
    }
    const res = await image
    expect(res.status).toBe(422)
    expect(((await res.json()) as { message: string }).message).toBe(
      "the QR code's logo could not be drawn within 2 s",
    )
    // Answered while the render was under way: the first may have come before it began drawing.
    expect(answeredDuring).toBeGreaterThanOrEqual(2)
  })

  it('SIGTERM during such a render stops the daemon', async () => {
    const id = await hostileQr()
    const image = pngOf(id).then(
      (res) => res.status,
      () => 'closed',
    )
    // Under way once a render worker has it (the metrics say so); the main thread still answers.
    await rendering(1)
    expect((await fetch(`${daemon.url}/health`)).status).toBe(200)
    const code = await daemon.stop('SIGTERM')
    expect(code, daemon.output()).toBe(0)
    // Cut short by the shutdown: 503 (retry elsewhere), or the connection closed first.
    expect([503, 'closed']).toContain(await image)
  })
})
