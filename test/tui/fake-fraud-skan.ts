/**
 * The fraud and SKAN reads of the fake client (FakeClient.fraud, FakeClient.skan): fixed data in
 * memory. Every call is recorded in the client's `calls`; writes and the optimizer are not served.
 */
import type { PageOf } from '../../src/contract/common.js'
import type { BlocklistEntry, FraudDashboard, FraudEvent, FraudRule } from '../../src/contract/fraud.js'
import type { CampaignWithReport, ConversionSchema, SkanCampaign } from '../../src/contract/skan.js'
import type { TuiClient } from '../../src/tui/api.js'
import { apiError, notServed } from './fake-client.js'
import { page, T0 } from './fake-data.js'

type Serve = <T>(name: string, make: () => T) => Promise<T>

export function makeFraudEvent(n: number, over: Partial<FraudEvent> = {}): FraudEvent {
  return {
    id: `fev_${n}`,
    receivedAt: new Date(Date.parse(T0) + n * 60_000).toISOString(),
    playerId: `player_${n}`,
    eventId: `ev_${n}`,
    eventType: 'purchase',
    threatType: 'bot_detection',
    riskScore: 0.91,
    status: 'blocked',
    triggeredRules: ['Block Bot Traffic'],
    triggeredRuleCount: 1,
    reasons: { bot_detection: ['user agent names a bot'] },
    ip: '203.0.113.7',
    deviceFingerprint: null,
    review: 'pending',
    reviewedAt: null,
    ...over,
  }
}

function makeRule(n: number, name: string, over: Partial<FraudRule> = {}): FraudRule {
  const at = new Date(Date.parse(T0) + n * 1000).toISOString()
  return {
    id: `rule_${n}`,
    name,
    action: 'block',
    field: 'score.bot_detection',
    operator: 'gte',
    value: 0.8,
    priority: 100,
    cooldownMinutes: 0,
    enabled: true,
    createdAt: at,
    updatedAt: at,
    ...over,
  }
}

export class FakeFraud implements Pick<TuiClient, 'fraud'> {
  dashboard: FraudDashboard = {
    range: { startDate: '2026-10-25', endDate: '2026-11-23' },
    eventsAnalyzed: 12_345,
    threatsDetected: 120,
    blocked: 100,
    flagged: 20,
    logged: 3,
    fraudRate: 0.00972,
    falsePositiveRate: 0.25,
    blockedIps: 4,
    blockedDevices: 1,
    avgDetectionLatencyUs: 2.54,
    byThreatType: {
      click_injection: 7,
      bot_detection: 90,
      device_farm: 0,
      rate_limit: 0,
      emulator: 0,
      pattern_anomaly: 0,
      revenue_anomaly: 23,
    },
  }
  /** Newest first, as the API lists them. */
  events: FraudEvent[] = [
    makeFraudEvent(4, {
      id: 'fev_log',
      status: 'logged',
      threatType: null,
      playerId: 'watched_3',
      triggeredRules: ['Log Whales'],
    }),
    makeFraudEvent(2, {
      status: 'detected',
      threatType: 'revenue_anomaly',
      triggeredRules: ['Flag Revenue'],
    }),
    makeFraudEvent(1),
  ]
  rules: FraudRule[] = [
    makeRule(1, 'Block Bot Traffic'),
    makeRule(2, 'Flag Device Farms', { action: 'flag', field: 'score.device_farm', value: 0.7 }),
    makeRule(3, 'Rate Limit Abuse', {
      field: 'score.rate_limit',
      value: 0.9,
      enabled: false,
      priority: 1000,
    }),
  ]
  blocked: BlocklistEntry[] = [
    {
      id: 'blk_1',
      type: 'ip',
      value: '198.51.100.9',
      reason: 'relay',
      createdAt: T0,
      expiresAt: '2026-12-23T00:00:00.000Z',
    },
  ]

  constructor(private readonly serve: Serve) {}

  fraud: TuiClient['fraud'] = {
    dashboard: (game) => this.serve(`fraud.dashboard ${game}`, () => this.dashboard),
    events: (game, q = {}) =>
      this.serve(`fraud.events ${game}`, (): PageOf<FraudEvent> =>
        // As the daemon: logged records only when asked for.
        page(
          this.events.filter((e) => (q.status ? e.status === q.status : e.status !== 'logged')),
          q,
        ),
      ),
    review: notServed('fraud.review'),
    rules: (game, q = {}) =>
      this.serve(`fraud.rules ${game}`, () =>
        page(
          [...this.rules].sort((a, b) => b.priority - a.priority),
          q,
        ),
      ),
    updateRule: notServed('fraud.updateRule'),
    blocklist: (game, q = {}) =>
      this.serve(`fraud.blocklist ${game}`, (): PageOf<BlocklistEntry> => page(this.blocked, q)),
    block: notServed('fraud.block'),
    unblock: notServed('fraud.unblock'),
  }
}

const schema = (events: Record<string, number>, medium: [number, number]): ConversionSchema => ({
  events,
  coarseValues: {
    low: { min: 0, max: medium[0] - 1 },
    medium: { min: medium[0], max: medium[1] },
    high: { min: medium[1] + 1, max: 63 },
  },
  lockWindow: 48,
})

export function makeCampaign(id: string, name: string): SkanCampaign {
  return {
    id,
    gameId: 'game-1',
    name,
    adNetworkId: 'abc123.skadnetwork',
    sourceIdentifier: '39',
    lockWindowHours: 48,
    conversionSchema: schema({ tutorial_complete: 1, level_5: 2, purchase: 4 }, [11, 40]),
    createdAt: T0,
    updatedAt: T0,
  }
}

export class FakeSkan implements Pick<TuiClient, 'skan'> {
  campaigns: SkanCampaign[] = [makeCampaign('skan_1', 'Spring UA'), makeCampaign('skan_2', 'Tiny test')]
  constructor(private readonly serve: Serve) {}

  private find(id: string): SkanCampaign {
    const campaign = this.campaigns.find((c) => c.id === id)
    if (!campaign) throw apiError(404, 'Campaign not found')
    return campaign
  }

  skan: TuiClient['skan'] = {
    campaigns: (game, q = {}) =>
      this.serve(`skan.campaigns ${game}`, () =>
        page(
          this.campaigns.filter((c) => c.gameId === game),
          q,
        ),
      ),
    campaign: (id) =>
      this.serve(`skan.campaign ${id}`, (): CampaignWithReport => ({
        ...this.find(id),
        report: {
          postbacks: 250,
          verified: 240,
          verifiedShare: 0.96,
          byWindow: [],
          installs: 180,
          redownloads: 12,
          events: { tutorial_complete: 150 },
          coarse: { low: 100, medium: 60, high: 20 },
          estimatedRevenue: 1234.5,
        },
      })),
    optimize: notServed('skan.optimize'),
  }
}
