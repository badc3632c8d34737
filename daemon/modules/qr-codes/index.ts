/** QR codes as resources (`/api/use/qr-codes`), each with its own scans; owns `qr_codes`. */
import { cancelRenders } from '../../qr/index.js'
import type { Module } from '../module.js'
import { qrCodeRoutes } from './routes.js'
import type { QrCodeService } from './service.js'

export { createQrCodeStore, type QrScanDelta } from './store.js'
export { createQrCodeService, type QrCodeService, type QrLinkLookup } from './service.js'

export function qrCodesModule(deps: { qrCodes: QrCodeService; bodyLimitBytes: number }): Module {
  return {
    name: 'qr-codes',
    // A closing daemon does not wait for PNGs being drawn (links' and codes' alike): they answer 503.
    hooks: (app) => app.addHook('preClose', cancelRenders),
    routes: qrCodeRoutes(deps),
  }
}
