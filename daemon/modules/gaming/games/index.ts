/** Games: their settings, SDK keys and signing secrets (table `games`), read by every gaming part. */
import type { Clock } from '../../../clock.js'
import type { SecretBox } from '../../../crypto.js'
import type { Db } from '../../../db/open.js'
import type { ChangeFeed } from '../../../db/notify.js'
import type { PageOf } from '../../../../src/contract/common.js'
import type {
  CreateGameBody,
  Game,
  GameWithSecrets,
  ListGamesQuery,
  UpdateGameBody,
} from '../../../../src/contract/games.js'
import type { Module } from '../../module.js'
import { gameRoutes } from './routes.js'
import { createGameService } from './service.js'
import { createGameStore, type GameRecord } from './store.js'

export { compactedCutoffDay } from './service.js'
export type { GameRecord } from './store.js'

/** Games, their SDK keys and signing secrets (table `games`). */
export function createGames(deps: {
  db: Db
  clock: Clock
  secrets: SecretBox
  feed: ChangeFeed
}): GameService {
  const games = createGameService({
    store: createGameStore(deps.db.kysely),
    clock: deps.clock,
    secrets: deps.secrets,
    announce: (key) => deps.feed.publish('games', key),
  })
  deps.feed.on('games', (key) => games.forget(key))
  return games
}

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

export function gamesModule(deps: { games: GameService }): Module {
  return { name: 'gaming/games', routes: gameRoutes(deps) }
}
