import type { KeyObject } from 'node:crypto'
import type { Clock } from '../../../clock.js'
import { iso } from '../../../clock.js'
import { newId } from '../../../crypto.js'
import { pageOf, pageParams } from '../../../http/pagination.js'
import type { PageOf, PageQuery } from '../../../../src/contract/common.js'
import {
  POSTBACK_FIELD_NAMES,
  SKAN_WINDOWS,
  type PostbackAnswer,
  type SkanPostback,
} from '../../../../src/contract/skan.js'
import type { GameService } from '../games/index.js'
import { bandOf, eventsOf } from './conversion-schema.js'
import { parsePostback, verifyPostback, type Postback } from './postback.js'
import { isHeld, type CampaignRecord, type PostbackRecord, type SkanStore } from './store.js'

export interface SkanPostbackDeps {
  store: SkanStore
  clock: Clock
  games: Pick<GameService, 'record'>
  /** The keys a signature may verify against (production: Apple's alone). */
  publicKeys: readonly KeyObject[]
  /** Caps of the held postbacks (unverified or unmatched: anyone can post those). */
  held: { maxRows: number; maxBytes: number }
  /** Held postbacks were dropped to stay within the caps (a log line). */
  onDropped?(count: number, sinceStart: number): void
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
 * Of campaigns claiming the same (ad network, source identifier), those of the organization that
 * claimed it first: a later organization copying the pair never takes or blurs its postbacks.
 */
function firstClaimed(campaigns: CampaignRecord[]): CampaignRecord[] {
  if (campaigns.length === 0) return []
  const first = campaigns.reduce((a, b) =>
    b.claimedAt < a.claimedAt || (b.claimedAt === a.claimedAt && b.id < a.id) ? b : a,
  )
  return campaigns.filter((c) => c.organizationId === first.organizationId)
}

/** Apple's fields of a posted body, nothing else: what a stored postback keeps (each bounded). */
const appleFields = (body: Record<string, unknown>) =>
  JSON.stringify(
    Object.fromEntries(
      POSTBACK_FIELD_NAMES.filter((k) => body[k] !== undefined && body[k] !== null).map((k) => [k, body[k]]),
    ),
  )

/**
 * Postbacks: checked per version, verified against the keys, matched to a campaign, decoded with
 * its schema, stored (verified or not) once per (transaction-id, postback-sequence-index). The
 * held ones (unverified or unmatched) stay within a count and a byte cap, the oldest dropped.
 */
export function createSkanPostbacks(deps: SkanPostbackDeps) {
  const { store } = deps
  /** Held postbacks dropped by this process since it started. */
  let dropped = 0

  /** The campaigns whose game exists and has SKAN on. */
  async function live(campaigns: CampaignRecord[]): Promise<CampaignRecord[]> {
    const out: CampaignRecord[] = []
    for (const c of campaigns) {
      const game = await deps.games.record(c.organizationId, c.gameSlug).catch(() => undefined)
      if (game?.modules.skan) out.push(c)
    }
    return out
  }

  /**
   * The campaign of a postback: among the campaigns of its ad network with its source identifier
   * (campaign-id before 4.0), else among those without a source identifier, the one campaign of
   * the organization that claimed that pair first (on a verified custom domain: of the domain's
   * organization only) whose game has SKAN on; none when there is none or several (ambiguous
   * within one organization: kept unmatched).
   */
  async function match(p: Postback, organizationId?: string): Promise<CampaignRecord | null> {
    const all = (await store.campaignsOfNetwork(p.adNetworkId.toLowerCase())).filter(
      (c) => organizationId === undefined || c.organizationId === organizationId,
    )
    const exact = all.filter((c) => sameSource(c, p))
    const claimants = exact.length > 0 ? exact : all.filter((c) => c.sourceIdentifier === null)
    const found = await live(firstClaimed(claimants))
    return found.length === 1 ? found[0]! : null
  }

  /** Keeps the held postbacks within their caps once one more was stored. */
  async function trim(p: PostbackRecord): Promise<void> {
    if (!isHeld(p)) return
    const n = await store.trimHeld(deps.held.maxRows, deps.held.maxBytes)
    if (n === 0) return
    dropped += n
    deps.onDropped?.(n, dropped)
  }

  /**
   * The answer as the poster may see it: the matched campaign's id only for a request made with
   * an API key of the campaign's organization (the route needs no key; anyone else learns no
   * internal id).
   */
  async function shown(answer: PostbackAnswer, viewer: string | undefined): Promise<PostbackAnswer> {
    if (answer.campaignId === null) return answer
    const visible = viewer !== undefined && (await store.campaign(viewer, answer.campaignId)) !== undefined
    return visible ? answer : { ...answer, campaignId: null }
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
      payload: appleFields(raw as Record<string, unknown>),
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
      /** The organization of the API key the request carried, if any (see `shown`). */
      viewer?: string,
    ): Promise<{ status: 200 | 201; answer: PostbackAnswer }> {
      const p = parsePostback(body)
      const verified = verifyPostback(p, deps.publicKeys)
      const record = recordOf(p, verified, await match(p, organizationId), body)
      const { stored, postback: first } = await store.insertPostback(record)
      if (stored) {
        await trim(record)
        return { status: 201, answer: await shown(answerOf(record, false), viewer) }
      }
      if (verified && !first.verified) {
        const replaced = { ...record, id: first.id, receivedAt: first.receivedAt }
        await store.replacePostback(replaced)
        return { status: 201, answer: await shown(answerOf(replaced, false), viewer) }
      }
      // A repeat answers the first answer, but never vouches for a copy that does not verify
      // (a tampered copy of a verified postback is a duplicate, and verified: false).
      const repeat = { ...answerOf(first, true), verified: first.verified && verified }
      return { status: 200, answer: await shown(repeat, viewer) }
    },

    /** Held postbacks (unverified or unmatched) this process dropped since it started. */
    droppedPostbacks: () => dropped,

    /** A page of a campaign's postbacks, newest first. */
    async listPostbacks(campaign: CampaignRecord, q: PageQuery): Promise<PageOf<SkanPostback>> {
      const page = pageParams(q)
      const { rows, total } = await store.postbacks(campaign.id, { offset: page.offset, limit: page.perPage })
      return pageOf(rows.map(presentPostback), total, page)
    },
  }
}
