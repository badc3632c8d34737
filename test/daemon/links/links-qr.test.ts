import QRCode from 'qrcode'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import type { EventEnvelope } from '../../../daemon/events.js'
import { expectError } from '../../support/responses.js'
import { createLink } from '../../support/links.js'

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** Width and height from a PNG's IHDR chunk. */
function pngSize(buf: Buffer): { width: number; height: number } {
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) }
}

describe('links API: QR codes', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp({ publicUrl: 'https://sho.rt' })
  })
  afterEach(() => t.close())

  it('serves an SVG by default that encodes the short URL with the ?qr=1 marker', async () => {
    const l = await createLink(t, { customSlug: 'qr-me' })
    const res = await t.call('GET', `/api/use/links/${l.id}/qr`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/)
    expect(res.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* width="300" height="300"/)
    expect(res.body.trimEnd()).toMatch(/<\/svg>$/)
    // the same matrix as the text rendered on its own: the encoded text is shortUrl?qr=1
    const expected = await QRCode.toString('https://sho.rt/qr-me?qr=1', {
      type: 'svg',
      errorCorrectionLevel: 'M',
      margin: 4,
      width: 300,
    })
    expect(res.body).toBe(expected)
    const sized = await t.call('GET', `/api/use/links/${l.id}/qr?format=svg&size=512`)
    expect(sized.body).toMatch(/width="512" height="512"/)
  })

  it('serves a PNG of the requested size (64 to 2,048 pixels)', async () => {
    const l = await createLink(t)
    const res = await t.call('GET', `/api/use/links/${l.id}/qr?format=png`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/png')
    expect(res.rawPayload.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true)
    expect(pngSize(res.rawPayload)).toEqual({ width: 300, height: 300 })
    for (const size of [64, 2048]) {
      const r = await t.call('GET', `/api/use/links/${l.id}/qr?format=png&size=${size}`)
      expect(r.statusCode).toBe(200)
      expect(pngSize(r.rawPayload)).toEqual({ width: size, height: size })
    }
    for (const q of ['format=png&size=63', 'format=png&size=2049', 'format=gif', 'size=abc', 'color=red'])
      expectError(await t.call('GET', `/api/use/links/${l.id}/qr?${q}`), 400, 'ValidationError')
  })

  it('announces qr_code.created the first time only', async () => {
    const seen: Array<EventEnvelope<'qr_code.created'>> = []
    t.app.linkd.services.events.on('qr_code.created', (e) => void seen.push(e))
    const l = await createLink(t, { customSlug: 'scan-me' })
    await t.call('GET', `/api/use/links/${l.id}/qr?format=png`)
    t.clock.advance(5000)
    await t.call('GET', `/api/use/links/${l.id}/qr?format=svg`)
    await t.call('GET', `/api/use/links/${l.id}/qr?format=png`)
    expect(seen).toEqual([
      {
        type: 'qr_code.created',
        at: Date.parse('2026-11-21T10:00:00.000Z'),
        organizationId: t.orgId,
        data: {
          qrCodeId: `qr_${l.id.slice('lnk_'.length)}`,
          linkId: l.id,
          shortUrl: 'https://sho.rt/scan-me',
          format: 'png',
          createdAt: '2026-11-21T10:00:00.000Z',
        },
      },
    ])
    // another link gets its own
    const other = await createLink(t)
    await t.call('GET', `/api/use/links/${other.id}/qr`)
    expect(seen.map((e) => e.data.linkId)).toEqual([l.id, other.id])
    expect(seen[1]!.data).toMatchObject({ format: 'svg' })
  })

  it('works for inactive links too, and is 404 for unknown ones', async () => {
    const l = await createLink(t)
    const active = await t.call('GET', `/api/use/links/${l.id}/qr`)
    await t.call('PATCH', `/api/use/links/${l.id}`, { body: { status: 'inactive' } })
    const inactive = await t.call('GET', `/api/use/links/${l.id}/qr`)
    expect(inactive.statusCode).toBe(200)
    // The same code as while the link was active.
    expect(inactive.headers['content-type']).toMatch(/^image\/svg\+xml/)
    expect(inactive.body).toBe(active.body)
    expectError(await t.call('GET', '/api/use/links/lnk_nope/qr'), 404, 'NotFound')
  })
})

describe('OpenAPI: links operations', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp()
  })
  afterEach(() => t.close())

  it('documents every links route with its permission; the QR route with its image types', async () => {
    const doc = (await t.call('GET', '/api/docs/openapi.json', { key: null })).json<{
      paths: Record<
        string,
        Record<string, { description?: string; responses: Record<string, { content?: object }> }>
      >
    }>()
    const expected: Array<[string, string, string, string]> = [
      ['/api/use/links', 'post', 'links:write', '201'],
      ['/api/use/links', 'get', 'links:read', '200'],
      ['/api/use/links/bulk', 'post', 'links:write', '200'],
      ['/api/use/links/{id}', 'get', 'links:read', '200'],
      ['/api/use/links/{id}', 'patch', 'links:write', '200'],
      ['/api/use/links/{id}', 'delete', 'links:delete', '204'],
      ['/api/use/links/{id}/qr', 'get', 'qrCodes:read', '200'],
    ]
    for (const [path, method, scope, ok] of expected) {
      const op = doc.paths[path]?.[method]
      expect(op, `${method} ${path}`).toBeDefined()
      expect(op!.description).toContain(scope)
      expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining([ok, '400', '401', '403', '429']))
    }
    expect(Object.keys(doc.paths['/api/use/links']!.post!.responses)).toContain('409')
    expect(Object.keys(doc.paths['/api/use/links/{id}/qr']!.get!.responses['200']!.content!).sort()).toEqual([
      'image/png',
      'image/svg+xml',
    ])
  })
})
