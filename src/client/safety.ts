import type { PageOf, PageQuery } from '../contract/common.js'
import type { SafetyFormat, SafetyList } from '../contract/safety.js'
import type { Requests } from './http.js'

/** An upload of 2,000,000 hosts takes a while to store. */
const UPLOAD_TIMEOUT_MS = 600_000

/** Safety lists (`/api/safety/lists`): feed files of hosts link destinations may not use. */
export function safetyApi(http: Requests) {
  return {
    /** Uploads a feed file (the same name replaces that list); `gzip`: the bytes are gzip-compressed. */
    uploadList: (name: string, file: Buffer, opts: { format?: SafetyFormat; gzip?: boolean } = {}) =>
      http.data<SafetyList>('POST', '/api/safety/lists', {
        query: { name, ...(opts.format && { format: opts.format }) },
        rawBody: file,
        headers: { 'content-type': 'text/plain', ...(opts.gzip && { 'content-encoding': 'gzip' }) },
        timeoutMs: UPLOAD_TIMEOUT_MS,
      }),
    lists: (query: PageQuery = {}) => http.data<PageOf<SafetyList>>('GET', '/api/safety/lists', { query }),
    getList: (id: string) => http.data<SafetyList>('GET', `/api/safety/lists/${encodeURIComponent(id)}`),
    deleteList: async (id: string) => {
      await http.call('DELETE', `/api/safety/lists/${encodeURIComponent(id)}`)
    },
  }
}
