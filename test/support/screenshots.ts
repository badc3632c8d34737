/**
 * `npm run screenshots`: runs the built linkd with sample data and `linkctl tui` in tmux at 100×30,
 * writes each screen to docs/screens/<screen>.txt and refreshes the README's text blocks that follow
 * a `<!-- docs/screens/<screen>.txt -->` line. Needs tmux; not part of `npm test`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { craftedFraudEvents } from './fraud.js'
import { CHROME_WINDOWS, FIREFOX_LINUX, SAFARI_IPHONE } from './redirect.js'
import { postback40 } from './skan.js'
import { startReceiver, type Receiver } from './receiver.js'
import { cleanEnv, freePort, LINKCTL, root, runBin, startLinkd } from './processes.js'
import { Tmux, tmuxBinary } from './tmux.js'

const COLUMNS = 100
const AD_NETWORK = 'abc123.skadnetwork'
const ROWS = 30
const OUT = join(root, 'docs/screens')

/** 8080 (as in the README) when it is free, so that the pictures show the usual address. */
async function preferredPort(): Promise<number> {
  const free = await new Promise<boolean>((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(8080, '127.0.0.1', () => server.close(() => resolve(true)))
  })
  return free ? 8080 : freePort()
}

async function main(): Promise<void> {
  if (!tmuxBinary) throw new Error('npm run screenshots needs tmux')
  const work = mkdtempSync(join(tmpdir(), 'linkd-screens-'))
  const receivers: Receiver[] = []
  const tmux = new Tmux(`linkd-screens-${process.pid}`)
  const daemon = await startLinkd(join(work, 'data'), {
    LINKD_PORT: String(await preferredPort()),
    LINKD_CNAME_TARGET: 'links.example.com',
  })
  try {
    const env = {
      LINKCTL_URL: daemon.url,
      LINKCTL_API_KEY: daemon.ownerKey() ?? '',
      LINKCTL_CONFIG_DIR: join(work, 'config'),
    }
    const linkctl = async (...args: string[]): Promise<string> => {
      const result = await runBin(LINKCTL, args, env)
      if (result.code !== 0) throw new Error(`linkctl ${args.join(' ')}: ${result.stderr}`)
      return result.stdout
    }
    await sampleData(linkctl, daemon.url, receivers)

    tmux.start(
      `exec ${process.execPath} ${LINKCTL} tui --refresh 1`,
      cleanEnv({ ...env, TERM: 'xterm-256color', NO_COLOR: '1' }),
      COLUMNS,
      ROWS,
    )
    mkdirSync(OUT, { recursive: true })
    const save = async (name: string, ...texts: string[]) => {
      // Two refreshes after the texts show, so that every poll of the screen has answered.
      await tmux.paneWith(texts)
      await new Promise((r) => setTimeout(r, 2_500))
      const pane = tmux
        .screen()
        .split('\n')
        .map((line) => line.trimEnd())
        .join('\n')
        .trimEnd()
      writeFileSync(join(OUT, `${name}.txt`), `${pane}\n`)
      process.stdout.write(`docs/screens/${name}.txt\n`)
    }
    // Home's events are what its polls see change: clicks and a new link while it watches.
    await tmux.paneWith([' 1 Home ', '● ok', 'Jobs'])
    await visit(daemon.url, 'spring', 3)
    await linkctl(
      'links',
      'create',
      'https://example.com/newsletter',
      '--slug',
      'news',
      '--title',
      'Newsletter',
    )
    await save('home', '+3 clicks on spring', 'link created news')
    await tmux.keys('2')
    await save('links', '5 links', 'spring')
    await tmux.keys('Down', 'Enter')
    await save('link-detail', 'Clicks, last 48 hours: 12')
    await tmux.keys('Escape', '3')
    await save('keys', 'ci')
    await tmux.keys('4')
    await save('domains', 'go.example.com')
    await tmux.keys('5')
    await save('webhooks', 'Chat', 'Billing')
    await tmux.keys('6')
    await save('games', 'Space Miners')
    await tmux.keys('Enter')
    await save('game-overview', 'DAU')
    // Fraud: the older game of the two (the list is newest first).
    await tmux.keys('Escape', '7')
    await tmux.paneWith(['Arena Clash'])
    await tmux.keys('Down', 'Enter')
    await save('fraud', 'Fraud of Arena Clash', 'device_farm', 'blocked now: 1 IP,')
    await tmux.keys('Escape', '8')
    await tmux.paneWith(['Space Miners'])
    await tmux.keys('Enter')
    await save('skan-campaigns', 'SKAN campaigns of Space Miners', 'Spring UA')
    await tmux.keys('Enter')
    await save('skan', 'Campaign Spring UA', 'postbacks', 'Schema')
    await tmux.keys('q')
    updateReadme()
  } finally {
    tmux.kill()
    for (const receiver of receivers) await receiver.close()
    await daemon.stop()
    rmSync(work, { recursive: true, force: true })
  }
}

