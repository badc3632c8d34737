/**
 * Split (A/B) destinations: a link's variants are checked like its destination, a visitor gets one
 * by weight when no rule matches and keeps it for the day, the click records it, and the link's
 * analytics count clicks, visitors and (smart links, by click id) installs per variant.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import { expectError } from '../../support/responses.js'
import {
  analytics,
  CHROME_WINDOWS,
  DAY,
  flush,
  GOOGLEBOT,
  makeLink,
  SAFARI_IPHONE,
  visit,
} from '../../support/redirect.js'
import { LINK_VARIANT_LIMITS } from '../../../src/contract/limits.js'
import type { Link } from '../../../src/contract/links.js'
import type { SmartLink } from '../../../src/contract/smart-links.js'

const E = 'https://example.com'
const split = (...weights: number[]) => weights.map((weight, i) => ({ destinationUrl: `${E}/v${i}`, weight }))

let t: TestApp
afterEach(() => t.close())

/** The n-th of many distinct visitors: its own address. */
const ipOf = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`

/** Where a visit went (its Location, the query left out). */
async function target(code: string, o: Parameters<typeof visit>[2] = {}): Promise<string> {
  const res = await visit(t, code, o)
  expect(res.statusCode, res.body).toBe(302)
  return String(res.headers.location)
}

/** The password form's POST, as a browser sends it. */
const submit = (code: string, password: string, o: { ip?: string; ua?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/${code}`,
    headers: {
      host: t.config.shortDomain,
      'user-agent': o.ua ?? CHROME_WINDOWS,
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams({ password }).toString(),
    remoteAddress: o.ip ?? '127.0.0.1',
  })

