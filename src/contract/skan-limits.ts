/**
 * Plain values of the SKAN contract, free of typebox (linkctl imports them at start-up; see
 * src/contract/limits.ts).
 */
/** Limits of SKAN campaigns and postbacks (docs/reference/skan.md). */
export const SKAN_LIMITS = {
  nameMax: 200,
  affiliateMax: 200,
  adNetworkMax: 100,
  lockWindowMin: 1,
  lockWindowMax: 72,
  valueMax: 63,
  eventsMax: 6,
  eventNameMax: 100,
  /**
   * A posted postback's body, in bytes: Apple's are under 1 KB (every field bounded), so anything
   * far larger is not one (413).
   */
  postbackBodyMax: 8192,
  /** Campaigns a game may have: each claims an ad network and source identifier pair. */
  campaignsPerGame: 100,
  /** Campaigns an organization may create per hour, all its games together (429 beyond). */
  campaignsPerHour: 60,
} as const

export const COARSE_BANDS = ['low', 'medium', 'high'] as const
export type CoarseBand = (typeof COARSE_BANDS)[number]

/** Default coarse bands of a schema without `coarseValues` (docs/reference/skan.md). */
export const DEFAULT_COARSE_VALUES = {
  low: { min: 0, max: 10 },
  medium: { min: 11, max: 40 },
  high: { min: 41, max: 63 },
} as const

/** Conversion windows by postback sequence index (days after install). */
export const SKAN_WINDOWS = ['0-2', '3-7', '8-35'] as const

/** `<name>.skadnetwork`, lower-case. */
export const AD_NETWORK_PATTERN = '^[a-z0-9][a-z0-9._-]*\\.skadnetwork$'
/** A 4.0 source identifier: 2 to 4 digits. */
export const SOURCE_IDENTIFIER_PATTERN = '^[0-9]{2,4}$'
