/**
 * The QR render worker (a worker thread of render-pool.ts): draws PNGs and tries logos, one job
 * at a time, so a costly logo never holds the daemon's event loop. It tells the pool when a logo
 * is being drawn: the pool ends the worker when that takes too long.
 */
import { readlinkSync } from 'node:fs'
import { parentPort } from 'node:worker_threads'
import { drawPng, LogoDrawError, logoPixels, resvg, type Matrix } from './raster.js'
import type { StoredQrStyle } from './style.js'

/** What the pool asks: a QR PNG, or (write time) the logo alone drawn into a `box`-pixel square. */
export type RenderJob =
  | { kind: 'png'; matrix: Matrix; style: StoredQrStyle; size: number }
  | { kind: 'logo'; logo: string; box: number }

/** What the worker answers, in order: ready once; per job, the logo's phases, then its result. */
export type WorkerMessage =
  | { ready: true; tid: string | null }
  | { id: number; drawing: boolean }
  | { id: number; ok: true; png: Uint8Array | null }
  | { id: number; ok: false; logo: boolean; message: string }

const port = parentPort!
const post = (m: WorkerMessage) => port.postMessage(m)

// resvg's WebAssembly compiled before the first job: the time bound counts drawing only.
await resvg().catch(() => undefined)

/** The logo alone, drawn as a PNG of its code would draw it (write time: does it draw in time?). */
async function tryLogo(logo: string, box: number, drawing: (on: boolean) => void): Promise<null> {
  await logoPixels(logo, box, drawing)
  return null
}

port.on('message', ({ id, job }: { id: number; job: RenderJob }) => {
  const drawing = (on: boolean) => post({ id, drawing: on })
  const work =
    job.kind === 'png'
      ? drawPng(job.matrix, job.style, job.size, drawing)
      : tryLogo(job.logo, job.box, drawing)
  work.then(
    (png) => post({ id, ok: true, png }),
    (err: unknown) =>
      post({
        id,
        ok: false,
        logo: err instanceof LogoDrawError,
        message: (err as Error).message ?? String(err),
      }),
  )
})
/** This thread's id on Linux (its CPU time is in /proc/self/task/<tid>/stat), else null. */
function threadId(): string | null {
  try {
    return readlinkSync('/proc/thread-self').split('/').pop() ?? null
  } catch {
    return null
  }
}

post({ ready: true, tid: threadId() })
