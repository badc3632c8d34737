/**
 * Scans of QR code resources: a visit of a code's encodedUrl counts once in that code's scans and
 * as a QR scan of the link; `?qr=1`, a deleted code's id and another link's code id count on the
 * link only; bots never. qr_code.created / qr_code.scanned reach a real webhook receiver.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { analytics, flush, GOOGLEBOT, makeLink, SAFARI_IPHONE, visit } from '../../support/redirect.js'
import { startReceiver, type Receiver } from '../../support/receiver.js'
import type { QrCode } from '../../../src/contract/qr-codes.js'

let t: TestApp
const receivers: Receiver[] = []
beforeEach(async () => {
  t = await createTestApp({ publicUrl: 'https://sho.rt' })
})
afterEach(async () => {
  await t.close()
  await Promise.all(receivers.splice(0).map((r) => r.close()))
})

async function makeQr(body: Record<string, unknown>): Promise<QrCode> {
  const res = await t.call('POST', '/api/use/qr-codes', { body })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<QrCode>()
}

const scansOf = async (id: string) => (await t.call('GET', `/api/use/qr-codes/${id}`)).json<QrCode>().scans

/** Visits the short code with the query of a code's encodedUrl (or any `qr` value). */
async function scan(code: string, qr: string, ua?: string) {
  const res = await visit(t, code, { query: `qr=${qr}`, ...(ua ? { ua } : {}) })
  expect(res.statusCode, res.body).toBe(302)
  return res
}

describe('QR code scans', () => {
  it('counts each code apart, and every scan as a QR scan of the link', async () => {
    const l = await makeLink(t, { customSlug: 'poster' })
    const a = await makeQr({ linkId: l.id, title: 'Station' })
    const b = await makeQr({ linkId: l.id, title: 'Library' })
    expect(new URL(a.encodedUrl).searchParams.get('qr')).toBe(a.id)
    await scan('poster', a.id)
    await scan('poster', a.id, SAFARI_IPHONE)
    await scan('poster', b.id)
    await flush(t)
    await scan('poster', a.id)
    await flush(t)
    expect(await scansOf(a.id)).toBe(3)
    expect(await scansOf(b.id)).toBe(1)
    const stats = await analytics(t, l.id)
    expect(stats.totalClicks).toBe(4)
    expect(stats.qrScans).toBe(4)
  })

  it('counts ?qr=1, a deleted code and another link’s code on the link only; bots nowhere', async () => {
    const l = await makeLink(t, { customSlug: 'main' })
    const other = await makeLink(t, { customSlug: 'other' })
    const mine = await makeQr({ linkId: l.id })
    const gone = await makeQr({ linkId: l.id })
    const theirs = await makeQr({ linkId: other.id })
    expect((await t.call('DELETE', `/api/use/qr-codes/${gone.id}`)).statusCode).toBe(204)
    await scan('main', '1')
    await scan('main', gone.id)
    await scan('main', theirs.id)
    await scan('main', mine.id, GOOGLEBOT)
    await scan('main', 'qr_nonexistent')
    await flush(t)
    expect(await scansOf(mine.id)).toBe(0)
    expect(await scansOf(theirs.id)).toBe(0)
    const stats = await analytics(t, l.id)
    expect(stats.totalClicks).toBe(4)
    expect(stats.qrScans).toBe(4)
    expect(stats.botDetection.count).toBe(1)
    expect((await analytics(t, other.id)).totalClicks).toBe(0)
  })

  it('counts scans of a smart link’s code', async () => {
    const s = await t.call('POST', '/api/use/smart-links', {
      body: { fallbackUrl: 'https://example.com/game', shortCode: 'game' },
    })
    const smart = s.json<{ id: string }>()
    const qr = await makeQr({ smartLinkId: smart.id })
    await scan('game', qr.id)
    await flush(t)
    expect(await scansOf(qr.id)).toBe(1)
  })
})

describe('QR code events', () => {
  it('delivers qr_code.created and qr_code.scanned with the real code id (legacy id for ?qr=1)', async () => {
    const rx = await startReceiver()
    receivers.push(rx)
    const hook = await t.call('POST', '/api/webhooks', {
      body: { name: 'rx', url: rx.url, events: ['qr_code.created', 'qr_code.scanned'] },
    })
    expect(hook.statusCode, hook.body).toBe(201)
    const l = await makeLink(t, { customSlug: 'evt' })
    const qr = await makeQr({ linkId: l.id, title: 'Flyer' })
    const s = await t.call('POST', '/api/use/smart-links', {
      body: { fallbackUrl: 'https://example.com/game', shortCode: 'evt-game' },
    })
    const smart = s.json<{ id: string; shortUrl: string }>()
    const sqr = await makeQr({ smartLinkId: smart.id })
    await scan('evt', qr.id, SAFARI_IPHONE)
    await scan('evt', '1')
    await scan('evt', qr.id, GOOGLEBOT)
    await scan('evt-game', sqr.id)
    await flush(t)
    const webhooks = t.app.linkd.services.webhooks
    await webhooks.settle()
    await webhooks.worker.runDue()
    const got = (await rx.waitFor(5)).map(
      (r) => JSON.parse(r.raw.toString()) as { event: string; data: Record<string, unknown> },
    )
    const byEvent = (e: string) => got.filter((g) => g.event === e).map((g) => g.data)
    expect(byEvent('qr_code.created')).toEqual(
      expect.arrayContaining([
        {
          qrCodeId: qr.id,
          linkId: l.id,
          encodedUrl: `https://sho.rt/evt?qr=${qr.id}`,
          title: 'Flyer',
          createdAt: '2026-11-21T10:00:00.000Z',
        },
        {
          qrCodeId: sqr.id,
          linkId: smart.id,
          kind: 'smart',
          encodedUrl: sqr.encodedUrl,
          title: null,
          createdAt: '2026-11-21T10:00:00.000Z',
        },
      ]),
    )
    const scanned = byEvent('qr_code.scanned')
    expect(scanned).toHaveLength(3)
    expect(scanned).toEqual(
      expect.arrayContaining([
        {
          qrCodeId: qr.id,
          linkId: l.id,
          shortUrl: 'https://sho.rt/evt',
          scannedAt: '2026-11-21T10:00:00.000Z',
          country: null,
          device: 'mobile',
          browser: 'Mobile Safari',
          os: 'iOS',
        },
        expect.objectContaining({ qrCodeId: `qr_${l.id.slice('lnk_'.length)}`, linkId: l.id }),
        expect.objectContaining({
          qrCodeId: sqr.id,
          linkId: smart.id,
          kind: 'smart',
          shortUrl: smart.shortUrl,
        }),
      ]),
    )
  })
})
