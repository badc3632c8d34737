import { Writable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import { expectError } from '../../support/responses.js'
import { analytics, captureEvents, CHROME_WINDOWS, flush, makeLink, visit } from '../../support/redirect.js'
import {
  PASSWORD_LINK_TRIES,
  PASSWORD_TRIES,
  PREVIEW_CRAWLERS,
} from '../../../daemon/modules/redirect/protected.js'
import { onPostgres } from '../../support/postgres.js'
import { createSharedApps } from '../../support/shared-database.js'
import type { Link } from '../../../src/contract/links.js'

const SECRET = 'correct horse battery'
const E = 'https://example.com'

let t: TestApp
afterEach(() => t.close())

/** The password form's POST, as a browser sends it (to `app`, by default the test's). */
function submit(
  code: string,
  password: string,
  o: { ip?: string; query?: string; ua?: string; app?: TestApp } = {},
) {
  return (o.app ?? t).app.inject({
    method: 'POST',
    url: `/${code}${o.query ? `?${o.query}` : ''}`,
    headers: {
      host: t.config.shortDomain,
      'user-agent': o.ua ?? CHROME_WINDOWS,
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams({ password }).toString(),
    remoteAddress: o.ip ?? '127.0.0.1',
  })
}

/** Every row of every table, as text (the database's whole content). */
async function everyRow(): Promise<string> {
  const tables =
    t.db.dialect === 'postgres'
      ? await sqlRows<{ name: string }>(
          t,
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
        )
      : await sqlRows<{ name: string }>(t, "SELECT name FROM sqlite_master WHERE type = 'table'")
  expect(tables.map((r) => r.name)).toContain('links')
  const out: string[] = []
  for (const { name } of tables) out.push(JSON.stringify(await sqlRows(t, `SELECT * FROM "${name}"`)))
  return out.join('\n')
}

function expectPageHeaders(res: { headers: Record<string, unknown> }) {
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
  expect(res.headers['content-security-policy']).toContain("default-src 'none'")
  expect(res.headers['content-security-policy']).toContain("form-action 'self'")
  expect(res.headers['cache-control']).toBe('no-store')
  expect(res.headers['x-robots-tag']).toBe('noindex')
  expect(res.headers.location).toBeUndefined()
}

/** No URL outside the page itself: no external script, style, image or font. */
function expectSelfContained(html: string) {
  expect(html).not.toMatch(/<script|<link|<img|<iframe|src=|url\(/i)
}

describe('password-protected links', () => {
  it('shows the form, answers 401 to a wrong password and 302 to the right one, one human click', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { password: SECRET, title: '<b>Launch</b> & "more"' })
    expect(link.passwordProtected).toBe(true)
    expect(JSON.stringify(link)).not.toContain(SECRET)

    const form = await visit(t, link.shortCode, { query: 'utm_source=x' })
    expect(form.statusCode).toBe(200)
    expectPageHeaders(form)
    expectSelfContained(form.body)
    expect(form.body).toContain('<form method="post" action="/' + link.shortCode + '?utm_source=x"')
    expect(form.body).toContain('name="password" type="password"')
    expect(form.body).toContain('&lt;b&gt;Launch&lt;/b&gt; &amp; &quot;more&quot;')
    expect(form.body).not.toContain('<b>Launch')
    expect(form.body).not.toContain(E)

    const head = await visit(t, link.shortCode, { method: 'HEAD' })
    expect(head.statusCode).toBe(200)
    expect(head.body).toBe('')
    expect(head.headers.location).toBeUndefined()

    const wrong = await submit(link.shortCode, 'not it')
    expect(wrong.statusCode).toBe(401)
    expectPageHeaders(wrong)
    expect(wrong.body).toContain('Wrong password')
    expect(wrong.body).toContain('name="password"')

    const right = await submit(link.shortCode, SECRET, { query: 'utm_source=x' })
    expect(right.statusCode).toBe(302)
    expect(right.headers.location).toBe(`${E}/landing?utm_source=x`)
    expect(right.headers['cache-control']).toBe('no-store')

    await flush(t)
    const stats = await analytics(t, link.id)
    expect(stats.totalClicks).toBe(1)
    const after = (await t.call('GET', `/api/use/links/${link.id}`)).json<Link>()
    expect(after.clicks).toBe(1)
  })

  it('the form of /code/ (one trailing slash) posts back there and opens the link', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { password: SECRET })
    const form = await visit(t, `${link.shortCode}/`, { headers: { accept: 'text/html' } })
    expect(form.statusCode).toBe(200)
    expect(form.body).toContain(`action="/${link.shortCode}/"`)
    const right = await submit(`${link.shortCode}/`, SECRET)
    expect(right.statusCode).toBe(302)
    expect(right.headers.location).toBe(`${E}/landing`)
  })

  it('rules pick the destination after the password; a 307 link still answers the POST with 302', async () => {
    t = await createTestApp()
    const link = await makeLink(t, {
      password: SECRET,
      redirectType: 307,
      rules: [{ conditions: [{ type: 'language', value: 'de' }], destinationUrl: `${E}/de` }],
    })
    const res = await t.app.inject({
      method: 'POST',
      url: `/${link.shortCode}`,
      headers: {
        host: t.config.shortDomain,
        'accept-language': 'de-DE',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: `password=${encodeURIComponent(SECRET)}`,
    })
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe(`${E}/de`)
  })

  it(`${PASSWORD_TRIES} wrong tries per IP and link answer 401, the next one 429 with Retry-After`, async () => {
    t = await createTestApp()
    const link = await makeLink(t, { password: SECRET })
    for (let i = 0; i < PASSWORD_TRIES; i++)
      expect((await submit(link.shortCode, `wrong ${i}`, { ip: '10.0.0.1' })).statusCode).toBe(401)
    const limited = await submit(link.shortCode, SECRET, { ip: '10.0.0.1' })
    expect(limited.statusCode).toBe(429)
    expectPageHeaders(limited)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(limited.body).toContain('Too many wrong passwords')
    // Another address is not limited.
    expect((await submit(link.shortCode, SECRET, { ip: '10.0.0.2' })).statusCode).toBe(302)
    // The window ends: the first address may try again.
    t.clock.advance(15 * 60_000)
    expect((await submit(link.shortCode, SECRET, { ip: '10.0.0.1' })).statusCode).toBe(302)
  })

  it('an IPv6 /64 is one address for the per-address window; IPv4-mapped IPv6 is its IPv4 address', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { password: SECRET })
    for (let i = 0; i < PASSWORD_TRIES; i++)
      expect((await submit(link.shortCode, `wrong ${i}`, { ip: `2001:db8:1:2::${i + 1}` })).statusCode).toBe(
        401,
      )
    // Any other address of that /64 is refused; the next /64 is not.
    expect(
      (await submit(link.shortCode, SECRET, { ip: '2001:db8:1:2:ffff:ffff:ffff:ffff' })).statusCode,
    ).toBe(429)
    expect((await submit(link.shortCode, SECRET, { ip: '2001:db8:1:3::1' })).statusCode).toBe(302)
    for (let i = 0; i < PASSWORD_TRIES; i++)
      expect((await submit(link.shortCode, `wrong ${i}`, { ip: '::ffff:10.0.0.5' })).statusCode).toBe(401)
    expect((await submit(link.shortCode, SECRET, { ip: '10.0.0.5' })).statusCode).toBe(429)
    expect((await submit(link.shortCode, SECRET, { ip: '10.0.0.6' })).statusCode).toBe(302)
  })

  it(`${PASSWORD_LINK_TRIES} wrong tries from any addresses lock the link: 429 for all, the right password too, announced once`, async () => {
    t = await createTestApp()
    const link = await makeLink(t, { password: SECRET })
    const locked = captureEvents(t, 'link.password_locked')
    t.clock.set('2026-11-21T10:05:00.000Z') // 10 minutes left in the 15-minute window
    for (let i = 0; i < PASSWORD_LINK_TRIES; i++) {
      const ip = `10.1.${Math.floor(i / PASSWORD_TRIES)}.1` // within each address's own limit
      expect((await submit(link.shortCode, `wrong ${i}`, { ip })).statusCode).toBe(401)
    }
    const refused = await submit(link.shortCode, SECRET, { ip: '10.9.9.9' })
    expect(refused.statusCode).toBe(429)
    expectPageHeaders(refused)
    expect(refused.headers['retry-after']).toBe('600')
    expect(refused.body).toContain('Too many wrong passwords were tried for this link')
    expect((await submit(link.shortCode, 'wrong again', { ip: '10.9.9.8' })).statusCode).toBe(429)
    expect(locked.map((e) => e.data)).toEqual([
      {
        linkId: link.id,
        shortUrl: link.shortUrl,
        shortCode: link.shortCode,
        wrongTries: PASSWORD_LINK_TRIES,
        lockedUntil: '2026-11-21T10:15:00.000Z',
      },
    ])
    // Another password link is not locked; the window ends, the link opens again.
    const other = await makeLink(t, { password: SECRET })
    expect((await submit(other.shortCode, SECRET, { ip: '10.9.9.9' })).statusCode).toBe(302)
    t.clock.set('2026-11-21T10:15:00.000Z')
    expect((await submit(link.shortCode, SECRET, { ip: '10.9.9.9' })).statusCode).toBe(302)
  }, 180_000) // a hundred scrypt checks

  it.skipIf(!onPostgres)(
    'on PostgreSQL the per-link count is shared by every linkd process',
    async () => {
      const shared = await createSharedApps(2)
      try {
        const [a, b] = shared.apps as [TestApp, TestApp]
        const link = await makeLink(a, { password: SECRET })
        for (let i = 0; i < PASSWORD_LINK_TRIES; i++) {
          const ip = `10.2.${Math.floor(i / PASSWORD_TRIES)}.1`
          const app = i % 2 === 0 ? a : b
          expect((await submit(link.shortCode, `wrong ${i}`, { ip, app })).statusCode).toBe(401)
        }
        expect((await submit(link.shortCode, SECRET, { ip: '10.9.9.9', app: a })).statusCode).toBe(429)
        expect((await submit(link.shortCode, SECRET, { ip: '10.9.9.9', app: b })).statusCode).toBe(429)
      } finally {
        await shared.close()
      }
    },
    180_000,
  )

  it('bad form bodies answer a 400/413 page, never a 500; POST to an unprotected link is 405', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { password: SECRET })
    const post = (payload: string, type: string) =>
      t.app.inject({
        method: 'POST',
        url: `/${link.shortCode}`,
        headers: { host: t.config.shortDomain, 'content-type': type },
        payload,
      })
    const big = await post(`password=${'x'.repeat(10_000)}`, 'application/x-www-form-urlencoded')
    expect(big.statusCode).toBe(413)
    expect(big.headers['content-type']).toBe('text/html; charset=utf-8')
    const json = await post(JSON.stringify({ password: SECRET }), 'application/json')
    expect(json.statusCode).toBe(400)
    expect(json.body).toContain('application/x-www-form-urlencoded')
    const none = await post('other=1', 'application/x-www-form-urlencoded')
    expect(none.statusCode).toBe(400)
    expect(none.body).toContain('name="password"')
    const twice = await post('password=a&password=b', 'application/x-www-form-urlencoded')
    expect(twice.statusCode).toBe(400)
    const plain = await makeLink(t)
    const notProtected = await t.app.inject({
      method: 'POST',
      url: `/${plain.shortCode}`,
      headers: { host: t.config.shortDomain, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'password=abcd',
    })
    expect(notProtected.statusCode).toBe(405)
  })

  it('expiry and startsAt apply before the form; crawlers and bots get the form, never the destination', async () => {
    t = await createTestApp()
    const expired = await makeLink(t, {
      password: SECRET,
      expiresAt: new Date(t.clock.now() + 1000).toISOString(),
      expiredUrl: `${E}/over`,
    })
    const later = await makeLink(t, {
      password: SECRET,
      startsAt: new Date(t.clock.now() + 3_600_000).toISOString(),
    })
    const link = await makeLink(t, { password: SECRET })
    expect((await visit(t, later.shortCode)).statusCode).toBe(404)
    t.clock.advance(2000)
    const gone = await visit(t, expired.shortCode)
    expect(gone.statusCode).toBe(302)
    expect(gone.headers.location).toBe(`${E}/over`)
    for (const ua of [
      'Googlebot/2.1 (+http://www.google.com/bot.html)',
      'curl/8.0',
      'Slackbot-LinkExpanding 1.0',
    ]) {
      const res = await visit(t, link.shortCode, { ua })
      expect(res.statusCode).toBe(200)
      expect(res.body).toContain('name="password"')
      expect(res.body).not.toContain(E)
    }
  })

  it('maxClicks: the form takes no click, the right password takes one', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { password: SECRET, maxClicks: 1 })
    expect((await visit(t, link.shortCode)).statusCode).toBe(200)
    expect((await submit(link.shortCode, SECRET)).statusCode).toBe(302)
    const gone = await visit(t, link.shortCode, { headers: { accept: 'text/html' } })
    expect(gone.statusCode).toBe(410)
    expect((await submit(link.shortCode, SECRET)).statusCode).toBe(410)
  })

  it('4 and 128 characters pass, 3 and 129 fail; PATCH null removes it; the link shows passwordProtected', async () => {
    t = await createTestApp()
    expect((await makeLink(t, { password: 'abcd' })).passwordProtected).toBe(true)
    const long = await makeLink(t, { password: 'p'.repeat(128) })
    expect((await submit(long.shortCode, 'p'.repeat(128))).statusCode).toBe(302)
    for (const password of ['abc', 'p'.repeat(129)]) {
      const res = await t.call('POST', '/api/use/links', { body: { destinationUrl: `${E}/x`, password } })
      expectError(res, 400, 'ValidationError')
      expect(res.body).toContain('password')
      expect(res.body).not.toContain(password)
    }
    const plain = await makeLink(t)
    expect(plain.passwordProtected).toBe(false)
    const set = await t.call('PATCH', `/api/use/links/${plain.id}`, { body: { password: 'n3w-secret' } })
    expect(set.json<Link>().passwordProtected).toBe(true)
    expect((await visit(t, plain.shortCode)).statusCode).toBe(200)
    const tooShort = await t.call('PATCH', `/api/use/links/${plain.id}`, { body: { password: 'abc' } })
    expectError(tooShort, 400, 'ValidationError')
    const cleared = await t.call('PATCH', `/api/use/links/${plain.id}`, { body: { password: null } })
    expect(cleared.json<Link>().passwordProtected).toBe(false)
    expect((await visit(t, plain.shortCode)).statusCode).toBe(302)
  })

  it('the password is in no stored row, no log line, no event, no replay, no export', async () => {
    const lines: string[] = []
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString())
        done()
      },
    })
    t = await createTestApp({ logLevel: 'info' }, { logger: { level: 'info', stream } as never })
    const events = captureEvents(t, 'link.created', 'link.updated')
    const create = () =>
      t.call('POST', '/api/use/links', {
        body: { destinationUrl: `${E}/x`, password: SECRET },
        headers: { 'idempotency-key': 'pw-create-1' },
      })
    const first = await create()
    expect(first.statusCode).toBe(201)
    const replay = await create()
    expect(replay.statusCode).toBe(201)
    const id = first.json<Link>().id
    await t.call('PATCH', `/api/use/links/${id}`, { body: { password: `${SECRET} 2` } })
    await submit(first.json<Link>().shortCode, `${SECRET} 2`)
    await submit(first.json<Link>().shortCode, SECRET)
    const exported = await t.call('GET', '/api/use/links?perPage=100')
    await flush(t)
    await t.app.linkd.services.audit.flush()

    const stored = await everyRow()
    expect(stored).toContain('scrypt$')
    for (const text of [stored, lines.join(''), JSON.stringify(events), replay.body, exported.body]) {
      expect(text).not.toContain(SECRET)
      expect(text).not.toContain(encodeURIComponent(SECRET))
    }
    expect(events.length).toBeGreaterThan(0)
    expect(lines.length).toBeGreaterThan(0)
    const hash = (
      await sqlRows<{ password_hash: string }>(t, 'SELECT password_hash FROM links WHERE id = ?', id)
    )[0]!
    expect(hash.password_hash).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/)
  })
})

