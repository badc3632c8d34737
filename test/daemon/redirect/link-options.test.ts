import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import { expectError } from '../../support/responses.js'
import {
  CHROME_WINDOWS,
  FIREFOX_LINUX,
  GOOGLEBOT,
  HOUR,
  SAFARI_IPAD,
  SAFARI_IPHONE,
  SLACKBOT,
  flush,
  makeLink,
  visit,
} from '../../support/redirect.js'
import { forwardQuery } from '../../../daemon/modules/redirect/options.js'
import { LINK_RULE_LIMITS } from '../../../src/contract/limits.js'
import type { Link } from '../../../src/contract/links.js'

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36'
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0'
const CHROME_MACOS =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const FIREFOX_MACOS = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.2; rv:121.0) Gecko/20100101 Firefox/121.0'
const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const FIREFOX_UBUNTU = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0'

const E = 'https://example.com'
const rule = (url: string, ...conditions: Array<[string, string]>) => ({
  conditions: conditions.map(([type, value]) => ({ type, value })),
  destinationUrl: url,
})

let t: TestApp
afterEach(() => t.close())

describe('link rules: first match wins, else destinationUrl', () => {
  it.each([
    ['iPhone Safari', SAFARI_IPHONE, `${E}/ios`, `${E}/mobile`],
    ['iPad Safari', SAFARI_IPAD, `${E}/tablet`, `${E}/landing`],
    ['Android Chrome', ANDROID_CHROME, `${E}/android`, `${E}/mobile`],
    ['Windows Chrome', CHROME_WINDOWS, `${E}/windows`, `${E}/desktop`],
    ['Windows Firefox', FIREFOX_WINDOWS, `${E}/windows`, `${E}/desktop`],
    ['macOS Chrome', CHROME_MACOS, `${E}/macos`, `${E}/desktop`],
    ['macOS Firefox', FIREFOX_MACOS, `${E}/macos`, `${E}/desktop`],
    ['Linux Chrome', CHROME_LINUX, `${E}/linux`, `${E}/desktop`],
    ['Linux Firefox', FIREFOX_LINUX, `${E}/linux`, `${E}/desktop`],
    ['Ubuntu Firefox', FIREFOX_UBUNTU, `${E}/linux`, `${E}/desktop`],
    ['Googlebot', GOOGLEBOT, `${E}/landing`, `${E}/desktop`],
    ['Slackbot', SLACKBOT, `${E}/landing`, `${E}/desktop`],
  ])('%s goes by its OS and device', async (_name, ua, byOs, byDevice) => {
    t = await createTestApp()
    const os = await makeLink(t, {
      rules: [
        rule(`${E}/tablet`, ['device', 'tablet']),
        rule(`${E}/ios`, ['os', 'ios']),
        rule(`${E}/android`, ['os', 'android']),
        rule(`${E}/windows`, ['os', 'windows']),
        rule(`${E}/macos`, ['os', 'macos']),
        rule(`${E}/linux`, ['os', 'linux']),
      ],
    })
    const device = await makeLink(t, {
      rules: [rule(`${E}/mobile`, ['device', 'mobile']), rule(`${E}/desktop`, ['device', 'desktop'])],
    })
    expect((await visit(t, os.shortCode, { ua })).headers.location).toBe(byOs)
    expect((await visit(t, device.shortCode, { ua })).headers.location).toBe(byDevice)
  })

  it.each([
    ['de-CH, en;q=0.8', `${E}/de`],
    ['en-US,en;q=0.9', `${E}/en`],
    ['EN', `${E}/en`],
    ['fr-FR, de;q=0.9, en;q=0.8', `${E}/landing`],
    ['*', `${E}/landing`],
    [undefined, `${E}/landing`],
  ])('Accept-Language %s: the primary tag of the first entry', async (lang, expected) => {
    t = await createTestApp()
    const link = await makeLink(t, {
      rules: [rule(`${E}/de`, ['language', 'de']), rule(`${E}/en`, ['language', 'EN'])],
    })
    const headers: Record<string, string> = lang === undefined ? {} : { 'accept-language': lang }
    expect((await visit(t, link.shortCode, { headers })).headers.location).toBe(expected)
  })

  it('country from the click geolocation, query name=value, all conditions of a rule must hold', async () => {
    t = await createTestApp()
    const link = await makeLink(t, {
      forwardQuery: false,
      rules: [
        rule(`${E}/us-mobile`, ['country', 'us'], ['device', 'mobile']),
        rule(`${E}/us`, ['country', 'US']),
        rule(`${E}/tw`, ['query', 'ref=twitter']),
      ],
    })
    expect(link.rules[1]!.conditions[0]).toEqual({ type: 'country', value: 'US' })
    const go = async (o: Parameters<typeof visit>[2]) => (await visit(t, link.shortCode, o)).headers.location
    expect(await go({ ip: '8.8.8.8', ua: SAFARI_IPHONE })).toBe(`${E}/us-mobile`)
    expect(await go({ ip: '8.8.8.8' })).toBe(`${E}/us`)
    expect(await go({ ip: '127.0.0.1' })).toBe(`${E}/landing`)
    expect(await go({ query: 'x=1&ref=twitter' })).toBe(`${E}/tw`)
    expect(await go({ query: 'ref=twitter2' })).toBe(`${E}/landing`)
  })

  it('query rules decode names and values (+, %XX) and match any of a repeated name', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { forwardQuery: false, rules: [rule(`${E}/hit`, ['query', 'a%20b=x+y'])] })
    const go = async (query: string) => (await visit(t, link.shortCode, { query })).headers.location
    for (const query of ['a+b=x+y', 'a%20b=x%20y', 'a+b=z&a%20b=x+y', 'k=1&a%20b=x%20y'])
      expect(await go(query), query).toBe(`${E}/hit`)
    for (const query of ['ab=xy', 'a+b=x', 'a%2Bb=x+y', 'a+b=x%2By'])
      expect(await go(query), query).toBe(`${E}/landing`)
  })

  it('query rules on a query with nothing to decode: whole pairs only, anywhere in the query', async () => {
    t = await createTestApp()
    const link = await makeLink(t, {
      forwardQuery: false,
      rules: [
        rule(`${E}/split`, ['query', 'a%26b=c']),
        rule(`${E}/eq`, ['query', 'k=v%3Dw']),
        rule(`${E}/empty`, ['query', 'e=']),
        rule(`${E}/tw`, ['query', 'ref=twitter']),
      ],
    })
    const go = async (query: string) => (await visit(t, link.shortCode, { query })).headers.location
    for (const query of ['ref=twitter', 'x=1&ref=twitter', 'ref=twitter&x=1', 'x=1&ref=twitter&y=2'])
      expect(await go(query), query).toBe(`${E}/tw`)
    for (const query of ['xref=twitter', 'ref=twitterx', 'ref=twitte', 'x=ref=twitter', 'a&b=c', 'e=1'])
      expect(await go(query), query).toBe(`${E}/landing`)
    expect(await go('k=v=w')).toBe(`${E}/eq`)
    expect(await go('x=1&e')).toBe(`${E}/empty`)
    expect(await go('e=&x=1')).toBe(`${E}/empty`)
  })

  it('a rule destination gets the forwarded query too', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { rules: [rule(`${E}/tw?a=1#top`, ['query', 'ref=twitter'])] })
    const res = await visit(t, link.shortCode, { query: 'ref=twitter&qr=1' })
    expect(res.headers.location).toBe(`${E}/tw?a=1&ref=twitter#top`)
  })
})

