/**
 * The seven detectors in docs/reference/fraud.md. Each is a pure function of the event (already normalized into a
 * DetectorInput) and the state after the event was observed (observe.ts): no I/O, no clock. Each
 * returns a score 0-1 and the reasons behind it. Graded scores are 0.5 at the detector's
 * threshold, towards 1 past it and towards 0 below it (bounded.ts aboveScore/belowScore), so a
 * rule such as `score.click_injection gte 0.5` means "past the threshold".
 */
import { createIsbotFromList, list as botPatterns } from 'isbot'
import { aboveScore, belowScore, countSince, stdDev } from './bounded.js'
import type { DistinctWindow } from './bounded.js'
import type { GameStats, PlayerWindow } from './state.js'

// The threat types are the contract's (one list for the rules' score.<type> fields and these).
export { THREAT_TYPES, type ThreatType } from '../../../../../src/contract/fraud-limits.js'

export interface DetectorResult {
  score: number
  reasons: string[]
}

/** Thresholds of the detectors (docs/reference/fraud.md). */
export interface DetectorOptions {
  /** Click-to-install time under which an install is click injection (score 0.5 at it). */
  clickInjectionSeconds: number
  /** Mean interval between a player's events under which the cadence is too fast for a human. */
  botMinIntervalMs: number
  /** Coefficient of variation of the intervals under which the cadence is too regular. */
  botRegularityCv: number
  /** Intervals a player needs before its cadence is judged (bot and pattern detectors). */
  cadenceMinIntervals: number
  /** Gap after which the next event starts a new session: such gaps are not cadence. */
  sessionGapMs: number
  /** Rolling window of the device-farm counts. */
  deviceFarmWindowMs: number
  /** Distinct players of one game per IP, per device fingerprint, within the window. */
  playersPerIp: number
  playersPerDevice: number
  /** Events per player per minute (sliding). */
  eventsPerMinute: number
  /** z-score (σ) of the cadence and revenue outliers. */
  outlierSigma: number
  /** Samples a game needs before outliers are judged: intervals, purchases. */
  patternMinGameIntervals: number
  revenueMinPurchases: number
}

export const DEFAULT_DETECTOR_OPTIONS: DetectorOptions = {
  clickInjectionSeconds: 10,
  botMinIntervalMs: 250,
  botRegularityCv: 0.05,
  cadenceMinIntervals: 10,
  sessionGapMs: 30 * 60_000,
  deviceFarmWindowMs: 60 * 60_000,
  playersPerIp: 20,
  playersPerDevice: 5,
  eventsPerMinute: 120,
  outlierSigma: 2.5,
  patternMinGameIntervals: 100,
  revenueMinPurchases: 30,
}

/** The device strings read by the emulator detector (contract: event data keys). */
export interface DeviceStrings {
  fingerprint: string | null
  model: string | null
  manufacturer: string | null
  hardware: string | null
  product: string | null
}

/** One event as the detectors read it. */
export interface DetectorInput {
  type: string
  /** Event time (ms). */
  ts: number
  userAgent: string | null
  device: DeviceStrings
  /** data.click_time in ms, when present and valid. */
  clickTime: number | null
  revenueType: string | null
  revenueMicros: number
}

/** The state the detectors read: the entries touched by this event, after observing it. */
export interface DetectorView {
  player: PlayerWindow
  ip: DistinctWindow | null
  device: DistinctWindow | null
  game: GameStats
}

const NONE: DetectorResult = { score: 0, reasons: [] }

/**
 * The user agents of the HTTP clients game SDKs and integrations send events with. isbot, made
 * for browser traffic, calls every one of them a bot; these are not bots by themselves (their
 * cadence is judged instead), so the patterns that match them are left out.
 */
export const SDK_CLIENT_AGENTS = [
  'UnityPlayer/2022.3.10f1 (UnityWebRequest/1.0, libcurl/8.1.1-DEV)',
  'UnrealEngine/5.3',
  'Godot/4.2',
  'BestHTTP/2',
  'GameAnalytics Unity SDK 7.0',
  'okhttp/4.9.0',
  'Dalvik/2.1.0 (Linux; U; Android 13; Pixel 7 Build/TQ3A)',
  'MyGame/1.2 CFNetwork/1410.0.3 Darwin/22.6.0',
  'Dart/3.1 (dart:io)',
  'Java/17.0.1',
  'Apache-HttpClient/4.5',
  'curl/8.4.0',
  'libcurl/7.8',
  'python-requests/2.31',
  'Go-http-client/1.1',
  'axios/1.6.0',
  'node',
  'undici',
  'linkctl/1.0.0',
]

/** Known crawlers, headless browsers and automation tools (isbot's list minus the SDK clients). */
const isBotAgent = createIsbotFromList(
  botPatterns.filter((p) => {
    const re = new RegExp(p, 'i')
    return !SDK_CLIENT_AGENTS.some((agent) => re.test(agent))
  }),
)
const round = (x: number, digits = 1) => Number(x.toFixed(digits))

/** An app_install whose click came less than ~10 s before it (graded: 3 s ≈ 1, 10 min ≈ 0). */
export function clickInjection(
  input: DetectorInput,
  _view: DetectorView,
  o: DetectorOptions,
): DetectorResult {
  if (input.type !== 'app_install' || input.clickTime === null) return NONE
  const seconds = (input.ts - input.clickTime) / 1000
  if (seconds < 0) return NONE // a click after the install cannot have caused it
  const score = belowScore(seconds, o.clickInjectionSeconds)
  return {
    score,
    reasons:
      score >= 0.5
        ? [`install ${round(seconds)} s after the click (threshold ${o.clickInjectionSeconds} s)`]
        : [],
  }
}

