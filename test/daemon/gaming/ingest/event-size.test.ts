/**
 * The size of an event (at most 10 KB) is the bytes of the event written out as JSON again; it is
 * counted field by field without writing the whole event out, and must come to the same number
 * for every value JSON.parse can make.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INGEST_LIMITS } from '../../../../src/contract/limits.js'
import { jsonBytes } from '../../../../daemon/modules/gaming/ingest/validate.js'
import type { TestApp } from '../../../support/app.js'
import { HOSTILE_STRINGS, HUGE_NUMBERS } from '../../../support/fuzz-values.js'
import { serialize, type Val } from '../../../support/openapi-fuzz.js'
import { accepted, batch, event, ingestionApp, send, type SendOpts } from '../../../support/gaming.js'

const written = (v: unknown) => Buffer.byteLength(JSON.stringify(v))

describe('jsonBytes', () => {
  const values: Val[] = [
    ...HOSTILE_STRINGS,
    ...HUGE_NUMBERS,
    true,
    false,
    null,
    0,
    -1.5,
    1e21,
    1e-7,
    'x'.repeat(300),
    'plain text',
    [],
    {},
    { nested: ['a', { b: 'é"\\' }] },
  ]

  it('equals the bytes of JSON.stringify for every value, as a field and as a key', () => {
    for (const v of values) {
      const text = serialize(v)
      for (const source of [
        `{"event_id":"x","extra":${text}}`,
        `{${JSON.stringify(String(JSON.parse(text)))}:1}`,
      ]) {
        const parsed = JSON.parse(source) as object
        expect(jsonBytes(parsed), source).toBe(written(parsed))
      }
    }
    expect(jsonBytes({})).toBe(2)
    expect(jsonBytes(JSON.parse('{"__proto__":{"a":1},"data":{"b":"ü"}}') as object)).toBe(
      written(JSON.parse('{"__proto__":{"a":1},"data":{"b":"ü"}}')),
    )
  })

  it('counts data as the JSON given for it', () => {
    const e = { event_id: 'e', data: { level: 1 } }
    expect(jsonBytes(e, JSON.stringify(e.data))).toBe(written(e))
  })
})

describe('the 10 KB limit of an event, counted as written out again', () => {
  let t: TestApp
  let o: SendOpts
  beforeAll(async () => ({ t, o } = await ingestionApp()))
  afterAll(() => t.close())

  /** An event of exactly `bytes` with text to escape and non-ASCII in its own fields and in data. */
  function eventOfSize(bytes: number) {
    const e = { ...event(t, { data: { note: 'ü "quoted" \\ \n', n: 1e21 } }), extra: 'é\t"', pad: '' }
    e.pad = 'ÿ'.repeat(Math.floor((bytes - written(e)) / 2))
    if ((bytes - written(e)) % 2) e.pad += 'y'
    expect(written(e)).toBe(bytes)
    return e
  }

  it(`${INGEST_LIMITS.eventBytes} bytes is stored, one more is EventTooLarge`, async () => {
    const events = [eventOfSize(INGEST_LIMITS.eventBytes), eventOfSize(INGEST_LIMITS.eventBytes + 1)]
    // Numbers as the SDK may spell them: 1E21 is written back as 1e+21 (counted so).
    const text = JSON.stringify(batch(t, events)).replaceAll('1e+21', '1E21')
    const r = accepted(await send(t, text, o))
    expect(r).toMatchObject({ accepted: 1, rejected: 1 })
    expect(r.errors).toEqual([
      {
        index: 1,
        eventId: events[1]!.event_id,
        error: 'EventTooLarge',
        message: `event is ${INGEST_LIMITS.eventBytes + 1} bytes; at most ${INGEST_LIMITS.eventBytes} bytes per event`,
      },
    ])
  })
})
