/**
 * Every screen at 80×24 (the smallest terminal the TUI supports) and at 100×30, with ids, names
 * and URLs of the lengths a real daemon gives: ids, codes and times whole; no line wider than the
 * terminal; titles, names and URLs cut with an ellipsis instead; `?` wraps each description under
 * its own column.
 */
import { stripVTControlCharacters } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import type { Game } from '../../src/contract/games.js'
import { SCREENS } from '../../src/tui/screens/index.js'
import { FakeClient, makeDelivery, makeDomain, makeKey, makeLink, makeSmartLink } from './fake-client.js'
import { page } from './fake-data.js'
import { makeFraudEvent } from './fake-fraud-skan.js'
import { makeQrCode } from './fake-qr.js'
import { makeMember } from './fake-team.js'
import { frameWith, KEY, press, renderTui, resize, type Rendered } from './harness.js'
import { ManualClock } from './manual-clock.js'

afterEach(() => cleanup())

const clock = () => new ManualClock()
/** The widest relative time ("59 minutes ago"), from the clock's now. */
const minutesAgo = (c: ManualClock, n: number) => new Date(c.now() - n * 60_000).toISOString()

const LONG_TITLE = 'Spring sale newsletter for the whole of the European market, second wave'
const LONG_URL =
  'https://shop.example.com/collections/spring-2026/sale?utm_source=newsletter&utm_medium=email'
const PLAYER = '8f14e45f-ceea-467a-9a36-dedd4bea2543'
const GAME = 'space-raiders-deluxe-edition'
const IDS = {
  code: 'spring-sale-2026-eu',
  key: 'lk_•••Zx9Q',
  domain: 'go.some-very-long-subdomain.example-company.com',
  game: GAME,
  member: 'mem_fhlrql0693d0wsbftnc7',
  invitation: 'inv_ym1niqhp8223108ph40w',
  deletion: 'gdpr_k2j4h5g6f7d8s9a0q1w2',
  qr: 'qr_8f14e45fceea167a5a36',
  smart: 'sml_x8c7v6b5n4m3l2k1j0hg',
  adNetwork: 'cstr6suwn9.skadnetwork',
}

