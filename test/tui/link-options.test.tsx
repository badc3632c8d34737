/**
 * Link options in the Links screen: what the edit and create forms send to a real linkd and what
 * it answers; the detail of given options and the smart links list with its platform breakdown
 * against the fake client.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { FakeClient, makeLink } from './fake-client.js'
import type { CreateLinkBody } from '../../src/contract/links.js'
import { frameWhere, frameWith, KEY, press, renderTui, type Rendered } from './harness.js'
import { newOrg, renderOnDaemon, useDaemon, type OnDaemon } from './tui-daemon.js'

afterEach(() => cleanup())

const CLEAR = '\x15' // Ctrl-U empties the field

/** Moves the form's focus down `n` fields. */
async function down(app: Pick<Rendered, 'stdin'>, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await press(app, KEY.down)
}

/** Saves the form: to its last field, then Enter. */
async function save(app: Pick<Rendered, 'stdin'>): Promise<void> {
  await down(app, 16)
  await press(app, KEY.enter)
}

function withOptions(client: FakeClient): void {
  client.state.links[0] = makeLink(0, {
    clicks: 12,
    maxClicks: 100,
    expiredUrl: 'https://example.com/sold-out',
    startsAt: '2026-12-01T09:00:00.000Z',
    forwardQuery: false,
    rules: [
      { conditions: [{ type: 'os', value: 'ios' }], destinationUrl: 'https://apps.apple.com/app/id1' },
      {
        conditions: [
          { type: 'country', value: 'DE' },
          { type: 'device', value: 'mobile' },
        ],
        destinationUrl: 'https://example.de/m',
      },
    ],
    passwordProtected: true,
    og: { title: 'Spring sale', description: null, imageUrl: null },
  })
}

const daemon = useDaemon()
let codes = 0

/** The options of withOptions, as a create body (the password set, no clicks yet). */
const OPTIONS: Omit<CreateLinkBody, 'destinationUrl'> = {
  maxClicks: 100,
  expiredUrl: 'https://example.com/sold-out',
  startsAt: '2026-12-01T09:00:00.000Z',
  forwardQuery: false,
  rules: [
    { conditions: [{ type: 'os', value: 'ios' }], destinationUrl: 'https://apps.apple.com/app/id1' },
    {
      conditions: [
        { type: 'country', value: 'DE' },
        { type: 'device', value: 'mobile' },
      ],
      destinationUrl: 'https://example.de/m',
    },
  ],
  password: 'opensesame',
  og: { title: 'Spring sale' },
}

/** A new organization with one link (with `options`), and the TUI on the Links screen. */
async function linkOnDaemon(options: Omit<CreateLinkBody, 'destinationUrl'> = {}) {
  const org = await newOrg(daemon())
  const code = `opt-${++codes}`
  await org.api.links.create({ destinationUrl: 'https://example.com/page/0', customSlug: code, ...options })
  const app = renderOnDaemon(daemon(), org.ownerKey, { initialScreen: 'links' })
  await frameWith(app, '1 link', code)
  return { org, app, code }
}

/** The bodies of the link creates and updates the TUI sent, in order. */
const sentBodies = (app: OnDaemon) =>
  app.calls.flatMap((c) =>
    c.name === 'links.create' ? [c.args[0]] : c.name === 'links.update' ? [c.args[1]] : [],
  )