/**
 * A known bot user agent (crawlers, headless browsers, automation tools; not the HTTP clients of
 * game SDKs), or a player's cadence too fast or too regular for a human.
 */
export function botDetection(input: DetectorInput, view: DetectorView, o: DetectorOptions): DetectorResult {
  const reasons: string[] = []
  let score = 0
  if (input.userAgent && isBotAgent(input.userAgent)) {
    score = 1
    reasons.push('bot user agent')
  }
  const { intervals } = view.player
  if (intervals.n >= o.cadenceMinIntervals) {
    const fast = belowScore(intervals.mean, o.botMinIntervalMs)
    if (fast >= 0.5) reasons.push(`events every ${Math.round(intervals.mean)} ms on average`)
    const cv = intervals.mean > 0 ? Math.sqrt(intervals.variance) / intervals.mean : 0
    const regular = belowScore(cv, o.botRegularityCv)
    if (regular >= 0.5) reasons.push(`intervals too regular (variation ${round(cv * 100, 2)}%)`)
    score = Math.max(score, fast, regular)
  }
  return { score, reasons }
}

/** Many distinct players per IP or per device fingerprint within the rolling window. */
export function deviceFarm(
  _input: DetectorInput,
  view: DetectorView,
  o: DetectorOptions,
  now: number,
): DetectorResult {
  const since = now - o.deviceFarmWindowMs
  const reasons: string[] = []
  let score = 0
  const minutes = Math.round(o.deviceFarmWindowMs / 60_000)
  if (view.ip) {
    const players = countSince(view.ip, since)
    const s = players > 1 ? aboveScore(players, o.playersPerIp) : 0
    if (s >= 0.5) reasons.push(`${players} players on this IP in ${minutes} min`)
    score = Math.max(score, s)
  }
  if (view.device) {
    const players = countSince(view.device, since)
    const s = players > 1 ? aboveScore(players, o.playersPerDevice) : 0
    if (s >= 0.5) reasons.push(`${players} players on this device in ${minutes} min`)
    score = Math.max(score, s)
  }
  return { score, reasons }
}

/** The player's events in the last minute (sliding estimate) over the threshold. */
export function rateLimit(_input: DetectorInput, view: DetectorView, o: DetectorOptions): DetectorResult {
  const p = view.player
  // Measured at the player's latest event: a late event of the previous minute does not move
  // the window back (its weight for the previous minute would exceed 1).
  const elapsed = Math.min(1, Math.max(0, (p.lastTs - p.minute * 60_000) / 60_000))
  const perMinute = p.inMinute + p.inPreviousMinute * (1 - elapsed)
  const score = aboveScore(perMinute, o.eventsPerMinute)
  return {
    score,
    reasons:
      score >= 0.5 ? [`${Math.round(perMinute)} events in a minute (threshold ${o.eventsPerMinute})`] : [],
  }
}

const EMULATOR_SIGNS: { field: keyof DeviceStrings; test: RegExp; label: string }[] = [
  { field: 'fingerprint', test: /^(generic|unknown)/i, label: 'fingerprint starts with generic/unknown' },
  { field: 'model', test: /google_sdk|emulator|android sdk built for x86/i, label: 'emulator model' },
  { field: 'manufacturer', test: /genymotion/i, label: 'manufacturer Genymotion' },
  { field: 'hardware', test: /goldfish|ranchu|qemu/i, label: 'emulator hardware' },
  { field: 'product', test: /^sdk_gphone|^sdk$|google_sdk|^vbox86p/i, label: 'emulator product' },
]

/** The device strings of known emulators: any one of them scores 1. */
export function emulator(input: DetectorInput): DetectorResult {
  const reasons: string[] = []
  for (const sign of EMULATOR_SIGNS) {
    const value = input.device[sign.field]
    if (value && sign.test.test(value)) reasons.push(`${sign.label} (${value.slice(0, 64)})`)
  }
  return { score: reasons.length ? 1 : 0, reasons }
}

/**
 * A player's cadence (mean log-interval) faster than the game's by more than `outlierSigma`
 * standard deviations of the game's log-intervals. Only the fast side: a slow player is no fraud.
 */
export function patternAnomaly(
  _input: DetectorInput,
  view: DetectorView,
  o: DetectorOptions,
): DetectorResult {
  const game = view.game.logIntervals
  const player = view.player.logIntervals
  if (game.n < o.patternMinGameIntervals || player.n < o.cadenceMinIntervals) return NONE
  const sd = stdDev(game)
  if (!(sd > 0)) return NONE
  const z = (game.mean - player.mean) / sd
  const score = aboveScore(z, o.outlierSigma)
  return {
    score,
    reasons: score >= 0.5 ? [`cadence ${round(z)}σ faster than the game's`] : [],
  }
}

/** A revenue amount above the game's mean for its type by more than `outlierSigma` σ (Welford). */
export function revenueAnomaly(input: DetectorInput, view: DetectorView, o: DetectorOptions): DetectorResult {
  if (input.revenueType === null || !(input.revenueMicros > 0)) return NONE
  const stats = view.game.revenue[input.revenueType]
  if (!stats || stats.n < o.revenueMinPurchases) return NONE
  const sd = stdDev(stats)
  if (!(sd > 0)) return NONE // one price so far: no spread to measure an outlier against
  const z = (input.revenueMicros - stats.mean) / sd
  const score = aboveScore(z, o.outlierSigma)
  return {
    score,
    reasons: score >= 0.5 ? [`${input.revenueType} amount ${round(z)}σ above the game's mean`] : [],
  }
}
