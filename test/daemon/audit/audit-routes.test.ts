/**
 * The audit log walks the route table: every authenticated write route, called once with success,
 * leaves exactly one entry with its derived name; failed writes and reads leave none; and no
 * secret the calls created or sent (key values, webhook secrets, SDK keys, signing secrets) is in
 * any entry. FIXTURES must name every write route of the OpenAPI document: a new route without
 * one fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestExamples } from '../../../daemon/http/openapi-examples.js'
import type { AuditEntry } from '../../../src/contract/team.js'
import { count, createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import { createGame } from '../../support/gaming.js'
import { fraudEvent, gameIdOf, seedFraud } from '../../support/fraud.js'
import { sendHistory, windowsOver } from '../../support/skan-history.js'
import { raw } from '../../support/responses.js'
import { S3RVER_KEY, startS3, type TestS3 } from '../../support/s3.js'

type Json = Record<string, unknown>
interface Operation {
  security?: Array<Record<string, string[]>>
  responses: Record<string, unknown>
}
interface Call {
  url: string
  body?: unknown
}

let t: TestApp
let s3: TestS3
const examples = requestExamples() as Record<string, Json>
/** Every string that must never be in the audit log. */
const secrets = new Set<string>()

const post = async (url: string, body: unknown = {}): Promise<Json> => {
  const res = await t.call('POST', url, { body })
  if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
  collectSecrets(res.json())
  return res.json<Json>()
}
const id = (o: Json) => o.id as string
const key = async () => id(await post('/api/keys', { name: 'fixture', preset: 'full' }))
const link = async () => id(await post('/api/use/links', { destinationUrl: 'https://example.org/' }))
const smartLink = async () =>
  id(await post('/api/use/smart-links', { fallbackUrl: 'https://example.org/game' }))
const qrCode = async () => id(await post('/api/use/qr-codes', { linkId: await link() }))
const webhook = async () =>
  id(
    await post('/api/webhooks', {
      name: 'fixture',
      url: 'https://hooks.example.org/x',
      events: ['link.created'],
    }),
  )
const destination = async () =>
  id(
    await post('/api/exports/destinations', {
      endpoint: s3.endpoint,
      bucket: 'audit-lake',
      ...S3RVER_KEY,
      datasets: ['clicks'],
    }),
  )
let domains = 0
const domain = async (verified = false) => {
  const d = id(await post('/api/domains', { domain: `fixture${++domains}.example.org` }))
  if (verified) await sqlRows(t, "UPDATE custom_domains SET verification_status = 'verified' WHERE id = ?", d)
  return d
}
const game = async (modules: Json = {}) => {
  const g = await createGame(t, { modules })
  collectSecrets(g)
  return g.id
}
const fraudGame = () => game({ fraud: true })
const rule = async (g: string) =>
  id(
    await post(
      `/api/v1/admin/fraud/games/${g}/rules`,
      examples[`POST /api/v1/admin/fraud/games/{gameId}/rules`],
    ),
  )
const campaign = async (g: string) =>
  id(
    await post(`/api/v1/skan/games/${g}/campaigns`, {
      name: 'fixture',
      adNetworkId: 'fixture.skadnetwork',
      lockWindowHours: 24,
      conversionSchema: { events: {} },
    }),
  )

const invitation = async () => id(await post('/api/team/invitations', { email: 'fixture@example.org' }))
const member = async () => {
  const { token } = (await post('/api/team/invitations', { email: 'member@example.org' })) as {
    token: string
  }
  const res = await t.call('POST', '/api/team/invitations/accept', {
    key: null,
    body: { token, name: 'Fixture' },
  })
  if (res.statusCode !== 201) throw new Error(`accept: ${res.statusCode} ${res.body}`)
  collectSecrets(res.json())
  return res.json<{ member: { id: string } }>().member.id
}

