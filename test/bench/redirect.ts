import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { root, startLinkd } from '../support/processes.js'
import { autocannon, countOf, type AutocannonResult } from './autocannon.js'
import { hasWrk, wrk } from './wrk.js'
import { cpuMs, fmt, freePort, report, spawnUntilReady, stop } from './lib.js'

const bareServer = join(root, 'test/bench/bare-fastify.js')
const CONNECTIONS = 50
const SECONDS = 10
export const UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

export interface Measured {
  result: AutocannonResult
  /** Server CPU (user + system) per request, µs: steadier than req/s on a shared machine. */
  cpuUs: number
}

/** wrk when installed (as the targets were measured), else autocannon; BENCH_LOAD forces one. */
const useWrk = process.env.BENCH_LOAD ? process.env.BENCH_LOAD === 'wrk' : await hasWrk()
const client = useWrk ? 'wrk -t1' : 'autocannon'

export async function load(url: string, pid: number, seconds = SECONDS, okStatus = 302): Promise<Measured> {
  const before = cpuMs(pid)
  const opts = {
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'user-agent': UA, accept: 'text/html' },
  }
  const result = useWrk ? await wrk({ ...opts, okStatus }) : await autocannon(opts)
  return { result, cpuUs: ((cpuMs(pid) - before) * 1000) / Math.max(1, result.requests.total) }
}

const ROUNDS = 3
const ROUND_SECONDS = 5
/** Mean req/s and request-weighted server CPU of alternating rounds. */
const perSecond = (ms: Measured[]) => ms.reduce((n, m) => n + m.result.requests.average, 0) / ms.length
const cpuOf = (ms: Measured[]) =>
  ms.reduce((n, m) => n + m.cpuUs * m.result.requests.total, 0) /
  Math.max(
    1,
    ms.reduce((n, m) => n + m.result.requests.total, 0),
  )
const rounds = (ms: Measured[]) =>
  `${fmt(perSecond(ms), 0)} req/s (${ms.map((m) => fmt(m.result.requests.average, 0)).join(', ')}), p99 ${Math.max(...ms.map((m) => m.result.latency.p99))} ms, server CPU ${fmt(cpuOf(ms))} µs/req`

export const line = (m: Measured) =>
  `${fmt(m.result.requests.average, 0)} req/s, p50 ${m.result.latency.p50} ms, p99 ${m.result.latency.p99} ms, server CPU ${fmt(m.cpuUs)} µs/req`

/**
 * Five rules none of which matches the bench's Windows Chrome visitor (each looks at a different
 * fact: OS, device + language, country, query), so every visit evaluates them all and still goes
 * to the link's own destination, with the visitor's query forwarded.
 */
const RULES = [
  { conditions: [{ type: 'os', value: 'ios' }], destinationUrl: 'https://apps.apple.com/app/id1' },
  { conditions: [{ type: 'os', value: 'android' }], destinationUrl: 'https://play.google.com/store' },
  {
    conditions: [
      { type: 'device', value: 'mobile' },
      { type: 'language', value: 'de' },
    ],
    destinationUrl: 'https://example.com/de',
  },
  { conditions: [{ type: 'country', value: 'FR' }], destinationUrl: 'https://example.com/fr' },
  { conditions: [{ type: 'query', value: 'campaign=launch' }], destinationUrl: 'https://example.com/launch' },
]
const VARIANTS = [
  { destinationUrl: 'https://example.com/a', weight: 50 },
  { destinationUrl: 'https://example.com/b', weight: 50 },
]

/** Pairs no rule matches; not utm_*, whose click dimensions cost the same on any link (shown apart). */
const RULES_QUERY = 'ref=bench&src=wrk&campaign=other'
const UTM_QUERY = 'utm_source=bench&utm_medium=wrk&campaign=other'

/**
 * Redirect throughput and p99 of the built linkd with click recording on (a browser user agent,
 * so every request is a human click: enriched, group-committed, added to links.clicks and
 * announced), against the bare Fastify server's `/r` 302 started in the same run. Then checks that
 * every redirect was recorded. Then a link with five rules and a forwarded query, and a link with
 * split destinations (variants), each against the plain link, same run.
 */
