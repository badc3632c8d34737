/**
 * QR PNGs drawn pixel by pixel, the logo decoded (PNG) or rasterised (SVG, resvg) into its box.
 * Runs in the render worker (render-worker.ts), never on the daemon's event loop: a logo's cost
 * is the worker's, bounded in time by the pool (render-pool.ts). Geometry:
 * docs/decisions/qr-rendering.md. Imports nothing that throws AppError (errors cross the thread as
 * text).
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type PngJs from 'pngjs'
import { logoData, pngSize } from './logo.js'
import type { StoredQrStyle } from './style.js'

/** The logo's pad covers at most this share of the symbol's side (0.4² = 16% of its modules). */
export const LOGO_SIDE_SHARE = 0.4
/** A transparent background still gets an opaque pad behind the logo: white, like paper. */
export const TRANSPARENT_PAD = '#ffffff'
/**
 * A stored PNG logo's largest side the renderer decodes: the bound of logos stored before the
 * write-time bound (style.ts) was lowered; a larger header is refused before decoding.
 */
export const STORED_LOGO_PIXELS_MAX = 4096

export interface Matrix {
  /** Modules a side, without the quiet zone. */
  size: number
  data: Uint8Array
}

/** The pad and the logo's box, in modules from the image's top left (quiet zone included). */
interface LogoBox {
  pad: { at: number; side: number }
  logo: { at: number; side: number }
}

/** The centred pad: an odd/even count of modules like the symbol's, so it sits on the grid. */
export function logoBox(modules: number, margin: number): LogoBox {
  let side = Math.floor(modules * LOGO_SIDE_SHARE)
  if (side % 2 !== modules % 2) side -= 1
  const at = margin + (modules - side) / 2
  return { pad: { at, side }, logo: { at: at + 1, side: side - 2 } }
}

let pngjs: typeof PngJs | undefined

/** pngjs on first use, required from node_modules (the bundles hold no copy). */
function loadPng(): typeof PngJs.PNG {
  pngjs ??= createRequire(import.meta.url)('pngjs') as typeof PngJs
  return pngjs.PNG
}

/** A logo that cannot be drawn: its message is the reason, shown to the client. */
export class LogoDrawError extends Error {}

type Rgba = [number, number, number, number]
const rgb = (hex: string): Rgba => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).concat(255) as Rgba

/**
 * Pixel edges of the `n` modules across `size` pixels: ⌊size/n⌋ whole pixels a module, centred;
 * the pixels left over (fewer than n) widen the quiet zone. Every module is whole pixels of one
 * colour, crisp at 1 px a module, where uneven 1-2 px modules made jsQR miss some codes.
 */
function edges(n: number, size: number): number[] {
  const scale = Math.floor(size / n)
  const offset = Math.floor((size - n * scale) / 2)
  return Array.from({ length: n + 1 }, (_, i) => offset + i * scale)
}

/**
 * The `size`-pixel PNG of the module matrix `m` in `style`, its logo centred on its pad.
 * `drawing(true)` and `drawing(false)` bracket the rasterising of an SVG logo, the one step whose
 * cost its content decides (the pool bounds its time); a PNG logo's cost is bounded by its header,
 * read before decoding.
 */
export async function drawPng(
  m: Matrix,
  style: StoredQrStyle,
  size: number,
  drawing: (on: boolean) => void = () => {},
): Promise<Buffer> {
  const n = m.size + 2 * style.margin
  const e = edges(n, size)
  const PNG = loadPng()
  const img = new PNG({ width: size, height: size })
  const px = img.data
  const bg: Rgba = style.background === 'transparent' ? [255, 255, 255, 0] : rgb(style.background)
  const fg = rgb(style.foreground)
  // The module under each pixel column/row (-1: outside the symbol, background).
  const moduleAt = new Int32Array(size).fill(-1)
  for (let i = 0; i < n; i++) for (let p = e[i]!; p < e[i + 1]!; p++) moduleAt[p] = i - style.margin
  // One pixel row per module row, copied to each of its pixel rows.
  const line = new Uint8Array(size * 4)
  let drawn = NaN
  for (let y = 0; y < size; y++) {
    const row = moduleAt[y]!
    if (row !== drawn) {
      for (let x = 0; x < size; x++) {
        const col = moduleAt[x]!
        const dark = row >= 0 && row < m.size && col >= 0 && col < m.size && m.data[row * m.size + col] === 1
        line.set(dark ? fg : bg, x * 4)
      }
      drawn = row
    }
    px.set(line, y * size * 4)
  }
  if (style.logo !== null) {
    const { pad, logo } = logoBox(m.size, style.margin)
    const padFill = rgb(style.background === 'transparent' ? TRANSPARENT_PAD : style.background)
    const [p0, p1] = [e[pad.at]!, e[pad.at + pad.side]!]
    for (let y = p0; y < p1; y++) for (let x = p0; x < p1; x++) px.set(padFill, (y * size + x) * 4)
    const [l0, l1] = [e[logo.at]!, e[logo.at + logo.side]!]
    const box = l1 - l0
    if (box > 0) {
      const art = await logoPixels(style.logo, box, drawing)
      const ox = l0 + Math.floor((box - art.width) / 2)
      const oy = l0 + Math.floor((box - art.height) / 2)
      blend(px, size, art, ox, oy)
    }
  }
  return PNG.sync.write(img)
}

interface Pixels {
  width: number
  height: number
  data: Uint8Array
}

/** The last logos drawn, by box and data URL: the same code is usually asked for again. */
const drawnLogos = new Map<string, Promise<Pixels>>()
const DRAWN_LOGOS_KEPT = 8

