import type { Clock } from '../../../clock.js'
import { DAY_MS, iso, isoOrNull } from '../../../clock.js'
import { newId } from '../../../crypto.js'
import { AppError, notFound } from '../../../http/errors.js'
import type { PageOf } from '../../../../src/contract/common.js'
import type { GdprDeletion, GdprDeletionBody, GdprDeletionsQuery } from '../../../../src/contract/gaming.js'
import { pageOf, pageParams } from '../../../http/pagination.js'
import { GDPR_CONFIRMATION, GDPR_RECORD_RETENTION_DAYS } from '../../../../src/contract/limits.js'
import type { GameService } from '../games/index.js'
import type { StorageService } from '../storage/index.js'
import type { DeletionRecord, GdprStore } from './store.js'
import type { GdprService } from './api.js'

const KEEP_MS = GDPR_RECORD_RETENTION_DAYS * DAY_MS
/** Requests handled per job run. */
const PER_RUN = 100

function present(d: DeletionRecord): GdprDeletion {
  return {
    id: d.id,
    gameId: d.gameSlug,
    playerId: d.playerId,
    reason: d.reason,
    status: d.status,
    createdAt: iso(d.createdAt),
    startedAt: isoOrNull(d.startedAt),
    completedAt: isoOrNull(d.completedAt),
    purged: d.purged,
    expiresAt: iso(d.expiresAt),
  }
}

/**
 * GDPR deletion of one player (docs/reference/gaming.md): queued by the API, purged asynchronously by the
 * gdpr-deletions job (queued → processing → completed), irreversible and not cancellable. The
 * deletion record (with the player id, as proof) is kept 365 days after completion.
 */
export function createGdprService(deps: {
  store: GdprStore
  clock: Clock
  games: GameService
  storage: Pick<StorageService, 'purgePlayer'>
  /** Drops stored idempotent responses naming a deletion (they carry the player id). */
  forgetResponsesNaming(id: string): Promise<number>
}): GdprService {
  const { store } = deps
  return {
    async request(organizationId: string, body: GdprDeletionBody): Promise<GdprDeletion> {
      if (body.confirmation !== GDPR_CONFIRMATION)
        throw new AppError('ValidationError', 'confirmation must be the text DELETE', [
          { field: 'confirmation', message: 'must be DELETE (in capitals)' },
        ])
      const game = await deps.games.record(organizationId, body.gameId)
      const t = deps.clock.now()
      const d: DeletionRecord = {
        id: newId('gdpr'),
        organizationId,
        gameId: game.id,
        gameSlug: game.slug,
        playerId: body.playerId,
        reason: body.reason,
        status: 'queued',
        createdAt: t,
        startedAt: null,
        completedAt: null,
        purged: null,
        expiresAt: t + KEEP_MS,
      }
      await store.insert(d)
      return present(d)
    },

    async get(organizationId: string, id: string): Promise<GdprDeletion> {
      const d = await store.byId(organizationId, id)
      if (!d) throw notFound(`GDPR deletion ${id}`)
      return present(d)
    },

    async list(organizationId: string, q: GdprDeletionsQuery): Promise<PageOf<GdprDeletion>> {
      const p = pageParams(q)
      const { rows, total } = await store.page(
        organizationId,
        {
          ...(q.gameId !== undefined ? { gameSlug: q.gameId } : {}),
          ...(q.status !== undefined ? { status: q.status } : {}),
        },
        { limit: p.perPage, offset: p.offset },
      )
      return pageOf(rows.map(present), total, p)
    },

    /** The job: purges queued players. Returns how many requests completed. */
    async processQueue(): Promise<number> {
      let done = 0
      for (const d of await store.pending(PER_RUN)) {
        await store.markProcessing(d.id, deps.clock.now())
        const purged = await deps.storage.purgePlayer(d.gameId, d.playerId)
        // A request sent with X-Idempotency-Key left its response (player id included) for replay.
        await deps.forgetResponsesNaming(d.id)
        const at = deps.clock.now()
        await store.complete(d.id, at, purged, at + KEEP_MS)
        done++
      }
      return done
    },

    /** The job: deletion records past their 365 days. */
    purgeExpiredRecords: () => store.purgeExpired(deps.clock.now()),
  }
}
