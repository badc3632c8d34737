/**
 * `npm run bench fraud-detect`: the fraud detectors' `detect()` per event (target ≤ 50
 * µs average), on realistic traffic (20,000 players of 5 games, ~2 players per IP, installs with a
 * click time, purchases, a few emulators and bots) and on churn (every event a new player, IP and
 * device, so every map evicts at its cap). Baseline in the same run: the ingestion's own per-event
 * work of the same size, a JSON round trip of the event. Also the heap the state holds at its caps.
 */
import { detect, type DetectorEvent } from '../../daemon/modules/gaming/fraud/detectors/detect.js'
import { createDetectorState } from '../../daemon/modules/gaming/fraud/detectors/state.js'
import { prng } from '../support/prng.js'
import { percentile, report } from './lib.js'

const EVENTS = Number(process.env.BENCH_FRAUD_EVENTS ?? 500_000)
const BATCH = 1000
const T0 = Date.UTC(2026, 10, 24)
const AGENTS = [
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  'UnityPlayer/2022.3.10f1 (UnityWebRequest/1.0, libcurl/8.1.1-DEV)',
  'Googlebot/2.1 (+http://www.google.com/bot.html)',
]
const TYPES = ['level_start', 'level_complete', 'session_start', 'item_purchased', 'purchase', 'app_install']

interface Item {
  event: DetectorEvent
  gameId: string
  ip: string
  userAgent: string
  now: number
}

function realistic(count: number): Item[] {
  const random = prng(42)
  const items: Item[] = []
  let ts = T0
  for (let i = 0; i < count; i++) {
    ts += Math.floor(random() * 20)
    const player = Math.floor(random() * 20_000)
    const type = TYPES[Math.floor(random() * TYPES.length)]!
    const paying = type === 'purchase' || type === 'item_purchased'
    const data: Record<string, unknown> = { device_model: player % 97 === 0 ? 'google_sdk' : 'Pixel 8' }
    if (type === 'app_install')
      data.click_time = new Date(ts - Math.floor(random() * 3_600_000)).toISOString()
    items.push({
      event: {
        playerId: `player-${player}`,
        type,
        ts,
        deviceFingerprint: `fp-${player}`,
        data,
        revenueType: paying ? 'iap' : null,
        revenueMicros: paying ? Math.round((0.99 + random() * 20) * 1e6) : 0,
      },
      gameId: `game-${player % 5}`,
      ip: `10.0.${(player >> 9) & 255}.${(player >> 1) & 255}`,
      userAgent: AGENTS[player % 101 === 0 ? 3 : player % 3]!,
      now: ts,
    })
  }
  return items
}

function churn(count: number): Item[] {
  return Array.from({ length: count }, (_, i) => ({
    event: {
      playerId: `p${i}`,
      type: 'level_start',
      ts: T0 + i,
      deviceFingerprint: `fp${i}`,
      data: null,
      revenueType: null,
      revenueMicros: 0,
    },
    gameId: `gam_${i % 20_000}`,
    ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    userAgent: AGENTS[0]!,
    now: T0 + i,
  }))
}

/** Average µs per event and the p99 of the per-batch averages. */
function timeDetect(items: Item[]) {
  const state = createDetectorState()
  const perBatch: number[] = []
  const start = performance.now()
  for (let b = 0; b < items.length; b += BATCH) {
    const t0 = performance.now()
    for (let i = b; i < Math.min(items.length, b + BATCH); i++) {
      const it = items[i]!
      detect(it.event, { gameId: it.gameId, ip: it.ip, userAgent: it.userAgent }, state, it.now)
    }
    perBatch.push(((performance.now() - t0) * 1000) / BATCH)
  }
  return {
    avgUs: ((performance.now() - start) * 1000) / items.length,
    p99Us: percentile(perBatch, 99),
    state,
  }
}

function timeBaseline(items: Item[]): number {
  const start = performance.now()
  let bytes = 0
  for (const it of items) bytes += (JSON.parse(JSON.stringify(it.event)) as { type: string }).type.length
  if (bytes < 0) throw new Error('unreachable')
  return ((performance.now() - start) * 1000) / items.length
}

function heapMb(): number {
  ;(globalThis as { gc?: () => void }).gc?.()
  return process.memoryUsage().heapUsed / 1e6
}

export async function fraudDetectBench(): Promise<void> {
  const traffic = realistic(EVENTS)
  timeDetect(traffic.slice(0, 50_000)) // warm-up
  const normal = timeDetect(traffic)
  const baseline = timeBaseline(traffic)
  const churned = churn(Math.max(EVENTS, 400_000))
  const before = heapMb()
  const full = timeDetect(churned)
  const held = heapMb() - before
  report('fraud-detect: detect() per event (7 detectors, bounded state)', [
    ['events (realistic: 20k players, 5 games)', String(EVENTS)],
    ['detect avg µs/event', normal.avgUs.toFixed(2)],
    ['detect p99 of 1,000-event batches µs/event', normal.p99Us.toFixed(2)],
    ['baseline: JSON round trip of the event µs', baseline.toFixed(2)],
    ['ratio detect / baseline', (normal.avgUs / baseline).toFixed(2)],
    ['churn (every event new keys, maps at caps) µs', full.avgUs.toFixed(2)],
    [
      'entries at caps (players / ips / devices / games)',
      `${full.state.players.size} / ${full.state.ips.size} / ${full.state.devices.size} / ${full.state.games.size}`,
    ],
    [
      `heap held by the state at caps${(globalThis as { gc?: unknown }).gc ? '' : ' (no --expose-gc)'}`,
      `${held.toFixed(0)} MB`,
    ],
  ])
  await Promise.resolve()
}
