/** QR images and their styles, shared by the links module (per-link image) and qr-codes. */
export { cancelRenders, checkLogoDraws, renderQrCode, type QrImage } from './render.js'
export { renderStats, type RenderStats } from './render-pool.js'
export { DEFAULT_QR_STYLE, publicQrStyle, resolveQrStyle, type StoredQrStyle } from './style.js'
