/**
 * The Links screen: paging, search, the forms, the daemon's refusals and delete against a real
 * linkd; the list's movement, a link's figures and the scope rules against the fake client.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import type { Link } from '../../src/contract/links.js'
import { FakeClient, makeLink, makeSmartLink } from './fake-client.js'
import { frameWith, KEY, press, refreshUntil, renderTui, resize } from './harness.js'
import { newOrg, renderOnDaemon, useDaemon } from './tui-daemon.js'

afterEach(() => cleanup())

const daemon = useDaemon()

/** An organization on the daemon with `n` links (bulk creates), and the TUI on its Links screen. */
async function withLinks(
  n: number,
  make = (i: number) => ({ destinationUrl: `https://example.com/page/${i}` }),
) {
  const org = await newOrg(daemon())
  for (let from = 0; from < n; from += 1000) {
    const links = Array.from({ length: Math.min(1000, n - from) }, (_, i) => make(from + i))
    expect((await org.api.links.bulk({ links })).body.created).toBe(links.length)
  }
  const app = renderOnDaemon(daemon(), org.ownerKey, { initialScreen: 'links' })
  await frameWith(app, `${n.toLocaleString('en-US')} link`)
  return { org, app }
}

describe('links screen against linkd', () => {
  it('scrolls 3,000 links fetching only the pages it shows', async () => {
    const { org, app } = await withLinks(3000)
    // The daemon's order: newest first (the bulk's links share a time: then by id).
    const page = (p: number) =>
      org.api.links.list({ page: p, limit: 10, sortBy: 'createdAt', sortOrder: 'desc' })
    const first = (await page(1)).data[0]
    const last = (await page(300)).data.at(-1)
    await frameWith(app, `${first!.shortCode} `)
    await press(app, 'G')
    await frameWith(app, last!.shortCode, '3000 of 3000')
    await press(app, 'k', 'k')
    await frameWith(app, '2998 of 3000')
    await press(app, 'g')
    await frameWith(app, '1 of 3000', `${first!.shortCode} `)
    const pages = app.sent('links.list').map(([q]) => (q as { page: number }).page)
    // Page 1, the last page (30), page 1 again: never the 28 in between.
    expect(pages.length).toBeLessThan(10)
    expect(pages).toContain(30)
  })

  it('/ searches as you type; Esc clears the search', async () => {
    const { app } = await withLinks(30, (i) => ({
      destinationUrl: `https://example.com/page/${i}`,
      customSlug: `code-${i}`,
    }))
    await press(app, '/', '2', '7')
    const frame = await frameWith(app, 'Search: 27', 'code-27 ')
    expect(frame).not.toContain('code-26 ')
    expect(app.sent('links.list').at(-1)?.[0]).toMatchObject({ search: '27' })
    await press(app, KEY.escape)
    expect(await frameWith(app, '30 links', '1 of 30')).not.toContain('Search:')
  })

  it('creates a link through the form, showing the API validation messages first', async () => {
    const { org, app } = await withLinks(1)
    await press(app, 'n')
    await frameWith(app, 'New link', 'Destination URL')
    // Seven fields: the last three (expired URL, click limit, password) left empty.
    await press(app, 'ftp://x', KEY.enter, 'Spring sale', KEY.enter, 'spring', KEY.enter)
    await press(app, KEY.enter, KEY.enter, KEY.enter, KEY.enter)
    // The daemon's one field problem is its message: said once.
    const refused = await frameWith(app, 'destinationUrl must start with http:// or https:// (HTTP 400)')
    expect(refused).not.toContain('destinationUrl: must start')
    // Back to the first field, fix it, save.
    for (let i = 0; i < 6; i++) await press(app, KEY.up)
    for (let i = 0; i < 'ftp://x'.length; i++) await press(app, KEY.backspace)
    await press(app, 'https://shop.example/spring')
    for (let i = 0; i < 6; i++) await press(app, KEY.down)
    await press(app, KEY.enter)
    await frameWith(app, 'https://shop.example/spring', 'Spring sale', 'created')
    const [made] = (await org.api.links.list({ search: 'spring' })).data
    expect(made).toMatchObject({
      destinationUrl: 'https://shop.example/spring',
      shortCode: 'spring',
      title: 'Spring sale',
    })
  })

  it('edits a link, sending only what changed', async () => {
    const { org, app } = await withLinks(1, () => ({
      destinationUrl: 'https://example.com/a',
      title: 'Old title',
    }))
    const [link] = (await org.api.links.list()).data
    await press(app, 'e')
    await frameWith(app, `Edit ${link!.shortCode}`)
    await press(app, KEY.down)
    for (let i = 0; i < 'Old title'.length; i++) await press(app, KEY.backspace)
    // Enter through the other thirteen fields (the link options), saving on the last.
    await press(app, 'Renamed', ...Array<string>(13).fill(KEY.enter))
    await frameWith(app, 'Renamed', `saved ${link!.shortCode}`)
    expect(app.sent('links.update')).toEqual([[link!.id, { title: 'Renamed' }]])
    expect(await org.api.links.get(link!.id)).toMatchObject({
      title: 'Renamed',
      destinationUrl: 'https://example.com/a',
    })
  })

  it('a short code in use (a QR code): the refusal asked as a question, y forces it, n keeps it', async () => {
    const { org, app } = await withLinks(1, () => ({
      destinationUrl: 'https://example.com/a',
      customSlug: 'poster',
    }))
    const [link] = (await org.api.links.list()).data
    await org.api.qrCodes.create({ linkId: link!.id, title: 'Flyer' })
    const editCode = async (code: string) => {
      await press(app, 'e')
      await frameWith(app, 'Edit poster')
      // The fourth field: destination, title, tags, short code.
      await press(
        app,
        KEY.down,
        KEY.down,
        KEY.down,
        ...Array<string>('poster'.length).fill(KEY.backspace),
        code,
      )
      // Ctrl+S saves from any field.
      await press(app, '\x13')
    }
    await editCode('moved')
    // The daemon's refusal in its own words, then the question (wrapped at the screen's width).
    const asked = await frameWith(app, 'it anyway? [y/N]')
    expect(asked.replace(/\s+/g, ' ')).toContain(`${link!.shortUrl} is in use: 1 QR code`)
    await press(app, 'n')
    await frameWith(app, 'cancelled')
    expect((await org.api.links.get(link!.id)).shortCode).toBe('poster')

    await editCode('moved')
    await frameWith(app, 'it anyway? [y/N]')
    await press(app, 'y')
    await frameWith(app, 'saved moved')
    expect(app.sent('links.update').map(([, body]) => body)).toEqual([
      { shortCode: 'moved' },
      { shortCode: 'moved' },
      { shortCode: 'moved', force: true },
    ])
    expect((await org.api.links.get(link!.id)).shortCode).toBe('moved')
  })

  it('d asks about the link shown selected, after a link made elsewhere moved it down a row', async () => {
    const { org, app } = await withLinks(3, (i) => ({
      destinationUrl: `https://example.com/page/${i}`,
      customSlug: `keep-${i}`,
    }))
    const listed = (await org.api.links.list({ sortBy: 'createdAt', sortOrder: 'desc' })).data as Link[]
    await press(app, 'j')
    await frameWith(app, '2 of 3')
    const chosen = listed[1]!
    // A second later (newest first: listed above the others).
    daemon().clock.advance(1000)
    await org.api.links.create({ destinationUrl: 'https://example.com/new', customSlug: 'made-elsewhere' })
    await refreshUntil(app, (f) => f.includes('4 links'))
    await frameWith(app, '3 of 4')
    await press(app, 'd')
    await frameWith(app, `Delete ${chosen.shortCode} (${chosen.destinationUrl})?`)
    await press(app, 'y')
    await frameWith(app, `deleted ${chosen.shortCode}`, '3 links')
    const left = ((await org.api.links.list()).data as Link[]).map((l) => l.shortCode)
    expect(left).toContain('made-elsewhere')
    expect(left).not.toContain(chosen.shortCode)
  })

  it('deletes only after y; any other key cancels', async () => {
    const { org, app } = await withLinks(2, (i) => ({
      destinationUrl: `https://example.com/page/${i}`,
      customSlug: `del-${i}`,
    }))
    const [top] = (await org.api.links.list({ sortBy: 'createdAt', sortOrder: 'desc' })).data
    await press(app, 'd')
    await frameWith(
      app,
      `Delete ${top!.shortCode} (${top!.destinationUrl})? Its short URL stops working. [y/N]`,
    )
    await press(app, 'n')
    await frameWith(app, 'cancelled')
    expect((await org.api.links.list()).total).toBe(2)
    await press(app, 'd', 'y')
    await frameWith(app, `deleted ${top!.shortCode}`, '1 link')
    expect((await org.api.links.list()).data.map((l: Link) => l.id)).not.toContain(top!.id)
  })

  it('takes every key of one write, in order: four Backspaces, several Enters, j j j', async () => {
    const { org, app } = await withLinks(5)
    await frameWith(app, '1 of 5')
    await press(app, 'jjj')
    await frameWith(app, '4 of 5')
    await press(app, 'n')
    await frameWith(app, 'New link')
    await press(app, 'https://example.com/abcd')
    await press(app, '\x7f\x7f\x7f\x7fwxyz\rT\r\r\r\r\r\r')
    await frameWith(app, 'created')
    const [made] = (await org.api.links.list({ sortBy: 'createdAt', sortOrder: 'desc', search: 'wxyz' })).data
    expect(made).toMatchObject({ destinationUrl: 'https://example.com/wxyz', title: 'T' })
  })

  it('Q draws the link’s QR code in place of its figures, and back', async () => {
    const { org, app } = await withLinks(1)
    const [link] = (await org.api.links.list()).data
    await press(app, KEY.enter)
    await frameWith(app, 'Clicks, last 48 hours')
    await press(app, 'Q')
    const frame = await frameWith(app, '▀▀▀▀▀▀▀', 'Q figures')
    expect(frame).not.toContain('Clicks, last 48 hours')
    expect(app.sent('links.qr').map(([id]) => id)).toEqual([link!.id])
    await press(app, 'Q')
    await frameWith(app, 'Clicks, last 48 hours')
  })
})

