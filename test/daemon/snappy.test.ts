/**
 * The Snappy compressor of the Parquet exports: what it compresses decompresses to the same bytes
 * (hyparquet's decoder), and it writes the bytes snappyjs writes, across literals, copies,
 * offsets beyond 2 KB and 64 KB, and the buffer reused and grown between calls.
 */
import { snappyUncompress } from 'hyparquet'
import { snappyCompress } from 'hyparquet-writer/src/snappy.js'
import { describe, expect, it } from 'vitest'
import { snappyCompressor } from '../../daemon/snappy.js'

/** `size` bytes of an alphabet of `letters`, repeating earlier runs half the time (seeded). */
function sample(size: number, letters: number, seed: number): Uint8Array {
  let state = seed
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32
  const bytes = new Uint8Array(size)
  for (let i = 0; i < size; i++)
    bytes[i] =
      i > 300 && next() < 0.5 ? bytes[i - 1 - Math.floor(next() * 300)]! : Math.floor(next() * letters)
  return bytes
}

describe('snappy', () => {
  it('round-trips and matches snappyjs byte for byte', () => {
    const compress = snappyCompressor()
    const inputs = [
      new Uint8Array(0),
      new Uint8Array([7]),
      new Uint8Array(14).fill(1),
      new Uint8Array(100_000).fill(3),
      new TextEncoder().encode('{"level":3}'.repeat(5_000)),
      sample(200_000, 256, 1),
      sample(70, 4, 2),
      sample(300_000, 20, 3),
      sample(5_000, 200, 4),
    ]
    for (const input of inputs) {
      const compressed = compress(input)
      expect(Buffer.from(compressed).equals(snappyCompress(input)), `${input.length} bytes`).toBe(true)
      const output = new Uint8Array(input.length)
      snappyUncompress(compressed, output)
      expect(Buffer.from(output).equals(input), `${input.length} bytes`).toBe(true)
    }
  })
})