describe('link options in the TUI against linkd', () => {
  it('editing sends exactly the fields that changed', async () => {
    const { app, code } = await linkOnDaemon()
    await press(app, 'e')
    await frameWith(app, `Edit ${code}`, 'Forward the query string (y/n): y')
    await down(app, 5) // maxClicks
    await press(app, '50')
    await down(app, 2) // forwardQuery
    await press(app, CLEAR, 'n')
    await down(app, 1) // rules
    await press(app, 'os:android=>https://play.example/a; query:ref=tw=>https://example.com/tw')
    await save(app)
    const frame = await frameWith(app, `saved ${code}`)
    expect(sentBodies(app)).toEqual([
      {
        maxClicks: 50,
        forwardQuery: false,
        rules: [
          { conditions: [{ type: 'os', value: 'android' }], destinationUrl: 'https://play.example/a' },
          { conditions: [{ type: 'query', value: 'ref=tw' }], destinationUrl: 'https://example.com/tw' },
        ],
      },
    ])
    expect(frame).toContain('max 50 clicks (0 used) · query not forwarded')
    expect(frame).toContain('rule 2: query:ref=tw=>https://example.com/tw')
  })

  it('Ctrl+S saves from any field, without walking to the last one', async () => {
    const { app, code } = await linkOnDaemon()
    await press(app, 'e')
    await frameWith(app, `Edit ${code}`, 'Ctrl+S: save')
    await down(app, 5) // maxClicks
    await press(app, '7', '\x13')
    await frameWith(app, `saved ${code}`)
    expect(sentBodies(app)).toEqual([{ maxClicks: 7 }])
  })

  it('an edit that changes nothing sends nothing', async () => {
    const { app, code } = await linkOnDaemon(OPTIONS)
    await press(app, 'e')
    await frameWith(app, `Edit ${code}`)
    await save(app)
    await frameWith(app, 'nothing changed')
    expect(sentBodies(app)).toEqual([])
  })

  it('a rule the parser refuses is an error in the form, and nothing is sent', async () => {
    const { app, code } = await linkOnDaemon()
    await press(app, 'e')
    await frameWith(app, `Edit ${code}`)
    await down(app, 8)
    await press(app, 'platform:ios=>https://x.example')
    await save(app)
    const frame = await frameWith(app, 'rules: unknown condition "platform:ios"')
    expect(frame).toContain(`Edit ${code}`)
    expect(sentBodies(app)).toEqual([])
    // Fixed, it saves.
    // From the last field (variants) up to rules.
    await press(app, ...Array<string>(5).fill(KEY.up), CLEAR, 'os:ios=>https://x.example')
    await save(app)
    await frameWith(app, `saved ${code}`, 'rule 1: os:ios=>https://x.example')
    expect(sentBodies(app)).toEqual([
      { rules: [{ conditions: [{ type: 'os', value: 'ios' }], destinationUrl: 'https://x.example' }] },
    ])
  })

  it('a bad maxClicks or startsAt names its field in the form', async () => {
    const { app, code } = await linkOnDaemon()
    await press(app, 'e')
    await frameWith(app, `Edit ${code}`)
    await down(app, 5)
    await press(app, 'lots')
    await save(app)
    await frameWith(app, 'maxClicks: a whole number from 1 to 1000000000')
    // From the last field (variants) up to maxClicks.
    await press(app, ...Array<string>(8).fill(KEY.up), CLEAR, KEY.down, 'tomorrow')
    await save(app)
    await frameWith(app, 'startsAt: an ISO date or time')
    expect(sentBodies(app)).toEqual([])
  })

  it('a password is typed as dots, never drawn, sent once; the link then says it is protected', async () => {
    const { app, code } = await linkOnDaemon()
    await press(app, 'e')
    await frameWith(app, `Edit ${code}`, 'Password (empty: none)')
    const frames: string[] = []
    await down(app, 9)
    for (const ch of 'hunter22') {
      await press(app, ch)
      frames.push(app.lastFrame() ?? '')
    }
    frames.push(await frameWith(app, 'Password (empty: none): ••••••••'))
    await save(app)
    frames.push(await frameWith(app, `saved ${code}`, 'password protected'))
    for (const f of [...frames, ...app.frames]) expect(f).not.toContain('hunter')
    expect(sentBodies(app)).toEqual([{ password: 'hunter22' }])

    // Removing it: the form of a protected link asks.
    await press(app, 'e')
    await frameWith(app, 'New password (empty: unchanged)', 'Remove the password (y/n): n')
    await down(app, 10)
    await press(app, CLEAR, 'y')
    await save(app)
    const after = await frameWhere(
      app,
      (f) => f.includes(`saved ${code}`) && !f.includes('password protected'),
    )
    expect(after).not.toContain('hunter')
    expect(sentBodies(app)[1]).toEqual({ password: null })
  })

  it('a too short password is refused in the form without drawing it', async () => {
    const { app, code } = await linkOnDaemon()
    await press(app, 'e')
    await frameWith(app, `Edit ${code}`)
    await down(app, 9)
    await press(app, 'abc')
    await save(app)
    const frame = await frameWith(app, 'password: 4-128 characters (got 3)')
    expect(frame).not.toContain('abc')
    expect(sentBodies(app)).toEqual([])
  })

  it('the preview and the short code are edited; the preview goes whole, as the API replaces it', async () => {
    const { app, code } = await linkOnDaemon(OPTIONS)
    await press(app, 'e')
    await frameWith(app, `Edit ${code}`, 'Preview title: Spring sale')
    await down(app, 3)
    await press(app, CLEAR, 'spring')
    await down(app, 9) // ogDescription (after the removal question)
    await press(app, 'Half price')
    await save(app)
    await frameWith(app, 'saved spring')
    expect(sentBodies(app)).toEqual([
      { shortCode: 'spring', og: { title: 'Spring sale', description: 'Half price', imageUrl: null } },
    ])
  })

  it('variants are edited as --variant takes them, shown with their figures, and cleared', async () => {
    const { app, code } = await linkOnDaemon()
    await press(app, 'e')
    await frameWith(app, `Edit ${code}`, 'Split destinations')
    await down(app, 16) // variants, the last field
    await press(app, 'https://example.com/a=0')
    await press(app, KEY.enter)
    await frameWith(app, 'variants: a weight is 1-99 (got 0)')
    expect(sentBodies(app)).toEqual([])
    await press(app, CLEAR, 'https://example.com/a?x=1=60  https://example.com/b=40', KEY.enter)
    const frame = await frameWith(app, `saved ${code}`, 'Variants', '60%')
    expect(frame).toContain('variant 1: https://example.com/a?x=1=60')
    expect(frame).toMatch(/60% +0 clicks +0 visitors +https:\/\/example\.com\/a\?x=1/)
    expect(sentBodies(app)).toEqual([
      {
        variants: [
          { destinationUrl: 'https://example.com/a?x=1', weight: 60 },
          { destinationUrl: 'https://example.com/b', weight: 40 },
        ],
      },
    ])
    await press(app, 'e')
    await frameWith(app, 'https://example.com/b=40')
    await down(app, 16)
    await press(app, CLEAR, KEY.enter)
    await frameWhere(app, (f) => f.includes(`saved ${code}`) && !f.includes('variant 1'))
    expect(sentBodies(app)[1]).toEqual({ variants: null })
  })

  it('the create form takes the expired URL, a click limit and a password', async () => {
    const { app } = await linkOnDaemon()
    await press(app, 'n')
    await frameWith(app, 'New link', 'Password (optional)')
    await press(app, 'https://example.com/launch')
    await down(app, 4)
    await press(app, 'https://example.com/over', KEY.down, '3', KEY.down, 's3cret!')
    const typed = await frameWith(app, 'Password (optional): •••••••')
    expect(typed).not.toContain('s3cret')
    await press(app, KEY.enter)
    const frame = await frameWith(app, 'created', 'max 3 clicks (0 used)', 'password protected')
    expect(frame).toContain('once expired → https://example.com/over')
    expect(frame).not.toContain('s3cret')
    expect(sentBodies(app)).toEqual([
      {
        destinationUrl: 'https://example.com/launch',
        expiredUrl: 'https://example.com/over',
        maxClicks: 3,
        password: 's3cret!',
      },
    ])
  })
})

