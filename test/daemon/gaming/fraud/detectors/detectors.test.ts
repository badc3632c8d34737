import { describe, expect, it } from 'vitest'
import { isbot } from 'isbot'
import { detect } from '../../../../../daemon/modules/gaming/fraud/detectors/detect.js'
import { SDK_CLIENT_AGENTS } from '../../../../../daemon/modules/gaming/fraud/detectors/detectors.js'
import {
  createDetectorState,
  stateKey,
  type DetectorState,
} from '../../../../../daemon/modules/gaming/fraud/detectors/state.js'
import { stdDev } from '../../../../../daemon/modules/gaming/fraud/detectors/bounded.js'
import { HUMAN_UA, T0, context, gameEvent, prng } from './traffic.js'

const MINUTE = 60_000

/** An app_install `seconds` after its click. */
function install(state: DetectorState, seconds: number, playerId = 'p1') {
  const ts = T0 + 3_600_000
  const clickTime = new Date(ts - seconds * 1000).toISOString()
  return detect(
    gameEvent({ playerId, type: 'app_install', ts, data: { click_time: clickTime } }),
    context(),
    state,
    ts,
  )
}

describe('click injection', () => {
  it('scores an install 3 s after the click near 1 and one 10 minutes after near 0', () => {
    const injected = install(createDetectorState(), 3)
    expect(injected.scores.click_injection).toBeGreaterThan(0.95)
    expect(injected.reasons.click_injection?.[0]).toContain('3 s after the click')
    expect(injected.threat).toBe('click_injection')

    const normal = install(createDetectorState(), 600)
    expect(normal.scores.click_injection).toBeLessThan(0.01)
    expect(normal.reasons.click_injection).toBeUndefined()
    expect(normal.risk).toBeLessThan(0.05)
  })

  it('is graded around the 10 s threshold and ignores events without a click time', () => {
    const at = (s: number) => install(createDetectorState(), s).scores.click_injection
    expect(at(10)).toBeCloseTo(0.5, 5)
    expect(at(5)).toBeGreaterThan(at(10))
    expect(at(10)).toBeGreaterThan(at(30))
    const plain = detect(gameEvent({ type: 'app_install' }), context(), createDetectorState(), T0)
    expect(plain.scores.click_injection).toBe(0)
  })
})

