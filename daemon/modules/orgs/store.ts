import type { Kysely } from 'kysely'
import type { Database, OrganizationsTable } from '../../db/schema.js'

export interface Organization {
  id: string
  name: string
  plan: string
  createdAt: number
  updatedAt: number
}

const toOrg = (r: OrganizationsTable): Organization => ({
  id: r.id,
  name: r.name,
  plan: r.plan,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
})

/** The organizations table: the port the org service depends on. */
export interface OrgStore {
  insert(o: Organization): Promise<void>
  byId(id: string): Promise<Organization | undefined>
  byName(name: string): Promise<Organization | undefined>
  count(): Promise<number>
  setPlan(id: string, plan: string, now: number): Promise<void>
}

/** The SQLite (Kysely) implementation. */
export function createOrgStore(db: Kysely<Database>): OrgStore {
  return {
    async insert(o: Organization): Promise<void> {
      await db
        .insertInto('organizations')
        .values({ id: o.id, name: o.name, plan: o.plan, created_at: o.createdAt, updated_at: o.updatedAt })
        .execute()
    },
    async byId(id: string): Promise<Organization | undefined> {
      const r = await db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst()
      return r && toOrg(r)
    },
    async byName(name: string): Promise<Organization | undefined> {
      const r = await db.selectFrom('organizations').selectAll().where('name', '=', name).executeTakeFirst()
      return r && toOrg(r)
    },
    async count(): Promise<number> {
      const r = await db
        .selectFrom('organizations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      return Number(r.n)
    },
    async setPlan(id: string, plan: string, now: number): Promise<void> {
      await db.updateTable('organizations').set({ plan, updated_at: now }).where('id', '=', id).execute()
    },
  }
}
