import type { FastifyInstance } from 'fastify'
import type { EventBus } from '../events.js'
import type { JobDefinition } from '../jobs/scheduler.js'

/**
 * How a module plugs into the daemon. Each module's `index.ts` builds one from its service (and
 * what its routes need); daemon/composition.ts collects them and daemon/app.ts installs them.
 * Every part is optional: a module without HTTP routes leaves out `routes`.
 */
export interface Module {
  /** Module name: its folder under daemon/modules (gaming/<part> for the parts of gaming). */
  name: string
  /** Request hooks on the root server, installed before any route (after auth and idempotency). */
  hooks?(app: FastifyInstance): void
  /** Registers the module's HTTP routes on the server, in module order. */
  routes?(app: FastifyInstance): Promise<void>
  /** Scheduled jobs (registered with the scheduler; run only when jobs are enabled). */
  jobs?: JobDefinition[]
  /** Subscribes the module's listeners to domain events; called once, in module order. */
  subscriptions?(events: EventBus): void
}
