/**
 * A PATCH that changes the short URL (shortCode or customDomainId) of a link or smart link whose
 * short URL is in use (QR codes, the link's own QR image, or human clicks in the last 30 days) is
 * a 409 naming them, unless it says `force: true`; a short URL nobody uses moves as before. The
 * old short URL answers 404 after a forced move (no alias is kept).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import { expectError } from '../../support/responses.js'
import { DAY, GOOGLEBOT, makeLink, visit } from '../../support/redirect.js'
import type { Link } from '../../../src/contract/links.js'
import type { QrCode } from '../../../src/contract/qr-codes.js'
import type { SmartLink } from '../../../src/contract/smart-links.js'

let t: TestApp
afterEach(async () => {
  await t?.close()
})

async function makeQr(body: Record<string, unknown>): Promise<QrCode> {
  const res = await t.call('POST', '/api/use/qr-codes', { body })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<QrCode>()
}

const patchLink = (id: string, body: Record<string, unknown>) =>
  t.call('PATCH', `/api/use/links/${id}`, { body })

const FORCE_DETAIL = [{ field: 'force', message: 'true changes it anyway' }]

describe('changing the short URL of a link in use', () => {
  it('a fresh link (no QR code, no click) moves without force, as before', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { customSlug: 'fresh-old' })
    const moved = await patchLink(link.id, { shortCode: 'fresh-new' })
    expect(moved.statusCode, moved.body).toBe(200)
    expect(moved.json<Link>().shortCode).toBe('fresh-new')
  })

  it('QR codes: 409 naming how many and which (title and id), nothing changed; force moves it and the old URL is 404', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { customSlug: 'flyer' })
    const spring = await makeQr({ linkId: link.id, title: 'Spring flyer' })
    t.clock.advance(1000)
    // Named newest first.
    const plain = await makeQr({ linkId: link.id })

    const refused = await patchLink(link.id, { shortCode: 'flyer-2', title: 'renamed' })
    expectError(refused, 409, 'Conflict')
    expect(refused.json<{ message: string }>().message).toBe(
      `${t.config.publicUrl}/flyer is in use: 2 QR codes (${plain.id}, "Spring flyer" ${spring.id}); after the change it would answer 404`,
    )
    expect(refused.json<{ details: unknown }>().details).toEqual(FORCE_DETAIL)
    const unchanged = (await t.call('GET', `/api/use/links/${link.id}`)).json<Link>()
    expect(unchanged).toMatchObject({ shortCode: 'flyer', title: null })
    expect((await visit(t, 'flyer')).statusCode).toBe(302)

    const forced = await patchLink(link.id, { shortCode: 'flyer-2', force: true })
    expect(forced.statusCode, forced.body).toBe(200)
    expect(forced.json<Link>().shortCode).toBe('flyer-2')
    expectError(await visit(t, 'flyer'), 404, 'NotFound')
    expect((await visit(t, 'flyer-2')).statusCode).toBe(302)
    // The codes follow the new short URL (what is printed does not).
    expect((await t.call('GET', `/api/use/qr-codes/${spring.id}`)).json<QrCode>().encodedUrl).toBe(
      `${t.config.publicUrl}/flyer-2?qr=${spring.id}`,
    )
  })

  it("the link's own QR image, once fetched, counts as a QR code", async () => {
    t = await createTestApp()
    const link = await makeLink(t, { customSlug: 'own-qr' })
    expect((await t.call('GET', `/api/use/links/${link.id}/qr`)).statusCode).toBe(200)
    const refused = await patchLink(link.id, { shortCode: 'own-qr-2' })
    expectError(refused, 409, 'Conflict')
    expect(refused.json<{ message: string }>().message).toContain("1 QR code (the link's own QR image)")
  })

  it('human clicks in the last 30 days: 409 saying how many; bots do not count, older clicks neither', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { customSlug: 'clicked' })
    expect((await visit(t, 'clicked', { ua: GOOGLEBOT })).statusCode).toBe(302)
    // A bot's visit is no sign of people following the link.
    const botOnly = await makeLink(t, { customSlug: 'bot-only' })
    expect((await visit(t, 'bot-only', { ua: GOOGLEBOT })).statusCode).toBe(302)
    expect((await patchLink(botOnly.id, { shortCode: 'bot-only-2' })).statusCode).toBe(200)

    for (let i = 0; i < 3; i++)
      expect((await visit(t, 'clicked', { ip: `203.0.113.${i}` })).statusCode).toBe(302)
    const refused = await patchLink(link.id, { shortCode: 'clicked-2' })
    expectError(refused, 409, 'Conflict')
    expect(refused.json<{ message: string }>().message).toBe(
      `${t.config.publicUrl}/clicked is in use: 3 clicks in the last 30 days; after the change it would answer 404`,
    )

    t.clock.advance(31 * DAY)
    const moved = await patchLink(link.id, { shortCode: 'clicked-2' })
    expect(moved.statusCode, moved.body).toBe(200)
  })

  it('QR codes and clicks together; a code taken stays the 409 it was (force does not take it)', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { customSlug: 'both' })
    await makeLink(t, { customSlug: 'taken' })
    const qr = await makeQr({ linkId: link.id, title: 'Poster' })
    expect((await visit(t, 'both')).statusCode).toBe(302)
    const refused = await patchLink(link.id, { shortCode: 'both-2' })
    expect(refused.json<{ message: string }>().message).toBe(
      `${t.config.publicUrl}/both is in use: 1 QR code ("Poster" ${qr.id}) and 1 click in the last 30 days; after the change it would answer 404`,
    )
    const taken = await patchLink(link.id, { shortCode: 'taken', force: true })
    expectError(taken, 409, 'Conflict')
    expect(taken.json<{ details: unknown }>().details).toEqual([
      { field: 'shortCode', message: 'already in use on this domain' },
    ])
  })

  it('names five QR codes at most and counts the rest', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { customSlug: 'many' })
    for (let i = 0; i < 7; i++) await makeQr({ linkId: link.id, title: `Q${i}` })
    const message = (await patchLink(link.id, { shortCode: 'many-2' })).json<{ message: string }>().message
    expect(message).toMatch(/is in use: 7 QR codes \(("Q\d" qr_\S+, ){5}2 more\)/)
  })

  it('a move to another domain is refused the same way; a PATCH that keeps the short URL is not', async () => {
    t = await createTestApp()
    const d = await t.call('POST', '/api/domains', { body: { domain: 'go.example.org' } })
    const domainId = d.json<{ id: string }>().id
    await sqlRows(t, "UPDATE custom_domains SET verification_status = 'verified' WHERE id = ?", domainId)
    await t.app.linkd.services.directory.refresh()
    const link = await makeLink(t, { customSlug: 'moving' })
    await makeQr({ linkId: link.id })
    expectError(await patchLink(link.id, { customDomainId: domainId }), 409, 'Conflict')
    // Other fields, the same code, or the domain it is on: no change of the short URL.
    const same = await patchLink(link.id, { shortCode: 'moving', customDomainId: null, title: 'Kept' })
    expect(same.statusCode, same.body).toBe(200)
    const moved = await patchLink(link.id, { customDomainId: domainId, force: true })
    expect(moved.json<Link>().shortUrl).toBe('https://go.example.org/moving')
  })

  it('smart links: the same refusal and force', async () => {
    t = await createTestApp()
    const made = await t.call('POST', '/api/use/smart-links', {
      body: { fallbackUrl: 'https://example.com/game', shortCode: 'play-now' },
    })
    const smart = made.json<SmartLink>()
    const qr = await makeQr({ smartLinkId: smart.id, title: 'Box art' })
    const patch = (body: Record<string, unknown>) =>
      t.call('PATCH', `/api/use/smart-links/${smart.id}`, { body })
    const refused = await patch({ shortCode: 'play-later' })
    expectError(refused, 409, 'Conflict')
    expect(refused.json<{ message: string }>().message).toBe(
      `${t.config.publicUrl}/play-now is in use: 1 QR code ("Box art" ${qr.id}); after the change it would answer 404`,
    )
    const forced = await patch({ shortCode: 'play-later', force: true })
    expect(forced.statusCode, forced.body).toBe(200)
    expectError(await visit(t, 'play-now'), 404, 'NotFound')
  })

  it('force must be a boolean', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    expectError(await patchLink(link.id, { shortCode: 'x-new', force: 'yes' }), 400, 'ValidationError')
  })
})
