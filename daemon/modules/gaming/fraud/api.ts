/** The fraud module's interfaces, imported by its own files (other modules import its index.ts). */
import type { GameRecord } from '../games/index.js'
import type { PageOf, PageQuery } from '../../../../src/contract/common.js'
import type {
  BlockType,
  BlocklistEntry,
  CreateBlocklistBody,
  CreateRuleBody,
  DashboardQuery,
  FraudDashboard,
  FraudEvent,
  FraudEventsQuery,
  FraudRule,
  UpdateRuleBody,
} from '../../../../src/contract/fraud.js'
import type { StateSaver } from './detectors/state-store.js'
import type { CooldownStore, CompiledRule } from './evaluate.js'

/** The fraud part as wired: the rules and blocklist, the events' read side, the detector windows' saver. */
export interface Fraud {
  /** Rules, the blocklist and the in-memory state the fraud stage reads. */
  service: FraudService
  /** Fraud events: list, review, dashboard. */
  events: FraudEventsService
  /** The detector windows: loaded at start, saved every 10 s and at stop. */
  saver: StateSaver
}

/** Fraud rules (with the six templates) and the blocklist of a game, cached in memory per game. */
export interface FraudService {
  /** Fills the caches from the database (start-up, every 30 s); seeds missing templates. */
  load(): Promise<void>
  /** The game of a fraud route: 404 in another organization, 409 while fraud is off. */
  fraudGame(organizationId: string, slug: string): Promise<GameRecord>
  /** One game's rules from the database again (another process changed them). */
  reloadRules(gameId: string): Promise<void>
  /** The live blocklist from the database again (another process changed it). */
  reloadBlocks(): Promise<void>
  /** The game's enabled rules, ordered and compiled (the stage's evaluation input). */
  rulesOf(gameId: string): readonly CompiledRule[]
  /** The bounded cooldown state (LRU of rule × player → last firing). */
  cooldowns: CooldownStore
  /** Creates the six templates for a game, once (a game that had them gets none). */
  enableFor(game: GameRecord): Promise<void>
  /** The game's rules. */
  listRules(organizationId: string, slug: string, q: PageQuery): Promise<PageOf<FraudRule>>
  /** Adds a rule (checked; 409 beyond the rules a game may have). */
  createRule(organizationId: string, slug: string, body: CreateRuleBody): Promise<FraudRule>
  /** Changes a rule (checked as a whole; a changed test starts a clean cooldown). */
  updateRule(organizationId: string, slug: string, ruleId: string, body: UpdateRuleBody): Promise<FraudRule>
  /** Deletes a rule (404 when unknown). */
  deleteRule(organizationId: string, slug: string, ruleId: string): Promise<void>
  /** A page of the game's blocklist. */
  listBlocklist(organizationId: string, slug: string, q: PageQuery): Promise<PageOf<BlocklistEntry>>
  /** Lists an IP or device for 30 days; 409 when it is listed already. */
  addBlock(organizationId: string, slug: string, body: CreateBlocklistBody): Promise<BlocklistEntry>
  /** Removes a blocklist entry (404 when unknown). */
  removeBlock(organizationId: string, slug: string, entryId: string): Promise<void>
  /** Removes the entries past their 30 days (the fraud-blocklist-expiry job); how many. */
  expireBlocklist(): Promise<number>
  /** Whether an IP or device of a game is on its live blocklist, from memory (the stage asks first). */
  listed(gameId: string, ip: string, fingerprint: string | null, at: number): BlockType | undefined
}

/** The read side of fraud detection: the stored fraud events and the dashboard. */
export interface FraudEventsService {
  /** A game's fraud events, newest first, filtered; pages of 10-200. */
  list(organizationId: string, slug: string, q: FraudEventsQuery): Promise<PageOf<FraudEvent>>
  /** Marks a fraud event legitimate or fraud (pending clears the review). */
  review(
    organizationId: string,
    slug: string,
    eventId: string,
    review: FraudEvent['review'],
  ): Promise<FraudEvent>
  /** The dashboard of a UTC day range (definitions in docs/reference/fraud.md). */
  dashboard(organizationId: string, slug: string, q: DashboardQuery): Promise<FraudDashboard>
}
