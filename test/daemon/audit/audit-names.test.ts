/** Audit names derived from method and URL pattern, for routes not on the route table yet. */
import { describe, expect, it } from 'vitest'
import { auditName } from '../../../daemon/modules/audit/index.js'

describe('auditName', () => {
  it.each([
    ['PUT', '/api/domains/:id/tls', false, 'domain.tls.update', 'domain', 'id'],
    ['DELETE', '/api/team/members/:id', false, 'member.remove', 'member', 'id'],
    ['PATCH', '/api/team/members/:id', false, 'member.update', 'member', 'id'],
    ['POST', '/api/team/invitations', true, 'invitation.create', 'invitation', undefined],
    ['DELETE', '/api/team/invitations/:id', false, 'invitation.delete', 'invitation', 'id'],
    ['POST', '/api/use/smart-links', true, 'smart_link.create', 'smart_link', undefined],
    ['PATCH', '/api/use/smart-links/:id', false, 'smart_link.update', 'smart_link', 'id'],
    ['POST', '/api/keys/:id/revoke', false, 'key.revoke', 'key', 'id'],
  ])('%s %s → %s', (method, url, creates, action, resourceType, idParam) => {
    expect(auditName(method, url, creates)).toEqual({ action, resourceType, ...(idParam ? { idParam } : {}) })
  })
})
