/** The export sinks: stdout waits for 'drain' when its buffer is full (constant memory on a slow pipe). */
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { stdoutSink } from '../../src/cli/sink.js'
import { testCtx } from '../support/cli.js'

describe('stdoutSink', () => {
  it("a write to a full stdout resolves only after its 'drain'", async () => {
    const written: string[] = []
    let release: (() => void) | undefined
    // A pipe whose reader is slow: each chunk is taken only when the test says so.
    const slow = new Writable({
      highWaterMark: 4,
      write(chunk: Buffer, _encoding, done) {
        written.push(chunk.toString())
        release = done
      },
    })
    const { ctx } = testCtx()
    const sink = stdoutSink({ ...ctx, stdout: slow })
    let resolved = false
    const pending = sink.write('0123456789').then(() => (resolved = true))
    await new Promise((r) => setImmediate(r))
    expect(written).toEqual(['0123456789'])
    expect(resolved).toBe(false)
    release!()
    await pending
    expect(resolved).toBe(true)
  })
})
