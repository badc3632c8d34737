import type { Clock } from '../../../clock.js'
import { DAY_MS, iso } from '../../../clock.js'
import { newId, randomToken, safeEqual, sha256Hex, type SecretBox } from '../../../crypto.js'
import { AppError, notFound } from '../../../http/errors.js'
import { isUniqueViolation } from '../../../db/errors.js'
import { EVERYTHING } from '../../../db/notify.js'
import { pageOf, pageParams } from '../../../http/pagination.js'
import type { PageOf } from '../../../../src/contract/common.js'
import type {
  CreateGameBody,
  Game,
  GameWithSecrets,
  ListGamesQuery,
  UpdateGameBody,
} from '../../../../src/contract/games.js'
import { GAME_LIMITS as L } from '../../../../src/contract/limits.js'
import { toMicros } from '../../../../src/contract/numbers.js'
import type { GameRecord, GameStore } from './store.js'
import type { GameService } from './api.js'

export type { GameRecord }

const SDK_KEY_PREFIX = 'sdk'

/** `sdk_•••` + last four characters. */
export const maskSdkKey = (lastFour: string) => `${SDK_KEY_PREFIX}_\u2022\u2022\u2022${lastFour}`

/** A slug from a display name: lowercase ASCII letters, digits and hyphens. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, L.slugMax)
    .replace(/-+$/, '')
}

export function presentGame(g: GameRecord): Game {
  return {
    id: g.slug,
    name: g.name,
    platform: g.platform,
    status: g.status,
    modules: { ...g.modules },
    rawRetentionDays: g.rawRetentionDays,
    compactedRetentionMonths: g.compactedRetentionMonths,
    hmacRequired: g.hmacRequired,
    replayWindowSeconds: g.replayWindowSeconds,
    attributionWindowDays: g.attributionWindowDays,
    reportingCurrency: g.reportingCurrency,
    segments: { whale: g.segments.whaleMicros / 1e6, dolphin: g.segments.dolphinMicros / 1e6 },
    organizationId: g.organizationId,
    sdkKeyPreview: maskSdkKey(g.sdkKeyLastFour),
    createdAt: iso(g.createdAt),
    updatedAt: iso(g.updatedAt),
  }
}

function newSecrets(box: SecretBox) {
  const sdkKey = `${SDK_KEY_PREFIX}_${randomToken()}`
  const signingSecret = `sig_${randomToken()}${randomToken()}`
  return {
    sdkKey,
    signingSecret,
    sdkKeyHash: sha256Hex(sdkKey),
    sdkKeyLastFour: sdkKey.slice(-4),
    sealed: box.encrypt(signingSecret),
  }
}

const readOnly = (field: string) =>
  new AppError('ValidationError', `${field} cannot be changed after creation`, [
    { field, message: 'is read-only after creation' },
  ])

const CURRENCIES: ReadonlySet<string> = new Set(
  (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('currency'),
)

/** The reporting currency asked for: a known ISO 4217 code (400 naming the field otherwise). */
function currencyOf(value: string): string {
  if (!CURRENCIES.has(value))
    throw new AppError('ValidationError', `reportingCurrency ${value} is not an ISO 4217 code`, [
      { field: 'reportingCurrency', message: 'must be an ISO 4217 code (e.g. USD, EUR)' },
    ])
  return value
}

/** Thresholds merged over the current ones; whale > dolphin (both > 0 by the schema). */
function thresholdsOf(
  current: GameRecord['segments'],
  patch: { whale?: number | undefined; dolphin?: number | undefined } | undefined,
): GameRecord['segments'] {
  const next = {
    whaleMicros: patch?.whale !== undefined ? toMicros(patch.whale) : current.whaleMicros,
    dolphinMicros: patch?.dolphin !== undefined ? toMicros(patch.dolphin) : current.dolphinMicros,
  }
  if (next.dolphinMicros <= 0 || next.whaleMicros <= next.dolphinMicros)
    throw new AppError('ValidationError', 'segments: whale must be greater than dolphin, dolphin above 0', [
      {
        field: patch?.whale !== undefined ? 'segments.whale' : 'segments.dolphin',
        message: 'whale > dolphin > 0',
      },
    ])
  return next
}

export interface GameServiceDeps {
  store: GameStore
  clock: Clock
  secrets: SecretBox
  /** Tells the other processes that a game changed (the key of `forget`). */
  announce?: (key: string) => void
}

/** How long a process trusts its copy of a game for SDK authentication (others' changes: the feed). */
export const GAME_CACHE_MS = 5_000
/** Games kept for SDK authentication before the copies are dropped all at once. */
const GAME_CACHE_MAX = 10_000

/** The key of a game in the SDK authentication cache. */
const gameCacheKey = (organizationId: string, slug: string) => `${organizationId}\n${slug}`

