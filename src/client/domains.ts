import type { PageOf } from '../contract/common.js'
import type {
  AddDomainBody,
  AppLinks,
  Domain,
  DomainStats,
  ListDomainsQuery,
  Propagation,
  SslDetails,
  UpdateDomainBody,
} from '../contract/domains.js'
import type { Requests } from './http.js'

/** Custom domains (`/api/domains`). */
export function domainsApi(http: Requests) {
  return {
    add: (body: AddDomainBody) => http.data<Domain>('POST', '/api/domains', { body }),
    list: (query: ListDomainsQuery = {}) => http.data<PageOf<Domain>>('GET', '/api/domains', { query }),
    stats: () => http.data<DomainStats>('GET', '/api/domains/stats'),
    get: (id: string) => http.data<Domain>('GET', `/api/domains/${encodeURIComponent(id)}`),
    verify: (id: string) => http.data<Domain>('POST', `/api/domains/${encodeURIComponent(id)}/verify`),
    update: (id: string, body: UpdateDomainBody) =>
      http.data<Domain>('PATCH', `/api/domains/${encodeURIComponent(id)}`, { body }),
    checkPropagation: (id: string) =>
      http.data<Propagation>('POST', `/api/domains/${encodeURIComponent(id)}/check-propagation`),
    ssl: (id: string) => http.data<SslDetails>('GET', `/api/domains/${encodeURIComponent(id)}/ssl`),
    setDefault: (id: string) =>
      http.data<Domain>('POST', `/api/domains/${encodeURIComponent(id)}/set-default`),
    appLinks: (id: string) => http.data<AppLinks>('GET', `/api/domains/${encodeURIComponent(id)}/app-links`),
    setAppLinks: (id: string, body: AppLinks) =>
      http.data<AppLinks>('PUT', `/api/domains/${encodeURIComponent(id)}/app-links`, { body }),
    delete: async (id: string) => {
      await http.call('DELETE', `/api/domains/${encodeURIComponent(id)}`)
    },
  }
}