describe('bot detection', () => {
  it('scores a known bot user agent 1, from the request or from data.user_agent', () => {
    const fromRequest = detect(
      gameEvent(),
      context({ userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' }),
      createDetectorState(),
      T0,
    )
    expect(fromRequest.scores.bot_detection).toBe(1)
    expect(fromRequest.reasons.bot_detection).toContain('bot user agent')
    const fromData = detect(
      gameEvent({
        data: { user_agent: 'Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/120.0 Safari/537.36' },
      }),
      context(),
      createDetectorState(),
      T0,
    )
    expect(fromData.scores.bot_detection).toBe(1)
    const human = detect(gameEvent(), context(), createDetectorState(), T0)
    expect(human.scores.bot_detection).toBe(0)
  })

  it('does not call the HTTP clients of game SDKs bots (isbot would): their cadence is judged instead', () => {
    for (const agent of SDK_CLIENT_AGENTS) {
      const viaRequest = detect(gameEvent(), context({ userAgent: agent }), createDetectorState(), T0)
      expect(viaRequest.scores.bot_detection, agent).toBe(0)
      const viaData = detect(gameEvent({ data: { user_agent: agent } }), context(), createDetectorState(), T0)
      expect(viaData.scores.bot_detection, agent).toBe(0)
    }
    expect(isbot('okhttp/4.9.0')).toBe(true) // what the filtered list corrects
    for (const crawler of [
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'PhantomJS/2.1.1',
    ])
      expect(
        detect(gameEvent(), context({ userAgent: crawler }), createDetectorState(), T0).scores.bot_detection,
      ).toBe(1)
  })

  it('catches a metronome cadence (every 2 s exactly) and leaves an irregular human one alone', () => {
    const metronome = createDetectorState()
    let last = detect(gameEvent(), context(), metronome, T0)
    for (let i = 1; i <= 30; i++) last = detect(gameEvent({ ts: T0 + i * 2000 }), context(), metronome, T0)
    expect(last.scores.bot_detection).toBeGreaterThan(0.95)
    expect(last.reasons.bot_detection?.join()).toContain('too regular')

    const human = createDetectorState()
    const random = prng(7)
    let ts = T0
    for (let i = 0; i <= 30; i++) {
      ts += 1000 + Math.floor(random() * 20_000)
      last = detect(gameEvent({ ts }), context(), human, T0)
    }
    expect(last.scores.bot_detection).toBeLessThan(0.05)
  })

  it('catches a cadence too fast for a human (irregular but ~50 ms apart)', () => {
    const state = createDetectorState()
    const random = prng(3)
    let ts = T0
    let last = detect(gameEvent({ ts }), context(), state, T0)
    for (let i = 0; i < 30; i++) {
      ts += 20 + Math.floor(random() * 60)
      last = detect(gameEvent({ ts }), context(), state, T0)
    }
    expect(last.scores.bot_detection).toBeGreaterThan(0.9)
    expect(last.reasons.bot_detection?.join()).toContain('ms on average')
  })
})

describe('emulator', () => {
  const device = (data: Record<string, unknown>) =>
    detect(gameEvent({ data }), context(), createDetectorState(), T0)

  it('scores the emulator device strings of gaming-facts.md 1, with the reason', () => {
    const cases: Record<string, unknown>[] = [
      { device_fingerprint: 'generic/sdk_gphone64_x86_64/emu64x:14/UE1A/1:userdebug/dev-keys' },
      { device_fingerprint: 'unknown/vbox86p/vbox86p:8.1.0' },
      { device_model: 'Android SDK built for x86' },
      { device_model: 'google_sdk' },
      { device_manufacturer: 'Genymotion' },
      { device_hardware: 'ranchu' },
      { device_hardware: 'goldfish' },
      { device_product: 'sdk_gphone_x86' },
    ]
    for (const data of cases) {
      const result = device(data)
      expect(result.scores.emulator, JSON.stringify(data)).toBe(1)
      expect(result.reasons.emulator?.length).toBeGreaterThan(0)
    }
  })

  it('scores a real device 0', () => {
    const real = device({
      device_fingerprint: 'google/husky/husky:14/AP2A.240805.005/12025142:user/release-keys',
      device_model: 'Pixel 8 Pro',
      device_manufacturer: 'Google',
      device_hardware: 'husky',
      device_product: 'husky',
    })
    expect(real.scores.emulator).toBe(0)
    expect(real.reasons.emulator).toBeUndefined()
  })
})

describe('device farm', () => {
  function farm(players: number, over: { ip?: string | null; fingerprint?: string | null }) {
    const state = createDetectorState()
    let last = detect(gameEvent(), context(), state, T0)
    for (let i = 0; i < players; i++) {
      last = detect(
        gameEvent({ playerId: `farm-${i}`, deviceFingerprint: over.fingerprint ?? null }),
        context({ ip: over.ip === undefined ? '198.51.100.9' : over.ip }),
        state,
        T0 + i * 1000,
      )
    }
    return last
  }

  it('scores 50 players on one IP within the hour high and 3 near 0', () => {
    const fifty = farm(50, {})
    expect(fifty.scores.device_farm).toBeGreaterThan(0.9)
    expect(fifty.reasons.device_farm?.[0]).toContain('50 players on this IP')
    expect(farm(3, {}).scores.device_farm).toBeLessThan(0.01)
  })

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    const state = createDetectorState()
    let last = detect(gameEvent(), context(), state, T0)
    for (let i = 0; i < 50; i++) {
      const ip = i % 2 ? '198.51.100.9' : '::ffff:198.51.100.9'
      last = detect(gameEvent({ playerId: `farm-${i}` }), context({ ip }), state, T0)
    }
    expect(last.reasons.device_farm?.[0]).toContain('50 players on this IP')
  })

  it('counts players per device fingerprint too', () => {
    const shared = farm(20, { ip: null, fingerprint: 'fp-shared' })
    expect(shared.scores.device_farm).toBeGreaterThan(0.9)
    expect(shared.reasons.device_farm?.[0]).toContain('players on this device')
  })

  it('forgets players seen before the rolling window (1 h)', () => {
    const state = createDetectorState()
    for (let i = 0; i < 50; i++)
      detect(gameEvent({ playerId: `old-${i}` }), context({ ip: '198.51.100.9' }), state, T0)
    const later = detect(
      gameEvent({ playerId: 'new' }),
      context({ ip: '198.51.100.9' }),
      state,
      T0 + 61 * MINUTE,
    )
    expect(later.scores.device_farm).toBe(0)
  })
})

describe('rate limit', () => {
  it('scores a burst of 300 events in a minute high and 30 a minute 0', () => {
    const burst = createDetectorState()
    let last = detect(gameEvent(), context(), burst, T0)
    for (let i = 1; i < 300; i++) last = detect(gameEvent({ ts: T0 + i * 150 }), context(), burst, T0)
    expect(last.scores.rate_limit).toBeGreaterThan(0.9)
    expect(last.reasons.rate_limit?.[0]).toMatch(/^\d+ events in a minute/)

    const calm = createDetectorState()
    for (let i = 0; i < 90; i++) last = detect(gameEvent({ ts: T0 + i * 2000 }), context(), calm, T0)
    expect(last.scores.rate_limit).toBeLessThan(0.01)
  })
})

