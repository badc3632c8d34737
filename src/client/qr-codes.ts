import type { PageOf } from '../contract/common.js'
import type {
  CreateQrCodeBody,
  ListQrCodesQuery,
  QrCode,
  QrImageQuery,
  UpdateQrCodeBody,
} from '../contract/qr-codes.js'
import type { Requests } from './http.js'

/** QR codes (`/api/use/qr-codes`): styled codes of a link or smart link, each with its scans. */
export function qrCodesApi(http: Requests) {
  const one = (id: string) => `/api/use/qr-codes/${encodeURIComponent(id)}`
  return {
    create: (body: CreateQrCodeBody) => http.data<QrCode>('POST', '/api/use/qr-codes', { body }),
    list: (query: ListQrCodesQuery = {}) => http.data<PageOf<QrCode>>('GET', '/api/use/qr-codes', { query }),
    get: (id: string) => http.data<QrCode>('GET', one(id)),
    update: (id: string, body: UpdateQrCodeBody) => http.data<QrCode>('PATCH', one(id), { body }),
    delete: async (id: string) => {
      await http.call('DELETE', one(id))
    },
    image: (id: string, query: QrImageQuery = {}) => http.bytes('GET', `${one(id)}/image`, { query }),
  }
}
