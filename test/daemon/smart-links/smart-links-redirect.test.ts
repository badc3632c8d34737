/**
 * A smart link's redirect: the target of the visitor's platform by real user agents, the click
 * id appended (Play install referrer vs other URLs), stored on the click row, bots without one;
 * the platforms breakdown of its analytics; link.* webhooks marked `kind: 'smart'`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import {
  analytics,
  CHROME_WINDOWS,
  FIREFOX_LINUX,
  flush,
  GOOGLEBOT,
  makeLink,
  SAFARI_IPAD,
  SAFARI_IPHONE,
  SLACKBOT,
  visit,
} from '../../support/redirect.js'
import { startReceiver, type Receiver } from '../../support/receiver.js'
import type { SmartLink } from '../../../src/contract/smart-links.js'

const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36'
const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0'
const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const PLAYSTATION = 'Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko)'
/** Safari on a Mac, and what iPadOS Safari sends by default: the same user agent. */
const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15'

const IOS = 'https://apps.apple.com/app/id1234567890'
const PLAY = 'https://play.google.com/store/apps/details?id=com.example.game'
const STEAM = 'https://store.steampowered.com/app/123456/#reviews'
const FALLBACK = 'https://example.com/game'
const CLICK_ID = /^clk_[A-Za-z0-9_-]+$/

let t: TestApp
const receivers: Receiver[] = []
beforeEach(async () => {
  t = await createTestApp()
})
afterEach(async () => {
  await t.close()
  await Promise.all(receivers.splice(0).map((r) => r.close()))
})

