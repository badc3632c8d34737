/**
 * The QR pane of a link's and a smart link's detail: create, edit, delete and the daemon's refusals
 * against a real linkd; the list's figures, scopes, the preview and an older daemon against the fake.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { LinkdClient } from '../../src/client/index.js'
import type { TestDaemon } from '../support/daemon.js'
import { FakeClient } from './fake-client.js'
import { frameWhere, frameWith, KEY, press, refreshUntil, renderTui, type Rendered } from './harness.js'
import { newOrg, renderOnDaemon, useDaemon, type Org } from './tui-daemon.js'

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
const erase = (app: Pick<Rendered, 'stdin'>, text: string) =>
  press(app, ...Array<string>(text.length).fill(KEY.backspace))

describe('QR codes in the Links screen, rendering', () => {
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
})

const daemon = useDaemon()
let slugs = 0

/**
 * A link on the daemon with two codes, Poster then Flyer (a second later: listed first), and the
 * TUI (the owner key unless `key`) on its QR pane.
 */
async function paneOnDaemon(key?: (d: TestDaemon, org: Org) => Promise<string>) {
  const d = daemon()
  const org = await newOrg(d)
  const link = await org.api.links.create({
    destinationUrl: 'https://example.com/qr',
    customSlug: `qr-${++slugs}`,
  })
  const poster = await org.api.qrCodes.create({ linkId: link.id, title: 'Poster' })
  d.clock.advance(1000)
  const flyer = await org.api.qrCodes.create({ linkId: link.id, title: 'Flyer' })
  const app = renderOnDaemon(d, key ? await key(d, org) : org.ownerKey, { initialScreen: 'links' })
  await frameWith(app, '1 link')
  await press(app, KEY.enter)
  await frameWith(app, link.shortUrl, 'c QR codes')
  await press(app, 'c')
  await frameWith(app, 'QR codes: 2')
  return { d, org, link, poster, flyer, app }
}

const titles = async (org: Org, linkId: string) =>
  (await org.api.qrCodes.list({ linkId })).data.map((c) => c.title)

