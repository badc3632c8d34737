/** Organizations and their plans; owns `organizations`. No routes: `linkd org` and other modules use it. */
export { DEFAULT_ORG_NAME, createOrgService } from './service.js'
export { createOrgStore, type Organization } from './store.js'
import type { Plan } from '../../../src/contract/limits.js'
import type { Organization } from './store.js'

export interface OrgService {
  /** Creates an organization (name: lowercase letters, digits, hyphens); 409 when the name is taken. */
  create(name: string, plan?: Plan): Promise<Organization>
  /** The organization with this id; 404 otherwise. */
  get(id: string): Promise<Organization>
  /** The organization with this name, if any. */
  byName(name: string): Promise<Organization | undefined>
  /** The organization by id or name; 404 otherwise. */
  resolve(idOrName: string): Promise<Organization>
  /** How many organizations exist. */
  count(): Promise<number>
  /** Moves an organization (id or name) to another plan. */
  setPlan(idOrName: string, plan: string): Promise<Organization>
}