describe('forwardQuery: the visitor query merged into the destination', () => {
  it.each([
    ['https://e.example/p', 'a=1', 'https://e.example/p?a=1'],
    ['https://e.example/p?', 'a=1', 'https://e.example/p?a=1'],
    ['https://e.example/p?a=1&a=2&b=3', 'a=9&a=8', 'https://e.example/p?b=3&a=9&a=8'],
    ['https://e.example/p?q=x', 'q=hello%20world&x=%26%3D', 'https://e.example/p?q=hello%20world&x=%26%3D'],
    ['https://e.example/p?a%20b=1', 'a+b=2', 'https://e.example/p?a+b=2'],
    ['https://e.example/p?a=1', 'qr=1', 'https://e.example/p?a=1'],
    ['https://e.example/p', 'qr=1&c=2', 'https://e.example/p?c=2'],
    ['https://e.example/p?a=1#frag', 'b=2', 'https://e.example/p?a=1&b=2#frag'],
    ['https://e.example/p#/route?x=1', 'b=2', 'https://e.example/p?b=2#/route?x=1'],
    ['https://e.example/p', 'flag&&', 'https://e.example/p?flag'],
    ['https://e.example/p', 'a=1&b=2', 'https://e.example/p?a=1&b=2'],
    ['https://e.example/p', '&a=1', 'https://e.example/p?a=1'],
    ['https://e.example/p', 'aqr=1&qr=2', 'https://e.example/p?aqr=1'],
    ['https://e.example/p', '%71r=1&b=2', 'https://e.example/p?b=2'],
  ])('%s + ?%s → %s', (destination, query, expected) => {
    expect(forwardQuery(destination, query)).toBe(expected)
  })

  it('over HTTP: on by default (also for links made before it existed), off per link', async () => {
    t = await createTestApp()
    const on = await makeLink(t, { destinationUrl: `${E}/p?a=1#f` })
    expect(on.forwardQuery).toBe(true)
    const res = await visit(t, on.shortCode, { query: 'a=2&utm_source=x%20y&qr=1' })
    expect(res.headers.location).toBe(`${E}/p?a=2&utm_source=x%20y#f`)
    // A link stored before the option existed: the column default.
    await sqlRows(t, 'UPDATE links SET forward_query = 0 WHERE id = ?', on.id)
    const patched = await t.call('PATCH', `/api/use/links/${on.id}`, { body: { forwardQuery: true } })
    expect(patched.json<Link>().forwardQuery).toBe(true)
    const off = await t.call('PATCH', `/api/use/links/${on.id}`, { body: { forwardQuery: false } })
    expect(off.json<Link>().forwardQuery).toBe(false)
    expect((await visit(t, on.shortCode, { query: 'a=2' })).headers.location).toBe(`${E}/p?a=1#f`)
  })
})

