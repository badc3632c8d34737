/**
 * The fraud module's tables: rules, blocklist, events, daily counters and detector state.
 * Kysely table types (daemon/db/schema.ts): timestamps are Unix ms; JSON columns are TEXT.
 */

export interface FraudRulesTable {
  id: string
  game_id: string
  name: string
  action: string
  field: string
  operator: string
  value: string
  priority: number
  cooldown_minutes: number
  enabled: number
  template: string | null
  seq: number
  created_at: number
  updated_at: number
}

export interface FraudBlocklistTable {
  id: string
  game_id: string
  type: string
  value: string
  reason: string
  created_at: number
  expires_at: number
}

export interface FraudGamesTable {
  game_id: string
  templates_at: number
}

export interface FraudEventsTable {
  id: string
  game_id: string
  received_at: number
  event_time: number
  player_id: string
  event_id: string
  event_type: string
  threat_type: string | null
  risk_score: number
  status: string
  triggered_rules: string
  /** How many rules fired (triggered_rules names the first ones). */
  triggered_count: number
  reasons: string
  ip: string | null
  device_fingerprint: string | null
  review: string
  reviewed_at: number | null
}

export interface FraudDailyTable {
  game_id: string
  day: number
  analyzed: number
  blocked: number
  flagged: number
  logged: number
  latency_ns: number
}

export interface FraudDetectorStateTable {
  game_id: string
  kind: string
  entry_key: string
  value: string
  updated_at: number
}