/**
 * The README's pictures: the text block after each `<!-- docs/screens/<screen>.txt -->` line is
 * that screen, with its runs of empty rows (the space down to the status line) folded into one.
 */
function updateReadme(): void {
  const file = join(root, 'README.md')
  const readme = readFileSync(file, 'utf8').replace(
    /(<!-- docs\/screens\/([a-z-]+)\.txt -->\n+```text\n)[\s\S]*?(```)/g,
    (_, head: string, screen: string, tail: string) => {
      const text = readFileSync(join(OUT, `${screen}.txt`), 'utf8').replace(/\n{3,}/g, '\n\n')
      return `${head}${text}${tail}`
    },
  )
  writeFileSync(file, readme)
  process.stdout.write('README.md\n')
}

/** Links with clicks from three browsers, a healthy and a failing webhook, a domain, a key, a game. */
async function sampleData(
  linkctl: (...args: string[]) => Promise<string>,
  url: string,
  receivers: Receiver[],
): Promise<void> {
  const healthy = await startReceiver()
  const failing = await startReceiver({ kind: 'status', status: 500 })
  receivers.push(healthy, failing)
  await linkctl('webhooks', 'create', healthy.url, '--name', 'Chat', '--template', 'team-chat')
  await linkctl(
    'webhooks',
    'create',
    failing.url,
    '--name',
    'Billing',
    '--event',
    'link.created',
    '--max-retries',
    '0',
  )
  // The list shows the newest first: the spring sale, with the most clicks, is opened.
  const links: [string, string, string, number][] = [
    ['https://example.com/careers', 'jobs', 'We are hiring', 0],
    ['https://example.com/blog/launch', 'launch', 'Launch post', 3],
    ['https://example.com/docs/getting-started', 'start', 'Getting started', 5],
    ['https://example.com/spring-sale', 'spring', 'Spring sale', 9],
  ]
  for (const [destination, slug, title, clicks] of links) {
    await linkctl('links', 'create', destination, '--slug', slug, '--title', title)
    await visit(url, slug, clicks)
  }
  await linkctl('keys', 'create', '--name', 'ci', '--preset', 'read-only', '--expires-at', '90d')
  await linkctl('domains', 'add', 'go.example.com')
  await fraudGame(linkctl)
  const game = JSON.parse(
    await linkctl(
      'games',
      'create',
      '--name',
      'Space Miners',
      '--platform',
      'ios',
      '--slug',
      'space-miners',
      '--skan',
      '--json',
    ),
  ) as { sdkKey: string }
  await sendEvents(linkctl, 'space-miners', game.sdkKey, gameEvents(await smartLinkClicks(linkctl, 3)))
  await skanCampaign(linkctl, url)
}

/** Events sent with `linkctl events send` (a JSONL file, removed after). */
async function sendEvents(
  linkctl: (...args: string[]) => Promise<string>,
  game: string,
  sdkKey: string,
  events: Record<string, unknown>[],
): Promise<void> {
  const file = join(tmpdir(), `linkd-screens-events-${process.pid}.jsonl`)
  writeFileSync(file, events.map((e) => JSON.stringify(e)).join('\n'))
  try {
    await linkctl('events', 'send', file, '--game', game, '--sdk-key', sdkKey)
  } finally {
    rmSync(file, { force: true })
  }
}

/**
 * A fraud-enabled game: the templates on, emulators blocked too, a batch of crafted fraud (a click
 * injection and an emulator blocked, a device farm flagged) and an address on the blocklist.
 */
async function fraudGame(linkctl: (...args: string[]) => Promise<string>): Promise<void> {
  const game = JSON.parse(
    await linkctl(
      'games',
      'create',
      '--name',
      'Arena Clash',
      '--platform',
      'android',
      '--slug',
      'arena-clash',
      '--fraud',
      '--json',
    ),
  ) as { sdkKey: string }
  await linkctl('fraud', 'rules', 'enable', 'arena-clash', 'Block Emulators')
  await sendEvents(linkctl, 'arena-clash', game.sdkKey, craftedFraudEvents(Date.now()).events)
  await linkctl('fraud', 'blocklist', 'add', 'arena-clash', '198.51.100.23', '--reason', 'chargebacks')
}

/**
 * A SKAN campaign on Space Miners with a schema (three events on bits 1, 2, 4) and the first
 * postbacks of 23 installs with fine values, posted without a key (unsigned: the daemon trusts
 * only Apple's key, so none of them is verified).
 */