/** A fake daemon whose data has real lengths: long names and URLs, full-length ids. */
function wideClient(c: ManualClock): FakeClient {
  const client = new FakeClient()
  const s = client.state
  s.links.unshift(
    makeLink(900, {
      id: 'lnk_wide',
      shortCode: IDS.code,
      shortUrl: `http://s.test/${IDS.code}`,
      title: LONG_TITLE,
      destinationUrl: LONG_URL,
      createdAt: minutesAgo(c, 59),
      clicks: 123_456,
    }),
  )
  s.smartLinks!.unshift(makeSmartLink(900, { id: IDS.smart, shortCode: IDS.code, title: LONG_TITLE }))
  s.platforms.set('lnk_wide', [{ platform: 'ios', clicks: 3, percentage: 100 }])
  s.installRevenue.set('lnk_wide', [{ gameId: GAME, installs: 12, revenue: 345.6, currency: 'USD' }])
  s.keys.unshift(
    makeKey('key_wide', {
      name: 'Deploy bot for the marketing website production',
      preview: IDS.key,
      lastUsedAt: minutesAgo(c, 59),
      permissions: ['links:read', 'links:write', 'links:delete', 'analytics:read', 'qrCodes:read'],
    }),
  )
  s.domains.unshift(makeDomain('wide', { domain: IDS.domain, sslExpiresAt: '2027-02-01T00:00:00.000Z' }))
  s.webhooks[0]!.name = 'Slack notifier for the campaign team'
  s.webhooks[0]!.url = LONG_URL
  s.deliveries.set('wh_ok', [
    makeDelivery('dl_wide', 'wh_ok', {
      event: 'domain.certificate_renewed',
      createdAt: minutesAgo(c, 59),
      error: 'connection reset by peer while reading the response headers',
      status: 'failed',
    }),
  ])
  const games = [GAME, 'game-2'].map(
    (id) =>
      ({
        id,
        name: id === GAME ? 'Space Raiders Deluxe Edition: The Return of the Raiders' : 'Game 2',
        status: 'active',
        platform: 'playstation',
        reportingCurrency: 'USD',
        modules: { analytics: true, fraud: true, skan: true },
      }) as Game,
  )
  client.games.list = () => Promise.resolve(page(games))
  client.fraudData.events.unshift(makeFraudEvent(9, { playerId: PLAYER, threatType: 'device_farm' }))
  client.skanData.campaigns.forEach((camp) => Object.assign(camp, { gameId: GAME }))
  client.skanData.campaigns[0]!.adNetworkId = IDS.adNetwork
  client.skanData.campaigns[0]!.name = LONG_TITLE
  client.teamData.members.push(
    makeMember(
      IDS.member,
      'Alexandra Konstantinopoulou-Smythe',
      'admin',
      'someone.with.a.long.address@marketing.example.com',
    ),
  )
  client.teamData.invitations[0]!.id = IDS.invitation
  client.teamData.invitations[0]!.email = 'another.long.address@marketing.example.com'
  client.deletions.set(IDS.deletion, {
    id: IDS.deletion,
    gameId: GAME,
    playerId: PLAYER,
    reason: 'gdpr_request',
    status: 'completed',
    createdAt: minutesAgo(c, 59),
    completedAt: minutesAgo(c, 58),
    purged: { game_events: 1234, game_players: 1 },
  } as never)
  client.qrData.codes.push(makeQrCode(IDS.qr, { linkId: 'lnk_wide' }, { title: LONG_TITLE, scans: 7 }))
  return client
}

const SIZES: [columns: number, rows: number][] = [
  [80, 24],
  [100, 30],
]

async function at(columns: number, rows: number, initialScreen: string): Promise<Rendered> {
  const c = clock()
  const app = renderTui({ client: wideClient(c), clock: c, initialScreen })
  resize(app, columns, rows)
  return app
}

/** The frame fits the terminal: no line wider, no more lines. */
function fits(frame: string, columns: number, rows: number): void {
  const lines = frame.split('\n')
  expect(lines.length).toBeLessThanOrEqual(rows)
  for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(columns)
}

