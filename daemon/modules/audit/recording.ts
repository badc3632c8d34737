import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { addRouteHook } from '../../http/route-hooks.js'
import type { AuditActor, AuditService } from './api.js'
import { auditName, type AuditName } from './names.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A write route without `auth` that is audited all the same (its handler sets `auditActor`). */
    audit?: boolean
  }
  interface FastifyRequest {
    /**
     * Who acted, for a route that takes no API key (`config: { audit: true }`, such as accepting
     * an invitation, where the token is the credential): its handler sets it once it knows,
     * e.g. `request.auditActor = { organizationId, memberId, keyId }`. Without it (and without a
     * principal) the write is not recorded. It wins over `request.principal` when both are set.
     */
    auditActor?: AuditActor
    /** The `id` of a write's JSON response (the resource it created), captured for the audit log. */
    auditResourceId?: string
  }
}

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

/** Success statuses of a route's schema that mean it creates something. */
function creates(route: RouteOptions): boolean {
  const response = (route.schema as { response?: Record<string, unknown> } | undefined)?.response
  return response !== undefined && ('201' in response || '202' in response)
}

/**
 * Records one entry per successful (2xx) write on each authenticated route: the names are worked
 * out once per route when it is registered, the entry is buffered after the response is sent.
 * A replayed idempotent response wrote nothing and is not recorded again.
 */
export function installAuditRecording(app: FastifyInstance, audit: Pick<AuditService, 'record'>): void {
  app.decorateRequest('auditActor', undefined)
  app.decorateRequest('auditResourceId', undefined)

  const captureId = (
    request: FastifyRequest,
    _reply: FastifyReply,
    payload: unknown,
    done: (err: null, p: unknown) => void,
  ) => {
    const id = payload && typeof payload === 'object' ? (payload as { id?: unknown }).id : undefined
    if (typeof id === 'string' && id.length <= 255) request.auditResourceId = id
    done(null, payload)
  }

  app.addHook('onRoute', (route) => {
    if (route.config?.auth === undefined && route.config?.audit !== true) return
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => WRITES.has(m))
    if (methods.length === 0) return
    const names = new Map<string, AuditName>(methods.map((m) => [m, auditName(m, route.url, creates(route))]))
    const onResponse = async (request: FastifyRequest, reply: FastifyReply) => {
      const status = reply.statusCode
      if (status < 200 || status > 299 || reply.getHeader('idempotent-replayed')) return
      const name = names.get(request.method)
      const p = request.principal
      const actor: AuditActor | undefined =
        request.auditActor ??
        (p ? { organizationId: p.organizationId, memberId: p.memberId ?? null, keyId: p.keyId } : undefined)
      if (!name || !actor) return
      const param = name.idParam
        ? (request.params as Record<string, unknown> | undefined)?.[name.idParam]
        : undefined
      audit.record({
        organizationId: actor.organizationId,
        memberId: actor.memberId,
        keyId: actor.keyId,
        action: name.action,
        resourceType: name.resourceType,
        resourceId: typeof param === 'string' ? param : (request.auditResourceId ?? null),
        ip: request.ip ?? null,
        statusCode: status,
      })
    }
    if ([...names.values()].some((n) => !n.idParam)) addRouteHook(route, 'preSerialization', captureId)
    addRouteHook(route, 'onResponse', onResponse)
  })
}
