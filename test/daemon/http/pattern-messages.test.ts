/**
 * Errors for humans: no regular expression in a message a user sees. Every
 * `pattern` in the contract has words in PATTERN_MESSAGES, and a value that fails one gets them,
 * with a suggestion for a URL missing its scheme.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as contract from '../../../src/contract/index.js'
import { PATTERN_MESSAGES } from '../../../src/contract/text.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { createGame } from '../../support/gaming.js'
import { expectError } from '../../support/responses.js'

/** Every `pattern` string found anywhere in the exported schemas. */
function patternsIn(value: unknown, seen = new Set<unknown>(), found = new Set<string>()): Set<string> {
  if (value === null || typeof value !== 'object' || seen.has(value)) return found
  seen.add(value)
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'pattern' && typeof inner === 'string') found.add(inner)
    else patternsIn(inner, seen, found)
  }
  return found
}

/** Something that reads like a regular expression: anchors, classes, escapes, quantifiers. */
const REGEX_LOOK = /\^\[|\[A-Z|\\d|\\s|\]\*|\]\+|\$"|\{\d+\}/

describe('pattern messages', () => {
  it('every pattern in src/contract has words', () => {
    const patterns = [...patternsIn(contract)]
    expect(patterns.length).toBeGreaterThanOrEqual(7)
    expect(patterns.filter((p) => PATTERN_MESSAGES[p] === undefined)).toEqual([])
  })

  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t.close())

  it('a destination without its scheme: words and a suggestion, once in the message', async () => {
    const res = await t.call('POST', '/api/use/links', { body: { destinationUrl: 'example.com/path' } })
    const err = expectError(res, 400, 'ValidationError')
    expect(err.message).toBe(
      'destinationUrl must start with http:// or https://; did you mean https://example.com/path?',
    )
    expect(err.details).toEqual([
      {
        field: 'destinationUrl',
        message: 'must start with http:// or https://; did you mean https://example.com/path?',
      },
    ])
    // Another scheme gets no suggestion.
    const ftp = await t.call('POST', '/api/use/links', { body: { destinationUrl: 'ftp://example.com' } })
    expect(expectError(ftp, 400, 'ValidationError').message).toBe(
      'destinationUrl must start with http:// or https://',
    )
  })

  it('custom slugs, game slugs, dates and bulk items: words, never the expression', async () => {
    const game = await createGame(t)
    const answers = [
      await t.call('POST', '/api/use/links', {
        body: { destinationUrl: 'https://example.com', customSlug: 'no spaces!' },
      }),
      await t.call('POST', '/api/use/links/bulk', {
        body: { links: [{ destinationUrl: 'www.example.com' }] },
      }),
      await t.call('POST', '/api/v1/admin/games', { body: { name: 'Arena', slug: 'bad slug' } }),
      await t.call('GET', `/api/v1/analytics/games/${game.id}/overview?startDate=yesterday`),
    ]
    const texts = answers.map((r) => r.body)
    expect(texts[0]).toContain('may only contain letters, digits, hyphens and underscores')
    expect(texts[1]).toContain('did you mean https://www.example.com?')
    expect(texts[2]).toContain('may only contain letters, digits, hyphens and underscores')
    expect(texts[3]).toContain(
      'must be a date and time such as 2026-05-01T12:00:00Z or a date such as 2026-05-01',
    )
    for (const text of texts) {
      expect(text).not.toMatch(REGEX_LOOK)
      expect(text).not.toContain('must match pattern')
    }
  })
})
