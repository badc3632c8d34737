/** `linkctl qr` against the real daemon (in-memory SQLite, fake clock), in process and as the built binary. */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import QRCode from 'qrcode'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../../src/contract/common.js'
import type { QrCode } from '../../../src/contract/qr-codes.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { cli, tempDir } from '../../support/cli.js'
import { LINKCTL, runBin } from '../../support/processes.js'
import { pngLogo } from '../../support/qr-images.js'

const PNG = pngLogo(4000, 24)
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'

let d: TestDaemon
let env: NodeJS.ProcessEnv
const tmp = tempDir('linkctl-qr-')
beforeAll(async () => {
  d = await startTestDaemon({ shortDomain: '127.0.0.1' })
  env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey, NO_COLOR: '1' }
  writeFileSync(join(tmp.dir, 'logo.png'), PNG)
  writeFileSync(join(tmp.dir, 'logo.svg'), SVG)
  writeFileSync(join(tmp.dir, 'notes.txt'), 'not an image')
})
afterAll(async () => {
  await d.close()
  tmp.remove()
})

async function json<T>(argv: string[]): Promise<T> {
  const r = await cli([...argv, '--json'], { env })
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as T
}

describe('linkctl qr', () => {
  it('create by link id, short code or smart link; prints id and encoded URL; every flag maps', async () => {
    const link = await json<{ id: string; shortUrl: string }>([
      'links',
      'create',
      'https://example.com/a',
      '--slug',
      'cli-qr',
    ])
    const smart = await json<{ id: string }>([
      'sl',
      'create',
      '--fallback',
      'https://example.com/g',
      '--short-code',
      'cli-qr-game',
    ])
    const plain = await cli(['qr', 'create', link.id], { env })
    expect(plain.code, plain.stderr).toBe(0)
    expect(plain.stdout).toMatch(new RegExp(`^(qr_[A-Za-z0-9_-]+)\\t${link.shortUrl}\\?qr=\\1\\n$`))
    const styled = await json<QrCode>([
      'qr',
      'create',
      'cli-qr',
      '--title',
      'Station flyer',
      '--foreground',
      '#112233',
      '--background',
      'transparent',
      '--error-correction',
      'Q',
      '--margin',
      '2',
    ])
    expect(styled).toMatchObject({
      linkId: link.id,
      title: 'Station flyer',
      style: {
        foreground: '#112233',
        background: 'transparent',
        errorCorrection: 'Q',
        margin: 2,
        logo: null,
      },
    })
    const bySmartCode = await json<QrCode>([
      'qr',
      'create',
      'cli-qr-game',
      '--logo',
      join(tmp.dir, 'logo.svg'),
    ])
    expect(bySmartCode).toMatchObject({
      linkId: null,
      smartLinkId: smart.id,
      style: { errorCorrection: 'H', logo: { contentType: 'image/svg+xml', bytes: SVG.length } },
    })
    const withPng = await json<QrCode>(['qr', 'create', smart.id, '--logo', join(tmp.dir, 'logo.png')])
    expect(withPng.style.logo).toEqual({ contentType: 'image/png', bytes: PNG.length })
  })

  it('create: usage errors (exit 2), unknown link (exit 5), the daemon refusing (exit 1)', async () => {
    const notImage = await cli(['qr', 'create', 'whatever', '--logo', join(tmp.dir, 'notes.txt')], { env })
    expect(notImage.code).toBe(2)
    expect(notImage.stderr).toContain('neither a PNG nor an SVG')
    const badLevel = await cli(['qr', 'create', 'x', '--error-correction', 'Z'], { env })
    expect(badLevel.code).toBe(2)
    const unknown = await cli(['qr', 'create', 'no-such-code'], { env })
    expect(unknown.code).toBe(5)
    expect(unknown.stderr).toContain('no link or smart link')
    const unknownId = await cli(['qr', 'create', 'lnk_nope'], { env })
    expect(unknownId.code).toBe(5)
    const link = await json<{ id: string }>(['links', 'create', 'https://example.com/b'])
    const low = await cli(['qr', 'create', link.id, '--foreground', '#777777', '--background', '#888888'], {
      env,
    })
    expect(low.code).toBe(1)
    expect(low.stderr).toContain('contrast')
    // A refused colour is named as the flag that set it, with what it takes.
    const colour = await cli(['qr', 'create', link.id, '--foreground', '#zzz'], { env })
    expect(colour.code).toBe(1)
    expect(colour.stderr).toBe('error: --foreground has an invalid format (#rrggbb) (HTTP 400)\n')
  })

  it('list (--link filter), get, update, delete (--yes; refused without a terminal)', async () => {
    const link = await json<{ id: string }>([
      'links',
      'create',
      'https://example.com/c',
      '--slug',
      'cli-qr-list',
    ])
    const a = await json<QrCode>(['qr', 'create', link.id, '--title', 'A'])
    d.clock.advance(1000)
    const b = await json<QrCode>(['qr', 'create', link.id, '--title', 'B'])
    const page = await json<PageOf<QrCode>>(['qr', 'list', '--link', 'cli-qr-list'])
    expect(page.data.map((q) => q.id)).toEqual([b.id, a.id])
    const piped = await cli(['qr', 'list', '--link', link.id], { env })
    expect(piped.stdout.split('\n')[0]).toBe('ID\tLINK\tTITLE\tSCANS\tENCODED URL\tCREATED')
    expect(piped.stdout).toContain(`${b.id}\t${link.id}\tB\t0\t${b.encodedUrl}\t`)
    const table = await cli(['qr', 'list', '--link', link.id], { env, isTTY: true })
    expect(table.stdout).toMatch(/ID\s+LINK\s+TITLE\s+SCANS/)

    const shown = await cli(['qr', 'get', a.id], { env })
    const [names, values] = shown.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'))
    expect(Object.fromEntries(names!.map((n, i) => [n, values![i]]))).toMatchObject({
      ID: a.id,
      'ENCODED URL': a.encodedUrl,
      TITLE: 'A',
      'ERROR CORRECTION': 'M',
      SCANS: '0',
    })
    const updated = await json<QrCode>([
      'qr',
      'update',
      a.id,
      '--title',
      '',
      '--margin',
      '8',
      '--logo',
      join(tmp.dir, 'logo.png'),
    ])
    expect(updated).toMatchObject({
      title: null,
      style: { margin: 8, errorCorrection: 'H', logo: { bytes: PNG.length } },
    })
    const noLogo = await json<QrCode>(['qr', 'update', a.id, '--no-logo'])
    expect(noLogo.style.logo).toBeNull()
    const nothing = await cli(['qr', 'update', a.id], { env })
    expect(nothing.code).toBe(2)

    const refused = await cli(['qr', 'delete', a.id], { env })
    expect(refused.code).toBe(2)
    const del = await cli(['qr', 'rm', a.id, '--yes'], { env })
    expect(del.code, del.stderr).toBe(0)
    expect(del.stderr).toContain(`Deleted QR code ${a.id}`)
    const gone = await cli(['qr', 'get', a.id], { env })
    expect(gone.code).toBe(5)
  })

  it('image: a PNG file, SVG bytes when piped, a terminal drawing of encodedUrl on a TTY', async () => {
    const link = await json<{ id: string }>(['links', 'create', 'https://example.com/d'])
    const qr = await json<QrCode>(['qr', 'create', link.id])
    const file = join(tmp.dir, 'code.png')
    const written = await cli(['qr', 'image', qr.id, '--output', file, '--size', '128'], { env })
    expect(written.code, written.stderr).toBe(0)
    const { existsSync, readFileSync } = await import('node:fs')
    const png = readFileSync(file)
    expect(png.subarray(0, 8).equals(PNG.subarray(0, 8))).toBe(true)
    expect(png.readUInt32BE(16)).toBe(128)
    const piped = await cli(['qr', 'image', qr.id], { env })
    expect(piped.stdout).toMatch(/^<svg xmlns/)
    const drawn = await cli(['qr', 'image', qr.id], { env, isTTY: true })
    const expected = await QRCode.toString(qr.encodedUrl, { type: 'terminal', small: true })
    expect(drawn.stdout).toBe(`${expected}\n${qr.encodedUrl}\n`)
    const badSize = await cli(['qr', 'image', qr.id, '--size', '10'], { env })
    expect(badSize.code).toBe(2)
    // A .jpg is not silently an SVG: refused before anything is fetched or written.
    const jpg = join(tmp.dir, 'code.jpg')
    const wrongExt = await cli(['qr', 'image', qr.id, '--output', jpg], { env })
    expect(wrongExt.code).toBe(2)
    expect(wrongExt.stderr).toMatch(
      /cannot write a \.jpg image: name the file \.png or \.svg, or pass --format/,
    )
    expect(existsSync(jpg)).toBe(false)
    const forced = await cli(['qr', 'image', qr.id, '--output', jpg, '--format', 'png'], { env })
    expect(forced.code, forced.stderr).toBe(0)
    expect(readFileSync(jpg).subarray(0, 8).equals(PNG.subarray(0, 8))).toBe(true)
  })

  it('the built binary: create with a logo, image piped, list as JSON', async () => {
    const benv = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey, NO_COLOR: '1' }
    const link = await json<{ id: string }>([
      'links',
      'create',
      'https://example.com/e',
      '--slug',
      'cli-qr-bin',
    ])
    const created = await runBin(
      LINKCTL,
      ['qr', 'create', 'cli-qr-bin', '--logo', join(tmp.dir, 'logo.png'), '--json'],
      benv,
    )
    expect(created.code, created.stderr).toBe(0)
    const qr = JSON.parse(created.stdout) as QrCode
    expect(qr).toMatchObject({
      linkId: link.id,
      style: { errorCorrection: 'H', logo: { contentType: 'image/png' } },
    })
    const svg = await runBin(LINKCTL, ['qr', 'image', qr.id], benv)
    expect(svg.code, svg.stderr).toBe(0)
    expect(svg.stdout).toMatch(/^<svg xmlns/)
    const listed = await runBin(LINKCTL, ['qr', 'list', '--link', link.id, '--json'], benv)
    expect((JSON.parse(listed.stdout) as PageOf<QrCode>).data.map((q) => q.id)).toEqual([qr.id])
  })
})