describe('expiredUrl, maxClicks, startsAt', () => {
  it('an expired link (by expiresAt) redirects 302 to its expiredUrl; without one it answers 410', async () => {
    t = await createTestApp()
    const expiresAt = new Date(t.clock.now() + HOUR).toISOString()
    const withUrl = await makeLink(t, { expiresAt, expiredUrl: `${E}/sorry`, redirectType: 301 })
    const without = await makeLink(t, { expiresAt })
    expect((await visit(t, withUrl.shortCode)).statusCode).toBe(301)
    t.clock.advance(HOUR)
    const res = await visit(t, withUrl.shortCode, { query: 'a=1' })
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe(`${E}/sorry`)
    expect(res.headers['cache-control']).toBe('no-store')
    expect((await visit(t, withUrl.shortCode, { method: 'HEAD' })).statusCode).toBe(302)
    expectError(await visit(t, without.shortCode), 410, 'Gone')
  })

  it('maxClicks: exactly the Nth human click is the last that reaches the destination; bots never count', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { maxClicks: 3, expiredUrl: `${E}/sold-out` })
    const bare = await makeLink(t, { maxClicks: 1 })
    const seen: Array<string | undefined> = []
    for (let i = 0; i < 3; i++) {
      // Between human clicks: a crawler, a link preview and a HEAD request, none of which count.
      expect((await visit(t, link.shortCode, { ua: GOOGLEBOT })).headers.location).toBe(`${E}/landing`)
      expect((await visit(t, link.shortCode, { ua: SLACKBOT })).headers.location).toBe(`${E}/landing`)
      expect((await visit(t, link.shortCode, { method: 'HEAD' })).headers.location).toBe(`${E}/landing`)
      seen.push((await visit(t, link.shortCode, { ua: SAFARI_IPHONE })).headers.location)
    }
    expect(seen).toEqual([`${E}/landing`, `${E}/landing`, `${E}/landing`])
    const fourth = await visit(t, link.shortCode)
    expect(fourth.statusCode).toBe(302)
    expect(fourth.headers.location).toBe(`${E}/sold-out`)
    expect((await visit(t, link.shortCode, { ua: GOOGLEBOT })).headers.location).toBe(`${E}/sold-out`)
    await flush(t)
    const after = (await t.call('GET', `/api/use/links/${link.id}`)).json<Link>()
    expect(after).toMatchObject({ status: 'expired', clicks: 3, maxClicks: 3 })
    // The list's status filter agrees with the link: used up is expired, not active.
    const listed = async (status: string) =>
      (await t.call('GET', `/api/use/links?status=${status}`)).json<{ data: Link[] }>().data.map((l) => l.id)
    expect(await listed('expired')).toEqual([link.id])
    expect(await listed('active')).toEqual([bare.id])

    expect((await visit(t, bare.shortCode)).statusCode).toBe(302)
    expectError(await visit(t, bare.shortCode), 410, 'Gone')
    // Raising maxClicks brings the link back for the difference.
    await t.call('PATCH', `/api/use/links/${bare.id}`, { body: { maxClicks: 2 } })
    expect((await visit(t, bare.shortCode)).statusCode).toBe(302)
    expectError(await visit(t, bare.shortCode), 410, 'Gone')
  })

  it('maxClicks holds under concurrent visits: exactly N of them reach the destination', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { maxClicks: 5, expiredUrl: `${E}/sold-out` })
    const all = await Promise.all(
      Array.from({ length: 20 }, (_, i) => visit(t, link.shortCode, { ip: `203.0.113.${i + 1}` })),
    )
    const locations = all.map((r) => r.headers.location)
    expect(locations.filter((l) => l === `${E}/landing`)).toHaveLength(5)
    expect(locations.filter((l) => l === `${E}/sold-out`)).toHaveLength(15)
  })

  it('startsAt in the future answers 404 as if unknown, then the link goes live (also when cached)', async () => {
    t = await createTestApp()
    const startsAt = new Date(t.clock.now() + HOUR).toISOString()
    const link = await makeLink(t, { startsAt })
    expect(link.startsAt).toBe(startsAt)
    const early = expectError(await visit(t, link.shortCode), 404, 'NotFound')
    expect(early.message).toBe(`short link /${link.shortCode} not found`)
    t.clock.advance(HOUR - 1)
    expect((await visit(t, link.shortCode)).statusCode).toBe(404)
    t.clock.advance(1)
    expect((await visit(t, link.shortCode)).statusCode).toBe(302)
    const cleared = await t.call('PATCH', `/api/use/links/${link.id}`, { body: { startsAt: null } })
    expect(cleared.json<Link>().startsAt).toBeNull()
  })
})