describe('link options in the TUI, rendering', () => {
  it('the detail shows the options a link has, and none for a link without', async () => {
    const client = new FakeClient()
    withOptions(client)
    const app = renderTui({ client, initialScreen: 'links' })
    await frameWith(app, '30 links')
    await press(app, KEY.enter)
    const frame = await frameWith(app, 'http://s.test/c0', 'Clicks, last 48 hours')
    expect(frame.replace(/\s+/g, ' ')).toContain(
      'max 100 clicks (12 used) · live from 2026-12-01 09:00 UTC · query not forwarded · password protected · preview “Spring sale”',
    )
    expect(frame).toContain('once expired → https://example.com/sold-out')
    expect(frame).toContain('rule 1: os:ios=>https://apps.apple.com/app/id1')
    expect(frame).toContain('rule 2: country:DE,device:mobile=>https://example.de/m')
    await press(app, KEY.escape, 'j', KEY.enter)
    const plain = await frameWith(app, 'http://s.test/c1', 'Clicks, last 48 hours')
    expect(plain).not.toMatch(/max \d+ clicks|live from|query|password|preview|once expired|rule 1/)
  })
})

describe('a flagged link in the TUI', () => {
  it('the list marks it; the detail says which safety list holds its host and that visits get a warning page', async () => {
    const client = new FakeClient()
    client.state.links[0] = makeLink(0, {
      flagged: { host: 'evil.test', list: 'urlhaus', flaggedAt: '2026-11-20T10:00:00.000Z' },
    })
    const app = renderTui({ client, initialScreen: 'links' })
    const list = await frameWith(app, '30 links')
    // In the list, the flagged row says so first; the others do not.
    expect(list.split('\n').filter((l) => l.includes('FLAGGED · '))).toHaveLength(1)
    expect(list.split('\n').find((l) => l.includes('FLAGGED · '))).toContain('c0')
    await press(app, KEY.enter)
    const frame = await frameWith(app, 'http://s.test/c0', 'Clicks, last 48 hours')
    expect(frame.replace(/\s+/g, ' ')).toContain(
      'flagged: evil.test is on the safety list "urlhaus"; visits get a warning page',
    )
    await press(app, KEY.escape, 'j', KEY.enter)
    expect(await frameWith(app, 'http://s.test/c1', 'Clicks, last 48 hours')).not.toContain('flagged')
  })
})

