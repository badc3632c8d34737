/**
 * End to end with the built binaries and curl: Apple's real 4.0 postback posted without a key to
 * both addresses answers verified: true (Apple's production key), a tampered copy verified: false;
 * a campaign created with linkctl receives a postback and shows it in `linkctl skan postbacks`.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PostbackAnswer, SkanCampaign } from '../../src/contract/skan.js'
import { startLinkdForCli, type LinkdForCli } from '../support/processes.js'
import { APPLE_VECTOR } from '../support/skan.js'

const run = promisify(execFile)
let cli: LinkdForCli
const linkctl = (args: string[]) => cli.linkctl(args)

/** POST with curl, no key: status and parsed body. */
async function curl(path: string, body: unknown): Promise<{ status: number; answer: PostbackAnswer }> {
  const { stdout } = await run('curl', [
    '-sS',
    '-X',
    'POST',
    '-H',
    'content-type: application/json',
    '--data-binary',
    JSON.stringify(body),
    '-w',
    '\n%{http_code}',
    `${cli.daemon.url}${path}`,
  ])
  const lines = stdout.trimEnd().split('\n')
  const status = Number(lines.pop())
  return { status, answer: JSON.parse(lines.join('\n')) as PostbackAnswer }
}

beforeAll(async () => {
  cli = await startLinkdForCli('linkd-skan-e2e-')
}, 60_000)

afterAll(() => cli?.close('SIGTERM'))

describe('SKAN with the real binaries', () => {
  it("Apple's vector posted with curl to both addresses answers verified: true; a tampered copy false", async () => {
    const tampered = await curl('/api/v1/skan/postbacks', {
      ...APPLE_VECTOR,
      'transaction-id': 'a9f1c6c2-3b41-4d2c-9a77-0c6f3f0b1e2d',
    })
    expect(tampered.status).toBe(201)
    expect(tampered.answer).toMatchObject({ verified: false, duplicate: false, campaignId: null })

    const first = await curl('/.well-known/skadnetwork/report-attribution/', APPLE_VECTOR)
    expect(first.status).toBe(201)
    expect(first.answer).toMatchObject({ verified: true, duplicate: false, campaignId: null, version: '4.0' })
    const again = await curl('/api/v1/skan/postbacks', APPLE_VECTOR)
    expect(again).toEqual({ status: 200, answer: { ...first.answer, duplicate: true } })
    const noSlash = await curl('/.well-known/skadnetwork/report-attribution', {
      ...APPLE_VECTOR,
      'postback-sequence-index': 1,
    })
    expect(noSlash.status).toBe(201)
    expect(noSlash.answer.verified).toBe(false)
  })

  it('a campaign created with linkctl receives a postback; linkctl lists it', async () => {
    const g = await linkctl([
      'games',
      'create',
      '--name',
      'SKAN E2E',
      '--platform',
      'ios',
      '--skan',
      '--json',
    ])
    expect(g.code, g.stderr).toBe(0)
    const game = JSON.parse(g.stdout) as { id: string }
    const c = await linkctl(
      ['skan', 'campaigns', 'create', game.id, '--name', 'E2E', '--ad-network', 'e2e.skadnetwork'].concat([
        '--lock-window',
        '24',
        '--json',
      ]),
    )
    expect(c.code, c.stderr).toBe(0)
    const campaign = JSON.parse(c.stdout) as SkanCampaign
    const posted = await curl('/api/v1/skan/postbacks', {
      ...APPLE_VECTOR,
      'ad-network-id': 'e2e.skadnetwork',
      'transaction-id': '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
    })
    // Matched, but the keyless answer names no campaign (internal ids stay with the organization).
    expect(posted.answer).toMatchObject({ verified: false, campaignId: null })
    const list = await linkctl(['skan', 'postbacks', campaign.id])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout.trim().split('\n')).toHaveLength(2)
    expect(list.stdout).toMatch(/0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5/)
  })
})
