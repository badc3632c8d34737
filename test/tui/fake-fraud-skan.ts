/**
 * The fraud and SKAN parts of the fake client (FakeClient.fraud, FakeClient.skan): fixed data in
 * memory, writes applied to it, the API's answers to bad writes (400 naming the field, 409, the
 * optimizer's 422) as the real client throws them. Every call is recorded in the client's `calls`.
 */
import type { PageOf } from '../../src/contract/common.js'
import type {
  BlocklistEntry,
  CreateBlocklistBody,
  FraudDashboard,
  FraudEvent,
  FraudReview,
  FraudRule,
  UpdateRuleBody,
} from '../../src/contract/fraud.js'
import type { CampaignWithReport, ConversionSchema, SkanCampaign } from '../../src/contract/skan.js'
import type { OptimizeResult } from '../../src/contract/skan-optimize.js'
import type { TuiClient } from '../../src/tui/api.js'
import { apiError } from './fake-client.js'
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
    review: (game, id, review: FraudReview) =>
      this.serve(`fraud.review ${game} ${id} ${review}`, () => {
        const event = this.events.find((e) => e.id === id)
        if (!event) throw apiError(404, 'Fraud event not found')
        event.review = review
        event.reviewedAt = T0
        return event
      }),
    rules: (game, q = {}) =>
      this.serve(`fraud.rules ${game}`, () =>
        page(
          [...this.rules].sort((a, b) => b.priority - a.priority),
          q,
        ),
      ),
    updateRule: (game, id, body: UpdateRuleBody) =>
      this.serve(`fraud.updateRule ${game} ${id} ${JSON.stringify(body)}`, () => {
        const rule = this.rules.find((r) => r.id === id)
        if (!rule) throw apiError(404, 'Rule not found')
        if (body.priority !== undefined && (body.priority < 1 || body.priority > 1000))
          throw apiError(400, 'Invalid request', [{ field: 'priority', message: 'must be 1-1000' }])
        Object.assign(rule, body)
        return rule
      }),
    blocklist: (game, q = {}) =>
      this.serve(`fraud.blocklist ${game}`, (): PageOf<BlocklistEntry> => page(this.blocked, q)),
    block: (game, body: CreateBlocklistBody) =>
      this.serve(`fraud.block ${game} ${body.type} ${body.value}`, () => {
        if (body.type !== 'ip' && body.type !== 'device')
          throw apiError(400, 'Invalid request', [{ field: 'type', message: 'must be ip or device' }])
        if (body.type === 'ip' && !/^\d{1,3}(\.\d{1,3}){3}$/.test(body.value))
          throw apiError(400, 'Invalid request', [{ field: 'value', message: 'not an IP address' }])
        if (this.blocked.some((b) => b.value === body.value)) throw apiError(409, 'Already blocked')
        const entry: BlocklistEntry = {
          id: `blk_${this.blocked.length + 1}`,
          type: body.type,
          value: body.value,
          reason: body.reason ?? '',
          createdAt: T0,
          expiresAt: '2026-12-23T00:00:00.000Z',
        }
        this.blocked.unshift(entry)
        return entry
      }),
    unblock: (game, id) =>
      this.serve(`fraud.unblock ${game} ${id}`, () => {
        this.blocked = this.blocked.filter((b) => b.id !== id)
      }),
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

function makeCampaign(id: string, name: string): SkanCampaign {
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
  /** Installs per campaign the optimizer sees (under 100: its 422). */
  installs: Record<string, number> = { skan_1: 640, skan_2: 42 }
  proposal: ConversionSchema = {
    ...schema({ level_5: 1, tutorial_complete: 2, revenue_bucket_1: 4, revenue_bucket_2: 8 }, [4, 9]),
    decodedRevenue: { coarse: { low: 0, medium: 12.5, high: 80 } },
  }

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
    optimize: (id, opts = {}) =>
      this.serve(`skan.optimize ${id}${opts.apply ? ' apply' : ''}`, (): OptimizeResult => {
        const campaign = this.find(id)
        const installs = this.installs[id] ?? 0
        if (installs < 100)
          throw apiError(
            422,
            `too little history to propose a schema: ${installs} installs with a complete first conversion window (days 0-2), at least 100 needed`,
            [{ field: 'history', message: `${installs} installs; at least 100 needed` }],
          )
        const current = campaign.conversionSchema
        if (opts.apply) campaign.conversionSchema = this.proposal
        const error = { revenue: 1000, estimatedRevenue: 1040, relativeError: 0.04, meanAbsoluteError: 1.2 }
        return {
          campaignId: id,
          currency: 'USD',
          applied: opts.apply === true,
          installs,
          payers: 60,
          current,
          proposed: this.proposal,
          keyEvents: [],
          buckets: [],
          values: [],
          expectedError: error,
          currentError: { ...error, estimatedRevenue: 700, relativeError: -0.3 },
          currentErrorReason: null,
        }
      }),
  }
}