describe('Open Graph previews', () => {
  const og = { title: 'Season <2> launch', description: 'New maps & "modes"', imageUrl: `${E}/og.png` }

  it.each(PREVIEW_CRAWLERS.map((name) => [name]))('%s gets the og page, counted as a bot', async (name) => {
    t = await createTestApp()
    const link = await makeLink(t, { og })
    const ua = `Mozilla/5.0 (compatible; ${name}/1.0; +https://example.org/bot)`
    const res = await visit(t, link.shortCode, { ua })
    expect(res.statusCode).toBe(200)
    expectPageHeaders(res)
    expect(res.body).toContain('<meta property="og:title" content="Season &lt;2&gt; launch">')
    expect(res.body).toContain('<meta property="og:description" content="New maps &amp; &quot;modes&quot;">')
    expect(res.body).toContain(`<meta property="og:image" content="${E}/og.png">`)
    expect(res.body).toContain(`<meta property="og:url" content="${link.shortUrl}">`)
    expect(res.body).toContain('<meta name="twitter:card" content="summary_large_image">')
    expect(res.body).toContain(`<meta http-equiv="refresh" content="0;url=${E}/landing">`)
    expectSelfContained(res.body)
    // A browser still gets the redirect.
    expect((await visit(t, link.shortCode)).statusCode).toBe(302)
    await flush(t)
    const stats = await analytics(t, link.id)
    expect(stats.totalClicks).toBe(1)
    expect(stats.botDetection.count).toBe(1)
  })

  it('iMessage (facebookexternalhit Facebot Twitterbot) gets it too; HEAD has no body', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { og })
    const ua = 'facebookexternalhit/1.1 Facebot Twitterbot/1.0'
    expect((await visit(t, link.shortCode, { ua })).body).toContain('og:title')
    const head = await visit(t, link.shortCode, { ua, method: 'HEAD' })
    expect(head.statusCode).toBe(200)
    expect(head.body).toBe('')
  })

  it('a protected link with og: crawlers get the og page without the destination', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { og, password: SECRET })
    const res = await visit(t, link.shortCode, { ua: 'Twitterbot/1.0' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('og:title')
    expect(res.body).not.toContain(`${E}/landing`)
    expect(res.body).not.toContain('refresh')
    expect((await visit(t, link.shortCode)).body).toContain('name="password"')
  })

  it('links without og: crawlers get the redirect as before', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    const res = await visit(t, link.shortCode, { ua: 'Twitterbot/1.0' })
    expect(res.statusCode).toBe(302)
  })

  it('bounds: og fields checked, imageUrl http(s), null removes og', async () => {
    t = await createTestApp()
    const bad = [
      { title: 't'.repeat(201) },
      { description: 'd'.repeat(501) },
      { imageUrl: 'javascript:alert(1)' },
      { imageUrl: 'ftp://example.com/a.png' },
      { other: 'x' },
    ]
    for (const o of bad)
      expectError(
        await t.call('POST', '/api/use/links', { body: { destinationUrl: `${E}/x`, og: o } }),
        400,
        'ValidationError',
      )
    const link = await makeLink(t, { og: { title: 't'.repeat(200), imageUrl: 'http://example.com/a.png' } })
    expect(link.og).toEqual({
      title: 't'.repeat(200),
      description: null,
      imageUrl: 'http://example.com/a.png',
    })
    const cleared = await t.call('PATCH', `/api/use/links/${link.id}`, { body: { og: null } })
    expect(cleared.json<Link>().og).toBeNull()
    expect((await visit(t, link.shortCode, { ua: 'Twitterbot/1.0' })).statusCode).toBe(302)
  })
})