describe('QR codes in the Links screen against linkd', () => {
  it('creates a code: the form’s title and style sent as the body', async () => {
    const { d, org, link, app } = await paneOnDaemon()
    d.clock.advance(1000)
    await press(app, 'n')
    await frameWith(app, `New QR code for ${link.shortCode} (no logo here`, 'Foreground (#rrggbb): #000000')
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
    expect(app.sent('qrCodes.create')).toEqual([
      [
        {
          linkId: link.id,
          title: 'Bus stop',
          style: { foreground: '#1f2937', background: 'transparent', errorCorrection: 'Q', margin: 2 },
        },
      ],
    ])
    const made = (await org.api.qrCodes.list({ linkId: link.id })).data.find((c) => c.title === 'Bus stop')
    expect(made?.style).toMatchObject({
      foreground: '#1f2937',
      background: 'transparent',
      errorCorrection: 'Q',
      margin: 2,
    })
  })

  it('edits the selected code with Ctrl+S, sending only what changed', async () => {
    const { org, poster, app } = await paneOnDaemon()
    await press(app, 'j')
    await press(app, 'e')
    await frameWith(app, 'Edit the QR code “Poster”', 'Title (empty: none): Poster')
    await erase(app, 'Poster')
    await press(app, 'Big poster', KEY.down, KEY.down, KEY.down)
    await erase(app, 'M')
    await press(app, 'H', CTRL_S)
    await frameWith(app, 'saved the QR code “Big poster”')
    // The list, read again, shows the code as the daemon now has it.
    await frameWhere(app, (f) => /Big poster\s+0 .*#000000 on #ffffff, H/.test(f), 'the code saved')
    expect(app.sent('qrCodes.update')).toEqual([
      [poster.id, { title: 'Big poster', style: { errorCorrection: 'H' } }],
    ])
    expect(await org.api.qrCodes.get(poster.id)).toMatchObject({
      title: 'Big poster',
      style: { errorCorrection: 'H' },
    })
  })

  it('saves the code it opened even when a refresh meanwhile brings a newer code above it', async () => {
    const { d, org, link, poster, app } = await paneOnDaemon()
    await press(app, 'j', 'e')
    await frameWith(app, 'Edit the QR code “Poster”')
    d.clock.advance(1000)
    await org.api.qrCodes.create({ linkId: link.id, title: 'Made elsewhere' })
    const lists = () => app.sent('qrCodes.list').length
    const seen = lists()
    app.refresh()
    await frameWhere(app, () => lists() > seen, 'a refresh')
    await press(app, '!', CTRL_S)
    await frameWith(app, 'saved the QR code “Poster!”')
    expect(app.sent('qrCodes.update').map(([id]) => id)).toEqual([poster.id])
    expect(await titles(org, link.id)).toEqual(['Made elsewhere', 'Flyer', 'Poster!'])
  })

  it('d asks about the code shown selected after a refresh lists a newer code above it', async () => {
    const { d, org, link, poster, app } = await paneOnDaemon()
    await press(app, 'j')
    d.clock.advance(1000)
    await org.api.qrCodes.create({ linkId: link.id, title: 'Made elsewhere' })
    await refreshUntil(app, (f) => f.includes('QR codes: 3'))
    await press(app, 'd')
    await frameWith(app, 'Delete the QR code “Poster”')
    await press(app, 'y')
    await frameWith(app, 'deleted the QR code “Poster”', 'QR codes: 2')
    expect(app.sent('qrCodes.delete')).toEqual([[poster.id]])
    expect(await titles(org, link.id)).toEqual(['Made elsewhere', 'Flyer'])
  })

  it('deletes the selected code only after y', async () => {
    const { org, link, flyer, app } = await paneOnDaemon()
    await press(app, 'd')
    await frameWith(app, 'Delete the QR code “Flyer” (0 scans)? [y/N]')
    await press(app, 'n')
    await frameWith(app, 'cancelled', 'QR codes: 2')
    expect(app.sent('qrCodes.delete')).toEqual([])
    await press(app, 'd')
    await frameWith(app, 'Delete the QR code “Flyer”')
    await press(app, 'y')
    const frame = await frameWith(app, 'deleted the QR code “Flyer”', 'QR codes: 1')
    expect(frame).not.toContain('Flyer ')
    expect(app.sent('qrCodes.delete')).toEqual([[flyer.id]])
    expect(await titles(org, link.id)).toEqual(['Poster'])
  })

  it('shows the daemon’s 400 (contrast too low) once, under the form, which stays open', async () => {
    const { org, link, app } = await paneOnDaemon()
    await press(app, 'n')
    await frameWith(app, `New QR code for ${link.shortCode}`)
    await press(app, KEY.down)
    await erase(app, '#000000')
    await press(app, '#eeeeee', CTRL_S)
    const frame = await frameWith(app, '(HTTP 400)', 'contrast')
    const said = frame.replace(/\s+/g, ' ')
    expect(said).toMatch(/foreground #eeeeee on background #ffffff has a contrast of 1\.\d+:1/)
    expect(said.split('has a contrast of').length - 1).toBe(1)
    expect(frame).toContain(`New QR code for ${link.shortCode}`)
    expect(await titles(org, link.id)).toHaveLength(2)
  })

  it('shows a viewer’s 403 under the form (the key lists the scope, the role bounds it)', async () => {
    const { org, link, app } = await paneOnDaemon(async (d, org) => {
      // A viewer whose key names qrCodes:write: the role bounds it.
      const { token } = await org.api.team.invite({ email: 'viewer@example.com', role: 'viewer' })
      const viewer = await new LinkdClient({ baseUrl: d.url }).team.accept(token, 'Vi')
      expect(viewer.apiKey.permissions).toContain('qrCodes:write')
      return viewer.apiKey.key
    })
    await press(app, 'n')
    await frameWith(app, `New QR code for ${link.shortCode}`)
    await press(app, 'Mine', CTRL_S)
    const frame = await frameWith(app, 'not allowed:', 'viewer')
    expect(frame.replace(/\s+/g, ' ')).toContain('qrCodes:write')
    expect(await titles(org, link.id)).toHaveLength(2)
  })

  it('a smart link has the same pane', async () => {
    const d = daemon()
    const org = await newOrg(d)
    const smart = await org.api.smartLinks.create({
      fallbackUrl: 'https://game.example/',
      ios: { url: 'https://apps.apple.com/app/id1' },
      shortCode: `play-${++slugs}`,
    })
    await org.api.qrCodes.create({ smartLinkId: smart.id, title: 'Store sign' })
    const app = renderOnDaemon(d, org.ownerKey, { initialScreen: 'links' })
    await frameWith(app, '0 links')
    await press(app, 's')
    await frameWith(app, '1 smart link')
    await press(app, KEY.enter)
    await frameWith(app, `smart link ${smart.id}`, 'c QR codes')
    await press(app, 'c')
    await frameWith(app, 'QR codes: 1', 'Store sign')
    await press(app, 'n', 'Till', CTRL_S)
    await frameWhere(app, (f) => f.includes('QR codes: 2') && f.includes('Till'), 'the new code')
    expect(app.sent('qrCodes.create')).toEqual([
      [expect.objectContaining({ smartLinkId: smart.id, title: 'Till' })],
    ])
    expect((await org.api.qrCodes.list({ smartLinkId: smart.id })).total).toBe(2)
    await press(app, KEY.escape)
    await frameWith(app, `smart link ${smart.id}`, 'Esc back · c QR codes')
  })
})
