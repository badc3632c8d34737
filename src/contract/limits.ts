/**
 * Plain values shared by the daemon (enforcement) and the CLI (choices, help text).
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

/** Teams (contract: Teams): member names, invitation e-mails and lifetimes, the audit log. */
export const TEAM_LIMITS = {
  nameMax: 100,
  emailMax: 254,
  invitationDays: 7,
  /** Pending invitations an organization may hold at once. */
  pendingInvitationsMax: 100,
  /** Default of LINKD_RATE_LIMIT_PER_MEMBER: requests per minute shared by a member's keys. */
  perMemberPerMinute: 6000,
  auditRetentionDays: 365,
} as const

/** An invitation's states (light: the CLI's start-up lists them as choices). */
export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const

/** Prefix of invitation tokens (shown once, stored hashed). */
export const INVITATION_TOKEN_PATTERN = /^lkinv_[A-Za-z0-9]{32}$/

/** Idempotency keys are remembered this long (contract: 24 h). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000

export const PAGE_SIZES = [10, 20, 50, 100] as const
export const DEFAULT_PAGE_SIZE = 20
/** Highest `page` of a list: deep enough for any real walk, small enough for an exact offset. */
export const PAGE_MAX = 1_000_000

/**
 * Nesting of JSON values: a free-form object (link `metadata`, event `data`, and any other field
 * of an ingested event) may nest this many levels, itself being level 1 (`{"a":{"b":1}}` is 2).
 */
export const FREE_FORM_NESTING_MAX = 16
/** Any field of a request body to the API may nest this many levels (the rest is refused, 400). */
export const BODY_NESTING_MAX = 32

export const KEY_STATUSES = ['active', 'inactive', 'revoked', 'expired'] as const
export type KeyStatus = (typeof KEY_STATUSES)[number]
export const KEY_ENVIRONMENTS = ['live', 'test'] as const
export const KEY_TEST_REASONS = ['nonexistent', 'malformed', 'revoked', 'expired', 'inactive'] as const
/** `lk_live_<32>` / `lk_test_<32>`. */
export const API_KEY_PATTERN = /^lk_(live|test)_[A-Za-z0-9]{32}$/

export const LINK_STATUSES = ['active', 'inactive', 'expired'] as const
export type LinkStatus = (typeof LINK_STATUSES)[number]
export const REDIRECT_TYPES = [301, 302, 307, 308] as const
/** The products whose export files `POST /api/use/links/import` reads (linkd: its own CSV or JSON lines). */
export const IMPORT_SOURCES = ['linkd', 'bitly', 'shlink', 'yourls', 'kutt'] as const
/**
 * One import request: the file's size in bytes (UTF-8) and its rows. linkctl reads any size and
 * sends it in parts of 500 rows.
 */
export const IMPORT_LIMITS = { fileBytesMax: 10 * 1024 * 1024, rowsMax: 10_000 } as const
export const LINK_SORT_FIELDS = ['createdAt', 'clicks'] as const
export const SORT_ORDERS = ['asc', 'desc'] as const
export const ANALYTICS_INTERVALS = ['hour', 'day', 'week'] as const
export const QR_FORMATS = ['svg', 'png'] as const
export const QR_ERROR_LEVELS = ['L', 'M', 'Q', 'H'] as const

/** QR code resources: image size, quiet zone, logo and the contrast a scanner needs. */
export const QR_LIMITS = {
  sizeMin: 64,
  sizeMax: 2048,
  sizeDefault: 300,
  /** Quiet zone in modules (the standard asks for 4). */
  marginMax: 16,
  marginDefault: 4,
  /** A logo data URL's decoded bytes. */
  logoBytesMax: 100 * 1024,
  /** WCAG contrast ratio between foreground and background below which scanners fail. */
  contrastMin: 3,
  titleMax: 255,
} as const

