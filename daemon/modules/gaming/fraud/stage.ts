/**
 * The fraud stage of the ingestion pipeline, for the events of games whose `modules.fraud` is on:
 * the blocklist first (a listed IP or device is blocked before any detection), then the seven
 * detectors (detect.ts) and the game's rules (evaluate.ts) on every event, in the request.
 * Block, Flag and Log leave a fraud event (Log's with status logged, the event accepted, not a
 * threat: docs/reference/fraud.md); every analyzed event counts in the game's fraud_daily row
 * with the time spent here (the dashboard's average detection latency). What a batch found is
 * written by `record`, inside the batch's transaction.
 */
import { hrtime } from 'node:process'
import { utcDayNumber } from '../../../clock.js'
import { newId } from '../../../crypto.js'
import type { UnitOfWork } from '../../../db/unit-of-work.js'
import type { Stage, StageContext, StageResult } from '../ingest/index.js'
import type { NormalizedEvent } from '../ingest/index.js'
import { detect, type Detection } from './detectors/detect.js'
import type { DetectorOptions } from './detectors/detectors.js'
import type { DetectorState } from './detectors/state.js'
import { evaluateRules, type CompiledRule, type CooldownStore } from './evaluate.js'
import type { FraudEventRecord, FraudEventsStore } from './events-store.js'
import type { EventView } from './fields.js'
import { FRAUD_LIMITS } from '../../../../src/contract/fraud-limits.js'

export interface FraudStageDeps {
  /** The game's enabled rules, compiled and ordered. */
  rulesOf(gameId: string): readonly CompiledRule[]
  cooldowns: CooldownStore
  /** The blocklist lookup ('ip', 'device' or undefined). */
  listed(gameId: string, ip: string, fingerprint: string | null, at: number): 'ip' | 'device' | undefined
  state: DetectorState
  events: Pick<FraudEventsStore, 'record'>
  options?: DetectorOptions
}

/** What one batch found, kept until its transaction records it. */
interface Findings {
  events: FraudEventRecord[]
  analyzed: number
  blocked: number
  flagged: number
  logged: number
  latencyNs: bigint
}

const BLOCKLISTED = { ip: 'the IP address is on the blocklist', device: 'the device is on the blocklist' }

/** The event as the rules read it: attributes, data, device strings, scores and risk. */
function viewOf(event: NormalizedEvent, ctx: StageContext, detection: Detection): EventView {
  const { input } = detection
  return {
    playerId: event.playerId,
    attributes: {
      event_type: event.type,
      player_id: event.playerId,
      session_id: event.sessionId,
      platform: event.platform,
      country: event.country,
      ip: ctx.ip,
      user_agent: input.userAgent,
      device_fingerprint: input.device.fingerprint,
    },
    data: event.data,
    device: { ...input.device },
    scores: detection.scores,
    risk: detection.risk,
  }
}

export function createFraudStage(deps: FraudStageDeps): Stage {
  const batches = new WeakMap<StageContext, Findings>()
  const findingsOf = (ctx: StageContext): Findings => {
    let f = batches.get(ctx)
    if (!f) {
      f = { events: [], analyzed: 0, blocked: 0, flagged: 0, logged: 0, latencyNs: 0n }
      batches.set(ctx, f)
    }
    return f
  }

  function judge(event: NormalizedEvent, ctx: StageContext, found: Findings): StageResult {
    const gameId = ctx.game.id
    const hit = deps.listed(gameId, ctx.ip, event.deviceFingerprint, ctx.receivedAt)
    if (hit) {
      found.blocked++
      return { verdict: 'block', reasons: [BLOCKLISTED[hit]] }
    }
    const detection = detect(
      event,
      { gameId, ip: ctx.ip, userAgent: ctx.userAgent, options: deps.options },
      deps.state,
      ctx.receivedAt,
    )
    const view = viewOf(event, ctx, detection)
    const evaluation = evaluateRules(deps.rulesOf(gameId), view, deps.cooldowns.lookup, ctx.receivedAt)
    // Applied at once: a rule with a cooldown fires once per player within one batch too.
    if (evaluation.cooldowns.length) deps.cooldowns.apply(evaluation.cooldowns)
    const { action } = evaluation
    if (action === 'none') return { verdict: 'accept' }
    // A fraud event (and the batch's answer) names the first rules that fired and counts them all.
    const triggered = evaluation.triggered.slice(0, FRAUD_LIMITS.triggeredNamesKept)
    found.events.push({
      id: newId('fev'),
      gameId,
      receivedAt: ctx.receivedAt,
      eventTime: event.ts,
      playerId: event.playerId,
      eventId: event.eventId,
      eventType: event.type,
      // The deciding rule's threat, else the detector past its threshold (score ≥ 0.5), if any.
      threatType: evaluation.threat ?? (detection.risk >= 0.5 ? detection.threat : null),
      riskScore: Math.round(detection.risk * 1000) / 1000,
      status: action === 'block' ? 'blocked' : action === 'flag' ? 'detected' : 'logged',
      triggeredRules: triggered,
      triggeredCount: evaluation.triggered.length,
      reasons: detection.reasons,
      ip: ctx.ip,
      deviceFingerprint: view.attributes.device_fingerprint ?? null,
      review: 'pending',
      reviewedAt: null,
    })
    if (action === 'block') {
      found.blocked++
      return { verdict: 'block', reasons: triggered }
    }
    if (action === 'log') {
      found.logged++
      return { verdict: 'accept' }
    }
    found.flagged++
    return { verdict: 'flag', reasons: triggered }
  }

  return {
    judge(event, ctx) {
      if (!ctx.game.modules.fraud) return 'accept'
      const started = hrtime.bigint()
      const found = findingsOf(ctx)
      const result = judge(event, ctx, found)
      found.analyzed++
      found.latencyNs += hrtime.bigint() - started
      return result
    },

    async record(ctx: StageContext, unit: UnitOfWork): Promise<void> {
      // Kept until `discard` (after the batch, stored or not): a batch whose transaction runs
      // again (PostgreSQL, a concurrent batch in its way) records the same findings again.
      const found = batches.get(ctx)
      if (!found) return
      await deps.events.record(
        found.events,
        {
          gameId: ctx.game.id,
          day: utcDayNumber(ctx.receivedAt),
          analyzed: found.analyzed,
          blocked: found.blocked,
          flagged: found.flagged,
          logged: found.logged,
          latencyNs: Number(found.latencyNs),
        },
        unit,
      )
    },

    discard(ctx: StageContext): void {
      batches.delete(ctx)
    },
  }
}