describe('smart links in the TUI', () => {
  it('s lists the smart links; one opens on its targets, fallback and platform breakdown', async () => {
    const client = new FakeClient()
    client.state.platforms.set('sml_1', [
      { platform: 'ios', clicks: 30, percentage: 60 },
      { platform: 'android', clicks: 15, percentage: 30 },
      { platform: 'desktop', clicks: 5, percentage: 10 },
    ])
    client.state.installRevenue.set('sml_1', [
      { gameId: 'space-race', currency: 'USD', installs: 3, revenue: 19.97 },
      { gameId: 'tiny-farm', currency: 'EUR', installs: 1, revenue: 0 },
    ])
    const app = renderTui({ client, initialScreen: 'links' })
    await frameWith(app, '30 links', 's smart links')
    await press(app, 's')
    const list = await frameWith(app, '2 smart links', 'play1', 'play2')
    expect(list).toContain('Smart link 1 · https://game.example/1')
    await press(app, KEY.enter)
    const frame = await frameWith(app, 'smart link sml_1', 'Platforms · 4 installs', 'space-race')
    expect(frame).toMatch(/space-race\s+3 installs {2}19\.97 USD/)
    expect(frame).toMatch(/tiny-farm\s+1 install {2}0\.00 EUR/)
    expect(frame).toContain('iOS      → https://apps.apple.com/app/id1')
    expect(frame).toContain('Android  → https://play.google.com/store/apps/details?id=com.example.g1')
    expect(frame).toContain('Desktop  → (the fallback)')
    expect(frame).toContain('Fallback → https://game.example/1')
    expect(frame).toContain(`ios     ${'█'.repeat(20)}     30  60.0%`)
    expect(frame).toContain(`android ${'█'.repeat(10).padEnd(21)}    15  30.0%`)
    expect(client.calls).toContain('analytics.link sml_1')
    await press(app, KEY.escape)
    await frameWith(app, '2 smart links')
    await press(app, 's')
    await frameWith(app, '30 links')
  })

  it('a plain link has no platform breakdown', async () => {
    const app = renderTui({ initialScreen: 'links' })
    await frameWith(app, '30 links')
    await press(app, KEY.enter)
    expect(await frameWith(app, 'Clicks, last 48 hours')).not.toContain('Platforms')
  })

  it('a daemon without smart links (404) gets a clear message, not a failure', async () => {
    const client = new FakeClient()
    client.state.smartLinks = null
    const app = renderTui({ client, initialScreen: 'links' })
    await frameWith(app, '30 links')
    await press(app, 's')
    await frameWith(app, 'This daemon has no smart links (their route answered 404)')
  })

  it('a key without smartLinks:read is told so', async () => {
    const app = renderTui({ initialScreen: 'links', scopes: new Set(['links:read']) })
    await frameWith(app, '30 links')
    await press(app, 's')
    await frameWith(app, 's (smart links) needs the scope smartLinks:read')
  })
})
