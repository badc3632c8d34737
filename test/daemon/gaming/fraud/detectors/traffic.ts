/** Crafted traffic for the detector tests: events as the ingestion hands them over. */
export { prng } from '../../../../support/prng.js'
import type {
  DetectorContext,
  DetectorEvent,
} from '../../../../../daemon/modules/gaming/fraud/detectors/detect.js'

export const T0 = Date.UTC(2026, 10, 24, 12, 0, 0)
export const HUMAN_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36'

export function gameEvent(over: Partial<DetectorEvent> = {}): DetectorEvent {
  return {
    playerId: 'p1',
    type: 'level_start',
    ts: T0,
    deviceFingerprint: null,
    data: null,
    revenueType: null,
    revenueMicros: 0,
    ...over,
  }
}

export function context(over: Partial<DetectorContext> = {}): DetectorContext {
  return { gameId: 'gam_1', ip: '203.0.113.7', userAgent: HUMAN_UA, ...over }
}
