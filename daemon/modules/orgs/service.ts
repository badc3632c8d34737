import type { Clock } from '../../clock.js'
import { newId } from '../../crypto.js'
import { AppError, notFound } from '../../http/errors.js'
import { PLANS, type Plan } from '../../../src/contract/limits.js'
import type { Organization, OrgStore } from './store.js'
import type { OrgService } from './api.js'

export const DEFAULT_ORG_NAME = 'default'
const NAME_RE = /^[a-z0-9][a-z0-9-]{0,62}$/

export function createOrgService(deps: { store: OrgStore; clock: Clock; defaultPlan: Plan }): OrgService {
  const { store } = deps
  return {
    async create(name: string, plan: Plan = deps.defaultPlan): Promise<Organization> {
      if (!NAME_RE.test(name))
        throw new AppError(
          'ValidationError',
          'organization name: lowercase letters, digits and hyphens, 1-63 characters',
          [{ field: 'name', message: 'lowercase letters, digits and hyphens, 1-63 characters' }],
        )
      if (await store.byName(name)) throw new AppError('Conflict', `organization "${name}" already exists`)
      const now = deps.clock.now()
      const org: Organization = { id: newId('org'), name, plan, createdAt: now, updatedAt: now }
      await store.insert(org)
      return org
    },
    async get(id: string): Promise<Organization> {
      const org = await store.byId(id)
      if (!org) throw notFound('organization')
      return org
    },
    async byName(name: string): Promise<Organization | undefined> {
      return store.byName(name)
    },
    /** Organization by id or name. */
    async resolve(idOrName: string): Promise<Organization> {
      const org = (await store.byId(idOrName)) ?? (await store.byName(idOrName))
      if (!org) throw notFound(`organization "${idOrName}"`)
      return org
    },
    async count(): Promise<number> {
      return store.count()
    },
    async setPlan(idOrName: string, plan: string): Promise<Organization> {
      if (!(PLANS as readonly string[]).includes(plan))
        throw new AppError('ValidationError', `plan must be one of ${PLANS.join(', ')}`, [
          { field: 'plan', message: `must be one of ${PLANS.join(', ')}` },
        ])
      const org = await this.resolve(idOrName)
      await store.setPlan(org.id, plan, deps.clock.now())
      return { ...org, plan }
    },
  }
}
