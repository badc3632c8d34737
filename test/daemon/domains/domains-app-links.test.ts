/**
 * App links on custom domains: `PUT|GET /api/domains/:id/app-links` (validation at its bounds,
 * scopes, other organizations) and the two `.well-known` files a verified domain then serves, in
 * the documented shapes, never redirected (not to HTTPS, not by the root redirect). HTTPS with a
 * real certificate: domains-tls.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppLinks, Domain } from '../../../src/contract/domains.js'
import { APP_LINK_LIMITS as L } from '../../../src/contract/limits.js'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import { aasaProblems, assetLinksProblems, fingerprint } from '../../support/app-links.js'

const HOST = 'app.example.test'
const AASA = '/.well-known/apple-app-site-association'
const ASSETLINKS = '/.well-known/assetlinks.json'
const IOS = { appIds: ['ABCDE12345.com.example.game'], paths: ['/*'] }
const ANDROID = { packageName: 'com.example.game', sha256CertFingerprints: [fingerprint('ab')] }

describe('app links on custom domains', () => {
  let t: TestApp
  let domain: Domain
  const put = (body: unknown, opts: { id?: string; key?: string } = {}) =>
    t.call('PUT', `/api/domains/${opts.id ?? domain.id}/app-links`, {
      body,
      ...(opts.key ? { key: opts.key } : {}),
    })
  const fetch = (path: string, host = HOST, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url: path, headers: { host } })
  /** Makes the domain verified, with a certificate served (plain HTTP goes to HTTPS) and a root redirect. */
  const verify = async (id: string, https = false) => {
    await sqlRows(t, "UPDATE custom_domains SET verification_status = 'verified' WHERE id = ?", id)
    if (https)
      await sqlRows(t, "UPDATE custom_domains SET ssl_status = 'active', cert_pem = 'x' WHERE id = ?", id)
    await t.app.linkd.services.directory.refresh()
  }

  beforeAll(async () => {
    t = await createTestApp({ cnameTarget: 'links.linkd.test' })
    domain = (await t.call('POST', '/api/domains', { body: { domain: HOST } })).json<Domain>()
  })
  afterAll(() => t.close())

  it('starts empty; PUT stores and GET answers it (fingerprints upper case)', async () => {
    expect((await t.call('GET', `/api/domains/${domain.id}/app-links`)).json()).toEqual({
      ios: null,
      android: null,
    })
    const res = await put({ ios: IOS, android: ANDROID })
    expect(res.statusCode, res.body).toBe(200)
    const stored: AppLinks = {
      ios: IOS,
      android: { ...ANDROID, sha256CertFingerprints: [fingerprint('AB')] },
    }
    expect(res.json()).toEqual(stored)
    expect((await t.call('GET', `/api/domains/${domain.id}/app-links`)).json()).toEqual(stored)
  })

  it('refuses malformed input with the field and the rule in words', async () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [{ ios: { ...IOS, appIds: ['ABCDE1234.com.example'] } }, 'ios.appIds.0', /10-character Team ID/],
      [{ ios: { ...IOS, appIds: ['abcde12345.com.example'] } }, 'ios.appIds.0', /Team ID/],
      [{ ios: { ...IOS, appIds: ['ABCDE12345'] } }, 'ios.appIds.0', /bundle ID/],
      [{ ios: { ...IOS, appIds: [] } }, 'ios.appIds', /at least 1/],
      [{ ios: { ...IOS, paths: ['games/*'] } }, 'ios.paths.0', /must start with \//],
      [{ ios: { ...IOS, paths: ['/a b'] } }, 'ios.paths.0', /without spaces/],
      [{ ios: { ...IOS, paths: [] } }, 'ios.paths', /at least 1/],
      [{ android: { ...ANDROID, packageName: 'game' } }, 'android.packageName', /Java package name/],
      [{ android: { ...ANDROID, packageName: 'com.1game' } }, 'android.packageName', /Java package name/],
      [
        { android: { ...ANDROID, sha256CertFingerprints: [Array(31).fill('AB').join(':')] } },
        'android.sha256CertFingerprints.0',
        /32 hex pairs/,
      ],
      [
        { android: { ...ANDROID, sha256CertFingerprints: [fingerprint('GG')] } },
        'android.sha256CertFingerprints.0',
        /32 hex pairs/,
      ],
      [
        { android: { ...ANDROID, sha256CertFingerprints: [] } },
        'android.sha256CertFingerprints',
        /at least 1/,
      ],
      [{ ios: IOS, android: null, web: true }, 'web', /not a known field/],
    ]
    for (const [partial, field, message] of cases) {
      const body = { ios: null, android: null, ...(partial as object) }
      const res = await put(body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json().error).toBe('ValidationError')
      expect(res.json().details, JSON.stringify(body)).toContainEqual({
        field,
        message: expect.stringMatching(message),
      })
    }
    const missing = await put({ ios: IOS })
    expect(missing.statusCode).toBe(400)
    expect(missing.json().details).toContainEqual({ field: 'android', message: 'is required' })
  })

  it('takes each list up to its limit and refuses one more', async () => {
    const appIds = Array.from({ length: L.appIdsMax + 1 }, (_, i) => `ABCDE1234${i % 10}.com.example.g${i}`)
    const paths = Array.from({ length: L.pathsMax + 1 }, (_, i) => `/p${i}/*`)
    const fps = Array.from({ length: L.fingerprintsMax + 1 }, (_, i) => fingerprint(`${i % 10}${i % 10}`))
    const longPath = `/${'a'.repeat(L.pathMax - 1)}`
    const longPackage = `c.${'a'.repeat(L.packageNameMax - 2)}`
    const most = {
      ios: { appIds: appIds.slice(0, -1), paths: [...paths.slice(0, -2), longPath] },
      android: { packageName: longPackage, sha256CertFingerprints: fps.slice(0, -1) },
    }
    const ok = await put(most)
    expect(ok.statusCode, ok.body).toBe(200)
    for (const [over, field] of [
      [{ ...most, ios: { ...most.ios, appIds } }, 'ios.appIds'],
      [{ ...most, ios: { ...most.ios, paths } }, 'ios.paths'],
      [{ ...most, ios: { ...most.ios, paths: [`${longPath}a`] } }, 'ios.paths.0'],
      [{ ...most, android: { ...most.android, packageName: `${longPackage}a` } }, 'android.packageName'],
      [
        { ...most, android: { ...most.android, sha256CertFingerprints: fps } },
        'android.sha256CertFingerprints',
      ],
    ] as const) {
      const res = await put(over)
      expect(res.statusCode, field).toBe(400)
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field)
    }
    // The largest file stays far below Apple's 128 KB.
    await verify(domain.id)
    const aasa = await fetch(AASA)
    expect(aasa.statusCode).toBe(200)
    expect(aasaProblems(aasa.body)).toEqual([])
    expect(assetLinksProblems((await fetch(ASSETLINKS)).body)).toEqual([])
  })

  it('needs domains:read / domains:write; another organization gets 404 and changes nothing', async () => {
    const reader = await t.createKey({ permissions: ['domains:read'] })
    expect((await t.call('GET', `/api/domains/${domain.id}/app-links`, { key: reader.key })).statusCode).toBe(
      200,
    )
    expect((await put({ ios: IOS, android: null }, { key: reader.key })).statusCode).toBe(403)
    const other = await t.createOrg('other')
    const get = await t.call('GET', `/api/domains/${domain.id}/app-links`, { key: other.ownerKey })
    expect(get.statusCode).toBe(404)
    expect(get.json().error).toBe('NotFound')
    expect((await put({ ios: null, android: null }, { key: other.ownerKey })).statusCode).toBe(404)
    expect((await put({ ios: null, android: null }, { id: 'dom_missing' })).statusCode).toBe(404)
    expect((await fetch(AASA)).statusCode).toBe(200)
  })

  it('serves both files as application/json in the documented shapes, over HTTP without the HTTPS upgrade or root redirect', async () => {
    await put({
      ios: {
        appIds: ['ABCDE12345.com.example.game', 'ZYXWV98765.com.example.game.beta'],
        paths: ['NOT /admin/*', '/*'],
      },
      android: ANDROID,
    })
    await t.call('PATCH', `/api/domains/${domain.id}`, { body: { rootRedirectUrl: 'https://example.com/' } })
    await verify(domain.id, true)
    // The domain otherwise goes to HTTPS and its root redirects.
    expect((await fetch('/abc')).statusCode).toBe(308)

    const aasa = await fetch(AASA)
    expect(aasa.statusCode).toBe(200)
    expect(aasa.headers['content-type']).toBe('application/json')
    expect(aasa.headers.location).toBeUndefined()
    expect(aasaProblems(aasa.body)).toEqual([])
    expect(aasa.json()).toEqual({
      applinks: {
        apps: [],
        details: [
          {
            appIDs: ['ABCDE12345.com.example.game', 'ZYXWV98765.com.example.game.beta'],
            components: [{ '/': '/admin/*', exclude: true }, { '/': '/*' }],
          },
        ],
      },
    })
    const links = await fetch(`${ASSETLINKS}?v=1`)
    expect(links.statusCode).toBe(200)
    expect(links.headers['content-type']).toBe('application/json')
    expect(assetLinksProblems(links.body)).toEqual([])
    expect(links.json()).toEqual([
      {
        relation: ['delegate_permission/common.handle_all_urls'],
        target: {
          namespace: 'android_app',
          package_name: 'com.example.game',
          sha256_cert_fingerprints: [fingerprint('AB')],
        },
      },
    ])
    const head = await fetch(ASSETLINKS, HOST, 'HEAD')
    expect(head.statusCode).toBe(200)
    expect(head.headers['content-type']).toBe('application/json')
    // The host is case-insensitive and may carry a port.
    expect((await fetch(AASA, 'App.Example.TEST:80')).statusCode).toBe(200)
  })

  it('404 when unset (not redirected either), on the shared domain, unknown hosts and unverified domains', async () => {
    await put({ ios: IOS, android: null })
    expect((await fetch(AASA)).statusCode).toBe(200)
    const unset = await fetch(ASSETLINKS)
    expect(unset.statusCode).toBe(404)
    expect(unset.headers.location).toBeUndefined()
    expect(unset.json().error).toBe('NotFound')
    for (const host of [t.config.shortDomain, 'unknown.example.test'])
      for (const path of [AASA, ASSETLINKS]) expect((await fetch(path, host)).statusCode, host).toBe(404)

    const pending = (
      await t.call('POST', '/api/domains', { body: { domain: 'pending.example.test' } })
    ).json<Domain>()
    expect((await put({ ios: IOS, android: ANDROID }, { id: pending.id })).statusCode).toBe(200)
    expect((await fetch(AASA, pending.domain)).statusCode).toBe(404)

    // Both null: nothing served.
    expect((await put({ ios: null, android: null })).json()).toEqual({ ios: null, android: null })
    expect((await fetch(AASA)).statusCode).toBe(404)
    const row = await sqlRows<{ app_links: string | null }>(
      t,
      'SELECT app_links FROM custom_domains WHERE id = ?',
      domain.id,
    )
    expect(row[0]!.app_links).toBeNull()
  })
})
