/**
 * The rules engine: a pure function of the game's rules, an event view, the cooldown state and
 * the time (passed in). Block beats flag beats log beats none; every matching enabled rule out of
 * its cooldown triggers, higher priority first, ties by creation order.
 */
import {
  THREAT_TYPES,
  type RuleAction,
  type RuleOperator,
  type RuleValue,
  type ThreatType,
} from '../../../../src/contract/fraud.js'
import { compileTest, type EventView } from './fields.js'

export interface RuleSpec {
  id: string
  name: string
  action: RuleAction
  field: string
  operator: RuleOperator
  value: RuleValue
  priority: number
  cooldownMinutes: number
  enabled: boolean
  /** Creation order (tie-break of equal priorities). */
  seq: number
}

export interface CompiledRule {
  id: string
  name: string
  action: RuleAction
  cooldownMs: number
  /** The threat a `score.<threat>` rule reads; null for any other field. */
  threat: ThreatType | null
  test: (view: EventView) => boolean
}

const threatOf = (field: string): ThreatType | null => {
  const t = field.startsWith('score.') ? field.slice(6) : ''
  return (THREAT_TYPES as readonly string[]).includes(t) ? (t as ThreatType) : null
}

/** The enabled rules, ordered and with their tests built once (not per event). */
export function compileRules(rules: readonly RuleSpec[]): CompiledRule[] {
  return rules
    .filter((r) => r.enabled)
    .sort((a, b) => b.priority - a.priority || a.seq - b.seq)
    .map((r) => ({
      id: r.id,
      name: r.name,
      action: r.action,
      cooldownMs: r.cooldownMinutes * 60_000,
      threat: threatOf(r.field),
      test: compileTest(r.field, r.operator, r.value),
    }))
}

/** When a rule last fired for a player (Unix ms), if it did. */
export type CooldownLookup = (ruleId: string, playerId: string) => number | undefined

export interface CooldownUpdate {
  ruleId: string
  playerId: string
  at: number
}

export type Action = RuleAction | 'none'

export interface Evaluation {
  action: Action
  /** Names of the triggered rules, in evaluation order. */
  triggered: string[]
  /**
   * The threat of the deciding rule (the first triggered rule of the winning action) when it
   * reads a detector score; null otherwise.
   */
  threat: ThreatType | null
  /** The firings to record (rules with a cooldown only). */
  cooldowns: CooldownUpdate[]
}

const SEVERITY: Readonly<Record<Action, number>> = { none: 0, log: 1, flag: 2, block: 3 }

export function evaluateRules(
  rules: readonly CompiledRule[],
  view: EventView,
  lastFired: CooldownLookup,
  now: number,
): Evaluation {
  let action: Action = 'none'
  let threat: ThreatType | null = null
  const triggered: string[] = []
  const cooldowns: CooldownUpdate[] = []
  for (const rule of rules) {
    if (!rule.test(view)) continue
    if (rule.cooldownMs > 0) {
      const last = lastFired(rule.id, view.playerId)
      if (last !== undefined && now - last < rule.cooldownMs) continue
      cooldowns.push({ ruleId: rule.id, playerId: view.playerId, at: now })
    }
    triggered.push(rule.name)
    if (SEVERITY[rule.action] > SEVERITY[action]) {
      action = rule.action
      threat = rule.threat
    }
  }
  return { action, triggered, threat, cooldowns }
}

/**
 * The cooldown state kept in memory, bounded: an LRU of (rule, player) → last firing, at most
 * `capacity` entries (the least recently fired go first). Lost on restart: a rule may fire once
 * more for a player after a restart, which errs on the side of detection.
 */
export function createCooldownStore(capacity = 100_000) {
  const last = new Map<string, number>()
  const key = (ruleId: string, playerId: string) => `${ruleId}\u0000${playerId}`
  return {
    lookup: ((ruleId, playerId) => last.get(key(ruleId, playerId))) as CooldownLookup,
    apply(updates: readonly CooldownUpdate[]): void {
      for (const u of updates) {
        const k = key(u.ruleId, u.playerId)
        last.delete(k)
        last.set(k, u.at)
        if (last.size > capacity) last.delete(last.keys().next().value as string)
      }
    },
    /** Forgets a rule's firings (deleted or changed). */
    forgetRule(ruleId: string): void {
      const prefix = `${ruleId}\u0000`
      for (const k of last.keys()) if (k.startsWith(prefix)) last.delete(k)
    },
    get size() {
      return last.size
    },
  }
}
export type CooldownStore = ReturnType<typeof createCooldownStore>
