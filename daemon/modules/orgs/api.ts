/** The orgs module's interfaces, imported by its own files (other modules import its index.ts). */
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
