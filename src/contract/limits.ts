/**
 * Plain values shared by the daemon (enforcement) and the CLI (choices, help text), spec section 8.
 * Kept free of typebox so that linkctl can import them without loading it.
 */
export const PLANS = ['free', 'starter', 'professional', 'enterprise'] as const
export type Plan = (typeof PLANS)[number]

/** API keys per plan; null means unlimited. Counted over keys that are not revoked. */
export const API_KEYS_PER_PLAN: Readonly<Record<Plan, number | null>> = {
  free: 5,
  starter: 10,
  professional: 50,
  enterprise: null,
}

export const TIME_PERIODS = ['minute', 'hour', 'day'] as const
export type TimePeriod = (typeof TIME_PERIODS)[number]
export const PERIOD_MS: Readonly<Record<TimePeriod, number>> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
}

export const KEY_LIMITS = {
  nameMax: 100,
  descriptionMax: 500,
  requestLimitDefault: 1000,
  requestLimitMax: 1_000_000,
  allowedIpsMax: 100,
  allowedOriginsMax: 50,
} as const

/** Idempotency keys are remembered this long (contract: 24 h). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000

export const PAGE_SIZES = [10, 20, 50, 100] as const
export const DEFAULT_PAGE_SIZE = 20

export const KEY_STATUSES = ['active', 'inactive', 'revoked', 'expired'] as const
export type KeyStatus = (typeof KEY_STATUSES)[number]
export const KEY_ENVIRONMENTS = ['live', 'test'] as const
export const KEY_TEST_REASONS = ['nonexistent', 'malformed', 'revoked', 'expired', 'inactive'] as const
/** `lk_live_<32>` / `lk_test_<32>`. */
export const API_KEY_PATTERN = /^lk_(live|test)_[A-Za-z0-9]{32}$/