describe('variants: validation', () => {
  const create = (variants: unknown) =>
    t.call('POST', '/api/use/links', { body: { destinationUrl: `${E}/landing`, variants } })

  it('2 and 10 variants are accepted; 1 and 11 are 400', async () => {
    t = await createTestApp()
    const two = await create(split(70, 30))
    expect(two.statusCode, two.body).toBe(201)
    expect(two.json<Link>().variants).toEqual(split(70, 30))
    const ten = await create(split(10, 10, 10, 10, 10, 10, 10, 10, 10, 10))
    expect(ten.statusCode, ten.body).toBe(201)
    expect(ten.json<Link>().variants).toHaveLength(LINK_VARIANT_LIMITS.variantsMax)
    expectError(await create(split(100)), 400, 'ValidationError')
    expectError(await create(split(...Array<number>(11).fill(9), 1)), 400, 'ValidationError')
  })

  it('weights must add up to 100 (99 and 101 are 400); a weight of 0 is 400', async () => {
    t = await createTestApp()
    for (const weights of [
      [50, 49],
      [50, 51],
    ]) {
      const res = await create(split(...weights))
      expectError(res, 400, 'ValidationError')
      expect(res.json<{ message: string }>().message).toContain('must add up to 100')
      expect(JSON.stringify(res.json())).toContain('"field":"variants"')
    }
    const zero = await create(split(100, 0))
    expectError(zero, 400, 'ValidationError')
    expect(JSON.stringify(zero.json())).toContain(
      '{"field":"variants.1.weight","message":"must be at least 1"}',
    )
    const fractions = [
      { destinationUrl: `${E}/a`, weight: 50.5 },
      { destinationUrl: `${E}/b`, weight: 49.5 },
    ]
    expectError(await create(fractions), 400, 'ValidationError')
  })

  it('each URL is checked as destinationUrl is (loopback, the service itself), and given once', async () => {
    t = await createTestApp()
    const own = `${t.config.publicUrl}/elsewhere`
    for (const bad of ['http://127.0.0.1/admin', 'http://localhost:8080/', own]) {
      const res = await create([
        { destinationUrl: `${E}/ok`, weight: 50 },
        { destinationUrl: bad, weight: 50 },
      ])
      expectError(res, 400, 'ValidationError')
      expect(JSON.stringify(res.json()), bad).toContain('variants.1.destinationUrl')
      const plain = await t.call('POST', '/api/use/links', { body: { destinationUrl: bad } })
      expect(plain.statusCode, bad).toBe(400)
    }
    const twice = await create([
      { destinationUrl: `${E}/same`, weight: 50 },
      { destinationUrl: `${E}/same`, weight: 50 },
    ])
    expectError(twice, 400, 'ValidationError')
    expect(JSON.stringify(twice.json())).toContain('variants.1.destinationUrl')
    expect((await sqlRows(t, 'SELECT id FROM links')).length).toBe(0)
  })

  it('PATCH sets, replaces and (null) clears them; a link without them shows []', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    expect(link.variants).toEqual([])
    const patch = (variants: unknown) => t.call('PATCH', `/api/use/links/${link.id}`, { body: { variants } })
    expect((await patch(split(50, 50))).json<Link>().variants).toEqual(split(50, 50))
    expectError(await patch(split(50, 40)), 400, 'ValidationError')
    expect((await t.call('GET', `/api/use/links/${link.id}`)).json<Link>().variants).toEqual(split(50, 50))
    expect((await patch(null)).json<Link>().variants).toEqual([])
    expect(await target(link.shortCode)).toBe(`${E}/landing`)
  })

  it('[] (what a link without variants shows) means none too: a link read back can be written back', async () => {
    t = await createTestApp()
    const created = await create([])
    expect(created.statusCode, created.body).toBe(201)
    expect(created.json<Link>().variants).toEqual([])
    const link = await makeLink(t, { variants: split(60, 40) })
    const patch = (body: unknown) => t.call('PATCH', `/api/use/links/${link.id}`, { body })
    expect((await patch({ variants: [] })).json<Link>().variants).toEqual([])
    const read = (await t.call('GET', `/api/use/links/${link.id}`)).json<Link>()
    const { destinationUrl, title, tags, rules, variants, forwardQuery } = read
    const again = await patch({ destinationUrl, title, tags, rules, variants, forwardQuery })
    expect(again.statusCode, again.body).toBe(200)
    // One variant is still a 400 that says how many are needed.
    const one = expectError(
      await patch({ variants: split(50).map((v) => ({ ...v, weight: 99 })) }),
      400,
      'ValidationError',
    )
    expect(one.message).toMatch(/at least 2/)
  })
})

