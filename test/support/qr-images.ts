/** QR test images: logos of a chosen byte size, and an independent decoder (jsQR) for PNGs. */
import { crc32, deflateSync } from 'node:zlib'
import jsQRModule from 'jsqr'
import pngjs from 'pngjs'

const { PNG } = pngjs
// jsQR is CommonJS: Node's default import is its module.exports, whose `default` is the function.
const jsQR = jsQRModule.default

/** The text a PNG's QR code decodes to (transparent pixels seen on white paper), or null. */
export function decodeQrPng(buf: Buffer): string | null {
  const img = PNG.sync.read(buf)
  const px = new Uint8ClampedArray(img.data)
  for (let i = 0; i < px.length; i += 4) {
    const a = px[i + 3]! / 255
    for (let c = 0; c < 3; c++) px[i + c] = Math.round(px[i + c]! * a + 255 * (1 - a))
    px[i + 3] = 255
  }
  return jsQR(px, img.width, img.height)?.data ?? null
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])))
  return Buffer.concat([head, data, crc])
}

/**
 * A PNG logo of exactly `bytes` bytes: a red disc with noise (so it compresses badly) on a
 * transparent square, padded to size with a text chunk before IEND.
 */
export function pngLogo(bytes: number, side = 120): Buffer {
  const img = new PNG({ width: side, height: side })
  let seed = 7
  const noise = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 64
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      const i = (y * side + x) * 4
      const inside = (x - side / 2) ** 2 + (y - side / 2) ** 2 < (side / 2) ** 2
      img.data.set([200 + noise() / 2, noise(), noise(), inside ? 255 : 0], i)
    }
  const plain = PNG.sync.write(img)
  const room = bytes - plain.length - 12 - 'pad\0'.length
  if (room < 0) throw new Error(`a ${side}px logo is already ${plain.length} bytes`)
  const iend = plain.length - 12
  return Buffer.concat([
    plain.subarray(0, iend),
    chunk('tEXt', Buffer.concat([Buffer.from('pad\0', 'latin1'), Buffer.alloc(room, 0x61)])),
    plain.subarray(iend),
  ])
}

/** A small SVG logo: a blue rounded square with a white ring. */
export const SVG_LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" viewBox="0 0 40 30">' +
  '<rect width="40" height="30" rx="6" fill="#1d4ed8"/><circle cx="20" cy="15" r="9" fill="none" stroke="#fff" stroke-width="4"/></svg>'

export const dataUrl = (contentType: string, data: Buffer | string) =>
  `data:${contentType};base64,${Buffer.from(data).toString('base64')}`

/**
 * The SVG logo that once held the daemon at 100% CPU for minutes: one filter of 100,000 noise
 * octaves over the whole image.
 */
export const HOSTILE_SVG_LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">' +
  '<filter id="t" x="0" y="0" width="100%" height="100%"><feTurbulence type="fractalNoise" baseFrequency="0.9" numOctaves="100000" stitchTiles="stitch"/></filter>' +
  '<rect width="512" height="512" filter="url(#t)"/></svg>'

/** A real PNG of one opaque colour, `width`×`height` (it compresses to little: 4096² is ~70 KB). */
export function solidPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 2, 0, 0, 0], 8) // 8-bit RGB, no interlace
  const row = Buffer.alloc(1 + width * 3, 0x33)
  row[0] = 0 // filter: none
  const raw = Buffer.concat(Array.from({ length: height }, () => row))
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
