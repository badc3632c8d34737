import type { PageOf } from '../contract/common.js'
import type {
  ApiKey,
  ApiKeyWithSecret,
  CreateKeyBody,
  KeyActivity,
  KeyTestResult,
  ListKeysQuery,
  UpdateKeyBody,
} from '../contract/keys.js'
import type { Requests } from './http.js'

/** API keys (`/api/keys`). */
export function keysApi(http: Requests) {
  return {
    create: (body: CreateKeyBody, idempotencyKey?: string) =>
      http.data<ApiKeyWithSecret>('POST', '/api/keys', {
        body,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      }),
    list: (query: ListKeysQuery = {}) => http.data<PageOf<ApiKey>>('GET', '/api/keys', { query }),
    get: (id: string) => http.data<ApiKey>('GET', `/api/keys/${encodeURIComponent(id)}`),
    update: (id: string, body: UpdateKeyBody) =>
      http.data<ApiKey>('PATCH', `/api/keys/${encodeURIComponent(id)}`, { body }),
    delete: async (id: string) => {
      await http.call('DELETE', `/api/keys/${encodeURIComponent(id)}`)
    },
    regenerate: (id: string) =>
      http.data<ApiKeyWithSecret>('POST', `/api/keys/${encodeURIComponent(id)}/regenerate`),
    revoke: (id: string) => http.data<ApiKey>('POST', `/api/keys/${encodeURIComponent(id)}/revoke`),
    activate: (id: string) => http.data<ApiKey>('POST', `/api/keys/${encodeURIComponent(id)}/activate`),
    deactivate: (id: string) => http.data<ApiKey>('POST', `/api/keys/${encodeURIComponent(id)}/deactivate`),
    activity: (id: string, query: { page?: number; limit?: number } = {}) =>
      http.data<PageOf<KeyActivity>>('GET', `/api/keys/${encodeURIComponent(id)}/activity`, { query }),
    test: (key: string) => http.data<KeyTestResult>('POST', '/api/keys/test', { body: { key } }),
  }
}