export const LINK_LIMITS = {
  destinationUrlMax: 2048,
  titleMax: 255,
  /** Custom slugs: letters, digits, hyphens, underscores. */
  slugMin: 3,
  slugMax: 64,
  /** Generated short codes. */
  codeLength: 7,
  tagsMax: 20,
  tagMax: 50,
  metadataKeysMax: 50,
  metadataBytesMax: 10_240,
  bulkMax: 1000,
  /** Analytics time series points per response. */
  seriesMax: 2000,
  /**
   * A short URL with human clicks within this many days (or with QR codes) is in use: changing its
   * short code or domain needs `force` (409 otherwise).
   */
  inUseDays: 30,
} as const
/** Link options (rules, maxClicks): the bounds of a link's redirect rules. */
export const LINK_RULE_LIMITS = {
  rulesMax: 20,
  conditionsMin: 1,
  conditionsMax: 10,
  /** A condition's value (a `name=value` query pair is the longest kind). */
  valueMax: 200,
  maxClicksMin: 1,
  /** Far beyond any real cap, and within every integer column and JSON number. */
  maxClicksMax: 1_000_000_000,
  /** A link's password (write-only; stored as an scrypt hash). */
  passwordMin: 4,
  passwordMax: 128,
  /** Open Graph preview fields. */
  ogTitleMax: 200,
  ogDescriptionMax: 500,
  ogImageUrlMax: 2048,
} as const
/** Split (A/B) destinations: a link's variants and their integer weights (percent). */
export const LINK_VARIANT_LIMITS = {
  variantsMin: 2,
  variantsMax: 10,
  /** Every variant gets some traffic: a variant of weight 0 is left out instead. */
  weightMin: 1,
  weightMax: 99,
  /** The weights of a link's variants add up to this. */
  weightTotal: 100,
} as const
/** A smart link's platform breakdown: its three targets, and `other` for everything else. */
export const SMART_LINK_PLATFORMS = ['ios', 'android', 'desktop', 'other'] as const
export type SmartLinkPlatform = (typeof SMART_LINK_PLATFORMS)[number]
export const RULE_CONDITION_TYPES = ['device', 'os', 'country', 'language', 'query'] as const
export type RuleConditionType = (typeof RULE_CONDITION_TYPES)[number]
export const RULE_DEVICES = ['desktop', 'mobile', 'tablet'] as const
export const RULE_OSES = ['ios', 'android', 'windows', 'macos', 'linux'] as const
/** Query marker the QR code encodes, so a scan is told apart from a click. */
export const QR_MARKER = 'qr'

/** Webhook event types, in the order the API lists them. */
export const WEBHOOK_EVENTS = [
  'link.created',
  'link.updated',
  'link.deleted',
  'link.clicked',
  'link.password_locked',
  'link.flagged',
  'qr_code.created',
  'qr_code.scanned',
  'domain.created',
  'domain.verified',
  'domain.deleted',
  'api_key.created',
  'api_key.revoked',
  'team.member_added',
  'team.member_removed',
] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]
/** What an endpoint is posted: the event envelope, or a message Slack's or Discord's incoming webhooks accept. */
export const WEBHOOK_FORMATS = ['json', 'slack', 'discord'] as const
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number]
export const RETRY_POLICIES = ['exponential', 'linear', 'immediate', 'none'] as const
export type RetryPolicy = (typeof RETRY_POLICIES)[number]
export const WEBHOOK_STATUSES = ['active', 'disabled', 'suspended'] as const
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number]
export const DELIVERY_STATUSES = ['pending', 'success', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]
export const WEBHOOK_BULK_ACTIONS = ['enable', 'disable', 'delete'] as const
export const SIGNATURE_REASONS = ['malformed', 'mismatch', 'stale'] as const
export type SignatureReason = (typeof SIGNATURE_REASONS)[number]
export const HEALTH_BANDS = ['Excellent', 'Good', 'Fair', 'Poor'] as const
export type HealthBand = (typeof HEALTH_BANDS)[number]

export const WEBHOOK_LIMITS = {
  nameMax: 100,
  descriptionMax: 500,
  urlMax: 2048,
  maxRetriesMax: 10,
  maxRetriesDefault: 3,
  timeoutMin: 1,
  timeoutMax: 60,
  timeoutDefault: 30,
  headersMax: 10,
  headerNameMax: 100,
  headerValueMax: 1000,
  /** Consecutive failed deliveries that suspend a webhook. */
  suspendAfter: 5,
  /** Receivers reject a signature timestamp further than this from their clock. */
  toleranceMs: 5 * 60_000,
  bulkMax: 100,
  /** Delivery log rows are kept this many days (the prune-webhook-deliveries job). */
  deliveryRetentionDays: 30,
} as const