describe('variants: the visit', () => {
  it('distinct visitors split by weight (within 4.5 standard deviations of the binomial)', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { variants: split(70, 30) })
    const n = 1000
    let first = 0
    for (let i = 0; i < n; i++) {
      const to = await target(link.shortCode, { ip: ipOf(i) })
      expect([`${E}/v0`, `${E}/v1`]).toContain(to)
      if (to === `${E}/v0`) first++
    }
    // Binomial(n, 0.7): mean 700, sigma = sqrt(n * 0.7 * 0.3) ≈ 14.5; 4.5 sigma ≈ 65 (a false
    // failure about once in 150,000 runs).
    const sigma = Math.sqrt(n * 0.7 * 0.3)
    expect(Math.abs(first - n * 0.7)).toBeLessThanOrEqual(4.5 * sigma)
  })

  it('the same visitor keeps its variant; the query is still forwarded to it', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { variants: split(34, 33, 33) })
    const seen = new Set<string>()
    for (let v = 0; v < 30; v++) {
      const mine = await target(link.shortCode, { ip: ipOf(v) })
      seen.add(mine)
      for (let again = 0; again < 3; again++)
        expect(await target(link.shortCode, { ip: ipOf(v), method: again === 2 ? 'HEAD' : 'GET' })).toBe(mine)
      expect(await target(link.shortCode, { ip: ipOf(v), query: 'utm_source=x' })).toBe(
        `${mine}?utm_source=x`,
      )
    }
    // Thirty visitors over three variants: all three are used (a miss is ~3e-6 likely).
    expect(seen.size).toBe(3)
  })

  it('rules come first; then the variant; then the password and maxClicks work as without variants', async () => {
    t = await createTestApp()
    const link = await makeLink(t, {
      variants: split(50, 50),
      rules: [{ conditions: [{ type: 'os', value: 'ios' }], destinationUrl: `${E}/ios` }],
      password: 'open sesame',
      maxClicks: 3,
      expiredUrl: `${E}/sold-out`,
    })
    const form = await visit(t, link.shortCode)
    expect(form.statusCode).toBe(200)
    expect(form.headers.location).toBeUndefined()
    expect((await submit(link.shortCode, 'wrong')).statusCode).toBe(401)

    const ios = await submit(link.shortCode, 'open sesame', { ua: SAFARI_IPHONE, ip: ipOf(1) })
    expect(ios.statusCode).toBe(302)
    expect(ios.headers.location).toBe(`${E}/ios`)
    const first = await submit(link.shortCode, 'open sesame', { ip: ipOf(2) })
    expect(first.statusCode).toBe(302)
    expect([`${E}/v0`, `${E}/v1`]).toContain(first.headers.location)
    const again = await submit(link.shortCode, 'open sesame', { ip: ipOf(2) })
    expect(again.headers.location).toBe(first.headers.location)
    // Three human clicks taken: the link is expired, its expiredUrl answers.
    const after = await visit(t, link.shortCode, { ip: ipOf(2) })
    expect(after.statusCode).toBe(302)
    expect(after.headers.location).toBe(`${E}/sold-out`)

    await flush(t)
    const a = await analytics(t, link.id)
    expect(a.totalClicks).toBe(3)
    // The rule's click went to no variant.
    expect(a.variants!.reduce((n, v) => n + v.clicks, 0)).toBe(2)
    expect(a.variants!.find((v) => v.destinationUrl === first.headers.location)).toMatchObject({
      clicks: 2,
      uniqueVisitors: 1,
      installs: 0,
    })
  })
})

describe('variants: analytics', () => {
  it('clicks and unique visitors per variant, as the visitors went; bots and other links apart', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { variants: split(50, 25, 25) })
    const plain = await makeLink(t)
    const went = new Map<string, { clicks: number; visitors: number }>()
    for (let v = 0; v < 12; v++) {
      const to = await target(link.shortCode, { ip: ipOf(v) })
      for (let k = 1; k < (v % 3) + 1; k++) await target(link.shortCode, { ip: ipOf(v) })
      const w = went.get(to) ?? { clicks: 0, visitors: 0 }
      went.set(to, { clicks: w.clicks + (v % 3) + 1, visitors: w.visitors + 1 })
    }
    await target(link.shortCode, { ua: GOOGLEBOT, ip: ipOf(99) })
    await target(plain.shortCode, { ip: ipOf(1) })
    // The next day the same visitor is counted again (daily visitors, summed per day).
    t.clock.advance(DAY)
    const later = await target(link.shortCode, { ip: ipOf(0) })
    // (A variant no one got on the first day may be this visitor's the next.)
    const w = went.get(later) ?? { clicks: 0, visitors: 0 }
    went.set(later, { clicks: w.clicks + 1, visitors: w.visitors + 1 })
    await flush(t)

    const a = await analytics(t, link.id)
    expect(a.variants).toEqual(
      split(50, 25, 25).map((v) => ({
        ...v,
        clicks: went.get(v.destinationUrl)?.clicks ?? 0,
        uniqueVisitors: went.get(v.destinationUrl)?.visitors ?? 0,
        installs: 0,
      })),
    )
    expect(a.variants!.reduce((n, v) => n + v.clicks, 0)).toBe(a.totalClicks)
    expect(a.variants!.reduce((n, v) => n + v.uniqueVisitors, 0)).toBe(a.uniqueVisitors)
    expect((await analytics(t, plain.id)).variants).toBeUndefined()
    const rows = await sqlRows<{ variant: string | null }>(
      t,
      'SELECT variant FROM clicks WHERE link_id = ?',
      plain.id,
    )
    expect(rows).toEqual([{ variant: null }])
  })
  it('clicks recorded under a variant URL stored as typed (before linkd encoded them) count once it is saved encoded', async () => {
    t = await createTestApp()
    const typed = [`${E}/ü0`, `${E}/ü1`]
    const stored = typed.map((u) => new URL(u).href)
    const link = await makeLink(t, {
      variants: stored.map((destinationUrl) => ({ destinationUrl, weight: 50 })),
    })
    // A link saved by an earlier linkd holds its variants as typed.
    await sqlRows(
      t,
      'UPDATE links SET variants = ? WHERE id = ?',
      JSON.stringify(typed.map((destinationUrl) => ({ destinationUrl, weight: 50 }))),
      link.id,
    )
    const went = new Map<string, number>()
    for (let v = 0; v < 8; v++) {
      const to = await target(link.shortCode, { ip: ipOf(v) })
      went.set(to, (went.get(to) ?? 0) + 1)
    }
    await flush(t)
    // Saved again (as any edit does), the variants are stored encoded; the old clicks still count.
    const saved = await t.call('PATCH', `/api/use/links/${link.id}`, {
      body: { variants: typed.map((destinationUrl) => ({ destinationUrl, weight: 50 })) },
    })
    expect(saved.json<Link>().variants.map((v) => v.destinationUrl)).toEqual(stored)
    const a = await analytics(t, link.id)
    expect(a.variants!.map((v) => [v.destinationUrl, v.clicks, v.uniqueVisitors])).toEqual(
      stored.map((u) => [u, went.get(u) ?? 0, went.get(u) ?? 0]),
    )
    expect(a.variants!.reduce((n, v) => n + v.clicks, 0)).toBe(8)
  })
})