/** A successful call of each write route ("METHOD /path" as in the OpenAPI document). */
const FIXTURES: Record<string, () => Promise<Call>> = {
  'POST /api/team/invitations': async () => ({
    url: '/api/team/invitations',
    body: { email: 'ana@example.org', role: 'viewer' },
  }),
  'DELETE /api/team/invitations/{id}': async () => ({ url: `/api/team/invitations/${await invitation()}` }),
  'PATCH /api/team/members/{id}': async () => ({
    url: `/api/team/members/${await member()}`,
    body: { role: 'viewer' },
  }),
  'DELETE /api/team/members/{id}': async () => ({ url: `/api/team/members/${await member()}` }),
  'POST /api/keys': async () => ({ url: '/api/keys', body: examples['POST /api/keys'] }),
  'PATCH /api/keys/{id}': async () => ({
    url: `/api/keys/${await key()}`,
    body: examples['PATCH /api/keys/{id}'],
  }),
  'DELETE /api/keys/{id}': async () => ({ url: `/api/keys/${await key()}` }),
  'POST /api/keys/{id}/regenerate': async () => ({ url: `/api/keys/${await key()}/regenerate` }),
  'POST /api/keys/{id}/revoke': async () => ({ url: `/api/keys/${await key()}/revoke` }),
  'POST /api/keys/{id}/activate': async () => {
    const k = await key()
    await post(`/api/keys/${k}/deactivate`)
    return { url: `/api/keys/${k}/activate` }
  },
  'POST /api/keys/{id}/deactivate': async () => ({ url: `/api/keys/${await key()}/deactivate` }),
  'POST /api/use/links': async () => ({ url: '/api/use/links', body: examples['POST /api/use/links'] }),
  'POST /api/use/links/bulk': async () => ({
    url: '/api/use/links/bulk',
    body: examples['POST /api/use/links/bulk'],
  }),
  'POST /api/use/links/import': async () => ({
    url: '/api/use/links/import',
    body: examples['POST /api/use/links/import'],
  }),
  'PATCH /api/use/links/{id}': async () => ({
    url: `/api/use/links/${await link()}`,
    body: { title: 'New' },
  }),
  'DELETE /api/use/links/{id}': async () => ({ url: `/api/use/links/${await link()}` }),
  'POST /api/use/smart-links': async () => ({
    url: '/api/use/smart-links',
    body: examples['POST /api/use/smart-links'],
  }),
  'PATCH /api/use/smart-links/{id}': async () => ({
    url: `/api/use/smart-links/${await smartLink()}`,
    body: examples['PATCH /api/use/smart-links/{id}'],
  }),
  'DELETE /api/use/smart-links/{id}': async () => ({ url: `/api/use/smart-links/${await smartLink()}` }),
  'POST /api/use/qr-codes': async () => ({ url: '/api/use/qr-codes', body: { linkId: await link() } }),
  'PATCH /api/use/qr-codes/{id}': async () => ({
    url: `/api/use/qr-codes/${await qrCode()}`,
    body: examples['PATCH /api/use/qr-codes/{id}'],
  }),
  'DELETE /api/use/qr-codes/{id}': async () => ({ url: `/api/use/qr-codes/${await qrCode()}` }),
  'POST /api/webhooks': async () => ({ url: '/api/webhooks', body: examples['POST /api/webhooks'] }),
  'POST /api/webhooks/bulk': async () => ({
    url: '/api/webhooks/bulk',
    body: { action: 'disable', ids: [await webhook()] },
  }),
  'PATCH /api/webhooks/{id}': async () => ({
    url: `/api/webhooks/${await webhook()}`,
    body: { maxRetries: 3 },
  }),
  'DELETE /api/webhooks/{id}': async () => ({ url: `/api/webhooks/${await webhook()}` }),
  'POST /api/webhooks/{id}/enable': async () => ({ url: `/api/webhooks/${await webhook()}/enable` }),
  'POST /api/webhooks/{id}/disable': async () => ({ url: `/api/webhooks/${await webhook()}/disable` }),
  'POST /api/webhooks/{id}/suspend': async () => ({ url: `/api/webhooks/${await webhook()}/suspend` }),
  'POST /api/webhooks/{id}/rotate-secret': async () => ({
    url: `/api/webhooks/${await webhook()}/rotate-secret`,
  }),
  'POST /api/webhooks/{id}/test': async () => ({ url: `/api/webhooks/${await webhook()}/test`, body: {} }),
  'POST /api/webhooks/{id}/deliveries/{deliveryId}/retry': async () => {
    const w = await webhook()
    // Nothing resolves in this test: the test delivery fails, and may be retried.
    const d = id(await post(`/api/webhooks/${w}/test`))
    return { url: `/api/webhooks/${w}/deliveries/${d}/retry` }
  },
  'POST /api/webhooks/utilities/validate-url': async () => ({
    url: '/api/webhooks/utilities/validate-url',
    body: examples['POST /api/webhooks/utilities/validate-url'],
  }),
  'POST /api/webhooks/utilities/generate-signature': async () => ({
    url: '/api/webhooks/utilities/generate-signature',
    body: examples['POST /api/webhooks/utilities/generate-signature'],
  }),
  'POST /api/webhooks/utilities/verify-signature': async () => ({
    url: '/api/webhooks/utilities/verify-signature',
    body: examples['POST /api/webhooks/utilities/verify-signature'],
  }),
  'POST /api/domains': async () => ({ url: '/api/domains', body: { domain: 'audited.example.org' } }),
  'PATCH /api/domains/{domainId}': async () => ({
    url: `/api/domains/${await domain()}`,
    body: { rootRedirectUrl: 'https://example.com/' },
  }),
  'DELETE /api/domains/{domainId}': async () => ({ url: `/api/domains/${await domain()}` }),
  'POST /api/domains/{domainId}/verify': async () => ({ url: `/api/domains/${await domain()}/verify` }),
  'POST /api/domains/{domainId}/check-propagation': async () => ({
    url: `/api/domains/${await domain()}/check-propagation`,
  }),
  'POST /api/domains/{domainId}/set-default': async () => ({
    url: `/api/domains/${await domain(true)}/set-default`,
  }),
  'PUT /api/domains/{domainId}/app-links': async () => ({
    url: `/api/domains/${await domain()}/app-links`,
    body: { ios: { appIds: ['ABCDE12345.com.example.game'], paths: ['/*'] }, android: null },
  }),
  'POST /api/v1/admin/games': async () => ({
    url: '/api/v1/admin/games',
    body: examples['POST /api/v1/admin/games'],
  }),
  'PATCH /api/v1/admin/games/{gameId}': async () => ({
    url: `/api/v1/admin/games/${await game()}`,
    body: examples['PATCH /api/v1/admin/games/{gameId}'],
  }),
  'POST /api/v1/admin/games/{gameId}/sdk-key': async () => ({
    url: `/api/v1/admin/games/${await game()}/sdk-key`,
  }),
  'POST /api/v1/gaming/gdpr/deletions': async () => {
    await createGame(t, { slug: 'gdpr-fixture' })
    return {
      url: '/api/v1/gaming/gdpr/deletions',
      body: { ...examples['POST /api/v1/gaming/gdpr/deletions'], gameId: 'gdpr-fixture' },
    }
  },
  'PATCH /api/v1/admin/fraud/games/{gameId}/events/{eventId}': async () => {
    const g = await fraudGame()
    const flagged = fraudEvent(t, await gameIdOf(t, g))
    await seedFraud(t, flagged.gameId, [flagged])
    return { url: `/api/v1/admin/fraud/games/${g}/events/${flagged.id}`, body: { review: 'legitimate' } }
  },
  'POST /api/v1/admin/fraud/games/{gameId}/rules': async () => ({
    url: `/api/v1/admin/fraud/games/${await fraudGame()}/rules`,
    body: examples['POST /api/v1/admin/fraud/games/{gameId}/rules'],
  }),
  'PATCH /api/v1/admin/fraud/games/{gameId}/rules/{ruleId}': async () => {
    const g = await fraudGame()
    return { url: `/api/v1/admin/fraud/games/${g}/rules/${await rule(g)}`, body: { enabled: false } }
  },
  'DELETE /api/v1/admin/fraud/games/{gameId}/rules/{ruleId}': async () => {
    const g = await fraudGame()
    return { url: `/api/v1/admin/fraud/games/${g}/rules/${await rule(g)}` }
  },
  'POST /api/v1/admin/fraud/games/{gameId}/blocklist': async () => ({
    url: `/api/v1/admin/fraud/games/${await fraudGame()}/blocklist`,
    body: examples['POST /api/v1/admin/fraud/games/{gameId}/blocklist'],
  }),
  'DELETE /api/v1/admin/fraud/games/{gameId}/blocklist/{entryId}': async () => {
    const g = await fraudGame()
    const entry = await post(`/api/v1/admin/fraud/games/${g}/blocklist`, { type: 'ip', value: '203.0.113.9' })
    return { url: `/api/v1/admin/fraud/games/${g}/blocklist/${id(entry)}` }
  },
  'POST /api/safety/lists': async () => ({
    url: '/api/safety/lists?name=audit-list',
    body: 'evil.example\n',
  }),
  'DELETE /api/safety/lists/{id}': async () => {
    const res = await t.call('POST', '/api/safety/lists?name=audit-delete', { body: 'bad.example\n' })
    return { url: `/api/safety/lists/${res.json<{ id: string }>().id}` }
  },
  'POST /api/exports/destinations': async () => {
    const body = examples['POST /api/exports/destinations']!
    secrets.add(body.secretAccessKey as string)
    return { url: '/api/exports/destinations', body }
  },
  'DELETE /api/exports/destinations/{id}': async () => ({
    url: `/api/exports/destinations/${await destination()}`,
  }),
  // A run writes to a real S3-protocol server.
  'POST /api/exports/destinations/{id}/run': async () => ({
    url: `/api/exports/destinations/${await destination()}/run`,
    body: { date: '2026-01-14' },
  }),
  'POST /api/v1/skan/games/{gameId}/campaigns': async () => ({
    url: `/api/v1/skan/games/${await game({ skan: true })}/campaigns`,
    body: examples['POST /api/v1/skan/games/{gameId}/campaigns'],
  }),
  'PATCH /api/v1/skan/campaigns/{campaignId}': async () => ({
    url: `/api/v1/skan/campaigns/${await campaign(await game({ skan: true }))}`,
    body: { name: 'Renamed' },
  }),
  'POST /api/v1/skan/campaigns/{campaignId}/optimize': async () => {
    const g = await createGame(t, { modules: { skan: true } })
    const c = await campaign(g.id)
    const players = Array.from({ length: 100 }, (_, i) => ({ id: `p-${i}`, revenue: (i % 10) + 1 }))
    await sendHistory(t, { game: g, orgId: t.orgId }, players)
    windowsOver(t)
    return { url: `/api/v1/skan/campaigns/${c}/optimize` }
  },
}

