import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { IdParams, Page } from '../../../src/contract/common.js'
import {
  AcceptInvitationBody,
  AcceptedInvitation,
  CreateInvitationBody,
  Invitation,
  InvitationWithToken,
  ListInvitationsQuery,
} from '../../../src/contract/team.js'
import { principalOf } from '../../http/auth.js'
import { errorRef } from '../../http/openapi.js'
import type { TeamService } from './api.js'

const tags = ['Team']

/** Invitations: invite, list, cancel, accept. */
export function invitationRoutes(deps: { team: TeamService }) {
  const { team } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

    app.post(
      '/api/team/invitations',
      {
        config: { auth: 'team:write' },
        schema: {
          tags,
          summary: 'Invite a member (the token is in this response only; valid 7 days)',
          body: CreateInvitationBody,
          response: {
            201: InvitationWithToken,
            403: errorRef('The key lacks team:write, or the role is above the caller’s'),
            409: errorRef('Too many pending invitations, or the e-mail is already a member or invited'),
          },
        },
      },
      async (req, reply) => {
        const p = principalOf(req)
        return reply.code(201).send(await team.invite(p.organizationId, req.body, p))
      },
    )

    app.get(
      '/api/team/invitations',
      {
        config: { auth: 'team:read' },
        schema: {
          tags,
          summary: 'List invitations',
          querystring: ListInvitationsQuery,
          response: { 200: Page(Invitation) },
        },
      },
      async (req) => team.listInvitations(principalOf(req).organizationId, req.query),
    )

    app.delete(
      '/api/team/invitations/:id',
      {
        config: { auth: 'team:write' },
        schema: {
          tags,
          summary: 'Revoke a pending invitation',
          params: IdParams,
          response: {
            204: Type.Null({ description: 'Revoked' }),
            409: errorRef('The invitation is not pending (accepted, revoked or expired)'),
          },
        },
      },
      async (req, reply) => {
        await team.revokeInvitation(principalOf(req).organizationId, req.params.id)
        return reply.code(204).send(null)
      },
    )

    app.post(
      '/api/team/invitations/accept',
      {
        // No key: the token is the credential; the handler names the actor for the audit log.
        config: { audit: true },
        schema: {
          tags,
          summary:
            'Accept an invitation (no API key: the token is the credential); answers the first key once',
          body: AcceptInvitationBody,
          response: {
            201: AcceptedInvitation,
            404: errorRef('Unknown token'),
            410: errorRef('The invitation was used, revoked or has expired'),
          },
        },
      },
      async (req, reply) => {
        const { organizationId, invitationId, ...accepted } = await team.accept(req.body)
        req.auditActor = { organizationId, memberId: accepted.member.id, keyId: accepted.apiKey.id }
        req.auditResourceId = invitationId
        return reply.code(201).send(accepted)
      },
    )
  }
}
