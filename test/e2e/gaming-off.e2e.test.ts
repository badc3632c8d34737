/**
 * The built binaries with NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED=false: linkctl's
 * gaming commands say that gaming is turned off on this linkd (exit 5, as for not found), the
 * rest of linkctl works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXIT } from '../../src/session/exit-codes.js'
import { startLinkdForCli, type LinkdForCli } from '../support/processes.js'

let l: LinkdForCli

beforeAll(async () => {
  l = await startLinkdForCli('linkctl-gaming-off-e2e-', {
    NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED: 'false',
  })
}, 60_000)
afterAll(() => l?.close())

describe('linkctl against a linkd with gaming turned off', () => {
  it('linkctl games list, fraud dashboard and gdpr status explain it', async () => {
    for (const args of [
      ['games', 'list'],
      ['fraud', 'dashboard', 'gam_x'],
      ['gdpr', 'status', 'gdpr_x'],
    ]) {
      const r = await l.linkctl(args)
      expect({ args, code: r.code }).toEqual({ args, code: EXIT.notFound })
      expect(r.stderr).toMatch(/^error: gaming is turned off on this linkd .*\(HTTP 404\)$/m)
      expect(r.stdout).toBe('')
    }
    const json = await l.linkctl(['games', 'list', '--json'])
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: 'NotFound',
      message: expect.stringMatching(/gaming is turned off/),
    })
  })

  it('linkctl status says gaming is off, in words and in --json', async () => {
    const r = await l.linkctl(['status'])
    expect(r.code, r.stderr).toBe(0)
    // Piped: the record as a header row and a value row.
    const [header, values] = r.stdout.split('\n').map((line) => line.split('\t'))
    expect(values![header!.indexOf('GAMING')]).toBe(
      'off (NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED=false on the daemon)',
    )
    const json = await l.linkctl(['status', '--json'])
    expect(JSON.parse(json.stdout)).toMatchObject({ features: { gaming: false } })
  })

  it('the other commands work', async () => {
    const r = await l.linkctl(['links', 'create', 'https://example.com/kept', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect((await l.linkctl(['links', 'list'])).stdout).toContain('https://example.com/kept')
  })
})
