import type { PageOf } from '../contract/common.js'
import type { GdprDeletion, GdprDeletionBody, GdprDeletionsQuery, IngestResult } from '../contract/gaming.js'
import type { Requests } from './http.js'

/** Gaming ingestion (a client built with the SDK key) and GDPR deletions (`/api/v1/gaming`). */
export function gamingApi(http: Requests) {
  return {
    /** Sends one batch body as given; `headers` carry X-Game-ID, X-Organization-ID, signature. */
    sendEvents: (body: Buffer, headers: Record<string, string>) =>
      http.data<IngestResult>('POST', '/api/v1/gaming/events', {
        rawBody: body,
        headers: { 'content-type': 'application/json', ...headers },
      }),
    requestDeletion: (body: GdprDeletionBody) =>
      http.data<GdprDeletion>('POST', '/api/v1/gaming/gdpr/deletions', { body }),
    /** The organization's deletion records, newest first (filters gameId, status). */
    deletions: (query: GdprDeletionsQuery = {}) =>
      http.data<PageOf<GdprDeletion>>('GET', '/api/v1/gaming/gdpr/deletions', { query }),
    deletion: (id: string) =>
      http.data<GdprDeletion>('GET', `/api/v1/gaming/gdpr/deletions/${encodeURIComponent(id)}`),
  }
}
