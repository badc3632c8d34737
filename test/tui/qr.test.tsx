/** The QR pane of a link's and a smart link's detail, against the fake client: list, create, edit, delete, errors. */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { apiError, FakeClient } from './fake-client.js'
import { makeQrCode } from './fake-qr.js'
import { frameWhere, frameWith, KEY, press, renderTui, type Rendered } from './harness.js'

afterEach(() => cleanup())

const CTRL_S = '\x13'

/** The Links screen with the first link's QR pane open. */
async function openPane(client = new FakeClient(), scopes: Set<string> | null = null): Promise<Rendered> {
  const app = renderTui({ client, initialScreen: 'links', scopes })
  await frameWith(app, '30 links')
  await press(app, KEY.enter)
  await frameWith(app, 'http://s.test/c0', 'c QR codes')
  await press(app, 'c')
  await frameWith(app, 'QR codes: 2')
  return app
}

/** Clears the focused field (as many Backspaces as its text has). */
const erase = (app: Rendered, text: string) => press(app, ...Array<string>(text.length).fill(KEY.backspace))

describe('QR codes in the Links screen', () => {
  it('lists a link’s codes newest first with their scans, style and the total', async () => {
    const app = await openPane()
    const frame = await frameWith(app, 'QR codes: 2 · 42 scans in all', 'Flyer', 'Poster')
    expect(frame).toContain('#1f2937 on transparent, H, logo')
    expect(frame).toContain('#000000 on #ffffff, M')
    expect(frame.indexOf('Flyer')).toBeLessThan(frame.indexOf('Poster'))
    expect(frame).toMatch(/Flyer\s+12 /)
    expect(frame).toMatch(/Poster\s+30 /)
    expect(frame).toContain('n new · e edit · d delete · Enter/p preview')
    // The pane replaces the figures; Esc gives them back, and the keys of the link again.
    expect(frame).not.toContain('Clicks, last 48 hours')
    await press(app, KEY.escape)
    await frameWith(app, 'Clicks, last 48 hours', 'e edit · d delete')
  })

  it('follows the refresh like the rest of the detail', async () => {
    const client = new FakeClient()
    const app = await openPane(client)
    await frameWith(app, '42 scans in all')
    client.qrData.codes[0]!.scans = 31
    app.refresh()
    await frameWith(app, '43 scans in all')
  })

  it('creates a code: the form’s title and style sent as the body', async () => {
    const client = new FakeClient()
    const app = await openPane(client)
    await press(app, 'n')
    await frameWith(app, 'New QR code for c0 (no logo here', 'Foreground (#rrggbb): #000000')
    await press(app, 'Bus stop', KEY.enter)
    await erase(app, '#000000')
    await press(app, '#1f2937', KEY.enter)
    await erase(app, '#ffffff')
    await press(app, 'transparent', KEY.enter)
    await erase(app, 'M')
    await press(app, 'q', KEY.enter)
    await erase(app, '4')
    await press(app, '2', KEY.enter)
    const frame = await frameWith(app, 'QR codes: 3', 'Bus stop')
    expect(frame).toContain('#1f2937 on transparent, Q, margin 2')
    // The new one is the newest: first, and selected.
    expect(frame.indexOf('Bus stop')).toBeLessThan(frame.indexOf('Flyer'))
    expect(client.qrData.bodies).toEqual([
      {
        linkId: 'lnk_0',
        title: 'Bus stop',
        style: { foreground: '#1f2937', background: 'transparent', errorCorrection: 'Q', margin: 2 },
      },
    ])
  })

  it('edits the selected code with Ctrl+S, sending only what changed', async () => {
    const client = new FakeClient()
    const app = await openPane(client)
    await press(app, 'j')
    await press(app, 'e')
    await frameWith(app, 'Edit the QR code “Poster”', 'Title (empty: none): Poster')
    await erase(app, 'Poster')
    await press(app, 'Big poster', KEY.down, KEY.down, KEY.down)
    await erase(app, 'M')
    await press(app, 'H', CTRL_S)
    const frame = await frameWith(app, 'saved the QR code “Big poster”', 'Big poster')
    expect(frame).toContain('#000000 on #ffffff, H')
    expect(client.calls).toContain('qrCodes.update qr_old')
    expect(client.qrData.bodies).toEqual([{ title: 'Big poster', style: { errorCorrection: 'H' } }])
  })

  it('saves the code it opened even when a refresh meanwhile brings a newer code above it', async () => {
    const client = new FakeClient()
    const app = await openPane(client)
    await press(app, 'j', 'e')
    await frameWith(app, 'Edit the QR code “Poster”')
    client.qrData.codes.push(
      makeQrCode(
        'qr_other',
        { linkId: 'lnk_0' },
        { title: 'Made elsewhere', createdAt: '2026-11-19T10:00:00.000Z' },
      ),
    )
    const lists = () => client.calls.filter((c) => c.startsWith('qrCodes.list')).length
    const seen = lists()
    app.refresh()
    await frameWhere(app, () => lists() > seen, 'a refresh')
    await press(app, '!', CTRL_S)
    await frameWith(app, 'saved the QR code “Poster!”')
    expect(client.calls).toContain('qrCodes.update qr_old')
  })

  it('deletes the selected code only after y', async () => {
    const client = new FakeClient()
    const app = await openPane(client)
    await press(app, 'd')
    await frameWith(app, 'Delete the QR code “Flyer” (12 scans)? [y/N]')
    await press(app, 'n')
    await frameWith(app, 'cancelled', 'QR codes: 2')
    expect(client.calls.some((c) => c.startsWith('qrCodes.delete'))).toBe(false)
    await press(app, 'd')
    await frameWith(app, 'Delete the QR code “Flyer”')
    await press(app, 'y')
    const frame = await frameWith(app, 'deleted the QR code “Flyer”', 'QR codes: 1 · 30 scans in all')
    expect(frame).not.toContain('Flyer ')
    expect(client.calls).toContain('qrCodes.delete qr_new')
  })

  it('shows the daemon’s 400 (contrast too low) under the form, which stays open', async () => {
    const client = new FakeClient()
    client.qrData.writeError = apiError(400, 'Validation failed', [
      {
        field: 'style',
        message:
          'foreground #eeeeee on background #ffffff has a contrast of 1.16:1; scanners need at least 3:1',
      },
    ])
    const app = await openPane(client)
    await press(app, 'n')
    await frameWith(app, 'New QR code for c0')
    await press(app, KEY.down)
    await erase(app, '#000000')
    await press(app, '#eeeeee', CTRL_S)
    const frame = await frameWith(
      app,
      'Validation failed (HTTP 400)',
      'style: foreground #eeeeee on background #ffffff has a contrast of 1.16:1',
    )
    expect(frame).toContain('New QR code for c0')
    expect(client.qrData.codes).toHaveLength(3)
  })

  it('says a one-field 400 once when its message is that field’s line (as the daemon answers)', async () => {
    const client = new FakeClient()
    const line = 'style: foreground #eeeeee on background #ffffff has a contrast of 1.16:1'
    client.qrData.writeError = apiError(400, line, [
      { field: 'style', message: line.slice('style: '.length) },
    ])
    const app = await openPane(client)
    await press(app, 'n')
    await frameWith(app, 'New QR code for c0')
    await press(app, KEY.down)
    await erase(app, '#000000')
    await press(app, '#eeeeee', CTRL_S)
    const frame = await frameWith(app, `${line} (HTTP 400)`)
    expect(frame.split(line).length - 1).toBe(1)
  })

  it('shows a viewer’s 403 under the form (the key lists the scope, the role bounds it)', async () => {
    const client = new FakeClient()
    client.qrData.writeError = apiError(403, 'Your role (viewer) cannot use the scope qrCodes:write')
    const app = await openPane(client, new Set(['links:read', 'qrCodes:read', 'qrCodes:write']))
    await press(app, 'n')
    await frameWith(app, 'New QR code for c0')
    await press(app, 'Mine', CTRL_S)
    await frameWith(app, 'not allowed: Your role (viewer) cannot use the scope qrCodes:write')
    expect(client.qrData.codes).toHaveLength(3)
  })

  it('a key without qrCodes:write is told so, and the footer offers no n/e', async () => {
    const client = new FakeClient()
    const app = await openPane(client, new Set(['links:read', 'qrCodes:read']))
    const frame = await frameWith(app, 'Esc back · Enter/p preview')
    expect(frame).not.toContain('n new')
    await press(app, 'n')
    await frameWith(app, 'n (new QR code) needs the scope qrCodes:write; this key does not have it')
    expect(client.calls).not.toContain('qrCodes.create')
  })

  it('previews the selected code drawn from its encodedUrl, without asking the daemon', async () => {
    const client = new FakeClient()
    const app = await openPane(client)
    const before = client.calls.length
    await press(app, 'p')
    const frame = await frameWith(app, '▀▀▀▀▀▀▀', 'http://s.test/c0?qr=qr_new', 'linkctl qr image qr_new')
    expect(client.calls.slice(before)).toEqual([])
    expect(frame).not.toContain('Poster')
    await press(app, KEY.escape)
    await frameWith(app, 'QR codes: 2', 'Poster')
  })

  it('a daemon without QR codes (their route 404) is said so in the pane, not as a failure', async () => {
    const client = new FakeClient()
    client.qrData.missing = true
    const app = renderTui({ client, initialScreen: 'links' })
    await frameWith(app, '30 links')
    await press(app, KEY.enter, 'c')
    const frame = await frameWith(app, 'This daemon has no QR codes (their route answered 404)')
    expect(frame).not.toContain('HTTP 404')
    await press(app, KEY.escape)
    await frameWith(app, 'Clicks, last 48 hours')
  })

  it('a smart link has the same pane', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'links' })
    await frameWith(app, '30 links')
    await press(app, 's')
    await frameWith(app, '2 smart links')
    await press(app, KEY.enter)
    await frameWith(app, 'smart link sml_1', 'c QR codes')
    await press(app, 'c')
    await frameWith(app, 'QR codes: 1 · 5 scans in all', 'Store sign')
    await press(app, 'n', 'Till', CTRL_S)
    await frameWhere(app, (f) => f.includes('QR codes: 2') && f.includes('Till'), 'the new code')
    expect(client.qrData.bodies[0]).toMatchObject({ smartLinkId: 'sml_1', title: 'Till' })
    await press(app, KEY.escape)
    await frameWith(app, 'smart link sml_1', 'Esc back · c QR codes')
  })
})