/** Names some routes must get (the rest: any non-empty `<resourceType>.<verb>`). */
const NAMES: Record<string, [string, string]> = {
  'POST /api/keys': ['key.create', 'key'],
  'POST /api/keys/{id}/revoke': ['key.revoke', 'key'],
  'POST /api/use/links': ['link.create', 'link'],
  'PATCH /api/use/links/{id}': ['link.update', 'link'],
  'DELETE /api/use/links/{id}': ['link.delete', 'link'],
  'POST /api/use/links/bulk': ['link.bulk_create', 'link'],
  'POST /api/use/links/import': ['link.import', 'link'],
  'POST /api/use/smart-links': ['smart_link.create', 'smart_link'],
  'PATCH /api/use/smart-links/{id}': ['smart_link.update', 'smart_link'],
  'DELETE /api/use/smart-links/{id}': ['smart_link.delete', 'smart_link'],
  'POST /api/use/qr-codes': ['qr_code.create', 'qr_code'],
  'PATCH /api/use/qr-codes/{id}': ['qr_code.update', 'qr_code'],
  'DELETE /api/use/qr-codes/{id}': ['qr_code.delete', 'qr_code'],
  'POST /api/webhooks/bulk': ['webhook.bulk_update', 'webhook'],
  'POST /api/webhooks/{id}/rotate-secret': ['webhook.rotate_secret', 'webhook'],
  'POST /api/webhooks/{id}/deliveries/{deliveryId}/retry': ['webhook_delivery.retry', 'webhook_delivery'],
  'POST /api/webhooks/utilities/validate-url': ['webhook.validate_url', 'webhook'],
  'POST /api/domains/{domainId}/set-default': ['domain.set_default', 'domain'],
  'PUT /api/domains/{domainId}/app-links': ['domain.app_links.update', 'domain'],
  'POST /api/v1/admin/games/{gameId}/sdk-key': ['game.regenerate_sdk_key', 'game'],
  'POST /api/v1/gaming/gdpr/deletions': ['gdpr_deletion.create', 'gdpr_deletion'],
  'POST /api/v1/admin/fraud/games/{gameId}/rules': ['fraud_rule.create', 'fraud_rule'],
  'DELETE /api/v1/admin/fraud/games/{gameId}/blocklist/{entryId}': [
    'fraud_blocklist_entry.delete',
    'fraud_blocklist_entry',
  ],
  'PATCH /api/v1/skan/campaigns/{campaignId}': ['skan_campaign.update', 'skan_campaign'],
  'POST /api/team/invitations': ['invitation.create', 'invitation'],
  'PATCH /api/team/members/{id}': ['member.update', 'member'],
  'DELETE /api/team/members/{id}': ['member.remove', 'member'],
}

