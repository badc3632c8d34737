import type { PageOf } from '../contract/common.js'
import type {
  BulkCreateBody,
  BulkCreateResult,
  CreateLinkBody,
  ImportLinksBody,
  ImportLinksResult,
  Link,
  ListLinksQuery,
  QrQuery,
  UpdateLinkBody,
} from '../contract/links.js'
import type { Requests } from './http.js'

/** Short links (`/api/use/links`). */
export function linksApi(http: Requests) {
  return {
    create: (body: CreateLinkBody, idempotencyKey?: string) =>
      http.data<Link>('POST', '/api/use/links', {
        body,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      }),
    list: (query: ListLinksQuery = {}) => http.data<PageOf<Link>>('GET', '/api/use/links', { query }),
    get: (id: string) => http.data<Link>('GET', `/api/use/links/${encodeURIComponent(id)}`),
    update: (id: string, body: UpdateLinkBody) =>
      http.data<Link>('PATCH', `/api/use/links/${encodeURIComponent(id)}`, { body }),
    delete: async (id: string) => {
      await http.call('DELETE', `/api/use/links/${encodeURIComponent(id)}`)
    },
    /** The whole response: `headers['idempotent-replayed']` tells a replayed chunk. */
    bulk: (body: BulkCreateBody, idempotencyKey?: string) =>
      http.call<BulkCreateResult>('POST', '/api/use/links/bulk', {
        body,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      }),
    /** An export file to import (or check, with dryRun); the whole response, like bulk. */
    import: (body: ImportLinksBody, idempotencyKey?: string) =>
      http.call<ImportLinksResult>('POST', '/api/use/links/import', {
        body,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      }),
    /** The QR code image: SVG text or PNG bytes, with its content type. */
    qr: (id: string, query: QrQuery = {}) =>
      http.bytes('GET', `/api/use/links/${encodeURIComponent(id)}/qr`, { query }),
  }
}
