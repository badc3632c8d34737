/**
 * `links update` / `smart-links update --short-code` of a short URL in use (QR codes, recent
 * clicks), against the real daemon: piped, the 409's reason and "add --force" (exit 6) and nothing
 * changed; `--force` moves it; on a terminal the question, then the forced PATCH (or "aborted");
 * `--json` never asks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Link } from '../../../src/contract/links.js'
import type { SmartLink } from '../../../src/contract/smart-links.js'
import { runLinksUpdate } from '../../../src/cli/commands/links/update.js'
import { exitCodeFor } from '../../../src/session/exit-codes.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { cli, testCtx } from '../../support/cli.js'

let d: TestDaemon
beforeAll(async () => {
  d = await startTestDaemon()
})
afterAll(() => d.close())

const run = (argv: string[]) => cli(argv, { env: { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey } })

async function json<T>(argv: string[]): Promise<T> {
  const r = await run([...argv, '--json'])
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as T
}

/** A link with one QR code titled `title`; returns the link and the code's id. */
async function printed(code: string, title: string): Promise<{ link: Link; qr: string }> {
  const link = await json<Link>(['links', 'create', `https://example.com/${code}`, '--short-code', code])
  const qr = await json<{ id: string }>(['qr', 'create', link.id, '--title', title])
  return { link, qr: qr.id }
}

const codeOf = async (ref: string) => (await json<Link>(['links', 'get', ref])).shortCode

describe('links update --short-code of a short URL in use', () => {
  it('piped: the reason and "add --force", exit 6, nothing changed; --force moves it', async () => {
    const { link, qr } = await printed('iu-flyer', 'Spring flyer')
    const r = await run(['links', 'update', 'iu-flyer', '--short-code', 'iu-flyer-2', '--title', 'New'])
    expect(r.code).toBe(6)
    expect(r.stderr).toBe(
      `error: ${link.shortUrl} is in use: 1 QR code ("Spring flyer" ${qr}); after the change it would answer 404 (HTTP 409)\n` +
        '  add --force to change it anyway\n',
    )
    expect(await json<Link>(['links', 'get', link.id])).toMatchObject({ shortCode: 'iu-flyer', title: null })

    const forced = await run(['links', 'update', 'iu-flyer', '--short-code', 'iu-flyer-2', '--force'])
    expect(forced.code, forced.stderr).toBe(0)
    expect(await codeOf(link.id)).toBe('iu-flyer-2')
  })

  it('--json: the API error body with the hint, never a question', async () => {
    await printed('iu-json', 'Poster')
    const t = testCtx({
      flags: { url: d.url, apiKey: d.ownerKey },
      json: true,
      canPrompt: true,
      prompt: {
        secret: () => Promise.resolve(''),
        confirm: () => Promise.reject(new Error('asked')),
      },
    })
    const err = await runLinksUpdate({ ref: 'iu-json', shortCode: 'iu-json-2' }, t.ctx).catch(
      (e: unknown) => e,
    )
    expect(exitCodeFor(err)).toBe(6)
    const r = await run(['links', 'update', 'iu-json', '--short-code', 'iu-json-2', '--json'])
    expect(r.code).toBe(6)
    expect(JSON.parse(r.stderr)).toMatchObject({
      error: 'Conflict',
      statusCode: 409,
      details: [{ field: 'force', message: 'true changes it anyway' }],
      hint: expect.stringContaining('add --force to change it anyway'),
    })
  })

  it('on a terminal: asks, and y moves it; anything else aborts with nothing changed', async () => {
    const { link } = await printed('iu-ask', 'Sticker')
    const questions: string[] = []
    const terminal = (answer: boolean) =>
      testCtx({
        flags: { url: d.url, apiKey: d.ownerKey },
        canPrompt: true,
        prompt: {
          secret: () => Promise.resolve(''),
          confirm: (q) => (questions.push(q), Promise.resolve(answer)),
        },
      })
    const declined = await runLinksUpdate(
      { ref: 'iu-ask', shortCode: 'iu-ask-2' },
      terminal(false).ctx,
    ).catch((e: unknown) => e)
    expect([exitCodeFor(declined), (declined as Error).message]).toEqual([1, 'aborted'])
    expect(questions).toEqual([
      expect.stringMatching(/is in use: 1 QR code \("Sticker" qr_\S+\).*\. Change it anyway\?$/),
    ])
    expect(await codeOf(link.id)).toBe('iu-ask')

    await runLinksUpdate({ ref: 'iu-ask', shortCode: 'iu-ask-2' }, terminal(true).ctx)
    expect(await codeOf(link.id)).toBe('iu-ask-2')
  })

  it('--force alone is a usage error; a fresh link needs no --force', async () => {
    await json<Link>(['links', 'create', 'https://example.com/iu-fresh', '--short-code', 'iu-fresh'])
    const alone = await run(['links', 'update', 'iu-fresh', '--force'])
    expect([alone.code, alone.stderr]).toEqual([2, 'error: --force goes with --short-code or --domain\n'])
    expect((await run(['links', 'update', 'iu-fresh', '--short-code', 'iu-fresh-2'])).code).toBe(0)
  })
})

describe('smart-links update --short-code of a short URL in use', () => {
  it('the same refusal piped, and --force', async () => {
    const sl = await json<SmartLink>([
      'sl',
      'create',
      '--fallback',
      'https://example.com/g',
      '--short-code',
      'iu-game',
    ])
    await json(['qr', 'create', sl.id, '--title', 'Box'])
    const r = await run(['sl', 'update', 'iu-game', '--short-code', 'iu-game-2'])
    expect(r.code).toBe(6)
    expect(r.stderr).toMatch(
      /is in use: 1 QR code \("Box" qr_\S+\).*\n {2}add --force to change it anyway\n$/,
    )
    const forced = await run(['sl', 'update', 'iu-game', '--short-code', 'iu-game-2', '--force'])
    expect(forced.code, forced.stderr).toBe(0)
    expect((await json<SmartLink>(['sl', 'get', sl.id])).shortCode).toBe('iu-game-2')
  })
})
