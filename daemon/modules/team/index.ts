/** Team members with roles, invitations, and who a key is; owns `members` and `team_invitations`. */
export type * from './api.js'
import type { TeamService } from './api.js'
import type { Module } from '../module.js'
import { invitationRoutes } from './invitation-routes.js'
import { meRoutes, memberRoutes } from './routes.js'
export { createTeamStore, type TeamStore } from './store.js'
export { createTeamService } from './service.js'

export function teamModule(deps: { team: TeamService }): Module {
  const plugins = [memberRoutes, invitationRoutes, meRoutes].map((p) => p(deps))
  return {
    name: 'team',
    routes: async (app) => {
      for (const plugin of plugins) await plugin(app)
    },
  }
}
