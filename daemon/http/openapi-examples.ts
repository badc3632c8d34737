import type { TSchema } from 'typebox'
import { EventBatchDoc } from '../../src/contract/gaming.js'
import { signPayload } from '../../src/contract/webhook-signature.js'

/**
 * The fixed time of the examples whose rules ask for the current time (an ingestion batch's and
 * its events' timestamps, a webhook signature's): the document says to send the current time
 * there, and the Postman collection sends it (`{{$isoTimestamp}}`).
 */
export const EXAMPLE_TIME = Date.UTC(2026, 0, 15, 9, 30)
export const EXAMPLE_TIME_ISO = new Date(EXAMPLE_TIME).toISOString()

/**
 * Request body examples of the OpenAPI document, by operation (`METHOD /path` as in the document).
 * Each is accepted by its route (test/daemon/openapi-contract.test.ts posts every one of them,
 * with the current time in place of EXAMPLE_TIME). Every value is fixed, so the document is the
 * same on every fetch and restart: expiry dates lie far in the future (they stay valid), and a
 * signature is computed from fixed inputs.
 */
export function requestExamples(): Record<string, unknown> {
  const payload = '{"event":"link.created","data":{"id":"lnk_8yQ2mZ4tK7"}}'
  const secret = 'whsec_Zm9yIGRvY3VtZW50YXRpb24gb25seQ'
  return {
    'POST /api/keys': {
      name: 'Release pipeline',
      description: 'Creates campaign links from CI',
      permissions: ['links:read', 'links:write'],
      requestLimit: 1000,
      timePeriod: 'hour',
      expiresAt: '2099-01-31T00:00:00.000Z',
    },
    'PATCH /api/keys/{id}': {
      name: 'Release pipeline (2)',
      requestLimit: 2000,
      expiresAt: '2099-06-30T00:00:00.000Z',
    },
    'POST /api/keys/test': { key: 'lk_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345' },
    'POST /api/use/links': {
      destinationUrl: 'https://example.com/spring-sale?ref=newsletter',
      title: 'Spring sale',
      customSlug: 'spring-sale',
      tags: ['promo', 'newsletter'],
      metadata: { campaign: 'spring' },
      expiresAt: '2099-04-30T23:59:59.000Z',
      redirectType: 302,
    },
    'POST /api/use/links/bulk': {
      links: [
        { destinationUrl: 'https://example.com/docs', title: 'Docs' },
        {
          destinationUrl: 'https://example.com/pricing',
          tags: ['promo'],
          expiresAt: '2099-04-30T23:59:59.000Z',
        },
      ],
    },
    'POST /api/use/links/import': {
      source: 'bitly',
      file:
        'id,link,long_url,title,created_at,archived,tags,custom_bitlinks\r\n' +
        'bit.ly/3xYzAbc,https://bit.ly/3xYzAbc,https://example.com/spring,Spring sale,2024-03-01T10:15:00+0000,false,promo,\r\n',
      dryRun: false,
    },
    'PATCH /api/use/links/{id}': { title: 'Spring sale (extended)', expiresAt: '2099-05-31T23:59:59.000Z' },
    'POST /api/use/smart-links': {
      fallbackUrl: 'https://example.com/game',
      ios: { url: 'https://apps.apple.com/app/id1234567890' },
      android: { url: 'https://play.google.com/store/apps/details?id=com.example.game' },
      desktop: { url: 'https://store.steampowered.com/app/123456/' },
      title: 'Play now',
      tags: ['launch'],
      shortCode: 'play-now',
    },
    'PATCH /api/use/smart-links/{id}': { desktop: null, title: 'Play now (mobile only)' },
    'POST /api/use/qr-codes': {
      linkId: EXAMPLE_LINK_ID,
      title: 'Spring flyer',
      style: { foreground: '#1a237e', background: '#ffffff', errorCorrection: 'M', margin: 4 },
    },
    'PATCH /api/use/qr-codes/{id}': {
      title: 'Spring flyer (station)',
      style: { foreground: '#1a237e', background: '#ffffff', errorCorrection: 'Q', margin: 2 },
    },
    'PATCH /api/team/members/{id}': { role: 'admin' },
    'POST /api/team/invitations': { email: 'ada@example.com', role: 'member' },
    'POST /api/team/invitations/accept': { token: EXAMPLE_INVITATION_TOKEN, name: 'Ada Lovelace' },
    'POST /api/domains': { domain: 'go.example.com' },
    'PATCH /api/domains/{domainId}': { rootRedirectUrl: 'https://example.com/' },
    'PUT /api/domains/{domainId}/app-links': {
      ios: { appIds: ['ABCDE12345.com.example.game'], paths: ['/*'] },
      android: {
        packageName: 'com.example.game',
        sha256CertFingerprints: [
          '14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5',
        ],
      },
    },
    'POST /api/exports/destinations': {
      endpoint: 'https://minio.example.com',
      bucket: 'analytics-lake',
      prefix: 'linkd/',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      format: 'parquet',
      datasets: ['clicks'],
    },
    'POST /api/exports/destinations/{id}/run': { date: '2026-01-14' },
    'POST /api/webhooks': {
      name: 'Order system',
      url: 'https://hooks.example.com/linkd',
      events: ['link.created', 'link.deleted'],
      retryPolicy: 'exponential',
      maxRetries: 5,
      timeoutSeconds: 10,
      headers: { 'X-Team': 'growth' },
    },
    'PATCH /api/webhooks/{id}': { events: ['link.created', 'link.updated', 'link.deleted'], maxRetries: 3 },
    'POST /api/webhooks/bulk': { action: 'disable', ids: ['wh_3kTq9xP2LmN8'] },
    'POST /api/webhooks/{id}/test': { event: 'link.created' },
    'POST /api/webhooks/utilities/validate-url': { url: 'https://hooks.example.com/linkd' },
    'POST /api/webhooks/utilities/generate-signature': { secret, payload, timestamp: EXAMPLE_TIME },
    'POST /api/webhooks/utilities/verify-signature': {
      secret,
      payload,
      signature: signPayload(secret, EXAMPLE_TIME, payload),
      timestamp: EXAMPLE_TIME,
    },
    'POST /api/v1/admin/games': {
      name: 'Space Miner',
      platform: 'ios',
      modules: { analytics: true, fraud: false, skan: false },
      rawRetentionDays: 30,
      hmacRequired: false,
    },
    'PATCH /api/v1/admin/games/{gameId}': { name: 'Space Miner HD', rawRetentionDays: 60 },
    'POST /api/v1/admin/fraud/games/{gameId}/rules': {
      name: 'Flag very large purchases',
      action: 'flag',
      field: 'data.amount',
      operator: 'gt',
      value: 500,
      priority: 150,
      cooldownMinutes: 60,
    },
    'PATCH /api/v1/admin/fraud/games/{gameId}/rules/{ruleId}': { value: 0.9, enabled: true },
    'PATCH /api/v1/admin/fraud/games/{gameId}/events/{eventId}': { review: 'legitimate' },
    'POST /api/v1/admin/fraud/games/{gameId}/blocklist': {
      type: 'ip',
      value: '203.0.113.50',
      reason: 'Scripted installs from a data center',
    },
    'POST /api/v1/skan/games/{gameId}/campaigns': {
      name: 'Spring UA',
      adNetworkId: 'abc123.skadnetwork',
      sourceIdentifier: '39',
      lockWindowHours: 24,
      conversionSchema: {
        events: { tutorial_complete: 1, level_5: 2, purchase: 4 },
        coarseValues: { low: { min: 0, max: 10 }, medium: { min: 11, max: 40 }, high: { min: 41, max: 63 } },
        lockWindow: 24,
      },
    },
    'PATCH /api/v1/skan/campaigns/{campaignId}': {
      name: 'Spring UA (EU)',
      conversionSchema: {
        events: { tutorial_complete: 1, purchase: 4 },
        decodedRevenue: { coarse: { high: 4.99 } },
      },
    },
    'POST /api/v1/gaming/gdpr/deletions': {
      gameId: 'space-miner',
      playerId: 'player-4821',
      reason: 'gdpr_request',
      confirmation: 'DELETE',
    },
    'POST /api/v1/gaming/events': {
      batch_id: EXAMPLE_UUIDS[0],
      batch_timestamp: EXAMPLE_TIME_ISO,
      events: [
        {
          event_id: EXAMPLE_UUIDS[1],
          event_type: 'session_start',
          timestamp: EXAMPLE_TIME_ISO,
          player_id: 'player-4821',
          session_id: 'sess-7f3a',
          platform: 'ios',
        },
        {
          event_id: EXAMPLE_UUIDS[2],
          event_type: 'purchase',
          timestamp: EXAMPLE_TIME_ISO,
          player_id: 'player-4821',
          session_id: 'sess-7f3a',
          data: { item: 'gem_pack_small', amount: 4.99, currency: 'USD' },
        },
      ],
    },
  }
}