/** Every string under a secret-looking field of a JSON value (key values, secrets, tokens). */
function collectSecrets(value: unknown): void {
  if (!value || typeof value !== 'object') return
  for (const [k, v] of Object.entries(value as Json)) {
    if (typeof v === 'string' && /^(key|secret|sdkKey|signingSecret|token)$/.test(k) && v.length >= 8)
      secrets.add(v)
    else collectSecrets(v)
  }
}

const audit = () => t.app.linkd.services.audit
async function entries(): Promise<AuditEntry[]> {
  await audit().flush()
  const rows = await sqlRows<Json>(t, 'SELECT * FROM audit_log ORDER BY at, id')
  return rows as unknown as AuditEntry[]
}

beforeAll(async () => {
  t = await createTestApp(
    { ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 },
    { resolve: () => Promise.reject(new Error('offline')) },
  )
  secrets.add(t.ownerKey)
  s3 = await startS3(['audit-lake'])
}, 60_000)
afterAll(async () => {
  await s3.close()
  await t.close()
})

describe('audit log of the route table', () => {
  it('has a fixture for every authenticated write route, and each success leaves one entry', async () => {
    const doc = (await t.call('GET', '/api/docs/openapi.json', { key: null })).json<{
      paths: Record<string, Record<string, Operation>>
    }>()
    const writes = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(
          ([m, op]) =>
            ['post', 'patch', 'put', 'delete'].includes(m) && op.security?.some((s) => 'bearerAuth' in s),
        )
        .map(([m]) => `${m.toUpperCase()} ${path}`),
    )
    expect(writes.length).toBeGreaterThan(40)
    expect(Object.keys(FIXTURES).sort()).toEqual(writes.sort())

    for (const route of writes) {
      const call = await FIXTURES[route]!()
      collectSecrets(call.body)
      await audit().flush()
      const before = await count(t, 'audit_log')
      const method = route.split(' ')[0] as 'POST'
      const res = await t.call(method, call.url, call.body === undefined ? {} : { body: call.body })
      expect(res.statusCode, `${route}: ${res.body}`).toBeGreaterThanOrEqual(200)
      expect(res.statusCode, `${route}: ${res.body}`).toBeLessThan(300)
      const body: unknown = res.body ? res.json() : undefined
      collectSecrets(body)
      const after = await entries()
      expect(after.length - before, route).toBe(1)
      const e = after.at(-1) as unknown as Json
      expect(e.action, route).toMatch(/^[a-z_]+\.[a-z_.]+$/)
      expect(String(e.action).startsWith(`${String(e.resource_type)}.`), route).toBe(true)
      expect(e.status_code, route).toBe(res.statusCode)
      expect(e.organization_id).toBe(t.orgId)
      expect(e.key_id).toMatch(/^key_/)
      // The resource: a path parameter, or the id of the created object.
      const params = [...call.url.matchAll(/\/([A-Za-z]+_[A-Za-z0-9]+)(?=\/|$)/g)].map((m) => m[1])
      const created = body && typeof body === 'object' && 'id' in body ? (body as Json).id : undefined
      if (params.length || created) expect([...params, created], route).toContain(e.resource_id)
      const name = NAMES[route]
      if (name) expect([e.action, e.resource_type], route).toEqual(name)
      if (process.env.AUDIT_NAMES) console.log(route, e.action, e.resource_type, e.resource_id)
    }
  }, 120_000)

  it('names the resource by path parameter or by the created object', async () => {
    const res = await t.call('POST', '/api/use/links', { body: { destinationUrl: 'https://example.org/a' } })
    const linkId = res.json<{ id: string }>().id
    await t.call('PATCH', `/api/use/links/${linkId}`, { body: { title: 'x' } })
    const log = (await t.call('GET', '/api/audit-log?limit=10')).json<{ data: AuditEntry[] }>().data
    expect(log.slice(0, 2).map((e) => [e.action, e.resourceId])).toEqual([
      ['link.update', linkId],
      ['link.create', linkId],
    ])
  })

  it('failed writes, reads, replays and unauthenticated writes leave no entry', async () => {
    await audit().flush()
    const before = await count(t, 'audit_log')
    expect((await t.call('POST', '/api/use/links', { body: { destinationUrl: 'nope' } })).statusCode).toBe(
      400,
    )
    expect((await t.call('PATCH', '/api/use/links/lnk_missing', { body: { title: 'x' } })).statusCode).toBe(
      404,
    )
    expect((await t.call('DELETE', '/api/keys/key_missing')).statusCode).toBe(404)
    expect((await t.call('POST', '/api/use/links', { key: null, body: {} })).statusCode).toBe(401)
    expect((await t.call('GET', '/api/use/links')).statusCode).toBe(200)
    expect((await t.call('GET', '/api/audit-log')).statusCode).toBe(200)
    expect(
      (await t.call('POST', '/api/keys/test', { key: null, body: { key: t.ownerKey } })).statusCode,
    ).toBe(200)
    await audit().flush()
    expect(await count(t, 'audit_log')).toBe(before)

    // The first response of an idempotent write is recorded, its replay is not.
    const headers = { 'x-idempotency-key': 'audit-once' }
    const body = { destinationUrl: 'https://example.org/once' }
    expect((await t.call('POST', '/api/use/links', { body, headers })).statusCode).toBe(201)
    const replay = await t.call('POST', '/api/use/links', { body, headers })
    expect(replay.headers['idempotent-replayed']).toBe('true')
    await audit().flush()
    expect(await count(t, 'audit_log')).toBe(before + 1)
  })

  it('holds no secret: no key value, webhook secret, SDK key or signing secret', async () => {
    expect(secrets.size).toBeGreaterThan(10)
    const stored = JSON.stringify(await entries())
    const served: AuditEntry[] = []
    for (let page = 1; ; page++) {
      const r = (await t.call('GET', `/api/audit-log?limit=100&page=${page}`)).json<{
        data: AuditEntry[]
        hasMore: boolean
      }>()
      served.push(...r.data)
      if (!r.hasMore) break
    }
    expect(served.length).toBeGreaterThan(40)
    const text = stored + JSON.stringify(served)
    for (const s of secrets) expect(text.includes(s), 'a secret is in the audit log').toBe(false)
    const res = await raw(t, {
      method: 'GET',
      url: '/api/audit-log',
      headers: { authorization: `Bearer ${t.ownerKey}` },
    })
    expect(res.statusCode).toBe(200)
  })
})