describe('links screen, rendering', () => {
  it('a value longer than the terminal takes three lines at most (one unfocused), its end shown, the label whole', async () => {
    const app = renderTui({ initialScreen: 'links' })
    resize(app, 80, 24)
    await frameWith(app, '30 links')
    await press(app, 'n')
    await frameWith(app, 'New link', 'Destination URL')
    const url = `https://example.com/${'a'.repeat(2000)}/end`
    await press(app, url, KEY.enter, `${'T'.repeat(300)} the end`)
    const frame = await frameWith(app, 'the end')
    const lines = frame.split('\n')
    expect(lines.length).toBeLessThanOrEqual(24)
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80)
    // The focused field in three lines at most, the others in one: the end of the value last.
    expect(frame).toMatch(/^ {2}Destination URL: …a+\/end\n› Title/m)
    expect(frame).toMatch(/^› Title \(optional\): …T+\n {20}T+\n {20}T+ the end *\n {2}Custom short code/m)
  })

  it('the selection stays on its link when new links are listed above it, and Enter opens that link', async () => {
    const app = renderTui({ initialScreen: 'links' })
    await frameWith(app, '30 links')
    await press(app, 'j', 'j')
    await frameWith(app, '3 of 30')
    // Two links made elsewhere: newest first, above the selected one.
    app.client.state.links.unshift(makeLink(101), makeLink(100))
    app.refresh()
    await frameWith(app, '32 links', 'c101 ', '5 of 32')
    await press(app, KEY.enter)
    await frameWith(app, 'Link number 2')
    await press(app, KEY.escape)
    // A move goes on from there; a link deleted elsewhere above it moves the selection up with it.
    await press(app, 'j')
    await frameWith(app, '6 of 32')
    app.client.state.links.splice(0, 1)
    app.refresh()
    await frameWith(app, '31 links', '5 of 31')
    await press(app, KEY.enter)
    await frameWith(app, 'Link number 3')
  })

  it('the smart links list keeps its selection on its smart link the same way', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'links' })
    await frameWith(app, '30 links')
    await press(app, 's')
    await frameWith(app, '2 smart links')
    await press(app, 'j')
    await frameWith(app, '2 of 2')
    client.state.smartLinks!.unshift(makeSmartLink(9))
    app.refresh()
    await frameWith(app, '3 smart links', 'play9', '3 of 3')
    await press(app, KEY.enter)
    await frameWith(app, 'smart link sml_2')
  })

  it('j/k move the selection and the list scrolls with it', async () => {
    const app = renderTui({ initialScreen: 'links' })
    await frameWith(app, '30 links')
    for (let i = 0; i < 25; i++) await press(app, 'j')
    const frame = await frameWith(app, '26 of 30')
    expect(frame).toContain('c25 ')
    expect(frame).not.toContain('c0 ')
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
})
