/**
 * `detect(event, ctx, state, now)`: observes the event into the bounded state, runs the seven
 * detectors on it and combines their scores into the event's risk. No I/O and no clock: `now`
 * (the receipt time) is passed in, so the same inputs always give the same answer.
 */
import { parseAddress } from '../../../../addresses.js'
import { addEw, addSample, emptyStats, hash32, touchMember } from './bounded.js'
import {
  DEFAULT_DETECTOR_OPTIONS,
  THREAT_TYPES,
  botDetection,
  clickInjection,
  deviceFarm,
  emulator,
  patternAnomaly,
  rateLimit,
  revenueAnomaly,
  type DetectorInput,
  type DetectorOptions,
  type DetectorResult,
  type DetectorView,
  type ThreatType,
} from './detectors.js'
import { newGameStats, newPlayerWindow, stateKey, type DetectorState } from './state.js'

/** The fields of an ingested event the detectors read (the pipeline's NormalizedEvent has them). */
export interface DetectorEvent {
  playerId: string
  type: string
  /** Event time, ms. */
  ts: number
  deviceFingerprint: string | null
  data: Record<string, unknown> | null
  revenueType: string | null
  revenueMicros: number
}

/** Where the event came from: the game and the request. */
export interface DetectorContext {
  gameId: string
  /** The request's address; an IPv4-mapped IPv6 address counts as its IPv4 one. */
  ip: string | null
  /** The request's User-Agent; `data.user_agent` wins when the event carries one. */
  userAgent: string | null
  options?: DetectorOptions
}

export interface Detection {
  scores: Record<ThreatType, number>
  /** Reasons of the detectors that scored 0.5 or more. */
  reasons: Partial<Record<ThreatType, string[]>>
  /** Composite risk: the highest score (see `compositeRisk`). */
  risk: number
  /** The detector that gave the risk, null when every score is 0. */
  threat: ThreatType | null
  /** The event as the detectors read it (user agent and device strings resolved). */
  input: DetectorInput
}

/** Weight of the latest interval in a player's running cadence (~ the last 10 intervals count). */
const CADENCE_ALPHA = 0.1
/** The key of a game's own statistics in the games map. */
const GAME_STATS_KEY = 'stats'

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

function inputOf(event: DetectorEvent, ctx: DetectorContext): DetectorInput {
  const data = event.data ?? {}
  const click = text(data.click_time)
  const clickTime = click === null ? NaN : Date.parse(click)
  return {
    type: event.type,
    ts: event.ts,
    userAgent: text(data.user_agent) ?? ctx.userAgent,
    device: {
      fingerprint: text(data.device_fingerprint) ?? event.deviceFingerprint,
      model: text(data.device_model),
      manufacturer: text(data.device_manufacturer),
      hardware: text(data.device_hardware),
      product: text(data.device_product),
    },
    clickTime: Number.isFinite(clickTime) ? clickTime : null,
    revenueType: event.revenueType,
    revenueMicros: event.revenueMicros,
  }
}

/** Adds the event to the player's cadence and per-minute counter; returns the new interval. */
function observePlayer(state: DetectorState, gameId: string, event: DetectorEvent, o: DetectorOptions) {
  const player = state.players.upsert(stateKey(gameId, event.playerId), newPlayerWindow)
  let interval: number | null = null
  if (player.lastTs > 0 && event.ts >= player.lastTs) {
    const gap = event.ts - player.lastTs
    // A gap of 0 is not cadence: SDKs stamp the events of one action (or of one flush) alike.
    // Bursts of same-instant events are the rate-limit detector's.
    if (gap > 0 && gap <= o.sessionGapMs) {
      interval = gap
      addEw(player.intervals, interval, CADENCE_ALPHA)
      addEw(player.logIntervals, Math.log(interval), CADENCE_ALPHA)
    }
  }
  if (event.ts > player.lastTs) player.lastTs = event.ts
  const minute = Math.floor(event.ts / 60_000)
  if (minute === player.minute) player.inMinute++
  else if (minute === player.minute + 1) {
    player.inPreviousMinute = player.inMinute
    player.inMinute = 1
    player.minute = minute
  } else if (minute > player.minute) {
    player.inPreviousMinute = 0
    player.inMinute = 1
    player.minute = minute
  } else if (minute === player.minute - 1) player.inPreviousMinute++
  return { player, interval }
}

function observeWindow(
  state: DetectorState,
  map: 'ips' | 'devices',
  key: string | null,
  member: number,
  now: number,
) {
  if (key === null) return null
  const window = state[map].upsert(key, () => ({ members: [], seenAt: [] }))
  touchMember(window, member, now, state.caps.membersPerWindow)
  return window
}

/**
 * Composite risk = the highest detector score. A noisy-or (1 − Π(1 − sᵢ)) was rejected: three
 * detectors read the same cadence (bot, rate limit, pattern), so it would count one signal
 * several times, and the many near-zero graded scores would add up to a risk nobody can trace.
 * With the maximum, `risk ≥ x` means "at least one detector is at least x sure", and the threat
 * type of the fraud event is that detector's.
 */
export function compositeRisk(scores: Record<ThreatType, number>): {
  risk: number
  threat: ThreatType | null
} {
  let risk = 0
  let threat: ThreatType | null = null
  for (const type of THREAT_TYPES) {
    if (scores[type] > risk) {
      risk = scores[type]
      threat = type
    }
  }
  return { risk, threat }
}

/** Runs the seven detectors on one event; updates `state` with it. */
export function detect(
  event: DetectorEvent,
  ctx: DetectorContext,
  state: DetectorState,
  now: number,
): Detection {
  const o = ctx.options ?? DEFAULT_DETECTOR_OPTIONS
  const input = inputOf(event, ctx)
  const { player, interval } = observePlayer(state, ctx.gameId, event, o)
  const member = hash32(event.playerId)
  // Only IPv6 spellings need parsing (~2 µs): the request's IPv4 address is already canonical.
  const address = ctx.ip?.includes(':') ? (parseAddress(ctx.ip)?.toString() ?? ctx.ip) : ctx.ip
  const ip = observeWindow(state, 'ips', address === null ? null : stateKey(ctx.gameId, address), member, now)
  const fingerprint = input.device.fingerprint
  const device = observeWindow(
    state,
    'devices',
    fingerprint === null ? null : stateKey(ctx.gameId, fingerprint),
    member,
    now,
  )
  const game = state.games.upsert(stateKey(ctx.gameId, GAME_STATS_KEY), newGameStats)
  const view: DetectorView = { player, ip, device, game }

  const results: Record<ThreatType, DetectorResult> = {
    click_injection: clickInjection(input, view, o),
    bot_detection: botDetection(input, view, o),
    device_farm: deviceFarm(input, view, o, now),
    rate_limit: rateLimit(input, view, o),
    emulator: emulator(input),
    pattern_anomaly: patternAnomaly(input, view, o),
    revenue_anomaly: revenueAnomaly(input, view, o),
  }
  // The game learns from the event after it was judged against what came before.
  if (interval !== null) addSample(game.logIntervals, Math.log(interval))
  if (input.revenueType !== null && input.revenueMicros > 0)
    addSample((game.revenue[input.revenueType] ??= emptyStats()), input.revenueMicros)

  const scores = {} as Record<ThreatType, number>
  const reasons: Partial<Record<ThreatType, string[]>> = {}
  for (const type of THREAT_TYPES) {
    scores[type] = results[type].score
    if (results[type].reasons.length) reasons[type] = results[type].reasons
  }
  return { scores, reasons, ...compositeRisk(scores), input }
}
