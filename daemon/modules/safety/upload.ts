/**
 * The body of a list upload: the raw request stream (any content type: the file as it was
 * downloaded), gunzipped when sent with Content-Encoding gzip, cut off past the byte limit. The
 * file is never held whole: its lines go to the database as they arrive.
 */
import { Readable, pipeline } from 'node:stream'
import { createGunzip } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { AppError } from '../../http/errors.js'
import { SAFETY_LIMITS } from '../../../src/contract/safety.js'

/** The request stream a route hands on; its JSON form is what the idempotency hash sees. */
export class FeedUpload {
  constructor(
    readonly stream: Readable,
    readonly declaredBytes: number | undefined,
  ) {}
  toJSON() {
    return { feedUpload: this.declaredBytes ?? null }
  }
}

export const uploadTooLarge = () =>
  new AppError(
    'PayloadTooLarge',
    `a safety list file is at most ${SAFETY_LIMITS.uploadBytesMax} bytes (after decompression)`,
  )

/** Takes every request body of the plugin's routes as a stream (the API's JSON parser does not apply). */
export function streamBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (req, payload, done) => {
    const length = Number(req.headers['content-length'])
    done(null, new FeedUpload(payload, Number.isFinite(length) ? length : undefined))
  })
}

/** The upload's bytes, decompressed, failing with 413 past the limit and 400 on bad gzip. */
export function feedBytes(upload: FeedUpload, contentEncoding: string | undefined): Readable {
  const encoding = (contentEncoding ?? 'identity').toLowerCase()
  const gzip = encoding === 'gzip' || encoding === 'x-gzip'
  if (!gzip && encoding !== 'identity')
    throw new AppError('UnsupportedMediaType', `Content-Encoding ${encoding} is not supported; use gzip`)
  if (!gzip && upload.declaredBytes !== undefined && upload.declaredBytes > SAFETY_LIMITS.uploadBytesMax)
    throw uploadTooLarge()
  const source: Readable = gzip ? pipeline(upload.stream, createGunzip(), () => undefined) : upload.stream
  async function* capped() {
    let bytes = 0
    try {
      // Not destroyed on an early stop: the route reads what is left before it answers.
      for await (const chunk of source.iterator({ destroyOnReturn: false })) {
        bytes += (chunk as Buffer).length
        if (bytes > SAFETY_LIMITS.uploadBytesMax) throw uploadTooLarge()
        yield chunk as Buffer
      }
    } catch (err) {
      if (err instanceof AppError || !gzip) throw err
      throw new AppError('ValidationError', 'the body is not valid gzip', [
        { field: 'Content-Encoding', message: 'gzip, but the body does not decompress' },
      ])
    }
  }
  return Readable.from(capped())
}

/**
 * Reads and drops what is left of a refused upload, so that the client, still sending, reads the
 * error answer (a refused 413 closes the connection instead: too much to read).
 */
export async function drain(upload: FeedUpload): Promise<void> {
  try {
    for await (const chunk of upload.stream) void chunk
  } catch {
    // The client went away: nothing to answer.
  }
}