async function skanCampaign(linkctl: (...args: string[]) => Promise<string>, url: string): Promise<void> {
  const schema = join(tmpdir(), `linkd-screens-schema-${process.pid}.json`)
  writeFileSync(schema, JSON.stringify({ events: { tutorial_complete: 1, level_5: 2, purchase: 4 } }))
  try {
    await linkctl(
      'skan',
      'campaigns',
      'create',
      'space-miners',
      '--name',
      'Spring UA',
      '--ad-network',
      AD_NETWORK,
      '--source-id',
      '39',
      '--lock-window',
      '48',
      '--schema',
      schema,
    )
  } finally {
    rmSync(schema, { force: true })
  }
  const values = [1, 1, 3, 3, 3, 7, 1, 3, 0, 1, 3, 7, 3, 1, 1, 3, 5, 7, 3, 1, 0, 3, 1]
  for (const value of values) {
    const body = postback40({
      'ad-network-id': AD_NETWORK,
      'source-identifier': '39',
      'conversion-value': value,
    })
    const res = await fetch(`${url}/api/v1/skan/postbacks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (res.status !== 201) throw new Error(`SKAN postback: HTTP ${res.status} ${await res.text()}`)
  }
}

/** `count` redirects of a short link, from three browsers and three referrers in turn. */
async function visit(url: string, slug: string, count: number): Promise<void> {
  const agents = [CHROME_WINDOWS, SAFARI_IPHONE, FIREFOX_LINUX]
  const referrers = ['https://news.ycombinator.com/', 'https://twitter.com/', 'https://www.google.com/']
  for (let i = 0; i < count; i++)
    await fetch(`${url}/${slug}`, {
      redirect: 'manual',
      headers: { 'user-agent': agents[i % 3]!, referer: referrers[i % 3]! },
    })
}

/**
 * A smart link of Space Miners visited `count` times from an iPhone: the click ids (linkd_click on
 * the App Store URL), stored before the installs that carry them (an analytics read flushes them).
 */
async function smartLinkClicks(linkctl: (...args: string[]) => Promise<string>, count: number) {
  const s = JSON.parse(
    await linkctl(
      'sl',
      'create',
      '--fallback',
      'https://example.com/space-miners',
      '--ios',
      'https://apps.apple.com/app/id1234567890',
      '--short-code',
      'play',
      '--game',
      'space-miners',
      '--json',
    ),
  ) as { id: string; shortUrl: string }
  const clickIds: string[] = []
  for (let i = 0; i < count; i++) {
    const res = await fetch(s.shortUrl, { redirect: 'manual', headers: { 'user-agent': SAFARI_IPHONE } })
    clickIds.push(new URL(res.headers.get('location') ?? '').searchParams.get('linkd_click') ?? '')
  }
  await linkctl('links', 'stats', s.id, '--json')
  return clickIds
}

/**
 * The last two hours of a small game: 12 players installing, playing a session, 3 of them paying;
 * then one install per click id of the smart link (attributed to it), every other one paying.
 */
function gameEvents(clickIds: string[]): Record<string, unknown>[] {
  const countries = ['DE', 'US', 'FR', 'BR', 'JP']
  const events: Record<string, unknown>[] = []
  const now = Date.now()
  for (let p = 0; p < 12; p++) {
    const player = `player-${p + 1}`
    const session = `${player}-s1`
    const start = now - (12 - p) * 600_000 - 1_200_000
    const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString()
    const platform = p % 3 === 0 ? 'android' : 'ios'
    const base = { player_id: player, session_id: session, platform }
    events.push(
      {
        ...base,
        event_type: 'app_install',
        timestamp: at(0),
        data: { country: countries[p % 5], source: 'ads' },
      },
      { ...base, event_type: 'session_start', timestamp: at(1), data: {} },
      { ...base, event_type: 'level_complete', timestamp: at(9), data: { level: 1, score: 1000 + p * 250 } },
      { ...base, event_type: 'session_end', timestamp: at(12 + p), data: {} },
    )
    if (p % 4 === 1)
      events.push({
        ...base,
        event_type: 'purchase',
        timestamp: at(10),
        data: { amount: 4.99, currency: 'USD' },
      })
  }
  clickIds.forEach((clickId, i) => {
    const base = { player_id: `fan-${i + 1}`, session_id: `fan-${i + 1}-s1`, platform: 'ios' }
    const at = new Date(now).toISOString()
    events.push({
      ...base,
      event_type: 'app_install',
      timestamp: at,
      data: { country: 'DE', click_id: clickId },
    })
    if (i % 2 === 0)
      events.push({ ...base, event_type: 'purchase', timestamp: at, data: { amount: 1.99, currency: 'USD' } })
  })
  return events
}

await main()
