import type { PageOf, PageQuery } from '../contract/common.js'
import type {
  BlocklistEntry,
  CreateBlocklistBody,
  CreateRuleBody,
  DashboardQuery,
  FraudDashboard,
  FraudEvent,
  FraudEventsQuery,
  FraudReview,
  FraudRule,
  UpdateRuleBody,
} from '../contract/fraud.js'
import type { Requests } from './http.js'

const fraudBase = (game: string) => `/api/v1/admin/fraud/games/${encodeURIComponent(game)}`

/** Fraud rules, blocklist, events and dashboard of a game (admin, `/api/v1/admin/fraud/games/:gameId`). */
export function fraudApi(http: Requests) {
  return {
    /** A page of the game's rules, in evaluation order. */
    rules: (game: string, query: PageQuery = {}) =>
      http.data<PageOf<FraudRule>>('GET', `${fraudBase(game)}/rules`, { query }),
    createRule: (game: string, body: CreateRuleBody) =>
      http.data<FraudRule>('POST', `${fraudBase(game)}/rules`, { body }),
    updateRule: (game: string, id: string, body: UpdateRuleBody) =>
      http.data<FraudRule>('PATCH', `${fraudBase(game)}/rules/${encodeURIComponent(id)}`, { body }),
    deleteRule: async (game: string, id: string) => {
      await http.call('DELETE', `${fraudBase(game)}/rules/${encodeURIComponent(id)}`)
    },
    blocklist: (game: string, query: PageQuery = {}) =>
      http.data<PageOf<BlocklistEntry>>('GET', `${fraudBase(game)}/blocklist`, { query }),
    block: (game: string, body: CreateBlocklistBody) =>
      http.data<BlocklistEntry>('POST', `${fraudBase(game)}/blocklist`, { body }),
    unblock: async (game: string, id: string) => {
      await http.call('DELETE', `${fraudBase(game)}/blocklist/${encodeURIComponent(id)}`)
    },
    dashboard: (game: string, query: DashboardQuery = {}) =>
      http.data<FraudDashboard>('GET', `${fraudBase(game)}/dashboard`, { query }),
    /** Fraud events, newest first; pages of 10, 20, 50, 100 or 200. */
    events: (game: string, query: FraudEventsQuery = {}) =>
      http.data<PageOf<FraudEvent>>('GET', `${fraudBase(game)}/events`, { query }),
    review: (game: string, id: string, review: FraudReview) =>
      http.data<FraudEvent>('PATCH', `${fraudBase(game)}/events/${encodeURIComponent(id)}`, {
        body: { review },
      }),
  }
}