describe('PATCH shortCode and customDomainId', () => {
  it('moves the link to a free code: the old short URL answers 404 at once, a taken code is 409', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { customSlug: 'old-code' })
    await makeLink(t, { customSlug: 'taken-code' })
    // Cached by a first visit: the move must still take effect at once.
    expect((await visit(t, 'old-code')).statusCode).toBe(302)
    expect((await visit(t, 'old-code')).statusCode).toBe(302)

    const taken = await t.call('PATCH', `/api/use/links/${link.id}`, { body: { shortCode: 'taken-code' } })
    expectError(taken, 409, 'Conflict')
    expect(taken.json().details).toEqual([{ field: 'shortCode', message: 'already in use on this domain' }])
    expectError(
      await t.call('PATCH', `/api/use/links/${link.id}`, { body: { shortCode: 'api' } }),
      400,
      'ValidationError',
    )

    // Visited, so in use (links-in-use.test.ts): the move needs force.
    const moved = await t.call('PATCH', `/api/use/links/${link.id}`, {
      body: { shortCode: 'new-code', force: true },
    })
    expect(moved.statusCode).toBe(200)
    expect(moved.json<Link>()).toMatchObject({
      shortCode: 'new-code',
      shortUrl: `${t.config.publicUrl}/new-code`,
    })
    expectError(await visit(t, 'old-code'), 404, 'NotFound')
    expect((await visit(t, 'new-code')).headers.location).toBe(`${E}/landing`)
    // The code is free again.
    expect((await makeLink(t, { customSlug: 'old-code' })).shortCode).toBe('old-code')
  })

  it('moves the link to a custom domain and back; a code taken there is 409', async () => {
    t = await createTestApp()
    const d = await t.call('POST', '/api/domains', { body: { domain: 'go.example.org' } })
    expect(d.statusCode, d.body).toBe(201)
    const domainId = d.json<{ id: string }>().id
    await sqlRows(t, "UPDATE custom_domains SET verification_status = 'verified' WHERE id = ?", domainId)
    await t.app.linkd.services.directory.refresh()
    await makeLink(t, { customSlug: 'promo', customDomainId: domainId })
    const link = await makeLink(t, { customSlug: 'promo' })
    expect((await visit(t, 'promo')).statusCode).toBe(302)

    expectError(
      await t.call('PATCH', `/api/use/links/${link.id}`, { body: { customDomainId: domainId } }),
      409,
      'Conflict',
    )
    const moved = await t.call('PATCH', `/api/use/links/${link.id}`, {
      body: { customDomainId: domainId, shortCode: 'promo2', force: true },
    })
    expect(moved.json<Link>()).toMatchObject({
      customDomainId: domainId,
      shortUrl: 'https://go.example.org/promo2',
    })
    expectError(await visit(t, 'promo'), 404, 'NotFound')
    expect((await visit(t, 'promo2', { host: 'go.example.org' })).statusCode).toBe(302)
    const back = await t.call('PATCH', `/api/use/links/${link.id}`, {
      body: { customDomainId: null, force: true },
    })
    expect(back.json<Link>()).toMatchObject({
      customDomainId: null,
      shortUrl: `${t.config.publicUrl}/promo2`,
    })
    expectError(await visit(t, 'promo2', { host: 'go.example.org' }), 404, 'NotFound')
    expectError(
      await t.call('PATCH', `/api/use/links/${link.id}`, { body: { customDomainId: 'dom_nope' } }),
      422,
      'Unprocessable',
    )
  })
})

