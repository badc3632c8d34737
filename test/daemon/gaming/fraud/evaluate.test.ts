/** The rules engine: every operator, missing fields, priority, cooldown, disabled rules. */
import { describe, expect, it } from 'vitest'
import {
  compileRules,
  createCooldownStore,
  evaluateRules,
  type RuleSpec,
} from '../../../../daemon/modules/gaming/fraud/evaluate.js'
import type { EventView } from '../../../../daemon/modules/gaming/fraud/fields.js'

let seq = 0
function rule(over: Partial<RuleSpec>): RuleSpec {
  seq++
  return {
    id: `rule_${seq}`,
    name: `rule ${seq}`,
    action: 'flag',
    field: 'risk',
    operator: 'gte',
    value: 0.5,
    priority: 100,
    cooldownMinutes: 0,
    enabled: true,
    seq,
    ...over,
  }
}

function view(over: Partial<EventView> = {}): EventView {
  return {
    playerId: 'p1',
    attributes: {
      event_type: 'purchase',
      player_id: 'p1',
      session_id: 's1',
      platform: 'android',
      country: 'DE',
      ip: '203.0.113.9',
      user_agent: 'Mozilla/5.0',
      device_fingerprint: 'fp-1',
    },
    data: { amount: 9.99, level: { id: 7, name: 'boss' }, tags: ['vip', 'new'], sku: 'gem_pack' },
    device: {
      model: 'sdk_gphone64_x86_64',
      manufacturer: 'Google',
      hardware: 'ranchu',
      product: null,
      fingerprint: 'fp-1',
    },
    scores: { bot_detection: 0.9, click_injection: 0 },
    risk: 0.6,
    ...over,
  }
}

const NOW = Date.parse('2026-11-21T10:00:00Z')
const none = () => undefined
const matches = (r: Partial<RuleSpec>, v = view()) =>
  evaluateRules(compileRules([rule(r)]), v, none, NOW).triggered.length === 1

describe('operators', () => {
  it('eq and ne compare strings, numbers and booleans strictly', () => {
    expect(matches({ field: 'event_type', operator: 'eq', value: 'purchase' })).toBe(true)
    expect(matches({ field: 'event_type', operator: 'eq', value: 'install' })).toBe(false)
    expect(matches({ field: 'data.amount', operator: 'eq', value: 9.99 })).toBe(true)
    expect(matches({ field: 'data.amount', operator: 'eq', value: '9.99' })).toBe(false)
    expect(matches({ field: 'platform', operator: 'ne', value: 'ios' })).toBe(true)
    expect(matches({ field: 'platform', operator: 'ne', value: 'android' })).toBe(false)
  })

  it('gt, lt, gte and lte at their boundaries', () => {
    expect(matches({ field: 'score.bot_detection', operator: 'gt', value: 0.9 })).toBe(false)
    expect(matches({ field: 'score.bot_detection', operator: 'gt', value: 0.89 })).toBe(true)
    expect(matches({ field: 'score.bot_detection', operator: 'gte', value: 0.9 })).toBe(true)
    expect(matches({ field: 'risk', operator: 'lt', value: 0.6 })).toBe(false)
    expect(matches({ field: 'risk', operator: 'lt', value: 0.61 })).toBe(true)
    expect(matches({ field: 'risk', operator: 'lte', value: 0.6 })).toBe(true)
    expect(matches({ field: 'data.level.id', operator: 'gte', value: 7 })).toBe(true)
  })

  it('contains finds a substring of a text or an element of an array', () => {
    expect(matches({ field: 'device.model', operator: 'contains', value: 'sdk_gphone' })).toBe(true)
    expect(matches({ field: 'device.model', operator: 'contains', value: 'Pixel' })).toBe(false)
    expect(matches({ field: 'data.tags', operator: 'contains', value: 'vip' })).toBe(true)
    expect(matches({ field: 'data.tags', operator: 'contains', value: 'whale' })).toBe(false)
  })

  it('in matches one of the values', () => {
    expect(matches({ field: 'country', operator: 'in', value: ['FR', 'DE'] })).toBe(true)
    expect(matches({ field: 'country', operator: 'in', value: ['FR', 'US'] })).toBe(false)
    expect(matches({ field: 'data.level.name', operator: 'in', value: ['boss'] })).toBe(true)
  })

  it('reads ip, device and nested data paths', () => {
    expect(matches({ field: 'ip', operator: 'eq', value: '203.0.113.9' })).toBe(true)
    expect(matches({ field: 'device.hardware', operator: 'eq', value: 'ranchu' })).toBe(true)
    expect(matches({ field: 'data.level.name', operator: 'eq', value: 'boss' })).toBe(true)
  })
})

