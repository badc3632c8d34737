import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AuthOutcome } from '../../http/auth.js'
import { effectiveScopes, type Role } from '../../../src/contract/scopes.js'
import type { KeyService } from './api.js'

/**
 * What the server's access control asks the keys module: who a key is, and what it did.
 * `roleOf` is the team's answer for the key's member, asked at every request (no cache), so a
 * demotion narrows live keys at once; a member that is gone (undefined) makes the key invalid.
 */
export function keyAccess(
  keys: Pick<KeyService, 'authenticate' | 'record'>,
  roleOf: (memberId: string) => Promise<Role | undefined>,
) {
  return {
    async authenticate(raw: string | undefined): Promise<AuthOutcome> {
      const r = await keys.authenticate(raw)
      if (!r.ok) return r
      const k = r.key
      const role = k.memberId ? await roleOf(k.memberId) : undefined
      if (!role) return { ok: false, reason: 'revoked' }
      return {
        ok: true,
        principal: {
          keyId: k.id,
          organizationId: k.organizationId,
          memberId: k.memberId,
          role,
          name: k.name,
          permissions: effectiveScopes(k.permissions, role),
          requestLimit: k.requestLimit,
          timePeriod: k.timePeriod,
          allowedIps: k.allowedIps,
        },
      }
    },
    /** The activity log entry of each response to an authenticated request. */
    onAuthenticatedResponse(request: FastifyRequest, reply: FastifyReply): void {
      const p = request.principal
      if (!p) return
      const header = (name: string) => {
        const v = request.headers[name]
        return typeof v === 'string' ? v.slice(0, 512) : null
      }
      keys.record({
        keyId: p.keyId,
        organizationId: p.organizationId,
        endpoint: (request.url.split('?')[0] ?? request.url).slice(0, 512),
        method: request.method,
        statusCode: reply.statusCode,
        responseTimeMs: Math.round(reply.elapsedTime * 100) / 100,
        ip: request.ip,
        userAgent: header('user-agent'),
        referrer: header('referer'),
        error: request.errorInfo?.slice(0, 500) ?? null,
      })
    },
  }
}