/** Ids of the built-in webhook templates (GET /api/webhooks/templates). */
export const WEBHOOK_TEMPLATE_IDS = [
  'team-chat',
  'community-chat',
  'analytics',
  'team-notifications',
  'domain-management',
  'all-events',
] as const
export type WebhookTemplateId = (typeof WEBHOOK_TEMPLATE_IDS)[number]
/** Custom domains per plan (free none, starter one, professional several); null = unlimited. */
export const DOMAINS_PER_PLAN: Readonly<Record<Plan, number | null>> = {
  free: 0,
  starter: 1,
  professional: 10,
  enterprise: null,
}
export const DOMAIN_VERIFICATION_STATUSES = ['pending', 'verified', 'failed'] as const
export type DomainVerificationStatus = (typeof DOMAIN_VERIFICATION_STATUSES)[number]
export const SSL_STATUSES = ['pending', 'active', 'renewing', 'expired', 'failed'] as const
export type SslStatus = (typeof SSL_STATUSES)[number]
export const DNS_RECORD_STATUSES = ['Verified', 'Pending', 'Failed'] as const
export const DNS_RECORD_TYPES = ['TXT', 'CNAME', 'A'] as const
/** CNAME (subdomains) and TXT (apex domains): DNS records; FILE: a file on the domain's web server. */
export const DOMAIN_VERIFICATION_METHODS = ['CNAME', 'TXT', 'FILE'] as const
export type DomainVerificationMethod = (typeof DOMAIN_VERIFICATION_METHODS)[number]
export const DOMAIN_LIMITS = {
  /** Pending domains are re-checked this long after being added (DNS propagation takes up to 48 h). */
  propagationMs: 48 * 3_600_000,
  /** Certificates are renewed this long before they expire. */
  renewBeforeMs: 30 * 86_400_000,
  domainMax: 253,
  /** File verification: the whole fetch (connect, headers, body) within this time. */
  fileTimeoutMs: 5_000,
  /** File verification: a longer body is not the verification file. */
  fileMaxBytes: 1_024,
  /** An unverified domain (a claim several organizations may hold) is deleted this long after it was added. */
  claimMs: 7 * 86_400_000,
} as const
/** Gaming: platforms, event types, ingestion limits (docs/reference/gaming.md). */
export const GAME_PLATFORMS = [
  'ios',
  'android',
  'web',
  'steam',
  'playstation',
  'xbox',
  'switch',
  'epic',
  'discord',
  'unity',
] as const
export type GamePlatform = (typeof GAME_PLATFORMS)[number]
export const GAME_STATUSES = ['active', 'paused', 'archived'] as const
export type GameStatus = (typeof GAME_STATUSES)[number]

export const GAME_LIMITS = {
  nameMin: 2,
  nameMax: 120,
  slugMin: 2,
  slugMax: 64,
  rawRetentionDaysMin: 1,
  rawRetentionDaysMax: 3650,
  rawRetentionDaysDefault: 30,
  compactedRetentionMonthsMin: 1,
  compactedRetentionMonthsMax: 120,
  compactedRetentionMonthsDefault: 12,
  replayWindowSecondsMin: 60,
  replayWindowSecondsMax: 600,
  replayWindowSecondsDefault: 300,
  /** Days after a smart-link click an app_install carrying its click id is attributed to it. */
  attributionWindowDaysMin: 1,
  attributionWindowDaysMax: 30,
  attributionWindowDaysDefault: 7,
  reportingCurrencyDefault: 'USD',
  /** Segment thresholds (lifetime revenue, reporting currency): whale > dolphin > 0. */
  whaleDefault: 100,
  dolphinDefault: 10,
  thresholdMax: 1_000_000_000,
} as const

export const INGEST_LIMITS = {
  eventsPerBatch: 1000,
  batchBytes: 1_048_576,
  eventBytes: 10_240,
  maxEventAgeMs: 24 * 3_600_000,
  maxEventFutureMs: 5 * 60_000,
  requestsPerMinute: 1000,
  /** A repeated batch_id within this time returns the first response. */
  batchIdempotencyMs: 24 * 3_600_000,
  /** Inactivity that ends a session. */
  sessionGapMs: 30 * 60_000,
  idMax: 128,
  customTypeMax: 64,
  /**
   * Distinct custom names a player's UTC day counts per name (players per name, retention by that
   * return event); later names of the day are stored and counted as events only.
   */
  customNamesPerPlayerDay: 250,
  /** Revenue `data.amount` of one event, in the event's currency: 0 to this, inclusive. */
  amountMax: 1_000_000,
  /** `data.exchange_rate`: more than 0, at most this (reporting units per 1 unit of the event's). */
  exchangeRateMax: 1_000_000_000,
  /** An amount, cost or commission converted to the reporting currency: at most this. */
  convertedAmountMax: 1_000_000_000,
} as const

/** The 20 named event types (plus `custom`; any other string is a custom type). */
export const NAMED_EVENT_TYPES = [
  'session_start',
  'session_end',
  'app_install',
  'app_open',
  'app_close',
  'level_start',
  'level_complete',
  'achievement_unlocked',
  'tutorial_complete',
  'currency_spent',
  'currency_earned',
  'item_purchased',
  'battle_won',
  'tournament_join',
  'friend_invited',
  'purchase',
  'subscription_start',
  'subscription_renew',
  'subscription_cancel',
  'ad_watched',
] as const
export type NamedEventType = (typeof NAMED_EVENT_TYPES)[number]

export const REVENUE_TYPES = ['iap', 'ad', 'subscription'] as const
export type RevenueType = (typeof REVENUE_TYPES)[number]