export async function redirectBench(): Promise<void> {
  const port = await freePort()
  const bare = await spawnUntilReady(process.execPath, [bareServer], `http://127.0.0.1:${port}/health`, {
    ...process.env,
    PORT: String(port),
  })
  try {
    await measureLinkd(bare.child.pid!, `http://127.0.0.1:${port}/r`)
  } finally {
    await stop(bare.child)
  }
}

/** linkd's part of the bench; the bare server at `bareUrl` (process `barePid`) stays up beside it. */
async function measureLinkd(barePid: number, bareUrl: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'linkd-bench-redirect-'))
  const profile = process.env.BENCH_CPU_PROF
  const linkd = await startLinkd(
    dataDir,
    {
      LINKD_LOG_LEVEL: 'warn',
      // One client address sends everything: lift the per-IP limit (3,000/min by default).
      LINKD_RATE_LIMIT_PER_IP: '1000000000',
      LINKD_RATE_LIMIT_REDIRECTS_PER_IP: '1000000000',
    },
    // BENCH_CPU_PROF=dir: a CPU profile of linkd (node --cpu-prof) for finding hot spots.
    profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [],
  )
  try {
    const key = linkd.ownerKey()
    if (!key) throw new Error(`no owner key printed:\n${linkd.output()}`)
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const created = await fetch(`${linkd.url}/api/use/links`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ destinationUrl: 'https://example.com/', customSlug: 'bench' }),
    })
    if (created.status !== 201) throw new Error(`create link: ${created.status} ${await created.text()}`)
    const link = (await created.json()) as { id: string }
    const withRules = await fetch(`${linkd.url}/api/use/links`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        destinationUrl: 'https://example.com/',
        customSlug: 'bench-rules',
        forwardQuery: true,
        rules: RULES,
      }),
    })
    if (withRules.status !== 201)
      throw new Error(`create link: ${withRules.status} ${await withRules.text()}`)
    // Split destinations: every visit hashes its visitor to pick a variant (one visitor here: the
    // same variant each time, the same work per visit as for many).
    const withVariants = await fetch(`${linkd.url}/api/use/links`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        destinationUrl: 'https://example.com/',
        customSlug: 'bench-split',
        variants: VARIANTS,
      }),
    })
    if (withVariants.status !== 201)
      throw new Error(`create link: ${withVariants.status} ${await withVariants.text()}`)
    const rulesUrl = `${linkd.url}/bench-rules?${RULES_QUERY}`
    const probe = await fetch(rulesUrl, { redirect: 'manual', headers: { 'user-agent': UA } })
    if (probe.headers.get('location') !== `https://example.com/?${RULES_QUERY}`)
      throw new Error(`bench-rules: a rule matched the bench visitor: ${probe.headers.get('location')}`)

    const pid = linkd.child.pid!
    await load(`${linkd.url}/health/live`, pid, 3, 200) // warm-up
    const floor = await load(`${linkd.url}/health/live`, pid, SECONDS, 200)
    await load(bareUrl, barePid, 3) // warm-up
    const warm = await load(`${linkd.url}/bench`, pid, 3)
    // The baseline and linkd in alternating rounds, so a neighbour's load (this machine is shared
    // and its speed drifts by a third between runs) falls on both.
    const baseline: Measured[] = []
    const linkdRounds: Measured[] = []
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push(await load(bareUrl, barePid, ROUND_SECONDS))
      linkdRounds.push(await load(`${linkd.url}/bench`, pid, ROUND_SECONDS))
    }
    const redirects = linkdRounds.reduce((n, m) => n + countOf(m.result, 302), 0)
    const answered = linkdRounds.reduce((n, m) => n + m.result.requests.total, 0)
    const failed = linkdRounds.reduce((n, m) => n + m.result.errors + m.result.timeouts, 0)
    const stats = await fetch(`${linkd.url}/api/use/analytics/links/${link.id}?interval=hour`, {
      headers: auth,
    })
    const analytics = (await stats.json()) as { totalClicks: number }
    // The client counts the responses it read before stopping; the server may have answered a few more.
    const counted = countOf(warm.result, 302) + redirects
    const sent = warm.result.requests.sent + linkdRounds.reduce((n, m) => n + m.result.requests.sent, 0)

    const ratio = perSecond(linkdRounds) / perSecond(baseline)
    report(
      `redirect throughput (${client}, ${CONNECTIONS} connections, ${ROUNDS} x ${ROUND_SECONDS} s alternating, same machine)`,
      [
        ['bare Fastify 302 (baseline)', rounds(baseline)],
        ['linkd GET /health/live (its HTTP floor)', line(floor)],
        ['linkd GET /:code with click recording', rounds(linkdRounds)],
        [
          'ratio (req/s; server CPU) vs baseline',
          `${fmt(ratio, 2)}x; ${fmt(cpuOf(baseline) / cpuOf(linkdRounds), 2)}x (target >= 0.7x); /health/live alone ${fmt(floor.result.requests.average / perSecond(baseline), 2)}x; p99 target <= 10 ms`,
        ],
        ['non-302 responses / errors', `${answered - redirects} / ${failed}`],
        [
          'clicks recorded (analytics after flush)',
          `${analytics.totalClicks}; the client read ${counted} redirects and sent ${sent}${analytics.totalClicks >= counted && analytics.totalClicks <= sent ? ' (all recorded)' : ' (MISMATCH)'}`,
        ],
      ],
    )
    // The plain link and the rules link in alternating rounds, so a neighbour's load falls on both.
    await load(rulesUrl, pid, 3) // warm-up
    const plain: Measured[] = []
    const rules: Measured[] = []
    const utm: Measured[] = []
    for (let round = 0; round < ROUNDS; round++) {
      plain.push(await load(`${linkd.url}/bench`, pid, ROUND_SECONDS))
      rules.push(await load(rulesUrl, pid, ROUND_SECONDS))
      utm.push(await load(`${linkd.url}/bench-rules?${UTM_QUERY}`, pid, ROUND_SECONDS))
    }
    report('redirect with 5 rules (none matching) and forwardQuery, vs the plain link (same run)', [
      [`plain link GET /bench (baseline), ${ROUNDS} x ${ROUND_SECONDS} s`, rounds(plain)],
      [`GET /bench-rules?${RULES_QUERY}`, rounds(rules)],
      [
        'ratio (req/s; server CPU) vs plain link',
        `${fmt(perSecond(rules) / perSecond(plain), 2)}x; ${fmt(cpuOf(plain) / cpuOf(rules), 2)}x (target >= 0.9x); non-302 or errors ${rules.reduce((n, m) => n + m.result.requests.total - countOf(m.result, 302) + m.result.errors + m.result.timeouts, 0)}`,
      ],
      ['the same with utm_source and utm_medium', rounds(utm)],
      [
        'ratio with utm_* (req/s; server CPU)',
        `${fmt(perSecond(utm) / perSecond(plain), 2)}x; ${fmt(cpuOf(plain) / cpuOf(utm), 2)}x`,
      ],
    ])
    await load(`${linkd.url}/bench-split`, pid, 3) // warm-up
    const plainAgain: Measured[] = []
    const split: Measured[] = []
    for (let round = 0; round < ROUNDS; round++) {
      plainAgain.push(await load(`${linkd.url}/bench`, pid, ROUND_SECONDS))
      split.push(await load(`${linkd.url}/bench-split`, pid, ROUND_SECONDS))
    }
    report('redirect of a link with 2 variants, vs the plain link (same run)', [
      [`plain link GET /bench (baseline), ${ROUNDS} x ${ROUND_SECONDS} s`, rounds(plainAgain)],
      ['GET /bench-split', rounds(split)],
      [
        'ratio (req/s; server CPU) vs plain link',
        `${fmt(perSecond(split) / perSecond(plainAgain), 2)}x; ${fmt(cpuOf(plainAgain) / cpuOf(split), 2)}x (target >= 0.9x); non-302 or errors ${split.reduce((n, m) => n + m.result.requests.total - countOf(m.result, 302) + m.result.errors + m.result.timeouts, 0)}`,
      ],
    ])
  } finally {
    await linkd.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
