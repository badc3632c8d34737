/**
 * Invisible and direction-changing characters: every stored human-readable text (names, titles,
 * tags, descriptions, reasons) refuses control characters, line and paragraph separators,
 * bidirectional embeddings/overrides/isolates/marks, zero-width and other invisible characters
 * (fillers, braille blank, tag characters) and lone surrogates, with a 400 naming the field and a
 * message a person can read. One table of characters (by class), one table of routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BulkCreateResult } from '../../../src/contract/links.js'
import { LINK_LIMITS } from '../../../src/contract/limits.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { createGame } from '../../support/gaming.js'
import { createLink } from '../../support/links.js'
import { expectError } from '../../support/responses.js'

/** One or more of each class of refused character. */
const CLASSES: Record<string, string[]> = {
  'C0 controls': ['\u0000', '\u0007', '\u001b', '\t', '\n', '\r'],
  'DEL and C1 controls': ['\u007f', '\u0085', '\u009b', '\u009f'],
  'line and paragraph separators': ['\u2028', '\u2029'],
  'bidirectional marks, embeddings, overrides, isolates': [
    '\u061c',
    '\u200e',
    '\u200f',
    '\u202a',
    '\u202d',
    '\u202e',
    '\u2066',
    '\u2068',
    '\u2069',
  ],
  'zero-width characters': ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u180e'],
  'invisible fillers and blanks': ['\u115f', '\u3164', '\uffa0', '\u2800'],
  'tag characters': ['\u{e0000}', '\u{e0041}', '\u{e007f}'],
  'lone surrogates': ['\ud800', '\udbff', '\udc00', '\udfff'],
}
/** Allowed in descriptions only: multi-line text. */
const LINE_BREAKS = new Set(['\t', '\n', '\r'])
const FINE = ['Café ☕ 日本語', 'שלום עולם', 'مرحبا', '🎉 launch', '❤️ 𝒳', 'a\u00a0b', 'x'.repeat(3)]

const NO_REGEX = /[\^$[\]\\]|\\u|pattern/

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

type Method = 'POST' | 'PATCH'
interface Target {
  method: Method
  url: () => string
  body: (value: string) => Record<string, unknown>
  field: string
  multiline?: boolean
}

async function expectRefused(target: Target, value: string) {
  const res = await t.call(target.method, target.url(), { body: target.body(value) })
  const label = `${target.method} ${target.url()} ${target.field} ${JSON.stringify(value)}`
  expect(res.statusCode, `${label}: ${res.body}`).toBe(400)
  const body = expectError(res, 400, 'ValidationError')
  expect(body.details, label).toEqual([{ field: target.field, message: expect.any(String) }])
  const message = body.details![0]!.message
  expect(message, label).toMatch(/control.*bidirectional.*zero-width.*invisible/)
  expect(message, label).not.toMatch(NO_REGEX)
  expect(body.message).not.toMatch(NO_REGEX)
}

async function expectAccepted(target: Target, value: string) {
  const res = await t.call(target.method, target.url(), { body: target.body(value) })
  expect(res.statusCode, `${target.field} ${JSON.stringify(value)}: ${res.body}`).toBeLessThan(300)
}

