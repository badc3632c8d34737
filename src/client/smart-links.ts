import type { PageOf } from '../contract/common.js'
import type {
  CreateSmartLinkBody,
  ListSmartLinksQuery,
  SmartLink,
  UpdateSmartLinkBody,
} from '../contract/smart-links.js'
import type { Requests } from './http.js'

/** Smart links (`/api/use/smart-links`); their analytics are `client.analytics.link(sml_…)`. */
export function smartLinksApi(http: Requests) {
  const one = (id: string) => `/api/use/smart-links/${encodeURIComponent(id)}`
  return {
    create: (body: CreateSmartLinkBody) => http.data<SmartLink>('POST', '/api/use/smart-links', { body }),
    list: (query: ListSmartLinksQuery = {}) =>
      http.data<PageOf<SmartLink>>('GET', '/api/use/smart-links', { query }),
    get: (id: string) => http.data<SmartLink>('GET', one(id)),
    update: (id: string, body: UpdateSmartLinkBody) => http.data<SmartLink>('PATCH', one(id), { body }),
    delete: async (id: string) => {
      await http.call('DELETE', one(id))
    },
  }
}
