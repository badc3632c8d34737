/**
 * Kysely table types, one file per module in schema/ (timestamps are Unix ms; JSON columns are
 * TEXT), and `Database`, the map of every table: import both from here.
 */
import type {
  OrganizationsTable,
  ApiKeysTable,
  ApiKeyActivityTable,
  IdempotencyRecordsTable,
  JobRunsTable,
  SchemaMigrationsTable,
  RateLimitCountersTable,
  MasterKeyFingerprintTable,
} from './schema/platform.js'
import type { LinksTable, LinkTagsTable } from './schema/links.js'
import type {
  ClicksTable,
  LinkClickHoursTable,
  LinkClickDimsTable,
  LinkClickDimsMonthTable,
  LinkDayVisitorsTable,
  OrgClickDaysTable,
  LinkDayTotalsTable,
} from './schema/clicks.js'
import type {
  GamesTable,
  GameBatchesTable,
  GameEventsTable,
  GameSessionsTable,
  GamePlayersTable,
  GamePlayerDaysTable,
  GameDailyTable,
  GameDailyDimsTable,
  GameDayGapsTable,
  GameAcquisitionDailyTable,
  GameDimPayingGapsTable,
  GamePlayerTotalsTable,
  GameCohortsTable,
  GameCohortDimsTable,
  GameCohortEventsTable,
  GdprDeletionsTable,
  InstallClickClaimsTable,
} from './schema/gaming.js'
import type { CustomDomainsTable, AcmeAccountsTable, AcmeChallengesTable } from './schema/domains.js'
import type { WebhooksTable, WebhookDeliveriesTable } from './schema/webhooks.js'
import type {
  FraudRulesTable,
  FraudBlocklistTable,
  FraudGamesTable,
  FraudEventsTable,
  FraudDailyTable,
  FraudDetectorStateTable,
} from './schema/fraud.js'
import type { SkanCampaignsTable, SkanPostbacksTable } from './schema/skan.js'
import type { MembersTable, TeamInvitationsTable, AuditLogTable } from './schema/team.js'
import type { QrCodesTable } from './schema/qr-codes.js'
import type { SafetyListsTable, SafetyListHostsTable } from './schema/safety.js'
import type { ExportDestinationsTable } from './schema/exports.js'

export type * from './schema/platform.js'
export type * from './schema/links.js'
export type * from './schema/clicks.js'
export type * from './schema/gaming.js'
export type * from './schema/domains.js'
export type * from './schema/webhooks.js'
export type * from './schema/fraud.js'
export type * from './schema/skan.js'
export type * from './schema/team.js'
export type * from './schema/qr-codes.js'
export type * from './schema/safety.js'
export type * from './schema/exports.js'

export interface Database {
  organizations: OrganizationsTable
  api_keys: ApiKeysTable
  api_key_activity: ApiKeyActivityTable
  idempotency_records: IdempotencyRecordsTable
  job_runs: JobRunsTable
  schema_migrations: SchemaMigrationsTable
  rate_limit_counters: RateLimitCountersTable
  master_key_fingerprint: MasterKeyFingerprintTable
  links: LinksTable
  link_tags: LinkTagsTable
  qr_codes: QrCodesTable
  clicks: ClicksTable
  link_click_hours: LinkClickHoursTable
  link_click_dims: LinkClickDimsTable
  link_click_dims_month: LinkClickDimsMonthTable
  link_day_visitors: LinkDayVisitorsTable
  link_day_totals: LinkDayTotalsTable
  org_click_days: OrgClickDaysTable
  games: GamesTable
  game_batches: GameBatchesTable
  game_events: GameEventsTable
  game_sessions: GameSessionsTable
  game_players: GamePlayersTable
  game_player_days: GamePlayerDaysTable
  game_daily: GameDailyTable
  game_daily_dims: GameDailyDimsTable
  game_day_gaps: GameDayGapsTable
  game_cohorts: GameCohortsTable
  game_cohort_dims: GameCohortDimsTable
  game_cohort_events: GameCohortEventsTable
  game_acquisition_daily: GameAcquisitionDailyTable
  game_dim_paying_gaps: GameDimPayingGapsTable
  game_player_totals: GamePlayerTotalsTable
  gdpr_deletions: GdprDeletionsTable
  install_click_claims: InstallClickClaimsTable
  custom_domains: CustomDomainsTable
  acme_accounts: AcmeAccountsTable
  acme_challenges: AcmeChallengesTable
  webhooks: WebhooksTable
  webhook_deliveries: WebhookDeliveriesTable
  fraud_rules: FraudRulesTable
  fraud_blocklist: FraudBlocklistTable
  fraud_games: FraudGamesTable
  fraud_events: FraudEventsTable
  fraud_daily: FraudDailyTable
  fraud_detector_state: FraudDetectorStateTable
  skan_campaigns: SkanCampaignsTable
  skan_postbacks: SkanPostbacksTable
  members: MembersTable
  team_invitations: TeamInvitationsTable
  audit_log: AuditLogTable
  safety_lists: SafetyListsTable
  safety_list_hosts: SafetyListHostsTable
  export_destinations: ExportDestinationsTable
}

/** A snake_case column name in camelCase, at the type level (`hour_start` → `hourStart`). */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S
/**
 * A table's row with camelCase keys: the counter types of the stores (click counters, gaming
 * aggregates) follow the schema's column types instead of repeating them.
 */
export type Camelized<T> = { [K in keyof T & string as CamelCase<K>]: T[K] }