describe('names, titles, tags, descriptions and reasons', () => {
  let linkId: string
  let keyId: string
  let webhookId: string
  let gameId: string
  let ruleId: string
  let campaignId: string
  const targets: Target[] = []
  let n = 0
  /** A value no earlier request used (blocklist entries are unique per value). */
  const unique = () => `10.0.${Math.floor(++n / 250)}.${n % 250}`
  beforeAll(async () => {
    linkId = (await createLink(t)).id
    keyId = (await t.createKey({ name: 'plain' })).id
    const wh = await t.call('POST', '/api/webhooks', {
      body: { name: 'plain', url: 'https://example.com/hook', events: ['link.created'] },
    })
    webhookId = wh.json<{ id: string }>().id
    gameId = (await createGame(t, { modules: { fraud: true, skan: true } })).id
    const rule = { action: 'flag', field: 'risk', operator: 'gt', value: 0.5 }
    ruleId = (
      await t.call('POST', `/api/v1/admin/fraud/games/${gameId}/rules`, { body: { ...rule, name: 'plain' } })
    ).json<{ id: string }>().id
    const campaign = {
      adNetworkId: 'text.skadnetwork',
      lockWindowHours: 24,
      conversionSchema: { events: {} },
    }
    campaignId = (
      await t.call('POST', `/api/v1/skan/games/${gameId}/campaigns`, { body: { ...campaign, name: 'plain' } })
    ).json<{ id: string }>().id
    const rules = `/api/v1/admin/fraud/games/${gameId}/rules`
    const link = { destinationUrl: 'https://example.com/' }
    const hook = { url: 'https://example.com/hook', events: ['link.created'] }
    targets.push(
      { method: 'POST', url: () => '/api/use/links', body: (v) => ({ ...link, title: v }), field: 'title' },
      {
        method: 'POST',
        url: () => '/api/use/links',
        body: (v) => ({ ...link, tags: ['ok', v] }),
        field: 'tags.1',
      },
      { method: 'PATCH', url: () => `/api/use/links/${linkId}`, body: (v) => ({ title: v }), field: 'title' },
      {
        method: 'PATCH',
        url: () => `/api/use/links/${linkId}`,
        body: (v) => ({ tags: [v] }),
        field: 'tags.0',
      },
      { method: 'POST', url: () => '/api/keys', body: (v) => ({ name: v }), field: 'name' },
      {
        method: 'POST',
        url: () => '/api/keys',
        body: (v) => ({ name: 'k', description: v }),
        field: 'description',
        multiline: true,
      },
      { method: 'PATCH', url: () => `/api/keys/${keyId}`, body: (v) => ({ name: v }), field: 'name' },
      {
        method: 'PATCH',
        url: () => `/api/keys/${keyId}`,
        body: (v) => ({ description: v }),
        field: 'description',
        multiline: true,
      },
      { method: 'POST', url: () => '/api/webhooks', body: (v) => ({ ...hook, name: v }), field: 'name' },
      {
        method: 'POST',
        url: () => '/api/webhooks',
        body: (v) => ({ ...hook, name: 'w', description: v }),
        field: 'description',
        multiline: true,
      },
      { method: 'PATCH', url: () => `/api/webhooks/${webhookId}`, body: (v) => ({ name: v }), field: 'name' },
      {
        method: 'PATCH',
        url: () => `/api/webhooks/${webhookId}`,
        body: (v) => ({ description: v }),
        field: 'description',
        multiline: true,
      },
      {
        method: 'POST',
        url: () => '/api/v1/admin/games',
        body: (v) => ({ name: v, platform: 'ios' }),
        field: 'name',
      },
      {
        method: 'PATCH',
        url: () => `/api/v1/admin/games/${gameId}`,
        body: (v) => ({ name: v }),
        field: 'name',
      },
      { method: 'POST', url: () => rules, body: (v) => ({ ...rule, name: v }), field: 'name' },
      { method: 'PATCH', url: () => `${rules}/${ruleId}`, body: (v) => ({ name: v }), field: 'name' },
      {
        method: 'POST',
        url: () => `/api/v1/admin/fraud/games/${gameId}/blocklist`,
        body: (v) => ({ type: 'ip', value: unique(), reason: v }),
        field: 'reason',
      },
      {
        method: 'POST',
        url: () => '/api/v1/gaming/gdpr/deletions',
        body: (v) => ({ gameId, playerId: `p${++n}`, reason: v, confirmation: 'DELETE' }),
        field: 'reason',
      },
      {
        method: 'POST',
        url: () => `/api/v1/skan/games/${gameId}/campaigns`,
        body: (v) => ({ ...campaign, name: v }),
        field: 'name',
      },
      {
        method: 'POST',
        url: () => `/api/v1/skan/games/${gameId}/campaigns`,
        body: (v) => ({ ...campaign, name: 'c', affiliateId: v }),
        field: 'affiliateId',
      },
      {
        method: 'PATCH',
        url: () => `/api/v1/skan/campaigns/${campaignId}`,
        body: (v) => ({ name: v }),
        field: 'name',
      },
      {
        method: 'PATCH',
        url: () => `/api/v1/skan/campaigns/${campaignId}`,
        body: (v) => ({ affiliateId: v }),
        field: 'affiliateId',
      },
    )
  })

  it.each(Object.entries(CLASSES))(
    '%s, anywhere in the value, are a 400 naming the field',
    async (_, chars) => {
      for (const target of targets)
        for (const c of chars) {
          if (target.multiline && LINE_BREAKS.has(c)) continue
          await expectRefused(target, `Launch${c}page`)
          await expectRefused(target, `${c}Launch`)
        }
    },
  )

  it('letters of any script, emoji, no-break spaces, and line breaks in descriptions are kept', async () => {
    for (const target of targets) {
      for (const v of FINE) await expectAccepted(target, v)
      if (target.multiline) await expectAccepted(target, 'first line\nsecond line\r\n\tindented')
    }
    const link = (await t.call('GET', `/api/use/links/${linkId}`)).json<{ title: string }>()
    expect(link.title).toBe(FINE.at(-1))
  })

  it('names stay required to hold a visible character', async () => {
    for (const target of targets.filter((x) => x.field === 'name')) {
      const res = await t.call(target.method, target.url(), { body: target.body('   ') })
      const body = expectError(res, 400, 'ValidationError')
      expect(body.details).toEqual([{ field: 'name', message: expect.stringMatching(/visible character/) }])
      expect(body.message).not.toMatch(NO_REGEX)
    }
  })

  it('bulk items are checked the same way, one item at a time', async () => {
    const res = await t.call('POST', '/api/use/links/bulk', {
      body: {
        links: [
          { destinationUrl: 'https://example.com/1', title: 'evil\u202egnp.exe' },
          { destinationUrl: 'https://example.com/2', tags: ['zero\u200bwidth'] },
          { destinationUrl: 'https://example.com/3', title: 'fine' },
        ],
      },
    })
    expect(res.statusCode, res.body).toBe(200)
    const r = res.json<BulkCreateResult>()
    expect(r).toMatchObject({ created: 1, failed: 2 })
    expect(r.results.map((x) => x.error?.details?.[0]?.field)).toEqual(['title', 'tags.0', undefined])
  })

  it('lengths count characters, not UTF-16 units: emoji at the limits of tags and titles', async () => {
    const emoji = (n: number) => '🎉'.repeat(n)
    const link = await createLink(t, {
      title: emoji(LINK_LIMITS.titleMax),
      tags: [emoji(LINK_LIMITS.tagMax)],
    })
    expect(link.tags).toEqual([emoji(LINK_LIMITS.tagMax)])
    const patched = await t.call('PATCH', `/api/use/links/${link.id}`, { body: { tags: [emoji(30)] } })
    expect(patched.statusCode, patched.body).toBe(200)
    expect(patched.json<{ tags: string[] }>().tags).toEqual([emoji(30)])
    for (const [body, field] of [
      [{ tags: [emoji(LINK_LIMITS.tagMax + 1)] }, 'tags.0'],
      [{ title: emoji(LINK_LIMITS.titleMax + 1) }, 'title'],
    ] as const) {
      const res = await t.call('POST', '/api/use/links', {
        body: { destinationUrl: 'https://example.com/', ...body },
      })
      expect(expectError(res, 400, 'ValidationError').details![0]!.field).toBe(field)
    }
  })
})