describe('missing fields and type mismatches never match', () => {
  it('a rule on a field the event lacks does not match, ne included', () => {
    expect(matches({ field: 'data.missing', operator: 'ne', value: 'x' })).toBe(false)
    expect(matches({ field: 'data.level.missing', operator: 'eq', value: 1 })).toBe(false)
    expect(matches({ field: 'device.product', operator: 'ne', value: 'x' })).toBe(false)
    expect(matches({ field: 'score.emulator', operator: 'lt', value: 1 })).toBe(false)
    expect(matches({ field: 'data.sku', operator: 'eq', value: 'x' }, view({ data: null }))).toBe(false)
  })

  it('an ordering operator on a text value, or contains on a number, does not match', () => {
    expect(matches({ field: 'data.sku', operator: 'gt', value: 1 })).toBe(false)
    expect(matches({ field: 'data.amount', operator: 'contains', value: '9' })).toBe(false)
    expect(matches({ field: 'data.level', operator: 'eq', value: 'boss' })).toBe(false)
    expect(matches({ field: 'data.tags', operator: 'in', value: ['vip'] })).toBe(false)
  })
})

describe('actions, priority and disabled rules', () => {
  it('block beats flag beats log beats none; names come higher priority first, ties by creation', () => {
    const rules = [
      rule({ name: 'log low', action: 'log', priority: 10 }),
      rule({ name: 'flag first', action: 'flag', priority: 500 }),
      rule({ name: 'block tie 1', action: 'block', priority: 300 }),
      rule({ name: 'block tie 2', action: 'block', priority: 300 }),
    ]
    const r = evaluateRules(compileRules(rules), view(), none, NOW)
    expect(r.action).toBe('block')
    expect(r.triggered).toEqual(['flag first', 'block tie 1', 'block tie 2', 'log low'])
    expect(evaluateRules(compileRules([rules[0]!, rules[1]!]), view(), none, NOW).action).toBe('flag')
    expect(evaluateRules(compileRules([rules[0]!]), view(), none, NOW).action).toBe('log')
    expect(evaluateRules(compileRules([]), view(), none, NOW)).toEqual({
      action: 'none',
      triggered: [],
      threat: null,
      cooldowns: [],
    })
  })

  it('a disabled rule never triggers', () => {
    const r = evaluateRules(compileRules([rule({ action: 'block', enabled: false })]), view(), none, NOW)
    expect(r).toEqual({ action: 'none', triggered: [], threat: null, cooldowns: [] })
  })
})

describe('cooldown', () => {
  it('a rule that fired for a player does not fire again for it within the cooldown', () => {
    const rules = compileRules([rule({ id: 'rule_cd', name: 'cd', action: 'block', cooldownMinutes: 10 })])
    const store = createCooldownStore()
    const first = evaluateRules(rules, view(), store.lookup, NOW)
    expect(first.action).toBe('block')
    expect(first.cooldowns).toEqual([{ ruleId: 'rule_cd', playerId: 'p1', at: NOW }])
    store.apply(first.cooldowns)
    const within = evaluateRules(rules, view(), store.lookup, NOW + 10 * 60_000 - 1)
    expect(within).toEqual({ action: 'none', triggered: [], threat: null, cooldowns: [] })
    // Another player is not affected.
    const other = evaluateRules(rules, view({ playerId: 'p2' }), store.lookup, NOW + 1)
    expect(other.triggered).toEqual(['cd'])
    const after = evaluateRules(rules, view(), store.lookup, NOW + 10 * 60_000)
    expect(after.triggered).toEqual(['cd'])
  })

  it('a cooldown of 0 fires every time and records nothing', () => {
    const rules = compileRules([rule({ name: 'always', cooldownMinutes: 0 })])
    const lookup = () => NOW
    const r = evaluateRules(rules, view(), lookup, NOW)
    expect(r.triggered).toEqual(['always'])
    expect(r.cooldowns).toEqual([])
  })

  it('the cooldown store keeps at most its capacity, dropping the least recently fired', () => {
    const store = createCooldownStore(2)
    store.apply([
      { ruleId: 'r', playerId: 'a', at: 1 },
      { ruleId: 'r', playerId: 'b', at: 2 },
      { ruleId: 'r', playerId: 'a', at: 3 },
      { ruleId: 'r', playerId: 'c', at: 4 },
    ])
    expect(store.size).toBe(2)
    expect(store.lookup('r', 'b')).toBeUndefined()
    expect(store.lookup('r', 'a')).toBe(3)
    expect(store.lookup('r', 'c')).toBe(4)
  })
})