/** The invitation token of the accept example (fixed, so the document is the same on every fetch). */
/** The link of the QR code example (the examples test gives its fixture link this id). */
export const EXAMPLE_LINK_ID = 'lnk_8yQ2mZ4tK7'

export const EXAMPLE_INVITATION_TOKEN = 'lkinv_Ex4mpleInv1tat1onT0ken0000000000'

/** The UUIDs of the examples (the Postman collection replaces them by fresh ones on every send). */
export const EXAMPLE_UUIDS = [
  '6f1c2a9e-3b7d-4c1e-9a2f-8d5b4e7c1a30',
  '0b9e4d2c-7a1f-4e8b-b3c6-2f9d1a5e7c41',
  '9c3f7e1a-2d4b-4f6a-8e1c-5b7d9a3f2e52',
] as const

/**
 * Request bodies documented although the route parses them itself (no `schema.body`, which would
 * make Fastify validate and reshape them): by route, `METHOD url` as Fastify names it.
 */
export const DOCUMENTED_BODIES: Record<string, { body: TSchema; headers?: Record<string, unknown> }> = {
  'POST /api/v1/gaming/events': {
    body: EventBatchDoc,
    headers: {
      'Content-Encoding': {
        type: 'string',
        enum: ['gzip', 'x-gzip', 'identity'],
        description: 'gzip to send the batch compressed (the 1 MB limit applies after decompression)',
      },
    },
  },
}