describe('the NUL character anywhere else (path parameters, query strings, free-form values)', () => {
  // PostgreSQL's text cannot hold NUL and refuses the statement (those requests answered 500 on
  // it); both engines refuse it up front with a 400 naming the field.
  const nul = (field: string) => [{ field, message: 'must not contain the NUL character (\\u0000)' }]

  it('is a 400 naming the field, and nothing is stored', async () => {
    for (const url of ['/api/keys/%00/revoke', '/api/webhooks/a%00b/disable', '/api/domains/%00/verify']) {
      const res = await t.call('POST', url)
      expect(expectError(res, 400, 'ValidationError').details, url).toEqual(
        nul(url.includes('domains') ? 'domainId' : 'id'),
      )
    }
    const list = await t.call('GET', '/api/use/links?search=a%00b')
    expect(expectError(list, 400, 'ValidationError').details).toEqual(nul('search'))
    const before = (await t.call('GET', '/api/use/links')).json<{ total: number }>().total
    const link = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/', metadata: { note: 'a\u0000b' } },
    })
    expect(expectError(link, 400, 'ValidationError').details).toEqual(nul('metadata.note'))
    const key = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/', metadata: { 'a\u0000': 1 } },
    })
    expect(expectError(key, 400, 'ValidationError').details).toEqual(nul('metadata.a\u0000'))
    expect((await t.call('GET', '/api/use/links')).json<{ total: number }>().total).toBe(before)
  })
})