describe('variants of a smart link: its fallback split', () => {
  async function makeSmart(body: Record<string, unknown>): Promise<SmartLink> {
    const res = await t.call('POST', '/api/use/smart-links', { body })
    expect(res.statusCode, res.body).toBe(201)
    return res.json<SmartLink>()
  }

  it('a platform with a target goes there; others get a variant of the fallback, with the click id', async () => {
    t = await createTestApp()
    const smart = await makeSmart({
      fallbackUrl: `${E}/fallback`,
      ios: { url: 'https://apps.apple.com/app/id1' },
      variants: split(50, 50),
    })
    expect(smart.variants).toEqual(split(50, 50))
    const ios = new URL(await target(smart.shortCode, { ua: SAFARI_IPHONE }))
    expect(ios.origin + ios.pathname).toBe('https://apps.apple.com/app/id1')
    const desktop = new URL(await target(smart.shortCode, { ip: ipOf(5) }))
    expect([`${E}/v0`, `${E}/v1`]).toContain(desktop.origin + desktop.pathname)
    expect(desktop.searchParams.get('linkd_click')).toMatch(/^clk_/)
    const again = new URL(await target(smart.shortCode, { ip: ipOf(5) }))
    expect(again.pathname).toBe(desktop.pathname)

    const bad = await t.call('PATCH', `/api/use/smart-links/${smart.id}`, {
      body: {
        variants: [
          { destinationUrl: 'http://127.0.0.1/', weight: 100 },
          { destinationUrl: `${E}/b`, weight: 0 },
        ],
      },
    })
    expectError(bad, 400, 'ValidationError')
    const cleared = await t.call('PATCH', `/api/use/smart-links/${smart.id}`, { body: { variants: null } })
    expect(cleared.json<SmartLink>().variants).toEqual([])
    // [] as it reads back is accepted as none.
    const empty = await t.call('PATCH', `/api/use/smart-links/${smart.id}`, { body: { variants: [] } })
    expect(empty.statusCode, empty.body).toBe(200)
    const plain = new URL(await target(smart.shortCode, { ip: ipOf(5) }))
    expect(plain.origin + plain.pathname).toBe(`${E}/fallback`)
  })
})
