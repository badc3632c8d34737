/** The built-in templates (ready event sets, /api/webhooks/templates) and the test action's sample data. */
import { iso } from '../../clock.js'
import { WEBHOOK_EVENTS, WEBHOOK_LIMITS, type WebhookEvent } from '../../../src/contract/limits.js'
import type { WebhookTemplate } from '../../../src/contract/webhooks.js'
import { ROLE_SCOPES } from '../../../src/contract/scopes.js'

const base = {
  retryPolicy: 'exponential' as const,
  maxRetries: WEBHOOK_LIMITS.maxRetriesDefault,
  timeoutSeconds: WEBHOOK_LIMITS.timeoutDefault,
}

export const TEMPLATES: readonly WebhookTemplate[] = [
  {
    id: 'team-chat',
    name: 'Team chat notifications',
    description: 'New and deleted links, verified domains and new members, for a team chat channel',
    events: ['link.created', 'link.deleted', 'domain.verified', 'team.member_added'],
    ...base,
  },
  {
    id: 'community-chat',
    name: 'Community chat webhook',
    description: 'New links and QR codes, for a community chat channel',
    events: ['link.created', 'qr_code.created'],
    ...base,
  },
  {
    id: 'analytics',
    name: 'Analytics webhook',
    description: 'Every click and QR scan, for an analytics pipeline (high volume)',
    events: ['link.clicked', 'qr_code.scanned'],
    ...base,
    retryPolicy: 'linear',
    timeoutSeconds: 10,
  },
  {
    id: 'team-notifications',
    name: 'Team notifications',
    description: 'Team membership and API key changes',
    events: ['team.member_added', 'team.member_removed', 'api_key.created', 'api_key.revoked'],
    ...base,
  },
  {
    id: 'domain-management',
    name: 'Domain management',
    description: 'Custom domains added, verified and removed',
    events: ['domain.created', 'domain.verified', 'domain.deleted'],
    ...base,
  },
  {
    id: 'all-events',
    name: 'Complete activity stream',
    description: 'Every event type',
    events: [...WEBHOOK_EVENTS],
    ...base,
  },
]

/** Plausible `data` of each event type for the test action (marked `test: true`). */
export function sampleData(event: WebhookEvent, publicUrl: string, now: number): Record<string, unknown> {
  const at = iso(now)
  const link = {
    id: 'lnk_sample',
    shortUrl: `${publicUrl}/sample`,
    shortCode: 'sample',
    destinationUrl: 'https://example.com/landing',
    title: 'Sample link',
    status: 'active',
    clicks: 0,
    createdAt: at,
    updatedAt: at,
    tags: [],
    metadata: {},
    expiresAt: null,
    customDomainId: null,
    redirectType: 302,
  }
  const visit = { country: 'Germany', device: 'mobile', browser: 'Safari', os: 'iOS' }
  const domain = { id: 'dom_sample', domain: 'links.example.com' }
  const data: Record<WebhookEvent, Record<string, unknown>> = {
    'link.created': link,
    'link.updated': link,
    'link.deleted': { id: link.id, shortUrl: link.shortUrl, shortCode: link.shortCode, deletedAt: at },
    'link.clicked': {
      linkId: link.id,
      shortUrl: link.shortUrl,
      clickedAt: at,
      ...visit,
      countryCode: 'DE',
      city: 'Berlin',
      referrer: 'https://news.example.org/',
    },
    'link.password_locked': {
      linkId: link.id,
      shortUrl: link.shortUrl,
      shortCode: link.shortCode,
      wrongTries: 100,
      lockedUntil: at,
    },
    'link.flagged': {
      linkId: link.id,
      shortUrl: link.shortUrl,
      host: 'phish.example.net',
      list: 'urlhaus',
      flaggedAt: at,
    },
    'qr_code.created': {
      qrCodeId: 'qr_sample',
      linkId: link.id,
      encodedUrl: `${link.shortUrl}?qr=qr_sample`,
      title: 'Spring flyer',
      createdAt: at,
    },
    'qr_code.scanned': {
      qrCodeId: 'qr_sample',
      linkId: link.id,
      shortUrl: link.shortUrl,
      scannedAt: at,
      ...visit,
    },
    'domain.created': { ...domain, verificationStatus: 'pending', createdAt: at },
    'domain.verified': { ...domain, verifiedAt: at, sslStatus: 'pending', sslExpiresAt: null },
    'domain.deleted': { ...domain, deletedAt: at, reason: 'deleted' },
    'api_key.created': { id: 'key_sample', name: 'Sample key', permissions: ['links:read'], createdAt: at },
    'api_key.revoked': { id: 'key_sample', name: 'Sample key', revokedAt: at, reason: 'revoked' },
    'team.member_added': {
      memberId: 'mem_sample',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      role: 'member',
      permissions: [...ROLE_SCOPES.member],
      invitedBy: 'mem_owner',
      joinedAt: at,
    },
    'team.member_removed': {
      memberId: 'mem_sample',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      role: 'member',
      removedBy: 'mem_owner',
      removedAt: at,
    },
  }
  return { ...data[event], test: true }
}