/** GDPR deletion of a player (docs/reference/gaming.md). */
export const GDPR_CONFIRMATION = 'DELETE'
export const GDPR_STATUSES = ['queued', 'processing', 'completed'] as const
export const GDPR_RECORD_RETENTION_DAYS = 365

/** Gaming analytics: retention days and bands, leaderboard and export limits. */
export const RETENTION_DAYS = [0, 1, 3, 7, 14, 30] as const
export const RETENTION_BANDS = ['green', 'yellow', 'amber', 'red', 'none'] as const
export const LEADERBOARD_LIMITS = { default: 10, max: 100 } as const
/** What `export` can stream: every report (row sources in daemon/modules/gaming/analytics/export-sources.ts). */
export const EXPORT_TYPES = [
  'overview',
  'retention',
  'revenue',
  'attribution',
  'segments',
  'players',
  'geography',
  'events',
] as const
export const EXPORT_LIMITS = { default: 10_000, max: 1_000_000 } as const
/** Gaming analytics: groupings, segments and sorts (light: the CLI loads them). */
export const REVENUE_GROUPS = ['day', 'week', 'month', 'platform', 'source'] as const
export const ATTRIBUTION_GROUPS = ['affiliate', 'campaign', 'source', 'medium', 'link'] as const
export const SEGMENTS = ['whale', 'dolphin', 'minnow', 'free'] as const
export const PLAYER_SORTS = ['revenue', 'sessions', 'lastActive'] as const
/** Funnels and retention breakdowns: the player's acquisition values they group by. */
export const PLAYER_GROUPS = ['platform', 'source', 'campaign', 'link', 'country'] as const
export type PlayerGroup = (typeof PLAYER_GROUPS)[number]
/** Funnel conversion windows (from a player's first step to the last) and their length in ms. */
export const FUNNEL_WINDOWS = {
  '1h': 3_600_000,
  '1d': 86_400_000,
  '7d': 604_800_000,
  '30d': 2_592_000_000,
} as const
export type FunnelWindow = keyof typeof FUNNEL_WINDOWS
export const FUNNEL_LIMITS = { stepsMin: 2, stepsMax: 10, stepsTextMax: 2000 } as const
export type Segment = (typeof SEGMENTS)[number]
/**
 * App links on a custom domain (docs/reference/domains.md): what the two `.well-known` files list.
 * The counts keep apple-app-site-association far below Apple's 128 KB.
 */
export const APP_LINK_LIMITS = {
  appIdsMax: 10,
  pathsMax: 50,
  pathMax: 512,
  packageNameMax: 255,
  fingerprintsMax: 10,
} as const
/** An Apple app ID: the 10-character Team ID, a dot, the bundle ID (letters, digits, `.` and `-`). */
export const APPLE_APP_ID_PATTERN = '^[A-Z0-9]{10}\\.[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*$'
/**
 * A universal-link path pattern as Apple documents it: starts with `/` or `*` (`*` and `?` are
 * wildcards), no spaces or `#`; `NOT ` in front excludes the paths it matches.
 */
export const APPLE_PATH_PATTERN = '^(NOT )?[/*][^\\s#]*$'
/** A Java package name as Android requires it: two or more segments, each starting with a letter. */
export const ANDROID_PACKAGE_PATTERN = '^[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z][A-Za-z0-9_]*)+$'
/** A SHA-256 certificate fingerprint: 32 hex pairs joined by colons (stored upper case). */
export const SHA256_FINGERPRINT_PATTERN = '^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){31}$'

/** Destination safety lists (`/api/safety/lists`): the feed formats read and the limits. */
export const SAFETY_FORMATS = ['hosts', 'domains', 'urlhaus'] as const
export type SafetyFormat = (typeof SAFETY_FORMATS)[number]

export const SAFETY_LIMITS = {
  /** Lists per organization (a file uploaded under an existing name replaces that list). */
  listsMax: 5,
  /** Distinct hosts per list. */
  entriesMax: 2_000_000,
  /** Bytes of one upload (after gzip decompression): a 2,000,000-line hosts file is about 60 MB. */
  uploadBytesMax: 256 * 1024 * 1024,
  nameMax: 100,
  /** A line longer than this is skipped (no host is that long). */
  lineMax: 8192,
} as const

/** Raw exports: the file formats and the datasets (src/contract/raw-export.ts). */
export const RAW_FORMATS = ['ndjson', 'csv', 'parquet'] as const
export type RawFormat = (typeof RAW_FORMATS)[number]
export const RAW_DATASETS = ['raw_events', 'clicks'] as const
export type RawDataset = (typeof RAW_DATASETS)[number]
export const EXPORT_DESTINATION_LIMITS = {
  /** Destinations per organization. */
  perOrganization: 20,
  prefixMax: 512,
} as const
