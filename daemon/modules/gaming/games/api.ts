/** The games module's interfaces, imported by its own files (other modules import its index.ts). */
import type { PageOf } from '../../../../src/contract/common.js'
import type {
  CreateGameBody,
  Game,
  GameWithSecrets,
  ListGamesQuery,
  UpdateGameBody,
} from '../../../../src/contract/games.js'
import type { GameRecord } from './store.js'

/** Games of an organization, and the hooks the other gaming parts register on them. */
export interface GameService {
  /** Drops what `authenticateSdk` keeps of a game (`gameCacheKey`), or of every game (EVERYTHING). */
  forget(key: string): void
  /** Creates a game (slug asked for, or made from the name); the only answer showing its secrets. */
  create(organizationId: string, body: CreateGameBody): Promise<GameWithSecrets>
  /** A page of the organization's games, optionally by status. */
  list(organizationId: string, q: ListGamesQuery): Promise<PageOf<Game>>
  /** One game as the API shows it; 404 in another organization. */
  get(organizationId: string, slug: string): Promise<Game>
  /** The record (internal id included) for other gaming parts; 404 in another organization. */
  record(organizationId: string, slug: string): Promise<GameRecord>
  /** Changes a game's settings (slug and platform are read-only; currency only while it has no data). */
  update(organizationId: string, slug: string, body: UpdateGameBody): Promise<Game>
  /** New SDK key and signing secret; the old key is refused from this moment. */
  regenerateKey(organizationId: string, slug: string): Promise<GameWithSecrets>
  /** The game an ingestion request names when the SDK key matches (constant time), else undefined. */
  authenticateSdk(organizationId: string, slug: string, sdkKey: string): Promise<GameRecord | undefined>
  /** The game's signing secret in clear (HMAC checks). */
  signingSecretOf(g: GameRecord): string
  /** Every game of every organization (the retention jobs, fraud's start-up). */
  all(): Promise<GameRecord[]>
  /** Registers the check "this game has stored data" (the storage layers own that data). */
  useDataCheck(check: (gameId: string) => Promise<boolean>): void
  /** Registers what happens when fraud detection turns on for a game (fraud owns its rules). */
  onFraudEnabled(listener: (game: GameRecord) => Promise<void>): void
}