export function createGameService(deps: GameServiceDeps): GameService {
  const { store } = deps
  const now = () => deps.clock.now()
  /** Whether a game has stored data (storage registers it: it depends on games, not the reverse). */
  let hasData: (gameId: string) => Promise<boolean> = async () => false
  /** Called when fraud detection is on after a create or update (fraud registers it: templates). */
  let fraudEnabled: (game: GameRecord) => Promise<void> = async () => {}
  /**
   * Games as ingestion authenticates them (every batch names its game): a copy per game, or its
   * absence, trusted GAME_CACHE_MS; a change here drops it at once, and in the other processes
   * through the change feed.
   */
  const cached = new Map<string, { game: GameRecord | undefined; until: number }>()
  /** The SDK key each cached copy of a game verified last (see authenticateSdk). */
  const verifiedKeys = new WeakMap<GameRecord, string>()
  async function cachedBySlug(organizationId: string, slug: string): Promise<GameRecord | undefined> {
    const key = gameCacheKey(organizationId, slug)
    const t = now()
    const hit = cached.get(key)
    if (hit && hit.until > t) return hit.game
    const game = await store.bySlug(organizationId, slug)
    if (cached.size >= GAME_CACHE_MAX) cached.clear()
    cached.set(key, { game, until: t + GAME_CACHE_MS })
    return game
  }
  /** After a write of a game: this process forgets it now, the others when the feed tells them. */
  function changed(organizationId: string, slug: string): void {
    const key = gameCacheKey(organizationId, slug)
    cached.delete(key)
    deps.announce?.(key)
  }

  async function load(organizationId: string, slug: string): Promise<GameRecord> {
    const g = await store.bySlug(organizationId, slug)
    if (!g) throw notFound(`game ${slug}`)
    return g
  }

  /** The slug asked for (409 when taken), or one generated from the name (suffixed when taken). */
  async function chooseSlug(organizationId: string, body: CreateGameBody): Promise<string> {
    if (body.slug) {
      if (await store.bySlug(organizationId, body.slug))
        throw new AppError('Conflict', `a game with id "${body.slug}" already exists`)
      return body.slug
    }
    let base = slugify(body.name)
    if (base.length < L.slugMin) base = `game-${randomToken().slice(0, 6).toLowerCase()}`
    const taken = await store.slugsLike(organizationId, base)
    if (!taken.has(base)) return base
    for (let n = 2; ; n++) {
      const suffix = `-${n}`
      const candidate = base.slice(0, L.slugMax - suffix.length) + suffix
      if (!taken.has(candidate)) return candidate
    }
  }

  return {
    forget(key: string): void {
      if (key === EVERYTHING) cached.clear()
      else cached.delete(key)
    },

    async create(organizationId: string, body: CreateGameBody): Promise<GameWithSecrets> {
      const t = now()
      const slug = await chooseSlug(organizationId, body)
      const s = newSecrets(deps.secrets)
      const g: GameRecord = {
        id: newId('gam'),
        organizationId,
        slug,
        name: body.name.trim(),
        platform: body.platform,
        status: body.status ?? 'active',
        modules: {
          analytics: body.modules?.analytics ?? true,
          fraud: body.modules?.fraud ?? false,
          skan: body.modules?.skan ?? false,
        },
        rawRetentionDays: body.rawRetentionDays ?? L.rawRetentionDaysDefault,
        compactedRetentionMonths: body.compactedRetentionMonths ?? L.compactedRetentionMonthsDefault,
        hmacRequired: body.hmacRequired ?? false,
        replayWindowSeconds: body.replayWindowSeconds ?? L.replayWindowSecondsDefault,
        attributionWindowDays: body.attributionWindowDays ?? L.attributionWindowDaysDefault,
        sdkKeyHash: s.sdkKeyHash,
        sdkKeyLastFour: s.sdkKeyLastFour,
        signingSecret: s.sealed,
        rawFloor: 0,
        compactedFloorDay: 0,
        reportingCurrency: currencyOf(body.reportingCurrency ?? L.reportingCurrencyDefault),
        segments: thresholdsOf(
          { whaleMicros: toMicros(L.whaleDefault), dolphinMicros: toMicros(L.dolphinDefault) },
          body.segments,
        ),
        createdAt: t,
        updatedAt: t,
      }
      try {
        await store.insert(g)
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('Conflict', `a game with id "${slug}" already exists`)
        throw err
      }
      // Its absence may be remembered (an SDK that sent before the game existed).
      changed(organizationId, slug)
      if (g.modules.fraud) await fraudEnabled(g)
      return { ...presentGame(g), sdkKey: s.sdkKey, signingSecret: s.signingSecret }
    },

    async list(organizationId: string, q: ListGamesQuery): Promise<PageOf<Game>> {
      const p = pageParams(q)
      const { rows, total } = await store.list(organizationId, {
        status: q.status,
        offset: p.offset,
        limit: p.perPage,
      })
      return pageOf(rows.map(presentGame), total, p)
    },

    async get(organizationId: string, slug: string): Promise<Game> {
      return presentGame(await load(organizationId, slug))
    },

    /** The record (internal id included) for other gaming modules; 404 in another organization. */
    record: load,

    async update(organizationId: string, slug: string, body: UpdateGameBody): Promise<Game> {
      const g = await load(organizationId, slug)
      const fraudWasOn = g.modules.fraud
      if (body.slug !== undefined && body.slug !== g.slug) throw readOnly('slug')
      if (body.platform !== undefined && body.platform !== g.platform) throw readOnly('platform')
      const t = now()
      // Stored amounts are in the reporting currency: it changes only while nothing is stored.
      if (body.reportingCurrency !== undefined && body.reportingCurrency !== g.reportingCurrency) {
        g.reportingCurrency = currencyOf(body.reportingCurrency)
        if (await hasData(g.id))
          throw new AppError(
            'Conflict',
            'reportingCurrency cannot change once the game has players: stored amounts are in the current currency',
          )
      }
      if (body.segments) g.segments = thresholdsOf(g.segments, body.segments)
      // Extending a retention never brings back what the shorter one already expired.
      if (body.rawRetentionDays !== undefined && body.rawRetentionDays > g.rawRetentionDays)
        g.rawFloor = Math.max(g.rawFloor, t - g.rawRetentionDays * DAY_MS)
      if (
        body.compactedRetentionMonths !== undefined &&
        body.compactedRetentionMonths > g.compactedRetentionMonths
      )
        g.compactedFloorDay = Math.max(g.compactedFloorDay, compactedCutoffDay(t, g.compactedRetentionMonths))
      if (body.name !== undefined) g.name = body.name.trim()
      if (body.status !== undefined) g.status = body.status
      if (body.modules) g.modules = { ...g.modules, ...stripUndefined(body.modules) }
      if (body.rawRetentionDays !== undefined) g.rawRetentionDays = body.rawRetentionDays
      if (body.compactedRetentionMonths !== undefined)
        g.compactedRetentionMonths = body.compactedRetentionMonths
      if (body.hmacRequired !== undefined) g.hmacRequired = body.hmacRequired
      if (body.replayWindowSeconds !== undefined) g.replayWindowSeconds = body.replayWindowSeconds
      if (body.attributionWindowDays !== undefined) g.attributionWindowDays = body.attributionWindowDays
      g.updatedAt = t
      await store.save(g)
      changed(organizationId, g.slug)
      if (g.modules.fraud && !fraudWasOn) await fraudEnabled(g)
      return presentGame(g)
    },

    /** New SDK key and signing secret; the old key is refused from this moment. */
    async regenerateKey(organizationId: string, slug: string): Promise<GameWithSecrets> {
      const g = await load(organizationId, slug)
      const s = newSecrets(deps.secrets)
      g.sdkKeyHash = s.sdkKeyHash
      g.sdkKeyLastFour = s.sdkKeyLastFour
      g.signingSecret = s.sealed
      g.updatedAt = now()
      await store.save(g)
      changed(organizationId, g.slug)
      return { ...presentGame(g), sdkKey: s.sdkKey, signingSecret: s.signingSecret }
    },

    /**
     * The game an ingestion request names, when the SDK key matches (constant-time on the hash);
     * undefined for an unknown game, another organization or a wrong key.
     */
    async authenticateSdk(
      organizationId: string,
      slug: string,
      sdkKey: string,
    ): Promise<GameRecord | undefined> {
      const g = await cachedBySlug(organizationId, slug)
      // The key this copy of the game last verified: compared as is (constant time), without
      // hashing again. It goes with the copy (a new key, or GAME_CACHE_MS, makes a new one).
      const known = g && verifiedKeys.get(g)
      if (known !== undefined) return safeEqual(sdkKey, known) ? g : undefined
      const presented = sha256Hex(sdkKey)
      if (!g) {
        safeEqual(presented, presented)
        return undefined
      }
      if (!safeEqual(presented, g.sdkKeyHash)) return undefined
      verifiedKeys.set(g, sdkKey)
      return g
    },

    signingSecretOf(g: GameRecord): string {
      return deps.secrets.decrypt(g.signingSecret)
    },

    all: () => store.all(),

    /** Registers the check "this game has stored data" (storage owns that data). */
    useDataCheck(check: (gameId: string) => Promise<boolean>): void {
      hasData = check
    },

    /** Registers what happens when fraud detection turns on for a game (fraud owns its rules). */
    onFraudEnabled(listener: (game: GameRecord) => Promise<void>): void {
      fraudEnabled = listener
    },
  }
}

function stripUndefined<T extends object>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as never
}

/** First UTC day number kept by a compacted retention of `months` at time `t`. */
export function compactedCutoffDay(t: number, months: number): number {
  const d = new Date(t)
  return Math.floor(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, d.getUTCDate()) / DAY_MS)
}
