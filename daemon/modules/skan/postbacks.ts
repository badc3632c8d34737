import type { KeyObject } from 'node:crypto'
import type { Clock } from '../../clock.js'
import { iso } from '../../clock.js'
import { newId } from '../../crypto.js'
import { pageOf, pageParams } from '../../http/pagination.js'
import type { PageOf, PageQuery } from '../../../src/contract/common.js'
import { SKAN_WINDOWS, type PostbackAnswer, type SkanPostback } from '../../../src/contract/skan.js'
import type { GameService } from '../games/service.js'
import { bandOf, eventsOf } from './conversion-schema.js'
import { parsePostback, verifyPostback, type Postback } from './postback.js'
import type { CampaignRecord, PostbackRecord, SkanStore } from './store.js'

export interface SkanPostbackDeps {
  store: SkanStore
  clock: Clock
  games: Pick<GameService, 'record'>
  /** The keys a signature may verify against (production: Apple's alone). */
  publicKeys: readonly KeyObject[]
}

export function presentPostback(p: PostbackRecord): SkanPostback {
  return {
    id: p.id,
    receivedAt: iso(p.receivedAt),
    version: p.version,
    verified: p.verified,
    transactionId: p.transactionId,
    sequenceIndex: p.sequenceIndex,
    window: SKAN_WINDOWS[p.sequenceIndex] ?? SKAN_WINDOWS[0],
    adNetworkId: p.adNetworkId,
    sourceIdentifier: p.sourceIdentifier,
    appId: p.appId,
    didWin: p.didWin,
    redownload: p.redownload,
    fineValue: p.fineValue,
    coarseValue: p.coarseValue,
    events: p.events,
  }
}

const answerOf = (p: PostbackRecord, duplicate: boolean): PostbackAnswer => ({
  id: p.id,
  verified: p.verified,
  duplicate,
  campaignId: p.campaignId,
  version: p.version,
})

/** Whether a campaign receives a postback's source: 4.0 the same digits, 2.2/3.0 the same number. */
const sameSource = (c: CampaignRecord, p: Postback) =>
  c.sourceIdentifier !== null &&
  (p.family === '4.0'
    ? c.sourceIdentifier === p.sourceIdentifier
    : Number(c.sourceIdentifier) === Number(p.sourceIdentifier))

/**
 * Postbacks: checked per version, verified against the keys, matched to a campaign, decoded with
 * its schema, stored (verified or not) once per (transaction-id, postback-sequence-index).
 */
export function createSkanPostbacks(deps: SkanPostbackDeps) {
  const { store } = deps

  /**
   * The campaigns of the ad network whose game exists and has SKAN on: of one organization when
   * the postback came to its custom domain, else of every organization.
   */
  async function candidates(adNetworkId: string, organizationId?: string): Promise<CampaignRecord[]> {
    const out: CampaignRecord[] = []
    for (const c of await store.campaignsOfNetwork(adNetworkId.toLowerCase())) {
      if (organizationId !== undefined && c.organizationId !== organizationId) continue
      const game = await deps.games.record(c.organizationId, c.gameSlug).catch(() => undefined)
      if (game?.modules.skan) out.push(c)
    }
    return out
  }

  /**
   * The campaign of a postback: the one campaign of its ad network with its source identifier
   * (campaign-id before 4.0), else the one campaign of the ad network without a source
   * identifier; none when there are none or several (ambiguous: kept unmatched).
   */
  async function match(p: Postback, organizationId?: string): Promise<CampaignRecord | null> {
    const all = await candidates(p.adNetworkId, organizationId)
    const exact = all.filter((c) => sameSource(c, p))
    if (exact.length > 0) return exact.length === 1 ? exact[0]! : null
    const open = all.filter((c) => c.sourceIdentifier === null)
    return open.length === 1 ? open[0]! : null
  }

  function recordOf(
    p: Postback,
    verified: boolean,
    campaign: CampaignRecord | null,
    raw: unknown,
  ): PostbackRecord {
    const schema = campaign?.conversionSchema
    return {
      id: newId('skan'),
      campaignId: campaign?.id ?? null,
      gameId: campaign?.gameId ?? null,
      receivedAt: deps.clock.now(),
      version: p.version,
      verified,
      transactionId: p.transactionId,
      sequenceIndex: p.sequenceIndex,
      adNetworkId: p.adNetworkId,
      sourceIdentifier: p.sourceIdentifier,
      appId: p.appId,
      didWin: p.didWin,
      redownload: p.redownload,
      fineValue: p.fineValue,
      coarseValue: p.coarseValue ?? (schema && p.fineValue !== null ? bandOf(schema, p.fineValue) : null),
      events: schema && p.fineValue !== null && p.sequenceIndex === 0 ? eventsOf(schema, p.fineValue) : [],
      payload: JSON.stringify(raw),
    }
  }

  return {
    /**
     * Receives a postback: 201 and the new answer, or 200 and the first answer with duplicate
     * true for a repeat (`verified` false when the repeat itself does not verify). A verified copy replaces a stored unverified one (a forged or damaged
     * postback cannot shadow Apple's): that answer is new (201, the first id kept).
     */
    async receive(
      body: unknown,
      /** The organization whose verified custom domain received the postback, if one did. */
      organizationId?: string,
    ): Promise<{ status: 200 | 201; answer: PostbackAnswer }> {
      const p = parsePostback(body)
      const verified = verifyPostback(p, deps.publicKeys)
      const record = recordOf(p, verified, await match(p, organizationId), body)
      const { stored, postback: first } = await store.insertPostback(record)
      if (stored) return { status: 201, answer: answerOf(record, false) }
      if (verified && !first.verified) {
        const replaced = { ...record, id: first.id, receivedAt: first.receivedAt }
        await store.replacePostback(replaced)
        return { status: 201, answer: answerOf(replaced, false) }
      }
      // A repeat answers the first answer, but never vouches for a copy that does not verify
      // (a tampered copy of a verified postback is a duplicate, and verified: false).
      return { status: 200, answer: { ...answerOf(first, true), verified: first.verified && verified } }
    },

    /** A page of a campaign's postbacks, newest first. */
    async listPostbacks(campaign: CampaignRecord, q: PageQuery): Promise<PageOf<SkanPostback>> {
      const page = pageParams(q)
      const { rows, total } = await store.postbacks(campaign.id, { offset: page.offset, limit: page.perPage })
      return pageOf(rows.map(presentPostback), total, page)
    },
  }
}