describe('rate limit: late events', () => {
  it('does not count a late event of the previous minute more than once', () => {
    const state = createDetectorState()
    for (let i = 0; i < 100; i++) detect(gameEvent({ ts: T0 + i * 500 }), context(), state, T0)
    detect(gameEvent({ ts: T0 + MINUTE }), context(), state, T0)
    // Arrives after the next minute's event (batched SDK), stamped at the previous minute's start.
    const late = detect(gameEvent({ ts: T0 }), context(), state, T0)
    expect(late.scores.rate_limit).toBeLessThan(0.5)
  })
})

describe('revenue anomaly', () => {
  /** 200 purchases around 4.99 (±1), then one more of `amount`. */
  function purchaseAfterHistory(amountMicros: number) {
    const state = createDetectorState()
    const random = prng(11)
    for (let i = 0; i < 200; i++) {
      const micros = Math.round((3.99 + random() * 2) * 1e6)
      detect(
        gameEvent({ playerId: `buyer-${i}`, type: 'purchase', revenueType: 'iap', revenueMicros: micros }),
        context(),
        state,
        T0,
      )
    }
    return detect(
      gameEvent({ playerId: 'whale', type: 'purchase', revenueType: 'iap', revenueMicros: amountMicros }),
      context(),
      state,
      T0,
    )
  }

  it('scores a 20σ purchase ~1 and a normal one ~0', () => {
    // The history's σ is ~0.58 (uniform over 2 units): 4.99 + 20σ ≈ 16.5.
    const outlier = purchaseAfterHistory(16_500_000)
    expect(outlier.scores.revenue_anomaly).toBeGreaterThan(0.99)
    expect(outlier.reasons.revenue_anomaly?.[0]).toMatch(/iap amount \d+(\.\d)?σ above/)
    expect(purchaseAfterHistory(5_490_000).scores.revenue_anomaly).toBeLessThan(0.05)
  })

  it('gives 0.5 at exactly 2.5σ above the running mean', () => {
    const state = createDetectorState()
    const random = prng(11)
    for (let i = 0; i < 200; i++) {
      const micros = Math.round((3.99 + random() * 2) * 1e6)
      detect(gameEvent({ type: 'purchase', revenueType: 'iap', revenueMicros: micros }), context(), state, T0)
    }
    const stats = state.games.get(stateKey('gam_1', 'stats'))!.revenue.iap!
    const amount = stats.mean + 2.5 * stdDev(stats)
    const result = detect(
      gameEvent({ type: 'purchase', revenueType: 'iap', revenueMicros: amount }),
      context(),
      state,
      T0,
    )
    expect(result.scores.revenue_anomaly).toBeCloseTo(0.5, 5)
  })

  it('does not judge a game with fewer than 30 purchases', () => {
    const state = createDetectorState()
    const first = detect(
      gameEvent({ type: 'purchase', revenueType: 'iap', revenueMicros: 999_000_000 }),
      context(),
      state,
      T0,
    )
    expect(first.scores.revenue_anomaly).toBe(0)
  })
})

describe('pattern anomaly', () => {
  it("flags a player whose cadence is far faster than the game's, not a typical one", () => {
    const state = createDetectorState()
    const random = prng(5)
    // 40 players with a human cadence: 5-60 s between events.
    for (let p = 0; p < 40; p++) {
      let ts = T0
      for (let i = 0; i < 15; i++) {
        ts += 5000 + Math.floor(random() * 55_000)
        detect(gameEvent({ playerId: `human-${p}`, ts }), context({ ip: null }), state, T0)
      }
    }
    let ts = T0
    let typical = detect(gameEvent({ playerId: 'typical', ts }), context({ ip: null }), state, T0)
    for (let i = 0; i < 15; i++) {
      ts += 5000 + Math.floor(random() * 55_000)
      typical = detect(gameEvent({ playerId: 'typical', ts }), context({ ip: null }), state, T0)
    }
    expect(typical.scores.pattern_anomaly).toBeLessThan(0.05)

    ts = T0
    let fast = detect(gameEvent({ playerId: 'fast', ts }), context({ ip: null }), state, T0)
    for (let i = 0; i < 15; i++) {
      ts += 300 + Math.floor(random() * 400)
      fast = detect(gameEvent({ playerId: 'fast', ts }), context({ ip: null }), state, T0)
    }
    expect(fast.scores.pattern_anomaly).toBeGreaterThan(0.9)
    expect(fast.reasons.pattern_anomaly?.[0]).toContain("faster than the game's")
  })
})

describe('detect: the composite risk', () => {
  it('is the highest detector score, with that detector as the threat', () => {
    const state = createDetectorState()
    const result = detect(
      gameEvent({ data: { device_hardware: 'goldfish' } }),
      context({ userAgent: HUMAN_UA }),
      state,
      T0,
    )
    expect(result.risk).toBe(1)
    expect(result.threat).toBe('emulator')
    expect(Math.max(...Object.values(result.scores))).toBe(result.risk)
    const clean = detect(gameEvent({ playerId: 'other' }), context(), state, T0)
    expect(clean.risk).toBe(Math.max(...Object.values(clean.scores)))
    expect(clean.risk).toBeLessThan(0.05)
  })
})
