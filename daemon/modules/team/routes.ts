import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { IdParams, Page } from '../../../src/contract/common.js'
import { ListMembersQuery, Member, UpdateMemberBody, Whoami } from '../../../src/contract/team.js'
import { principalOf } from '../../http/auth.js'
import { errorRef } from '../../http/openapi.js'
import type { TeamService } from './api.js'

const tags = ['Team']
const OWNER_403 =
  'The key lacks team:write, the role is above the caller’s, or the target is an owner and the caller is not'
const LAST_OWNER_409 = "The member is the organization's last owner"

/** Members: list, change a role, remove. */
export function memberRoutes(deps: { team: TeamService }) {
  const { team } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

    app.get(
      '/api/team/members',
      {
        config: { auth: 'team:read' },
        schema: {
          tags,
          summary: 'List team members',
          querystring: ListMembersQuery,
          response: { 200: Page(Member) },
        },
      },
      async (req) => team.list(principalOf(req).organizationId, req.query),
    )

    app.patch(
      '/api/team/members/:id',
      {
        config: { auth: 'team:write' },
        schema: {
          tags,
          summary: "Change a member's role",
          params: IdParams,
          body: UpdateMemberBody,
          response: { 200: Member, 403: errorRef(OWNER_403), 409: errorRef(LAST_OWNER_409) },
        },
      },
      async (req) => {
        const p = principalOf(req)
        return team.updateRole(p.organizationId, req.params.id, req.body.role, p)
      },
    )

    app.delete(
      '/api/team/members/:id',
      {
        config: { auth: 'team:write' },
        schema: {
          tags,
          summary: 'Remove a member and revoke all its keys',
          params: IdParams,
          response: {
            204: Type.Null({ description: 'Removed' }),
            403: errorRef(OWNER_403),
            409: errorRef(LAST_OWNER_409),
          },
        },
      },
      async (req, reply) => {
        const p = principalOf(req)
        await team.remove(p.organizationId, req.params.id, p)
        return reply.code(204).send(null)
      },
    )
  }
}

/** Who the presented key is. */
export function meRoutes(deps: { team: TeamService }) {
  const { team } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    app.get(
      '/api/team/me',
      {
        config: { auth: true },
        schema: {
          tags,
          summary: 'Who the presented key is: member, organization, permissions',
          response: { 200: Whoami },
        },
      },
      async (req) => team.whoami(principalOf(req)),
    )
  }
}