describe.each(SIZES)('at %i×%i', (columns, rows) => {
  const show = async (app: Rendered, ...texts: string[]) => {
    const frame = await frameWith(app, ...texts)
    if (process.env.LINKD_TUI_DUMP) process.stdout.write(`\n${frame}\n`)
    fits(frame, columns, rows)
    return frame
  }

  it('Links: the code and its age whole, the title cut; a link’s detail and QR codes; smart links', async () => {
    const app = await at(columns, rows, 'links')
    const list = await show(app, IDS.code, '59 minutes ago')
    expect(list).toMatch(new RegExp(`${IDS.code} +123456 59 minutes ago +Spring sale.*…`))
    await press(app, KEY.enter)
    const detail = await show(app, 'Clicks, last 48 hours')
    expect(detail).toContain(`http://s.test/${IDS.code}`)
    expect(detail).toMatch(new RegExp(`${GAME} +12 installs`))
    await press(app, 'c')
    const codes = await show(app, IDS.qr)
    expect(codes).toMatch(new RegExp(`${IDS.qr} +Spring sale.*…? +7 `))
    await press(app, KEY.escape, KEY.escape, 's')
    const smart = await show(app, 'smart links ·', IDS.code)
    expect(smart).toMatch(new RegExp(`${IDS.code} +\\d+ +Spring sale`))
  })

  it('a QR code drawn in a link’s detail fits, with its quiet zone and the way back', async () => {
    const app = await at(columns, rows, 'links')
    await show(app, IDS.code)
    await press(app, KEY.enter, 'c')
    await show(app, IDS.qr)
    await press(app, 'p')
    const frame = await show(app, '▀▀▀▀▀▀▀', `Esc back · the styled image: linkctl qr image ${IDS.qr}`)
    const lines = frame.split('\n').map((l) => stripVTControlCharacters(l))
    expect(lines[0]).toContain(' 2 Links ')
    // The code's line (the title cut, the URL it encodes whole), then the drawing: nothing laid over either.
    expect(lines[1]).toMatch(new RegExp(`^“Spring sale.*… → http://s\\.test/\\S+\\?qr=${IDS.qr}$`))
    expect(lines[2]).toMatch(/^ ▄▄▄▄▄▄▄ /)
    await press(app, KEY.escape)
    expect(await show(app, IDS.qr, 'Enter/p preview')).toContain(`http://s.test/${IDS.code}`)
  })

  it('a link with every rule and variant it may have: its detail fits, what does not is said, the keys shown', async () => {
    const c = clock()
    const client = wideClient(c)
    const link = client.state.links[0]!
    link.rules = Array.from({ length: 20 }, (_, i) => ({
      conditions: [{ type: 'country' as const, value: `D${String.fromCharCode(65 + i)}` }],
      destinationUrl: `https://example.com/country/${i}`,
    }))
    link.variants = Array.from({ length: 10 }, (_, i) => ({
      destinationUrl: `https://example.com/v${i}`,
      weight: 10,
    }))
    link.maxClicks = 100
    const app = renderTui({ client, clock: c, initialScreen: 'links' })
    resize(app, columns, rows)
    await show(app, IDS.code)
    await press(app, KEY.enter)
    const frame = await show(app, 'Esc back · e edit', `more: linkctl links get ${IDS.code}`)
    const lines = frame.split('\n')
    expect(lines[0]).toContain(' 2 Links ')
    expect(lines[1]).toContain(`http://s.test/${IDS.code}  →  `)
    // The options shown are whole lines, in order, none drawn over another.
    const shown = lines.filter((l) => /^rule \d+: /.test(l))
    expect(shown.length).toBeGreaterThan(0)
    // Its edit form, every field filled, still fits once the daemon refuses it.
    await press(app, KEY.escape, 'e')
    await show(app, `Edit ${IDS.code}`, 'Split destinations')
    await press(app, '\x15', 'ftp://x', '\x13')
    const refused = await show(app, 'links.update is not served')
    expect(refused).toMatch(/^ {2}Rules, .*: …/m)
    expect(refused.split('\n')[0]).toContain(' 2 Links ')
    shown.forEach((line, i) =>
      expect(line).toBe(
        `rule ${i + 1}: country:D${String.fromCharCode(65 + i)}=>https://example.com/country/${i}`,
      ),
    )
  })

  it('a QR code too tall for the terminal is said so, not drawn cut or over the lines around it', async () => {
    const app = await at(columns, rows, 'links')
    const code = app.client.qrData.codes.find((c) => c.id === IDS.qr)!
    code.encodedUrl = `https://${IDS.domain}/${'x'.repeat(150)}?qr=${IDS.qr}`
    await show(app, IDS.code)
    await press(app, KEY.enter, 'c')
    await show(app, IDS.qr)
    await press(app, 'p')
    const frame = await show(app, 'does not fit', `linkctl qr image ${IDS.qr}`)
    expect(frame).toMatch(/the drawing needs \d+ rows, \d+ are free here/)
    expect(frame).not.toContain('▀▀▀')
  })

  it('Q: a link’s QR code too tall under its lines is said so, with the keys still shown', async () => {
    const c = clock()
    const client = wideClient(c)
    client.state.links[0]!.shortUrl = `https://${IDS.domain}/${'x'.repeat(150)}`
    const app = renderTui({ client, clock: c, initialScreen: 'links' })
    resize(app, columns, rows)
    await show(app, IDS.code)
    await press(app, KEY.enter, 'Q')
    const frame = await show(app, 'does not fit', 'Esc back · e edit')
    expect(frame).not.toContain('▀▀▀')
  })

  it('Keys, Domains, Webhooks: previews, domains, events and times whole', async () => {
    const keys = await at(columns, rows, 'keys')
    expect(await show(keys, IDS.key)).toMatch(new RegExp(`Deploy bot.* ${IDS.key} .* 59 minutes ago `))
    cleanup()
    const domains = await at(columns, rows, 'domains')
    expect(await show(domains, IDS.domain)).toMatch(new RegExp(`${IDS.domain} +pending +none`))
    cleanup()
    const hooks = await at(columns, rows, 'webhooks')
    const frame = await show(hooks, 'domain.certificate_renewed')
    expect(frame).toMatch(/Slack notifier.* +healthy +https:\/\/shop\.example\.com.*…/)
    expect(frame).toMatch(/domain\.certificate_renewed +failed +200 +42 ms +59 minutes ago +connection/)
  })

  it('Games, Fraud, SKAN: game ids, player ids and ad networks whole', async () => {
    for (const screen of ['games', 'fraud', 'skan']) {
      const app = await at(columns, rows, screen)
      expect(await show(app, GAME)).toMatch(new RegExp(`Space Raiders.* ${GAME} +playstation +active`))
      await press(app, KEY.enter)
      if (screen === 'games') expect(await show(app, 'Countries', 'Leaderboard')).toContain(GAME)
      if (screen === 'fraud') expect(await show(app, PLAYER)).toContain(GAME)
      if (screen === 'skan') {
        expect(await show(app, IDS.adNetwork)).toContain(GAME)
        await press(app, KEY.enter)
        expect(await show(app, 'Campaign Spring sale', IDS.adNetwork)).toContain('(skan_1)')
      }
      cleanup()
    }
  })

  it('GDPR and Team: deletion, player, member and invitation ids whole', async () => {
    const gdpr = await at(columns, rows, 'gdpr')
    expect(await show(gdpr, IDS.deletion)).toMatch(new RegExp(`${IDS.deletion} .*${PLAYER} +completed`))
    cleanup()
    const team = await at(columns, rows, 'team')
    const frame = await show(team, IDS.member, IDS.invitation)
    expect(frame).toMatch(new RegExp(`Alexandra.* +admin +someone.* +1 day ago +${IDS.member}`))
    expect(frame).toMatch(new RegExp(`another.* +admin +in \\d+ years +${IDS.invitation}`))
  })

  it('Home fits', async () => {
    await show(await at(columns, rows, 'home'), 'Jobs', 'Events')
  })

  it('? wraps each description under its own column, on every screen', async () => {
    for (const screen of SCREENS) {
      const app = await at(columns, rows, screen.id)
      await press(app, '?')
      const frame = await show(app, `Keys of ${screen.title}`, 'everywhere')
      const lines = frame.split('\n')
      const first = lines.findIndex((l) => l.startsWith('Keys of'))
      const indent = lines[first + 1]!.search(/ {2}\S/) + 2
      // Each row: its keys, then the description from column `indent`; a description's next
      // lines start at that column too, never at the left edge.
      const body = lines.slice(first + 1, -1).filter((l) => l.trim() !== '')
      const said: string[] = []
      for (const line of body) {
        const keys = line.slice(0, indent)
        if (keys.trim() === '') said[said.length - 1] += ` ${line.slice(indent)}`
        else said.push(line.slice(indent))
        expect(line.slice(indent, indent + 1)).not.toBe(' ')
      }
      expect(said.slice(0, screen.keys.length)).toEqual(screen.keys.map((k) => k.does))
      expect(said.at(-1)).toContain('q / Ctrl-C quit')
      cleanup()
    }
  })
})