async function makeSmart(body: Record<string, unknown> = {}): Promise<SmartLink> {
  const res = await t.call('POST', '/api/use/smart-links', {
    body: {
      fallbackUrl: FALLBACK,
      ios: { url: IOS },
      android: { url: PLAY },
      desktop: { url: STEAM },
      ...body,
    },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<SmartLink>()
}

/** The Location of a visit, split into the target without the click id and the click id. */
async function go(code: string, ua: string, method: 'GET' | 'HEAD' = 'GET') {
  const res = await visit(t, code, { ua, method })
  expect(res.statusCode, res.body).toBe(302)
  expect(res.headers['cache-control']).toBe('no-store')
  return String(res.headers.location)
}

/** The click id a Location carries: `linkd_click=` or, on Google Play, inside `referrer`. */
function clickIdOf(location: string): string | null {
  const q = new URL(location).searchParams
  const referrer = q.get('referrer')
  if (referrer !== null) return new URLSearchParams(referrer).get('linkd_click')
  return q.get('linkd_click')
}

describe('smart link redirect', () => {
  it('sends each platform to its target by real user agents, bots to theirs without a click id', async () => {
    const s = await makeSmart()
    const table: Array<[string, string, string]> = [
      ['iPhone Safari', SAFARI_IPHONE, IOS],
      ['iPad Safari', SAFARI_IPAD, IOS],
      ['Android Chrome', CHROME_ANDROID, PLAY],
      ['Windows Chrome', CHROME_WINDOWS, STEAM],
      ['Windows Firefox', FIREFOX_WINDOWS, STEAM],
      ['macOS Chrome', CHROME_MAC, STEAM],
      ['Linux Firefox', FIREFOX_LINUX, STEAM],
      ['Linux Chrome', CHROME_LINUX, STEAM],
      ['PlayStation', PLAYSTATION, FALLBACK],
    ]
    for (const [name, ua, target] of table) {
      const location = await go(s.shortCode, ua)
      const id = clickIdOf(location)
      expect(id, name).toMatch(CLICK_ID)
      const u = new URL(location)
      u.searchParams.delete(target === PLAY ? 'referrer' : 'linkd_click')
      expect(u.href, name).toBe(new URL(target).href)
    }
    // Bots and HEAD: the same choice of target, nothing appended.
    expect(await go(s.shortCode, GOOGLEBOT)).toBe(FALLBACK)
    expect(await go(s.shortCode, SLACKBOT)).toBe(FALLBACK)
    expect(await go(s.shortCode, SAFARI_IPHONE, 'HEAD')).toBe(IOS)
  })

  it('appends the click id as the Play install referrer, as linkd_click elsewhere, before a fragment', async () => {
    const s = await makeSmart()
    const play = await go(s.shortCode, CHROME_ANDROID)
    expect(play).toMatch(
      /^https:\/\/play\.google\.com\/store\/apps\/details\?id=com\.example\.game&referrer=linkd_click%3Dclk_[A-Za-z0-9_-]+$/,
    )
    expect(new URL(play).searchParams.get('referrer')).toMatch(/^linkd_click=clk_/)
    const ios = await go(s.shortCode, SAFARI_IPHONE)
    expect(ios).toMatch(/^https:\/\/apps\.apple\.com\/app\/id1234567890\?linkd_click=clk_[A-Za-z0-9_-]+$/)
    const steam = await go(s.shortCode, CHROME_WINDOWS)
    expect(steam).toMatch(
      /^https:\/\/store\.steampowered\.com\/app\/123456\/\?linkd_click=clk_[A-Za-z0-9_-]+#reviews$/,
    )
    // Two visits, two click ids.
    expect(clickIdOf(await go(s.shortCode, SAFARI_IPHONE))).not.toBe(clickIdOf(ios))
  })

  it('sends a platform without a target to the fallback, and appends nothing with appendClickId false', async () => {
    const s = await makeSmart({ desktop: null, android: null, appendClickId: false })
    expect(await go(s.shortCode, CHROME_WINDOWS)).toBe(FALLBACK)
    expect(await go(s.shortCode, CHROME_ANDROID)).toBe(FALLBACK)
    expect(await go(s.shortCode, SAFARI_IPHONE)).toBe(IOS)
    // A target cleared later is followed at once (the hot-link cache forgets the old one).
    const patched = await t.call('PATCH', `/api/use/smart-links/${s.id}`, { body: { ios: null } })
    expect(patched.statusCode).toBe(200)
    expect(await go(s.shortCode, SAFARI_IPHONE)).toBe(FALLBACK)
  })

  it('stores the click id of each human visit on its click row; bots get none', async () => {
    const s = await makeSmart()
    const ids = [
      clickIdOf(await go(s.shortCode, SAFARI_IPHONE)),
      clickIdOf(await go(s.shortCode, CHROME_ANDROID)),
    ]
    await go(s.shortCode, GOOGLEBOT)
    await flush(t)
    const rows = await sqlRows<{ click_id: string | null; is_bot: number; organization_id: string }>(
      t,
      'SELECT click_id, is_bot, organization_id FROM clicks WHERE link_id = ? ORDER BY ts, click_id',
      s.id,
    )
    expect(
      rows
        .filter((r) => Number(r.is_bot) === 0)
        .map((r) => r.click_id)
        .sort(),
    ).toEqual([...ids].sort())
    expect(rows.filter((r) => Number(r.is_bot) === 1).map((r) => r.click_id)).toEqual([null])
    expect(new Set(rows.map((r) => r.organization_id))).toEqual(new Set([t.orgId]))
    // A plain link's clicks carry none.
    const link = await makeLink(t)
    await visit(t, link.shortCode)
    await flush(t)
    expect(
      await sqlRows<{ click_id: string | null }>(t, 'SELECT click_id FROM clicks WHERE link_id = ?', link.id),
    ).toEqual([{ click_id: null }])
  })

  it("Safari on a 'Mac' (an iPad's too) gets the device page; its answer picks iOS or desktop and is the click", async () => {
    const s = await makeSmart()
    const page = await visit(t, s.shortCode, {
      ua: SAFARI_MAC,
      query: 'utm_source=news&qr=1',
      headers: { referer: 'https://news.example.org/post/1' },
    })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.headers['cache-control']).toBe('no-store')
    expect(page.headers['content-security-policy']).toMatch(
      /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+=*';/,
    )
    const back = `/${s.shortCode}?utm_source=news&amp;qr=1&amp;linkd_device=`
    expect(page.body).toContain(`<a id="ipad" href="${back}ipad&amp;linkd_ref=news.example.org">`)
    expect(page.body).toContain(`<a id="mac" href="${back}mac&amp;linkd_ref=news.example.org">`)
    expect(page.body).toContain(
      `<noscript><meta http-equiv="refresh" content="0;url=${back}mac&amp;linkd_ref=news.example.org">`,
    )
    await flush(t)
    expect(await sqlRows(t, 'SELECT ts FROM clicks WHERE link_id = ?', s.id)).toEqual([])

    const answer = (device: string) =>
      visit(t, s.shortCode, {
        ua: SAFARI_MAC,
        query: `utm_source=news&qr=1&linkd_device=${device}&linkd_ref=news.example.org`,
      })
    const ipad = await answer('ipad')
    expect(ipad.statusCode).toBe(302)
    expect(String(ipad.headers.location)).toMatch(
      /^https:\/\/apps\.apple\.com\/app\/id1234567890\?linkd_click=clk_/,
    )
    const mac = await answer('mac')
    expect(String(mac.headers.location)).toMatch(
      /^https:\/\/store\.steampowered\.com\/app\/123456\/\?linkd_click=clk_/,
    )
    // Another answer is no answer: the page again.
    expect((await answer('phone')).statusCode).toBe(200)
    await flush(t)
    const rows = await sqlRows<Record<string, unknown>>(
      t,
      'SELECT device, os, browser, referrer_domain, utm_source, is_qr FROM clicks WHERE link_id = ? ORDER BY ts, device',
      s.id,
    )
    expect(rows.map((r) => ({ ...r, is_qr: Number(r.is_qr) }))).toEqual([
      {
        device: 'desktop',
        os: 'Mac OS',
        browser: 'Safari',
        referrer_domain: 'news.example.org',
        utm_source: 'news',
        is_qr: 1,
      },
      {
        device: 'tablet',
        os: 'iOS',
        browser: 'Safari',
        referrer_domain: 'news.example.org',
        utm_source: 'news',
        is_qr: 1,
      },
    ])
    expect((await analytics(t, s.id)).platforms).toEqual([
      { platform: 'ios', clicks: 1, percentage: 50 },
      { platform: 'android', clicks: 0, percentage: 0 },
      { platform: 'desktop', clicks: 1, percentage: 50 },
      { platform: 'other', clicks: 0, percentage: 0 },
    ])
  })

  it('no device page where the answer could not matter: HEAD, bots, Chrome on a Mac, one target for both', async () => {
    const s = await makeSmart()
    expect(await go(s.shortCode, SAFARI_MAC, 'HEAD')).toBe(STEAM)
    expect(await go(s.shortCode, CHROME_MAC)).toMatch(/^https:\/\/store\.steampowered\.com\//)
    const same = await makeSmart({ ios: null, desktop: null })
    expect(await go(same.shortCode, SAFARI_MAC)).toMatch(/^https:\/\/example\.com\/game\?linkd_click=clk_/)
    const res = await visit(t, s.shortCode, { ua: CHROME_MAC, query: 'linkd_device=ipad' })
    expect(String(res.headers.location)).toMatch(/^https:\/\/store\.steampowered\.com\//)
    // A plain link never asks.
    const link = await makeLink(t)
    expect((await visit(t, link.shortCode, { ua: SAFARI_MAC })).statusCode).toBe(302)
  })

  it('does not change a plain link: no click id, the cacheable answer', async () => {
    const link = await makeLink(t, { destinationUrl: 'https://example.com/landing' })
    const res = await visit(t, link.shortCode, { ua: SAFARI_IPHONE })
    expect(res.headers.location).toBe('https://example.com/landing')
    expect(res.headers['cache-control']).toBe('private, max-age=90')
  })
})

describe('smart links on a custom domain', () => {
  it('live on a verified domain, redirect by its host, share its namespace, fall back when it is deleted', async () => {
    const d = await t.call('POST', '/api/domains', { body: { domain: 'play.example.org' } })
    expect(d.statusCode, d.body).toBe(201)
    const domainId = d.json<{ id: string }>().id
    const unverified = await t.call('POST', '/api/use/smart-links', {
      body: { fallbackUrl: FALLBACK, customDomainId: domainId },
    })
    expect(unverified.statusCode).toBe(422)
    await sqlRows(t, "UPDATE custom_domains SET verification_status = 'verified' WHERE id = ?", domainId)
    await t.app.linkd.services.directory.refresh()

    const s = await makeSmart({ customDomainId: domainId, shortCode: 'go-play' })
    expect(s).toMatchObject({ customDomainId: domainId, shortUrl: 'https://play.example.org/go-play' })
    const res = await visit(t, 'go-play', { host: 'play.example.org', ua: CHROME_ANDROID })
    expect(res.statusCode).toBe(302)
    expect(clickIdOf(String(res.headers.location))).toMatch(CLICK_ID)
    expect((await visit(t, 'go-play', { ua: CHROME_ANDROID })).statusCode).toBe(404)
    // Same code on the shared domain is free; on the custom domain it is taken, for links too.
    expect((await makeLink(t, { customSlug: 'go-play' })).shortCode).toBe('go-play')
    const clash = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/x', customSlug: 'go-play', customDomainId: domainId },
    })
    expect(clash.statusCode).toBe(409)

    // The domain goes: the smart link moves to the shared domain (renamed: "go" is taken there).
    const updates: Array<Record<string, unknown>> = []
    t.app.linkd.services.events.on('link.updated', (e) => void updates.push(e.data))
    expect((await t.call('DELETE', `/api/domains/${domainId}`)).statusCode).toBe(204)
    const after = (await t.call('GET', `/api/use/smart-links/${s.id}`)).json<SmartLink>()
    expect(after.customDomainId).toBeNull()
    expect(after.shortCode).not.toBe('go-play')
    expect(updates).toEqual([
      expect.objectContaining({ id: s.id, kind: 'smart', shortCode: after.shortCode }),
    ])
    expect(new URL(await go(after.shortCode, SAFARI_IPHONE)).origin).toBe('https://apps.apple.com')
  })
})

describe('smart link analytics', () => {
  it("adds the platforms breakdown (human clicks) to a smart link's analytics, not to a link's", async () => {
    const s = await makeSmart()
    for (const ua of [
      SAFARI_IPHONE,
      SAFARI_IPAD,
      CHROME_ANDROID,
      CHROME_WINDOWS,
      CHROME_MAC,
      FIREFOX_LINUX,
      PLAYSTATION,
    ])
      await go(s.shortCode, ua)
    await go(s.shortCode, GOOGLEBOT)
    const a = await analytics(t, s.id)
    expect(a.linkId).toBe(s.id)
    expect(a.totalClicks).toBe(7)
    expect(a.botDetection.count).toBe(1)
    expect(a.platforms).toEqual([
      { platform: 'ios', clicks: 2, percentage: 28.57 },
      { platform: 'android', clicks: 1, percentage: 14.29 },
      { platform: 'desktop', clicks: 3, percentage: 42.86 },
      { platform: 'other', clicks: 1, percentage: 14.29 },
    ])
    // No install carried one of its click ids yet (test/daemon/gaming/attribution covers them).
    expect(a).toMatchObject({ installs: 0, installRevenue: [] })
    expect((await t.call('GET', `/api/use/smart-links/${s.id}`)).json<SmartLink>().clicks).toBe(7)

    const link = await makeLink(t)
    await visit(t, link.shortCode)
    const plain = await analytics(t, link.id)
    expect(plain.totalClicks).toBe(1)
    expect(plain).not.toHaveProperty('platforms')
    expect(plain).not.toHaveProperty('installs')
  })
})

describe('smart link webhooks', () => {
  it("delivers link.created/updated/clicked/deleted of a smart link with kind 'smart' to a real receiver", async () => {
    const rx = await startReceiver()
    receivers.push(rx)
    const hook = await t.call('POST', '/api/webhooks', {
      body: {
        name: 'rx',
        url: rx.url,
        events: ['link.created', 'link.updated', 'link.clicked', 'link.deleted'],
      },
    })
    expect(hook.statusCode, hook.body).toBe(201)
    const s = await makeSmart({ shortCode: 'hooked' })
    await t.call('PATCH', `/api/use/smart-links/${s.id}`, { body: { title: 'Hooked' } })
    await go(s.shortCode, SAFARI_IPHONE)
    await flush(t)
    await t.call('DELETE', `/api/use/smart-links/${s.id}`)
    const plain = await makeLink(t)
    const webhooks = t.app.linkd.services.webhooks
    await webhooks.settle()
    await webhooks.worker.runDue()
    const got = (await rx.waitFor(5)).map(
      (r) => JSON.parse(r.raw.toString()) as { event: string; data: Record<string, unknown> },
    )
    const byEvent = (e: string) => got.filter((g) => g.event === e).map((g) => g.data)
    const created = byEvent('link.created')
    expect(created).toHaveLength(2)
    expect(created.find((d) => d.id === s.id)).toEqual({ ...s, kind: 'smart' })
    // A plain link's payload is unchanged: no kind.
    expect(created.find((d) => d.id === plain.id)).not.toHaveProperty('kind')
    expect(byEvent('link.updated')).toEqual([
      expect.objectContaining({ id: s.id, title: 'Hooked', kind: 'smart' }),
    ])
    expect(byEvent('link.clicked')).toEqual([expect.objectContaining({ linkId: s.id, kind: 'smart' })])
    expect(byEvent('link.deleted')).toEqual([
      expect.objectContaining({ id: s.id, shortCode: 'hooked', kind: 'smart' }),
    ])
  })
})
