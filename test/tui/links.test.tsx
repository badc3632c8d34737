/** The Links screen against the fake client: 100k links scrolled page by page, search, detail, forms, delete. */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { apiError, FakeClient, fakeState } from './fake-client.js'
import { frameWith, KEY, press, renderTui } from './harness.js'

afterEach(() => cleanup())

describe('links screen', () => {
  it('scrolls 100k links fetching only the pages it shows', async () => {
    const client = new FakeClient(fakeState(100_000))
    const app = renderTui({ client, initialScreen: 'links' })
    await frameWith(app, '100,000 links', 'c0 ', 'c1 ')
    await press(app, 'G')
    await frameWith(app, 'c99999', '100000 of 100000')
    await press(app, 'k', 'k')
    await frameWith(app, '99998 of 100000')
    await press(app, 'g')
    await frameWith(app, '1 of 100000', 'c0 ')
    const pages = client.calls.filter((c) => c.startsWith('links.list'))
    // page 1, the last page (1000), page 1 again: never the 998 in between.
    expect(pages.length).toBeLessThan(10)
    expect(pages).toContain('links.list page=1000')
  })

  it('j/k move the selection and the list scrolls with it', async () => {
    const app = renderTui({ initialScreen: 'links' })
    await frameWith(app, '30 links')
    for (let i = 0; i < 25; i++) await press(app, 'j')
    const frame = await frameWith(app, '26 of 30')
    expect(frame).toContain('c25 ')
    expect(frame).not.toContain('c0 ')
  })

  it('/ searches as you type; Esc clears the search', async () => {
    const app = renderTui({ initialScreen: 'links' })
    await frameWith(app, '30 links')
    await press(app, '/', '2', '7')
    const frame = await frameWith(app, 'Search: 27', 'c27 ')
    expect(frame).not.toContain('c26 ')
    await press(app, KEY.escape)
    await frameWith(app, '30 links', 'c1 ')
  })

  it('opens a link: figures, a sparkline that follows the refresh, top countries and referrers', async () => {
    const client = new FakeClient()
    client.state.series.set('lnk_0', [0, 4, 8])
    const app = renderTui({ client, initialScreen: 'links' })
    await frameWith(app, '30 links')
    await press(app, KEY.enter)
    const frame = await frameWith(app, 'http://s.test/c0', 'Clicks, last 48 hours: 12')
    expect(frame).toContain('▁▅█')
    expect(frame).toContain('FR')
    expect(frame).toContain('news.ycombinato…      5')
    expect(frame).toContain('mobile')
    client.state.series.set('lnk_0', [0, 4, 8, 16])
    app.refresh()
    await frameWith(app, 'Clicks, last 48 hours: 28', '▁▃▅█')
  })

  it('counts clicks in words: 1 click, 0 and 2 clicks', async () => {
    const app = renderTui({ initialScreen: 'links' })
    await frameWith(app, '30 links')
    await press(app, 'j', KEY.enter)
    await frameWith(app, 'http://s.test/c1', '· 1 click in all')
    await press(app, KEY.escape, 'j', KEY.enter)
    await frameWith(app, 'http://s.test/c2', '· 2 clicks in all')
    await press(app, KEY.escape, 'g', KEY.enter)
    await frameWith(app, 'http://s.test/c0', '· 0 clicks in all')
  })

  it('creates a link through the form, showing the API validation messages first', async () => {
    const client = new FakeClient()
    client.linkWriteError = apiError(400, 'destinationUrl must be an http(s) URL', [
      { field: 'destinationUrl', message: 'must match the http(s) URL pattern' },
    ])
    const app = renderTui({ client, initialScreen: 'links' })
    await frameWith(app, '30 links')
    await press(app, 'n')
    await frameWith(app, 'New link', 'Destination URL')
    // Seven fields: the last three (expired URL, click limit, password) left empty.
    await press(app, 'ftp://x', KEY.enter, 'Spring sale', KEY.enter, 'spring', KEY.enter)
    await press(app, KEY.enter, KEY.enter, KEY.enter, KEY.enter)
    await frameWith(
      app,
      'destinationUrl must be an http(s) URL',
      'destinationUrl: must match the http(s) URL pattern',
    )
    // Back to the first field, fix it, save.
    for (let i = 0; i < 6; i++) await press(app, KEY.up)
    for (let i = 0; i < 'ftp://x'.length; i++) await press(app, KEY.backspace)
    await press(app, 'https://shop.example/spring')
    for (let i = 0; i < 6; i++) await press(app, KEY.down)
    await press(app, KEY.enter)
    const frame = await frameWith(app, 'https://shop.example/spring', 'Spring sale')
    expect(frame).toContain('spring')
    expect(client.state.links[0]?.destinationUrl).toBe('https://shop.example/spring')
    expect(client.state.links[0]?.shortCode).toBe('spring')
  })

  it('edits a link, sending only what changed', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'links' })
    await frameWith(app, '30 links')
    await press(app, 'e')
    await frameWith(app, 'Edit c0')
    await press(app, KEY.down)
    for (let i = 0; i < 'Link number 0'.length; i++) await press(app, KEY.backspace)
    // Enter through the other twelve fields (the link options), saving on the last.
    await press(app, 'Renamed', ...Array<string>(12).fill(KEY.enter))
    await frameWith(app, 'Renamed', 'saved c0')
    expect(client.state.links[0]?.title).toBe('Renamed')
    expect(client.calls).toContain('links.update lnk_0')
  })

  it('a short code in use (QR codes, recent clicks): the refusal asked as a question, y forces it, n keeps it', async () => {
    const client = new FakeClient()
    const inUse = () =>
      apiError(
        409,
        'http://s.test/c0 is in use: 1 QR code ("Flyer" qr_1); after the change it would answer 404',
        [{ field: 'force', message: 'true changes it anyway' }],
      )
    const app = renderTui({ client, initialScreen: 'links' })
    await frameWith(app, '30 links')
    const editCode = async (code: string) => {
      await press(app, 'e')
      await frameWith(app, 'Edit c0')
      // The fourth field: destination, title, tags, short code.
      await press(app, KEY.down, KEY.down, KEY.down, KEY.backspace, KEY.backspace, code)
      // Ctrl+S saves from any field.
      await press(app, '\x13')
    }
    client.linkWriteError = inUse()
    await editCode('spring')
    // The refusal's own words, then the question (wrapped at the screen's width).
    await frameWith(
      app,
      'http://s.test/c0 is in use: 1 QR code ("Flyer" qr_1); after the change',
      'it anyway? [y/N]',
    )
    await press(app, 'n')
    await frameWith(app, 'cancelled')
    expect(client.state.links[0]?.shortCode).toBe('c0')
    expect(client.linkBodies).toEqual([{ shortCode: 'spring' }])

    client.linkWriteError = inUse()
    await editCode('spring')
    await frameWith(app, 'it anyway? [y/N]')
    await press(app, 'y')
    await frameWith(app, 'saved spring')
    expect(client.linkBodies.slice(1)).toEqual([
      { shortCode: 'spring' },
      { shortCode: 'spring', force: true },
    ])
    expect(client.state.links[0]?.shortCode).toBe('spring')
  })

  it('deletes only after y; any other key cancels', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'links' })
    await frameWith(app, '30 links')
    await press(app, 'd')
    await frameWith(app, 'Delete c0 (https://example.com/page/0)? Its short URL stops working. [y/N]')
    await press(app, 'n')
    await frameWith(app, 'cancelled')
    expect(client.state.links).toHaveLength(30)
    await press(app, 'd', 'y')
    await frameWith(app, 'deleted c0', '29 links')
    expect(client.calls).toContain('links.delete lnk_0')
  })

  it('offers a read-only key no write action; n and d say which scope they need', async () => {
    const app = renderTui({ initialScreen: 'links', scopes: new Set(['links:read']) })
    const list = await frameWith(app, '30 links')
    expect(list).toContain('30 links · / search · Enter open')
    expect(list).not.toMatch(/n new|e edit|d delete/)
    await press(app, 'n')
    const said = await frameWith(app, 'n (new link) needs the scope links:write; this key does not have it')
    expect(said).not.toContain('New link')
    await press(app, 'd')
    expect(await frameWith(app, 'd (delete) needs the scope links:delete')).not.toContain('Delete')
    await press(app, KEY.enter)
    const detail = await frameWith(app, 'Link number 0', 'Esc back')
    expect(detail).not.toMatch(/e edit|d delete|Q QR code/)
  })

  it('Ctrl-L redraws and nothing else: it does not open the selected link', async () => {
    let redraws = 0
    const app = renderTui({ initialScreen: 'links', redraw: () => redraws++ })
    await frameWith(app, '30 links', '1 of 30')
    await press(app, '\f', 'j')
    const frame = await frameWith(app, '2 of 30')
    expect(frame).not.toContain('Esc back')
    expect(redraws).toBe(1)
  })

  it('takes every key of one write, in order: four Backspaces, several Enters, j j j', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'links' })
    await frameWith(app, '30 links', '1 of 30')
    await press(app, 'jjj')
    await frameWith(app, '4 of 30')
    await press(app, 'n')
    await frameWith(app, 'New link')
    await press(app, 'https://example.com/abcd')
    await press(app, '\x7f\x7f\x7f\x7fwxyz\rT\r\r\r\r\r\r')
    await frameWith(app, 'created')
    expect(client.calls).toContainEqual(expect.stringMatching(/^links\.create/))
    expect(client.state.links[0]).toMatchObject({ destinationUrl: 'https://example.com/wxyz', title: 'T' })
  })

  it('Q draws the link’s QR code in place of its figures, and back', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'links' })
    await frameWith(app, '30 links')
    await press(app, KEY.enter)
    await frameWith(app, 'Clicks, last 48 hours')
    await press(app, 'Q')
    const frame = await frameWith(app, '▀▀▀▀▀▀▀', 'Q figures')
    expect(frame).not.toContain('Clicks, last 48 hours')
    expect(client.calls).toContain('links.qr lnk_0')
    await press(app, 'Q')
    await frameWith(app, 'Clicks, last 48 hours')
  })
})
