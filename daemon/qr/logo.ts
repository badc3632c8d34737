/**
 * A logo's bytes as the API stores them (a data URL), read without any check that throws an
 * AppError: the render worker reads them too.
 */

export type LogoType = 'image/png' | 'image/svg+xml'

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** A data URL's type and decoded bytes; undefined when it is not a PNG or SVG data URL. */
export function logoData(dataUrl: string): { contentType: LogoType; data: Buffer } | undefined {
  const m = /^data:(image\/png|image\/svg\+xml)(;[^,]*)?,(.*)$/s.exec(dataUrl)
  if (!m) return undefined
  const base64 = /;base64$/i.test(m[2] ?? '')
  let data: Buffer
  try {
    data = base64 ? Buffer.from(m[3]!, 'base64') : Buffer.from(decodeURIComponent(m[3]!), 'utf8')
  } catch {
    return undefined // a malformed %-escape
  }
  return { contentType: m[1] as LogoType, data }
}

/**
 * A PNG's width and height from its IHDR header, before any decoding (a few compressed bytes can
 * claim a huge image); undefined when the bytes do not start like a PNG.
 */
export function pngSize(data: Buffer): { width: number; height: number } | undefined {
  if (
    data.length < 24 ||
    !data.subarray(0, 8).equals(PNG_SIGNATURE) ||
    data.toString('latin1', 12, 16) !== 'IHDR'
  )
    return undefined
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) }
}