/** The logo as RGBA pixels fitted into a `box`-pixel square, keeping its aspect ratio. */
export function logoPixels(dataUrl: string, box: number, drawing: (on: boolean) => void): Promise<Pixels> {
  const key = `${box} ${dataUrl}`
  let pixels = drawnLogos.get(key)
  if (pixels) drawnLogos.delete(key)
  else pixels = drawLogo(dataUrl, box, drawing)
  drawnLogos.set(key, pixels) // most recent last
  if (drawnLogos.size > DRAWN_LOGOS_KEPT) drawnLogos.delete(drawnLogos.keys().next().value!)
  pixels.catch(() => drawnLogos.delete(key))
  return pixels
}

async function drawLogo(dataUrl: string, box: number, drawing: (on: boolean) => void): Promise<Pixels> {
  const logo = logoData(dataUrl)
  if (!logo) throw new LogoDrawError('is not a data URL of a PNG or SVG image')
  try {
    if (logo.contentType === 'image/svg+xml') {
      const { Resvg } = await resvg()
      drawing(true)
      const pixels = rasteriseSvg(Resvg, logo.data, box)
      drawing(false)
      return pixels
    }
    const header = pngSize(logo.data)
    if (!header) throw new Error('not a PNG image')
    if (Math.max(header.width, header.height) > STORED_LOGO_PIXELS_MAX)
      throw new Error(`${header.width}x${header.height} pixels, over ${STORED_LOGO_PIXELS_MAX} a side`)
    const src = loadPng().sync.read(logo.data)
    const k = Math.min(box / src.width, box / src.height)
    return resample(src, Math.max(1, Math.round(src.width * k)), Math.max(1, Math.round(src.height * k)))
  } catch (err) {
    throw new LogoDrawError((err as Error).message)
  }
}

let resvgReady: Promise<typeof import('@resvg/resvg-wasm')> | undefined

/** resvg (WebAssembly, shipped in its npm package) on first use; no fonts: SVG text is not drawn. */
export function resvg(): Promise<typeof import('@resvg/resvg-wasm')> {
  resvgReady ??= (async () => {
    const mod = await import('@resvg/resvg-wasm')
    const wasm = createRequire(import.meta.url).resolve('@resvg/resvg-wasm/index_bg.wasm')
    await mod.initWasm(await readFile(wasm))
    return mod
  })()
  return resvgReady
}

type ResvgClass = Awaited<ReturnType<typeof resvg>>['Resvg']

function rasteriseSvg(Resvg: ResvgClass, data: Buffer, box: number): Pixels {
  const probe = new Resvg(data)
  const [w, h] = [probe.width, probe.height]
  probe.free()
  const fitTo = w >= h ? { mode: 'width' as const, value: box } : { mode: 'height' as const, value: box }
  const r = new Resvg(data, { fitTo })
  const rendered = r.render()
  // Through PNG: resvg's raw pixels are premultiplied; its PNG is not.
  const out = loadPng().sync.read(Buffer.from(rendered.asPng()))
  rendered.free()
  r.free()
  return out
}

/** `src` scaled to `w`×`h`: area average when shrinking, bilinear when growing (premultiplied). */
function resample(src: Pixels, w: number, h: number): Pixels {
  const out = new Uint8Array(w * h * 4)
  const kx = src.width / w
  const ky = src.height / h
  const at = (x: number, y: number) => (y * src.width + x) * 4
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let r = 0
      let g = 0
      let b = 0
      let a = 0
      let weight = 0
      const add = (sx: number, sy: number, wt: number) => {
        const i = at(sx, sy)
        const alpha = src.data[i + 3]! * wt
        r += src.data[i]! * alpha
        g += src.data[i + 1]! * alpha
        b += src.data[i + 2]! * alpha
        a += alpha
        weight += wt
      }
      if (kx >= 1 && ky >= 1) {
        const [x0, x1] = [Math.floor(x * kx), Math.max(Math.floor(x * kx) + 1, Math.floor((x + 1) * kx))]
        const [y0, y1] = [Math.floor(y * ky), Math.max(Math.floor(y * ky) + 1, Math.floor((y + 1) * ky))]
        for (let sy = y0; sy < y1; sy++) for (let sx = x0; sx < x1; sx++) add(sx, sy, 1)
      } else {
        const fx = Math.min(Math.max((x + 0.5) * kx - 0.5, 0), src.width - 1)
        const fy = Math.min(Math.max((y + 0.5) * ky - 0.5, 0), src.height - 1)
        const [x0, y0] = [Math.floor(fx), Math.floor(fy)]
        const [x1, y1] = [Math.min(x0 + 1, src.width - 1), Math.min(y0 + 1, src.height - 1)]
        const [tx, ty] = [fx - x0, fy - y0]
        add(x0, y0, (1 - tx) * (1 - ty))
        add(x1, y0, tx * (1 - ty))
        add(x0, y1, (1 - tx) * ty)
        add(x1, y1, tx * ty)
      }
      const o = (y * w + x) * 4
      if (a > 0) {
        out[o] = Math.round(r / a)
        out[o + 1] = Math.round(g / a)
        out[o + 2] = Math.round(b / a)
      }
      out[o + 3] = Math.round(a / weight)
    }
  return { width: w, height: h, data: out }
}

/** `art` alpha-blended over the opaque image `px` (`size` wide) at (ox, oy). */
function blend(px: Uint8Array, size: number, art: Pixels, ox: number, oy: number): void {
  for (let y = 0; y < art.height; y++)
    for (let x = 0; x < art.width; x++) {
      const s = (y * art.width + x) * 4
      const d = ((oy + y) * size + ox + x) * 4
      const alpha = art.data[s + 3]! / 255
      for (let c = 0; c < 3; c++) px[d + c] = Math.round(art.data[s + c]! * alpha + px[d + c]! * (1 - alpha))
      px[d + 3] = 255
    }
}
