/** Click recording and analytics; owns `clicks`, `link_click_*`, `link_day_*` and `org_click_days`. */
export { createClickStore } from './store.js'
export { createPostgresClickStore } from './postgres-store.js'
export { createClicksService } from './service.js'
export { type ClickInput, type ClickRecorder } from './recorder.js'
export { createLocator } from './location.js'
export type { ClickRef } from './store.js'
export type { LinkInstalls } from './link-analytics.js'
export { botReason, osFamily, parseAgent, platformOf } from './classify.js'
import type {
  AnalyticsQuery,
  ClicksQuery,
  LinkAnalytics,
  OrganizationClicks,
} from '../../../src/contract/links.js'
import type { Module } from '../module.js'
import { purgeDeletedLinkClicksJob } from './jobs.js'
import type { ClickInput, ClickRecorder } from './recorder.js'
import type { ClickRef } from './store.js'
import { clickRoutes } from './routes.js'

export interface ClicksService {
  /** The click buffer: flush, start, stop, pending, and status() for /health/ready. */
  recorder: ClickRecorder
  /** Buffers the click of a redirect; never waits on the disk. */
  record(click: ClickInput): void
  /** Smart-link clicks of an organization by click id (buffered clicks flushed first). */
  clickRefs(organizationId: string, clickIds: readonly string[]): Promise<ClickRef[]>
  /** `GET /api/use/analytics/links/:id`: one link's analytics over a range. */
  link(organizationId: string, id: string, q: AnalyticsQuery): Promise<LinkAnalytics>
  /** `GET /api/use/analytics/clicks`: the organization's clicks per UTC day. */
  organization(organizationId: string, q: ClicksQuery): Promise<OrganizationClicks>
  /** Human clicks of a link (or smart link) from the hour of `since` on (buffered clicks flushed first). */
  humanClicksSince(linkId: string, since: number): Promise<number>
  /** Job: deletes the click data of links that no longer exist, up to `budget` rows; returns how many. */
  purgeDeletedLinks(budget: number): Promise<number>
}

export function clicksModule(deps: { clicks: ClicksService }): Module {
  return { name: 'clicks', routes: clickRoutes(deps), jobs: [purgeDeletedLinkClicksJob(deps.clicks)] }
}
