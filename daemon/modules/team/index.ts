/** Team members with roles, invitations, and who a key is; owns `members` and `team_invitations`. */
export type * from './api.js'
import type { TeamService } from './api.js'
import type { Module } from '../module.js'
import { teamRoutes } from './routes.js'
export { createTeamStore, type TeamStore } from './store.js'
export { createTeamService } from './service.js'

export function teamModule(deps: { team: TeamService }): Module {
  return { name: 'team', routes: teamRoutes(deps) }
}
