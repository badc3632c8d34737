/**
 * QR codes as resources through HTTP: CRUD, the one-of linkId/smartLinkId rule, style checks
 * (contrast, logo), isolation between organizations and kinds, scopes (and the qr:* aliases),
 * the image decoding to encodedUrl, and codes following their link's short URL and deletion.
 */
import QRCode from 'qrcode'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { detailFields, expectError } from '../../support/responses.js'
import { makeLink } from '../../support/redirect.js'
import type { QrCode } from '../../../src/contract/qr-codes.js'
import type { PageOf } from '../../../src/contract/common.js'
import { dataUrl, pngLogo } from '../../support/qr-images.js'

let t: TestApp
beforeEach(async () => {
  t = await createTestApp({ publicUrl: 'https://sho.rt' })
})
afterEach(() => t.close())

async function makeSmart(shortCode = 'game') {
  const res = await t.call('POST', '/api/use/smart-links', {
    body: { fallbackUrl: 'https://example.com/game', shortCode },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<{ id: string; shortUrl: string }>()
}

async function makeQr(body: Record<string, unknown>, key?: string): Promise<QrCode> {
  const res = await t.call('POST', '/api/use/qr-codes', { body, ...(key ? { key } : {}) })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<QrCode>()
}

/** A data URL of a real PNG logo of exactly `bytes` bytes. */
const pngDataUrl = (bytes: number) => dataUrl('image/png', pngLogo(bytes))

describe('QR codes: create, read, update, delete', () => {
  it('creates a code for a link with the default style and an encodedUrl of the short URL', async () => {
    const l = await makeLink(t, { customSlug: 'flyer' })
    const qr = await makeQr({ linkId: l.id, title: '  Spring flyer ' })
    expect(qr).toEqual({
      id: expect.stringMatching(/^qr_[A-Za-z0-9_-]+$/),
      linkId: l.id,
      smartLinkId: null,
      encodedUrl: `https://sho.rt/flyer?qr=${qr.id}`,
      title: 'Spring flyer',
      style: { foreground: '#000000', background: '#ffffff', errorCorrection: 'M', margin: 4, logo: null },
      scans: 0,
      createdAt: '2026-11-21T10:00:00.000Z',
      updatedAt: '2026-11-21T10:00:00.000Z',
    })
    const got = await t.call('GET', `/api/use/qr-codes/${qr.id}`)
    expect(got.json()).toEqual(qr)
  })

  it('creates a code for a smart link', async () => {
    const s = await makeSmart('play')
    const qr = await makeQr({ smartLinkId: s.id })
    expect(qr).toMatchObject({
      linkId: null,
      smartLinkId: s.id,
      encodedUrl: `https://sho.rt/play?qr=${qr.id}`,
    })
  })

  it('lists newest first, filtered by linkId or smartLinkId, in the envelope', async () => {
    const a = await makeLink(t)
    const b = await makeLink(t)
    const s = await makeSmart()
    const first = await makeQr({ linkId: a.id })
    t.clock.advance(1000)
    const second = await makeQr({ linkId: b.id })
    t.clock.advance(1000)
    const third = await makeQr({ smartLinkId: s.id })
    const all = (await t.call('GET', '/api/use/qr-codes')).json<PageOf<QrCode>>()
    expect(all.data.map((q) => q.id)).toEqual([third.id, second.id, first.id])
    expect(all).toMatchObject({ total: 3, page: 1, hasMore: false })
    const ofA = (await t.call('GET', `/api/use/qr-codes?linkId=${a.id}`)).json<PageOf<QrCode>>()
    expect(ofA.data).toEqual([first])
    const ofS = (await t.call('GET', `/api/use/qr-codes?smartLinkId=${s.id}`)).json<PageOf<QrCode>>()
    expect(ofS.data).toEqual([third])
    // a smart link's id is no link's
    const wrong = (await t.call('GET', `/api/use/qr-codes?linkId=${s.id}`)).json<PageOf<QrCode>>()
    expect(wrong).toMatchObject({ data: [], total: 0 })
    const paged = (await t.call('GET', '/api/use/qr-codes?limit=10&page=2')).json<PageOf<QrCode>>()
    expect(paged).toMatchObject({ data: [], total: 3, page: 2 })
  })

  it('updates title and style (the stored style kept where not sent); deletes', async () => {
    const l = await makeLink(t)
    const qr = await makeQr({ linkId: l.id, title: 'Poster', style: { foreground: '#112233', margin: 2 } })
    t.clock.advance(5000)
    const res = await t.call('PATCH', `/api/use/qr-codes/${qr.id}`, {
      body: { title: null, style: { background: 'transparent', errorCorrection: 'Q' } },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({
      ...qr,
      title: null,
      style: {
        foreground: '#112233',
        background: 'transparent',
        errorCorrection: 'Q',
        margin: 2,
        logo: null,
      },
      updatedAt: '2026-11-21T10:00:05.000Z',
    })
    expect((await t.call('GET', `/api/use/qr-codes/${qr.id}`)).json()).toEqual(res.json())
    const del = await t.call('DELETE', `/api/use/qr-codes/${qr.id}`)
    expect(del.statusCode).toBe(204)
    expectError(await t.call('GET', `/api/use/qr-codes/${qr.id}`), 404, 'NotFound')
    expectError(await t.call('DELETE', `/api/use/qr-codes/${qr.id}`), 404, 'NotFound')
  })

  it('follows a new short code of its link (encodedUrl is computed), and goes with a deleted link', async () => {
    const l = await makeLink(t, { customSlug: 'old-code' })
    const qr = await makeQr({ linkId: l.id })
    // A link with QR codes moves only when forced (links-in-use.test.ts).
    const moved = await t.call('PATCH', `/api/use/links/${l.id}`, {
      body: { shortCode: 'new-code', force: true },
    })
    expect(moved.statusCode, moved.body).toBe(200)
    expect((await t.call('GET', `/api/use/qr-codes/${qr.id}`)).json<QrCode>().encodedUrl).toBe(
      `https://sho.rt/new-code?qr=${qr.id}`,
    )
    expect((await t.call('DELETE', `/api/use/links/${l.id}`)).statusCode).toBe(204)
    expectError(await t.call('GET', `/api/use/qr-codes/${qr.id}`), 404, 'NotFound')
    expect((await t.call('GET', '/api/use/qr-codes')).json<PageOf<QrCode>>().total).toBe(0)
  })
})

describe('QR codes: validation', () => {
  it('needs exactly one of linkId and smartLinkId (400 naming both)', async () => {
    const l = await makeLink(t)
    const s = await makeSmart()
    const none = await t.call('POST', '/api/use/qr-codes', { body: { title: 'x' } })
    expectError(none, 400, 'ValidationError')
    expect(detailFields(none).sort()).toEqual(['linkId', 'smartLinkId'])
    const both = await t.call('POST', '/api/use/qr-codes', { body: { linkId: l.id, smartLinkId: s.id } })
    expectError(both, 400, 'ValidationError')
    expect(detailFields(both).sort()).toEqual(['linkId', 'smartLinkId'])
  })

  it('refuses a low contrast, through create and update (400 naming style)', async () => {
    const l = await makeLink(t)
    const low = await t.call('POST', '/api/use/qr-codes', {
      body: { linkId: l.id, style: { foreground: '#777777', background: '#888888' } },
    })
    expect(expectError(low, 400, 'ValidationError').message).toMatch(/contrast/)
    expect(detailFields(low)).toEqual(['style'])
    const qr = await makeQr({ linkId: l.id, style: { foreground: '#777777' } })
    const patched = await t.call('PATCH', `/api/use/qr-codes/${qr.id}`, {
      body: { style: { background: '#999999' } },
    })
    expectError(patched, 400, 'ValidationError')
    expect((await t.call('GET', `/api/use/qr-codes/${qr.id}`)).json<QrCode>().style.background).toBe(
      '#ffffff',
    )
  })

  it('refuses bad style values, unknown fields and an empty update', async () => {
    const l = await makeLink(t)
    for (const style of [
      { foreground: 'red' },
      { margin: 17 },
      { errorCorrection: 'X' },
      { logo: 'http://x/y.png' },
    ])
      expectError(
        await t.call('POST', '/api/use/qr-codes', { body: { linkId: l.id, style } }),
        400,
        'ValidationError',
      )
    expectError(
      await t.call('POST', '/api/use/qr-codes', { body: { linkId: l.id, colour: 1 } }),
      400,
      'ValidationError',
    )
    const qr = await makeQr({ linkId: l.id })
    expectError(await t.call('PATCH', `/api/use/qr-codes/${qr.id}`, { body: {} }), 400, 'ValidationError')
  })

  it('takes a 100 KB logo (forcing error correction H), refuses a larger one cleanly', async () => {
    const l = await makeLink(t)
    const qr = await makeQr({ linkId: l.id, style: { logo: pngDataUrl(100 * 1024), errorCorrection: 'L' } })
    expect(qr.style).toMatchObject({
      errorCorrection: 'H',
      logo: { contentType: 'image/png', bytes: 102400 },
    })
    const big = await t.call('POST', '/api/use/qr-codes', {
      body: { linkId: l.id, style: { logo: pngDataUrl(100 * 1024 + 1) } },
    })
    expectError(big, 400, 'ValidationError')
    const huge = await t.call('POST', '/api/use/qr-codes', {
      body: { linkId: l.id, style: { logo: pngDataUrl(400 * 1024) } },
    })
    expect([400, 413]).toContain(huge.statusCode)
    expectError(huge, huge.statusCode, huge.statusCode === 413 ? 'PayloadTooLarge' : 'ValidationError')
    const removed = await t.call('PATCH', `/api/use/qr-codes/${qr.id}`, { body: { style: { logo: null } } })
    expect(removed.json<QrCode>().style.logo).toBeNull()
  })

  it('takes a 100 KB logo even when the general body limit is smaller', async () => {
    const small = await createTestApp({ publicUrl: 'https://sho.rt', bodyLimitBytes: 64 * 1024 })
    try {
      const l = await small.call('POST', '/api/use/links', {
        body: { destinationUrl: 'https://example.com/' },
      })
      const res = await small.call('POST', '/api/use/qr-codes', {
        body: { linkId: l.json<{ id: string }>().id, style: { logo: pngDataUrl(100 * 1024) } },
      })
      expect(res.statusCode, res.body).toBe(201)
    } finally {
      await small.close()
    }
  })

  it('refuses an image size or format out of range', async () => {
    const qr = await makeQr({ linkId: (await makeLink(t)).id })
    for (const q of ['size=63', 'size=2049', 'format=gif'])
      expectError(await t.call('GET', `/api/use/qr-codes/${qr.id}/image?${q}`), 400, 'ValidationError')
  })
})

describe('QR codes: isolation', () => {
  it("answers 404 for another organization's link, code, and for a link given as the other kind", async () => {
    const l = await makeLink(t)
    const s = await makeSmart()
    const other = await t.createOrg('other')
    const theirs = await makeLink(t, {}, other.ownerKey)
    expectError(await t.call('POST', '/api/use/qr-codes', { body: { linkId: theirs.id } }), 404, 'NotFound')
    expectError(await t.call('POST', '/api/use/qr-codes', { body: { linkId: s.id } }), 404, 'NotFound')
    expectError(await t.call('POST', '/api/use/qr-codes', { body: { smartLinkId: l.id } }), 404, 'NotFound')
    expectError(await t.call('POST', '/api/use/qr-codes', { body: { linkId: 'lnk_nope' } }), 404, 'NotFound')
    const qr = await makeQr({ linkId: l.id })
    const key = other.ownerKey
    for (const [method, url, body] of [
      ['GET', `/api/use/qr-codes/${qr.id}`],
      ['GET', `/api/use/qr-codes/${qr.id}/image`],
      ['PATCH', `/api/use/qr-codes/${qr.id}`, { title: 'x' }],
      ['DELETE', `/api/use/qr-codes/${qr.id}`],
    ] as const)
      expectError(await t.call(method, url, { key, ...(body ? { body } : {}) }), 404, 'NotFound')
    expect((await t.call('GET', '/api/use/qr-codes', { key })).json<PageOf<QrCode>>().total).toBe(0)
    expect((await t.call('GET', `/api/use/qr-codes/${qr.id}`)).statusCode).toBe(200)
  })
})

describe('QR codes: scopes', () => {
  it('needs qrCodes:write/read/delete per route, and takes the qr:* spellings', async () => {
    const l = await makeLink(t)
    const routes = (id: string) =>
      [
        ['POST', '/api/use/qr-codes', 'write', { linkId: l.id }],
        ['GET', '/api/use/qr-codes', 'read'],
        ['GET', `/api/use/qr-codes/${id}`, 'read'],
        ['GET', `/api/use/qr-codes/${id}/image`, 'read'],
        ['PATCH', `/api/use/qr-codes/${id}`, 'write', { title: 'T' }],
        ['DELETE', `/api/use/qr-codes/${id}`, 'delete'],
      ] as const
    const linksOnly = (await t.createKey({ name: 'links', permissions: ['links:read', 'links:write'] })).key
    const qr = await makeQr({ linkId: l.id })
    for (const [method, url, , body] of routes(qr.id))
      expectError(await t.call(method, url, { key: linksOnly, ...(body ? { body } : {}) }), 403, 'Forbidden')
    for (const spelling of ['qrCodes', 'qr']) {
      const { id } = await makeQr({ linkId: l.id })
      for (const [method, url, scope, body] of routes(id)) {
        const key = (
          await t.createKey({ name: `${spelling}:${scope}`, permissions: [`${spelling}:${scope}`] })
        ).key
        const res = await t.call(method, url, { key, ...(body ? { body } : {}) })
        expect(res.statusCode, `${method} ${url} with ${spelling}:${scope}: ${res.body}`).toBeLessThan(300)
      }
    }
  })
})

describe('QR codes: image', () => {
  it('serves an SVG decoding to encodedUrl in its style, a PNG of the size, and an ETag', async () => {
    const l = await makeLink(t, { customSlug: 'img' })
    const qr = await makeQr({
      linkId: l.id,
      style: { foreground: '#112233', margin: 1, errorCorrection: 'Q' },
    })
    const res = await t.call('GET', `/api/use/qr-codes/${qr.id}/image`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/)
    expect(res.headers['cache-control']).toBe('private, no-cache')
    const expected = await QRCode.toString(qr.encodedUrl, {
      type: 'svg',
      errorCorrectionLevel: 'Q',
      margin: 1,
      width: 300,
      color: { dark: '#112233ff', light: '#ffffffff' },
    })
    expect(res.body).toBe(expected)
    const again = await t.call('GET', `/api/use/qr-codes/${qr.id}/image`, {
      headers: { 'if-none-match': res.headers.etag as string },
    })
    expect(again.statusCode).toBe(304)
    const png = await t.call('GET', `/api/use/qr-codes/${qr.id}/image?format=png&size=128`)
    expect(png.headers['content-type']).toBe('image/png')
    expect(png.rawPayload.readUInt32BE(16)).toBe(128)
  })
})
