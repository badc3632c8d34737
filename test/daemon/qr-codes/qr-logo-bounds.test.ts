/**
 * A QR logo cannot hold the daemon: a hostile SVG (a filter of 100,000 noise octaves) and a
 * 4,096 px PNG are refused when stored; a hostile logo already in the database (stored before
 * these bounds, as an old row would be) is drawn off the event loop and gives up within the time
 * bound with a 422, while the daemon keeps answering other requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { QrCode } from '../../../src/contract/qr-codes.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { makeLink } from '../../support/redirect.js'
import { detailFields, expectError } from '../../support/responses.js'
import { dataUrl, HOSTILE_SVG_LOGO, SVG_LOGO, solidPng } from '../../support/qr-images.js'

let t: TestApp
let qr: QrCode
beforeAll(async () => {
  t = await createTestApp()
  const link = await makeLink(t)
  const res = await t.call('POST', '/api/use/qr-codes', { body: { linkId: link.id } })
  expect(res.statusCode, res.body).toBe(201)
  qr = res.json<QrCode>()
})
afterAll(() => t.close())

const hostileSvg = dataUrl('image/svg+xml', HOSTILE_SVG_LOGO)
const hugePng = dataUrl('image/png', solidPng(4096, 4096))

/** Writes a logo straight into the stored style, past every check (a row stored before them). */
async function plantLogo(logo: string): Promise<void> {
  const style = { foreground: '#000000', background: '#ffffff', errorCorrection: 'H', margin: 4, logo }
  await t.db.kysely
    .updateTable('qr_codes')
    .set({ style: JSON.stringify(style) })
    .where('id', '=', qr.id)
    .execute()
}

describe('logos refused when stored', () => {
  for (const [name, logo, reason] of [
    ['the hostile SVG (feTurbulence numOctaves=100000)', hostileSvg, /^has a <filter> element; /],
    ['a 4096×4096 PNG', hugePng, /^is 4096x4096 pixels; at most 1024 a side$/],
  ] as const)
    it(`${name}: 400 on create and on update, naming style.logo; nothing stored`, async () => {
      const link = await makeLink(t)
      const created = await t.call('POST', '/api/use/qr-codes', {
        body: { linkId: link.id, style: { logo } },
      })
      const body = expectError(created, 400, 'ValidationError')
      expect(detailFields(created)).toEqual(['style.logo'])
      expect(body.details![0]!.message).toMatch(reason)
      const updated = await t.call('PATCH', `/api/use/qr-codes/${qr.id}`, { body: { style: { logo } } })
      expect(expectError(updated, 400, 'ValidationError').details![0]!.message).toMatch(reason)
      const stored = await t.call('GET', `/api/use/qr-codes/${qr.id}`)
      expect(stored.json<QrCode>().style.logo).toBeNull()
    })

  it('an SVG logo of the subset is stored and drawn', async () => {
    const res = await t.call('PATCH', `/api/use/qr-codes/${qr.id}`, {
      body: { style: { logo: dataUrl('image/svg+xml', SVG_LOGO) } },
    })
    expect(res.statusCode, res.body).toBe(200)
    const png = await t.call('GET', `/api/use/qr-codes/${qr.id}/image?format=png&size=300`)
    expect(png.statusCode, png.body).toBe(200)
    expect(png.headers['content-type']).toBe('image/png')
  })
})

describe('a hostile logo already stored', () => {
  it('the PNG gives up within the time bound (422) while /health keeps answering', async () => {
    await plantLogo(hostileSvg)
    let done = false
    const image = t
      .call('GET', `/api/use/qr-codes/${qr.id}/image?format=png&size=2048`)
      .finally(() => (done = true))
    // /health asked back to back all through the render (at least 2 s of its worker's processor
    // time). A render on the event loop would leave every /health unanswered until it ended.
    let answeredDuring = 0
    while (!done) {
      const health = await t.app.inject({ method: 'GET', url: '/health' })
      expect(health.statusCode).toBe(200)
      if (!done) answeredDuring++
      await new Promise((r) => setTimeout(r, 50))
    }
    const res = await image
    const body = expectError(res, 422, 'Unprocessable')
    expect(body.message).toBe("the QR code's logo could not be drawn within 2 s")
    expect(body.details).toEqual([{ field: 'style.logo', message: 'could not be drawn within 2 s' }])
    // Answered while the render was under way: the first may have come before it began drawing.
    expect(answeredDuring).toBeGreaterThanOrEqual(2)
    // The SVG image is the client's to draw; PNGs of other codes are still drawn.
    expect((await t.call('GET', `/api/use/qr-codes/${qr.id}/image?format=svg`)).statusCode).toBe(200)
    const other = await t.call('POST', '/api/use/qr-codes', { body: { linkId: (await makeLink(t)).id } })
    const png = await t.call('GET', `/api/use/qr-codes/${other.json<QrCode>().id}/image?format=png`)
    expect(png.statusCode, png.body).toBe(200)
  })

  it('a PNG whose header claims more pixels than any stored logo had is refused without decoding (422)', async () => {
    const claims = solidPng(64, 64)
    claims.writeUInt32BE(100_000, 16) // 100,000 × 64, said by the header alone
    await plantLogo(dataUrl('image/png', claims))
    const res = await t.call('GET', `/api/use/qr-codes/${qr.id}/image?format=png`)
    const body = expectError(res, 422, 'Unprocessable')
    expect(body.message).toBe("the QR code's logo could not be drawn: 100000x64 pixels, over 4096 a side")
  })
})
