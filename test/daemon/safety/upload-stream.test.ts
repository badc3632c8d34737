/**
 * The upload stream of a safety list when reading stops early (a batch refused: too many hosts, a
 * database error) and the rest of the body then fails to decompress: the refusal is the answer,
 * and the late gzip error stays inside the request instead of escaping as an uncaught error that
 * would stop the daemon.
 */
import { Readable } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { expect, it } from 'vitest'
import { readFeed } from '../../../daemon/modules/safety/parse.js'
import { drain, FeedUpload, feedBytes } from '../../../daemon/modules/safety/upload.js'
import { hostsFeed } from '../../support/safety-feed.js'

it('a refused batch, then a corrupt end of the gzip body: the refusal, nothing thrown later', async () => {
  const gz = gzipSync([...hostsFeed(50_000)].join(''))
  const corrupt = Buffer.from(gz)
  for (let i = gz.length - 200; i < gz.length - 100; i++) corrupt[i] = corrupt[i]! ^ 0xff
  // The body arrives in chunks, as from a socket.
  const chunks: Buffer[] = []
  for (let i = 0; i < corrupt.length; i += 16 * 1024) chunks.push(corrupt.subarray(i, i + 16 * 1024))
  const upload = new FeedUpload(Readable.from(chunks), corrupt.length)
  const feed = feedBytes(upload, 'gzip')
  const late: unknown[] = []
  const onUncaught = (err: unknown) => late.push(err)
  process.prependListener('uncaughtException', onUncaught)
  try {
    await expect(
      readFeed(
        feed,
        undefined,
        async () => {
          throw new Error('batch refused')
        },
        1_000,
      ),
    ).rejects.toThrow('batch refused')
    // What the route does next: read the rest of the body before answering.
    await drain(upload)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(late).toEqual([])
  } finally {
    process.off('uncaughtException', onUncaught)
  }
})