describe('link option bounds', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => rule(`${E}/${i}`, ['query', `n=${i}`]))

  it(`rules: ${LINK_RULE_LIMITS.rulesMax} pass, one more is 400; a rule needs a condition`, async () => {
    t = await createTestApp()
    const ok = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: `${E}/x`, rules: many(LINK_RULE_LIMITS.rulesMax) },
    })
    expect(ok.statusCode).toBe(201)
    expect(ok.json<Link>().rules).toHaveLength(20)
    const id = ok.json<Link>().id
    expectError(
      await t.call('POST', '/api/use/links', { body: { destinationUrl: `${E}/x`, rules: many(21) } }),
      400,
      'ValidationError',
    )
    expectError(
      await t.call('PATCH', `/api/use/links/${id}`, { body: { rules: many(21) } }),
      400,
      'ValidationError',
    )
    expectError(
      await t.call('PATCH', `/api/use/links/${id}`, {
        body: { rules: [{ conditions: [], destinationUrl: `${E}/y` }] },
      }),
      400,
      'ValidationError',
    )
    const cleared = await t.call('PATCH', `/api/use/links/${id}`, { body: { rules: [] } })
    expect(cleared.json<Link>().rules).toEqual([])
    // null clears them too, as it clears variants and og (it was read as [null]: "rules.0 must be an object").
    await t.call('PATCH', `/api/use/links/${id}`, { body: { rules: many(2) } })
    const nulled = await t.call('PATCH', `/api/use/links/${id}`, { body: { rules: null } })
    expect(nulled.statusCode, nulled.body).toBe(200)
    expect(nulled.json<Link>().rules).toEqual([])
  })

  it.each([
    [{ maxClicks: 0 }, 'maxClicks'],
    [{ maxClicks: 1.5 }, 'maxClicks'],
    [{ maxClicks: LINK_RULE_LIMITS.maxClicksMax + 1 }, 'maxClicks'],
    [{ maxClicks: 1e308 }, 'maxClicks'],
    [{ expiredUrl: 'ftp://example.com/x' }, 'expiredUrl'],
    [{ expiredUrl: 'https://sho.rt/loop' }, 'expiredUrl'],
    [{ startsAt: 'tomorrow' }, 'startsAt'],
    [{ forwardQuery: 'yes' }, 'forwardQuery'],
    [{ rules: [rule(`${E}/a`, ['device', 'phone'])] }, 'rules.0.conditions.0.value'],
    [{ rules: [rule(`${E}/a`, ['os', 'symbian'])] }, 'rules.0.conditions.0.value'],
    [{ rules: [rule(`${E}/a`, ['country', 'USA'])] }, 'rules.0.conditions.0.value'],
    [{ rules: [rule(`${E}/a`, ['language', 'en-US'])] }, 'rules.0.conditions.0.value'],
    [{ rules: [rule(`${E}/a`, ['query', 'ref'])] }, 'rules.0.conditions.0.value'],
    [{ rules: [rule(`${E}/a`, ['browser', 'chrome'])] }, 'rules.0.conditions.0.type'],
    [{ rules: [rule('https://sho.rt/x', ['os', 'ios'])] }, 'rules.0.destinationUrl'],
  ])('%j is a 400 naming %s', async (body, field) => {
    t = await createTestApp({ publicUrl: 'https://sho.rt' })
    const res = await t.call('POST', '/api/use/links', { body: { destinationUrl: `${E}/x`, ...body } })
    expectError(res, 400, 'ValidationError')
    expect(res.json<{ details: Array<{ field: string }> }>().details.map((d) => d.field)).toContain(field)
  })

  it('maxClicks 1 is the smallest, 1,000,000,000 the largest', async () => {
    t = await createTestApp()
    expect((await makeLink(t, { maxClicks: 1 })).maxClicks).toBe(1)
    const max = LINK_RULE_LIMITS.maxClicksMax
    expect((await makeLink(t, { maxClicks: max })).maxClicks).toBe(max)
  })
})
