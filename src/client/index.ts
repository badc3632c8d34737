/**
 * The typed client of the linkd HTTP API, used by linkctl, the TUI and the tests: the HTTP side
 * in http.ts, one file per namespace of the API (keys.ts, links.ts, …) composed here.
 */
import type { Discovery, Health } from '../contract/health.js'
import { analyticsApi } from './analytics.js'
import { domainsApi } from './domains.js'
import { exportsApi } from './exports.js'
import { fraudApi } from './fraud.js'
import { gamesApi } from './games.js'
import { gamingApi } from './gaming.js'
import { HttpClient } from './http.js'
import { keysApi } from './keys.js'
import { linksApi } from './links.js'
import { qrCodesApi } from './qr-codes.js'
import { safetyApi } from './safety.js'
import { skanApi } from './skan.js'
import { smartLinksApi } from './smart-links.js'
import { teamApi } from './team.js'
import { webhooksApi } from './webhooks.js'

export {
  ApiError,
  ConnectionError,
  type ApiResponse,
  type BytesResponse,
  type ClientOptions,
  type RateLimitHeaders,
  type RequestOptions,
} from './http.js'

/** Typed client of the linkd HTTP API, used by linkctl, the TUI and the tests. */
export class LinkdClient extends HttpClient {
  // health and discovery
  health = () => this.requests.data<Health>('GET', '/health')
  ready = () => this.requests.data<Health>('GET', '/health/ready')
  discovery = () => this.requests.data<Discovery>('GET', '/api/use')

  keys = keysApi(this.requests)
  links = linksApi(this.requests)
  smartLinks = smartLinksApi(this.requests)
  qrCodes = qrCodesApi(this.requests)
  webhooks = webhooksApi(this.requests)
  analytics = analyticsApi(this.requests)
  games = gamesApi(this.requests)
  fraud = fraudApi(this.requests)
  gaming = gamingApi(this.requests)
  domains = domainsApi(this.requests)
  skan = skanApi(this.requests)
  team = teamApi(this.requests)
  safety = safetyApi(this.requests)
  exports = exportsApi(this.requests)
}
