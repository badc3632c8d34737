import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Page } from '../../../src/contract/common.js'
import { AuditEntry, AuditLogQuery } from '../../../src/contract/team.js'
import { principalOf } from '../../http/auth.js'
import type { AuditService } from './api.js'

export function auditRoutes(deps: { audit: AuditService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    app.get(
      '/api/audit-log',
      {
        config: { auth: 'team:read' },
        schema: {
          tags: ['Audit log'],
          summary: 'The audit log: one entry per successful write, newest first (kept 365 days)',
          querystring: AuditLogQuery,
          response: { 200: Page(AuditEntry) },
        },
      },
      async (req) => deps.audit.list(principalOf(req).organizationId, req.query),
    )
  }
}
